import Core

/// Prints changed todos: a JSON array, or a line such as `Planned 2 todos for 2026-11-23:` and
/// the todos.
func printTodos(
  _ todos: [Todo], verb: String, suffix: String = "", json: Bool, noColor: Bool,
  _ environment: AppEnvironment
) throws {
  if json {
    JSONOutput.print(todos.map { JSONOutput.TodoJSON($0, environment) }, environment)
    return
  }
  let noun = todos.count == 1 ? "todo" : "todos"
  environment.print("\(verb) \(todos.count) \(noun)\(suffix):")
  for line in TodoRenderer(environment, noColor: noColor).changed(todos) { environment.print(line) }
}

/// Prints changed todos read back from the database by id, as ``printTodos(_:verb:suffix:json:noColor:_:)``
/// prints them as text, streamed: any number of todos takes constant memory.
func printTodos(
  _ reader: any TodoReader, ids: [Int64], verb: String, suffix: String = "", noColor: Bool,
  _ environment: AppEnvironment
) throws {
  let noun = ids.count == 1 ? "todo" : "todos"
  environment.print("\(verb) \(ids.count) \(noun)\(suffix):")
  let renderer = TodoRenderer(environment, noColor: noColor)
  let idWidth = String(ids.max() ?? 0).count
  try reader.forEachTodo(ids: ids) { todo in
    environment.print(renderer.line(todo, idWidth: idWidth, showDay: true))
    return environment.outputFailed() == nil
  }
}

extension TodoRenderer {
  /// Todos a command changed (or is about to), one aligned line each, with their days.
  func changed(_ todos: [Todo]) -> [String] {
    let idWidth = todos.map { String($0.id).count }.max() ?? 1
    return todos.map { line($0, idWidth: idWidth, showDay: true) }
  }
}

/// Notes on stderr after todos were added or moved: a day that now has two todos from one
/// task block (the routine planned one already, or a block added twice), and a todo added to
/// an archived project.
func warnAboutPlacement(_ todos: [Todo], _ reader: any TodoReader, _ environment: AppEnvironment) throws {
  for todo in todos {
    guard let block = todo.block, let day = todo.day else { continue }
    // Read one at a time, keeping only the block's: a day of any number of todos.
    var same: [Todo] = []
    try reader.forEachTodo(matching: TodoFilter(days: .range(DayRange(day: day)))) { other in
      if other.block?.lowercased() == block.lowercased() { same.append(other) }
      return true
    }
    guard same.count > 1 else { continue }
    environment.printError(TerminalText.printable(
      "ootd: note: \(day) now has \(same.count) todos from block '\(block)' (\(same.map { "#\($0.id)" }.joined(separator: ", "))); 'ootd rm \(todo.id)' or 'ootd undo' takes this one back"))
  }
}
