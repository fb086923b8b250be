import Core

/// Prints changed todos: a JSON array, or a line such as `Planned 2 todos for 2026-11-23:` and
/// the todos.
func printTodos(
  _ todos: [Todo], verb: String, suffix: String = "", json: Bool, noColor: Bool,
  _ environment: AppEnvironment
) throws {
  if json {
    let items = todos.map { JSONOutput.TodoJSON($0, environment) }
    environment.output(try JSONOutput.encode(items) + "\n")
    return
  }
  let noun = todos.count == 1 ? "todo" : "todos"
  environment.print("\(verb) \(todos.count) \(noun)\(suffix):")
  for line in TodoRenderer(environment, noColor: noColor).changed(todos) { environment.print(line) }
}

extension TodoRenderer {
  /// Todos a command changed (or is about to), one aligned line each, with their days.
  func changed(_ todos: [Todo]) -> [String] {
    let idWidth = todos.map { String($0.id).count }.max() ?? 1
    return todos.map { line($0, idWidth: idWidth, showDay: true) }
  }
}
