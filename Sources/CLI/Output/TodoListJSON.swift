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
  var writer = JSONStreamWriter(environment)
  writer.beginArray()
  try reader.forEachTodo(matching: filter) { todo in
    JSONOutput.TodoJSON(todo, environment).write(to: &writer)
    return environment.outputFailed() == nil
  }
  if let range {
    for todo in try reader.todosCarriedAway(from: range) where !range.contains(todo.day) {
      JSONOutput.TodoJSON(todo, environment).write(to: &writer)
    }
  }
  writer.endArray()
  writer.finish()
}
