import Core

/// Prints the todos `filter` selects as `list --json` does: one array, streamed from the
/// database to the output, so any number of todos takes constant memory.
///
/// `carriedAwayFrom`: a whole day's (or range's) listing also has, after its own todos, the
/// todos carried away from its days to days outside it (their `carriedFrom` names the day),
/// so that counting the array by ``DayFigures``'s rule gives the day's figures.
func printTodosJSON(
  _ reader: any TodoReader, matching filter: TodoFilter, carriedAwayFrom range: DayRange? = nil,
  _ environment: AppEnvironment
) throws {
  try printTodosJSON(environment) { body in
    try reader.forEachTodo(matching: filter, body)
    if let range {
      for todo in try reader.todosCarriedAway(from: range) where !(todo.day.map(range.contains) ?? false) {
        guard body(todo) else { return }
      }
    }
  }
}

/// Prints the todos `read` hands out (to the closure it is given, which returns false once the
/// output failed) as one array in the shape of `list --json`, streamed.
func printTodosJSON(
  _ environment: AppEnvironment, reading read: (_ body: (Todo) -> Bool) throws -> Void
) throws {
  var writer = JSONStreamWriter(environment)
  // (Today and the zone read once, not once a todo.)
  let today = environment.today
  let timeZone = environment.timeZone
  writer.beginArray()
  try read { todo in
    JSONOutput.TodoJSON.write(todo, today: today, timeZone: timeZone, to: &writer)
    return environment.outputFailed() == nil
  }
  writer.endArray()
  writer.finish()
}
