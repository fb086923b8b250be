import Core
import Storage

/// Prints the todos `filter` selects as `list --json` does: one array, streamed from the
/// database to the output, so any number of todos takes constant memory.
func printTodosJSON(
  _ database: AppDatabase, matching filter: TodoFilter, _ environment: AppEnvironment
) throws {
  var writer = JSONStreamWriter(environment)
  writer.beginArray()
  try database.forEachTodo(matching: filter) { todo in
    JSONOutput.TodoJSON(todo, environment).write(to: &writer)
    return environment.outputFailed() == nil
  }
  writer.endArray()
  writer.finish()
}
