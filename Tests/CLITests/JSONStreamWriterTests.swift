@testable import CLI
import Core
import Foundation
import Storage
import Testing

/// The streaming JSON writer: every shape writes itself to it (the golden files in
/// `Golden/json/` hold each shape's bytes); here its layout, escapes and numbers are compared
/// with Foundation's `JSONEncoder` (the bytes ootd printed before it streamed), and a document is
/// the same in chunks of any size.
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

  /// The document written at once, as `JSONOutput.print` writes it.
  static func whole(_ todos: [Todo]) -> String {
    JSONOutput.text(todos.map { JSONOutput.TodoJSON(todo: $0, today: today, timeZone: zone) })
  }

  @Test(arguments: [1, 100, 65_536])
  func todos_sameBytesInChunksOfAnySize(chunkSize: Int) throws {
    let todos = Self.todos()
    #expect(Self.streamed(todos, chunkSize: chunkSize).text == Self.whole(todos))
  }

  /// Each title reads back as it was (every escape right), and no DEL or C1 control is left raw.
  @Test func eachTodoAlone_readsBackItsTitle() throws {
    for todo in Self.todos() {
      let text = Self.streamed([todo], chunkSize: 65_536).text
      #expect(!text.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) }, "\(todo.title)")
      let array = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
      #expect(array.first?["title"] as? String == todo.title)
      #expect(array.first?["uuid"] as? String == todo.uuid)
    }
  }

  /// The todos match their former `Encodable` form (``TodoJSONOracle``) through `JSONEncoder`.
  @Test(arguments: [[], todos()])
  func todos_matchJSONEncoderByteForByte(todos: [Todo]) throws {
    let oracle = try JSONOutput.encode(todos.map { JSONOutput.TodoJSON(todo: $0, today: Self.today, timeZone: Self.zone) })
    #expect(Self.whole(todos) == oracle + "\n")
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
    writer.double(1.0 / 3)
    writer.key("d")
    writer.double(1e-7)
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

  /// Every scalar up to U+02FF (C0, DEL, C1, Latin-1 and the 0xC2/0xC3 lead bytes), the line
  /// separators, a byte order mark, a replacement character, quotes and slashes, alone and
  /// mixed with plain text: the writer's string bytes are JSONOutput.encode's.
  static let trickyStrings: [String] = {
    var strings = (0...0x2FF).map { String(Unicode.Scalar($0)!) }
    strings += [
      "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFD}", "/", "</script>", "a\u{9B}31mred", "é\u{85}é",
      "\u{C2}\u{80}", "\u{7F}\u{7F}", "\"\\\"", "tab\tend", "🧑‍💻\u{9F}", "\u{10FFFF}", "",
      String(repeating: "\u{9B}x", count: 3000),
    ]
    strings.append((0...0x2FF).map { String(Unicode.Scalar($0)!) }.joined())
    return strings
  }()

  @Test func strings_escapeExactlyAsJSONOutput() throws {
    for value in Self.trickyStrings {
      // As a key and as a value: both go through the same escaping.
      var text = ""
      var writer = JSONStreamWriter(chunkSize: 7) { text += $0 }
      writer.beginObject()
      writer.key(named: value)
      writer.string(value)
      writer.endObject()
      writer.finish()
      let expected = try JSONOutput.encode([value: value]) + "\n"
      #expect(text == expected, "\(value.unicodeScalars.prefix(8).map { String($0.value, radix: 16) })")
    }
  }

  @Test(arguments: [
    0.0, -0.0, 1.0, 0.5, 1.0 / 3, 2.0 / 3, 0.7793826790530417, 1e-7, 1e15, 1e16, 1e20, 100,
    123_456_789_012_345_680.0, 1.5e300, 5e-324, -2.5, 0.1, 0.30000000000000004,
  ])
  func doubles_matchJSONEncoder(value: Double) throws {
    var text = ""
    var writer = JSONStreamWriter { text += $0 }
    writer.double(value)
    writer.finish()
    #expect(text == (try JSONOutput.encode(value)) + "\n")
  }

  @Test func integers_matchJSONEncoder() throws {
    for value in [0, 1, -1, 9, 10, 99, 100, 12345, Int64.max, Int64.min, -9_000_000_000] as [Int64] {
      var text = ""
      var writer = JSONStreamWriter { text += $0 }
      writer.integer(value)
      writer.finish()
      #expect(text == (try JSONOutput.encode(value)) + "\n")
    }
  }

  /// A report over two months with commits, carried todos, every priority, empty days and a
  /// project name to escape: `report --json` is the same document in chunks of any size, and
  /// reads back.
  @Test(arguments: [false, true])
  func report_sameBytesInChunks(withCommits: Bool) throws {
    let range = try DayRange(from: Self.today.adding(days: -60), to: Self.today)
    var counts: [DayPriorityCount] = []
    for offset in stride(from: 0, to: 61, by: 3) {
      let day = range.from.adding(days: offset)
      counts.append(DayPriorityCount(day: day, priority: .high, tally: Tally(total: 3, done: offset % 4, carried: offset % 2)))
      if offset % 9 == 0 {
        counts.append(DayPriorityCount(day: day, priority: .low, tally: Tally(total: 7, done: 7)))
      }
    }
    let report = AchievementReport(range: range, counts: counts, today: Self.today)
    let commits = withCommits
      ? CommitCalendar(range: range, counts: (0..<range.count).map { $0 % 5 == 0 ? 0 : $0 * 7 }) : nil
    for json in [
      JSONOutput.ReportJSON(report: report, project: "work.\u{9B}client", commits: commits,
        lastSync: withCommits ? Date(timeIntervalSince1970: 1_790_000_123) : nil),
      JSONOutput.ReportJSON(report: AchievementReport(range: range, counts: [], today: Self.today), project: nil),
    ] {
      var text = ""
      var writer = JSONStreamWriter(chunkSize: 100) { text += $0 }
      json.write(to: &writer)
      writer.finish()
      #expect(text == JSONOutput.text(json))
      let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
      #expect((document["days"] as? [Any])?.count == 61)
      #expect(document["project"] as? String == json.project)
    }
  }

  /// `graph --json`: with and without a busiest day, streaks, repositories and a last sync.
  @Test func graph_sameBytesInChunks() throws {
    let range = try DayRange(from: Self.today.adding(days: -40), to: Self.today)
    let busy = CommitCalendar(range: range, counts: (0..<range.count).map { $0 < 30 ? $0 % 4 : 1 })
    let empty = CommitCalendar(range: range, counts: Array(repeating: 0, count: range.count))
    for (calendar, author, repositories, lastSync) in [
      (busy, "gr" as String?, [
        RepositoryCommitCount(repository: "groue/GRDB.swift", commits: 40, lastSyncAt: Date(timeIntervalSince1970: 1_790_000_000)),
        RepositoryCommitCount(repository: "a/\u{9B}b", commits: 0, lastSyncAt: nil),
      ], Date(timeIntervalSince1970: 1_790_000_500) as Date?),
      (empty, nil, [], nil),
    ] {
      let graph = CommitGraphReport(
        calendar: calendar, author: author, repository: author == nil ? nil : RepositoryName("groue/GRDB.swift"),
        timeZone: Self.zone, today: Self.today, repositories: repositories, lastSync: lastSync)
      var text = ""
      var writer = JSONStreamWriter(chunkSize: 64) { text += $0 }
      graph.write(to: &writer)
      writer.finish()
      #expect(text == JSONOutput.text(graph))
      let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
      #expect((document["days"] as? [Any])?.count == 41)
      #expect((document["repositories"] as? [Any])?.count == repositories.count)
    }
  }
}
