import Core

/// `ootd show --json`: the todo's fields with `history`, its journal entries, among them.
struct TodoDetailJSON: JSONShape {
  let todo: JSONOutput.TodoJSON
  let history: [JournalEntry]

  func write(to writer: inout JSONStreamWriter) {
    todo.write(to: &writer, history: history)
  }
}
