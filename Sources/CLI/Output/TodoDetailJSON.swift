import ArgumentParser
import Core
import Storage

/// `ootd show --json`: the todo's fields, then `history`.
struct TodoDetailJSON: Encodable {
  let todo: JSONOutput.TodoJSON
  let history: [JournalEntry]

  enum CodingKeys: String, CodingKey { case history }

  func encode(to encoder: any Encoder) throws {
    try todo.encode(to: encoder)
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(history.map(JournalOutput.EntryJSON.init), forKey: .history)
  }
}
