@testable import CLI
import Core
import Foundation
import Testing

/// The streaming JSON writer prints exactly the bytes of `JSONOutput.encode`, so scripts reading
/// `ootd list --json` see no change.
@Suite struct JSONStreamWriterTests {
  static let zone = TimeZone(identifier: "Europe/Paris")!
  static let today = Day(year: 2026, month: 11, day: 22)!

  /// Titles that exercise every escape: quotes, backslashes, slashes, C0, DEL and C1 controls,
  /// a terminal escape, non-ASCII letters, emoji, U+2028.
  static let titles: [String] = [
    "plain", "", "say \"hi\" \\ back/slash", "tab\tnew\nline\rcr\u{08}bs\u{0C}ff",
    "\u{00}\u{01}\u{1F}\u{7F}\u{80}\u{9B}\u{9F}\u{A0}", "\u{1B}]0;PWN\u{07}", "Café — 日本語 🧑‍💻",
    "line\u{2028}separator", String(repeating: "long ", count: 5000),
  ]

  static func todos() -> [Todo] {
    titles.enumerated().map { index, title in
      var todo = Todo(
        id: Int64(index + 1), title: title, priority: Priority.allCases[index % 3],
        day: today.adding(days: index - 4), isDone: index % 3 == 0,
        doneAt: index % 3 == 0 ? Date(timeIntervalSince1970: 1_790_000_000 + Double(index) * 3600) : nil,
        project: index % 2 == 0 ? nil : "proj \"\(index)\"", block: index % 4 == 1 ? "algo/\u{9B}" : nil,
        createdAt: Date(timeIntervalSince1970: 1_790_000_000), uuid: "uuid-\(index)")
      todo.isDropped = index == 5
      todo.carriedFrom = index == 2 ? [today.adding(days: -9), today.adding(days: -8)] : []
      return todo
    }
  }

  static func streamed(_ todos: [Todo], chunkSize: Int) -> (text: String, chunks: Int) {
    var text = ""
    var chunks = 0
    var writer = JSONStreamWriter(chunkSize: chunkSize) {
      text += $0
      chunks += 1
    }
    writer.beginArray()
    for todo in todos { JSONOutput.TodoJSON(todo: todo, today: today, timeZone: zone).write(to: &writer) }
    writer.endArray()
    writer.finish()
    return (text, chunks)
  }

  static func encoded(_ todos: [Todo]) throws -> String {
    try JSONOutput.encode(todos.map { JSONOutput.TodoJSON(todo: $0, today: today, timeZone: zone) }) + "\n"
  }

  @Test(arguments: [1, 100, 65_536])
  func todos_matchJSONEncoderByteForByte(chunkSize: Int) throws {
    let todos = Self.todos()
    #expect(Self.streamed(todos, chunkSize: chunkSize).text == (try Self.encoded(todos)))
  }

  @Test func eachTodoAlone_matchesJSONEncoder() throws {
    for todo in Self.todos() {
      #expect(Self.streamed([todo], chunkSize: 65_536).text == (try Self.encoded([todo])), "\(todo.title)")
    }
  }

  @Test func noTodos_matchesJSONEncoder() throws {
    #expect(Self.streamed([], chunkSize: 65_536).text == (try Self.encoded([])))
  }

  @Test func output_comesInChunks() {
    let todos = Array(repeating: Self.todos()[0], count: 2000)
    let result = Self.streamed(todos, chunkSize: 4096)
    #expect(result.chunks > 10)
    #expect(result.text.utf8.count / result.chunks < 4096 + 1024)
  }

  @Test func nestedEmptyAndNumbers_matchJSONEncoder() throws {
    var text = ""
    var writer = JSONStreamWriter { text += $0 }
    writer.beginObject()
    writer.key("a")
    writer.beginArray()
    writer.endArray()
    writer.key("b")
    writer.beginObject()
    writer.endObject()
    writer.key("c")
    try writer.fragment(1.0 / 3)
    writer.key("d")
    try writer.fragment(1e-7)
    writer.key("e")
    writer.integer(Int?.none)
    writer.key("f")
    writer.beginArray()
    writer.integer(1)
    writer.beginArray()
    writer.integer(2)
    writer.endArray()
    writer.endArray()
    writer.endObject()
    writer.finish()
    struct Shape: Encodable {
      enum CodingKeys: String, CodingKey { case a, b, c, d, e, f }
      func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode([Int](), forKey: .a)
        try c.encode([String: Int](), forKey: .b)
        try c.encode(1.0 / 3, forKey: .c)
        try c.encode(1e-7, forKey: .d)
        try c.encode(Int?.none, forKey: .e)
        try c.encode([AnyArray.one, AnyArray.many([2])], forKey: .f)
      }
    }
    enum AnyArray: Encodable {
      case one, many([Int])
      func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .one: try c.encode(1)
        case .many(let values): try c.encode(values)
        }
      }
    }
    #expect(text == (try JSONOutput.encode(Shape())) + "\n")
  }
}
