import Core
import Foundation
import Interchange
import Testing

/// todo.txt lines in (every trap of the format) and out.
@Suite struct TodoTxtTests {
  let utc = TimeZone(identifier: "UTC")!
  let today = Day(iso: "2026-03-10")!

  struct Case: Sendable, CustomStringConvertible {
    let line: String
    let done: Bool
    let priority: Priority
    let day: String?
    let title: String
    var project: String? = nil
    var notes: String? = nil
    var tags: [String] = []
    var attributes: [String: String] = [:]
    var dropped = false
    var description: String { line }
  }

  static let cases: [Case] = [
    // An open line without due: is not planned yet (a creation date is when it was written):
    // the backlog, day nil. A completed one keeps its creation date, else its completion date.
    Case(line: "(A) Call Mom", done: false, priority: .high, day: nil, title: "Call Mom"),
    Case(line: "(B) 2026-01-02 Write report +work.client @office due:2026-03-01", done: false, priority: .mid,
         day: "2026-03-01", title: "Write report", project: "work.client", tags: ["office"]),
    Case(line: "(C) low", done: false, priority: .low, day: nil, title: "low"),
    Case(line: "(Z) lowest", done: false, priority: .low, day: nil, title: "lowest"),
    Case(line: "x 2026-02-03 2026-02-01 Filed taxes +home pri:A", done: true, priority: .high,
         day: "2026-02-01", title: "Filed taxes", project: "home"),
    Case(line: "x 2026-02-03 done with a completion date only", done: true, priority: .mid,
         day: "2026-02-03", title: "done with a completion date only"),
    Case(line: "x done without a date", done: true, priority: .mid, day: nil, title: "done without a date"),
    // Traps: none of these is done, and none has a priority.
    Case(line: "X 2012-01-01 capital X is not done", done: false, priority: .mid, day: nil,
         title: "X 2012-01-01 capital X is not done"),
    Case(line: "(A) x not done either", done: false, priority: .high, day: nil, title: "x not done either"),
    Case(line: "(b) lowercase is no priority", done: false, priority: .mid, day: nil,
         title: "(b) lowercase is no priority"),
    Case(line: "(B)-> arrow is no priority", done: false, priority: .mid, day: nil, title: "(B)-> arrow is no priority"),
    Case(line: "Really gotta call Mom (A)", done: false, priority: .mid, day: nil, title: "Really gotta call Mom (A)"),
    Case(line: "mail email@host about 2+2", done: false, priority: .mid, day: nil, title: "mail email@host about 2+2"),
    Case(line: "2026-02-20 회의 준비 🚀 +회사 +extra @집", done: false, priority: .mid, day: nil,
         title: "회의 준비 🚀", project: "회사", tags: ["extra", "집"]),
    // Further +projects and @contexts are tags, lowercased; what is no ootd tag (starts with a
    // digit, or has a character a tag cannot) stays in the notes as written.
    Case(line: "plan +home +Garden @Phone @2go @a/b +9lives", done: false, priority: .mid, day: nil,
         title: "plan", project: "home", notes: "projects: +9lives\ncontexts: @2go @a/b", tags: ["garden", "phone"]),
    // A first +project that is no project name is no project; it may still be a tag.
    Case(line: "call @Phone @phone", done: false, priority: .mid, day: nil, title: "call", tags: ["phone"]),
    // Other key:values (threshold, recurrence…) are attributes, not title words; a link, a time
    // and a key ootd owns with a value it does not take stay in the title.
    Case(line: "meet at 10:30 t:2026-03-01", done: false, priority: .mid, day: nil, title: "meet at 10:30",
         attributes: ["t": "2026-03-01"]),
    Case(line: "x 2026-12-13 (A) Fix prod alert +ootd pri:A", done: true, priority: .high, day: "2026-12-13",
         title: "Fix prod alert", project: "ootd"),
    Case(line: "x 2026-12-13 (B) 2026-12-01 water t:2026-12-20 rec:1w", done: true, priority: .mid, day: "2026-12-01",
         title: "water", attributes: ["t": "2026-12-20", "rec": "1w"]),
    Case(line: "read https://example.com/a:b due:soon ootd:nope h:1", done: false, priority: .mid, day: nil,
         title: "read https://example.com/a:b due:soon ootd:nope", attributes: ["h": "1"]),
    Case(line: "(B) 2026-03-01 given up due:2026-03-02 dropped:yes ootd:A1B2C3D4-0000-4000-8000-000000000001", done: false,
         priority: .mid, day: "2026-03-02", title: "given up", dropped: true),
    Case(line: "+onlyproject", done: false, priority: .mid, day: nil, title: "+onlyproject", project: "onlyproject"),
  ]

  @Test(arguments: cases)
  func line(_ example: Case) throws {
    let plan = try TodoTxt.plan(example.line, today: today, timeZone: utc)
    let todo = try #require(plan.todos.first)
    #expect(todo.isDone == example.done)
    #expect(todo.priority == example.priority)
    #expect(todo.day?.description == example.day)
    #expect(todo.title == example.title)
    #expect(todo.project == example.project)
    #expect(todo.notes == example.notes)
    #expect(todo.tags == example.tags)
    #expect(todo.attributes == example.attributes)
    #expect(todo.isDropped == example.dropped)
  }

  /// A line of ootd's export is the todo it came from (`ootd:UUID`); one that repeats a uuid
  /// already met is a todo of its own, by its text.
  @Test func ootdKeyIsTheIdentity() throws {
    let uuid = "a1b2c3d4-0000-4000-8000-000000000001"
    let todos = try TodoTxt.plan("one ootd:\(uuid.uppercased())\ntwo ootd:\(uuid)\n", today: today, timeZone: utc).todos
    #expect(todos.map(\.uuid).first == uuid)
    #expect(todos[1].uuid != uuid && todos[1].uuid.count == 36)
    #expect(todos.map(\.title) == ["one", "two"])
  }

  /// A completion date is a whole day: a todo done at any time of it keeps its own time.
  @Test func completionDateAgreesWithAnyTimeOfItsDay() throws {
    let seoul = TimeZone(identifier: "Asia/Seoul")!
    let todo = try TodoTxt.plan("x 2026-03-05 done", today: today, timeZone: seoul).todos[0]
    let start = Day(iso: "2026-03-05")!.start(in: seoul)
    #expect(todo.agreesOnDoneTime(start.addingTimeInterval(86_399.5)))
    #expect(todo.agreesOnDoneTime(start))
    #expect(!todo.agreesOnDoneTime(start.addingTimeInterval(86_400)))
    #expect(!todo.agreesOnDoneTime(start.addingTimeInterval(-0.001)))
    // The line carries no notes, annotations, or attributes with a space: an update keeps them.
    #expect(!todo.replacesNotes && todo.annotations == nil)
    #expect(TodoTxt.attributeCarrier.merged(stored: ["note": "two words", "t": "x"], imported: ["rec": "1w"])
      == ["note": "two words", "rec": "1w"])
  }

  @Test func crlfBlankLinesAndComments() throws {
    let text = "# my list\r\n(A) first\r\n\r\n   \r\nx 2026-03-01 second\r\n# trailing comment\r\n"
    let plan = try TodoTxt.plan(text, today: today, timeZone: utc)
    #expect(plan.todos.map(\.title) == ["first", "second"])
    #expect(plan.todos[1].doneAt.map { Day($0, in: utc) } == Day(iso: "2026-03-01"))
  }

  @Test func identityIsStableAcrossCompletionAndRepeats() throws {
    let open = try TodoTxt.plan("(A) 2026-01-01 Pay rent +home", today: today, timeZone: utc).todos[0]
    let closed = try TodoTxt.plan("x 2026-01-03 2026-01-01 Pay rent +home pri:A", today: today, timeZone: utc).todos[0]
    #expect(open.uuid == closed.uuid)
    #expect(open.uuid.count == 36)
    let twice = try TodoTxt.plan("buy milk\nbuy milk\n", today: today, timeZone: utc).todos
    #expect(twice.count == 2 && twice[0].uuid != twice[1].uuid)
    let other = try TodoTxt.plan("(A) 2026-01-02 Pay rent +home", today: today, timeZone: utc).todos[0]
    #expect(other.uuid != open.uuid)
  }

  @Test(arguments: [
    ("ok\n(A) 2026-02-30 no such day", "line 2: impossible date '2026-02-30'"),
    ("first\nsecond\nthird due:2026-13-01", "line 3: impossible date '2026-13-01'"),
    ("x 2026-04-31 done", "line 1: impossible date '2026-04-31'"),
  ])
  func impossibleDates(text: String, message: String) {
    #expect(throws: InterchangeError.self) { try TodoTxt.plan(text, today: today, timeZone: utc) }
    do {
      _ = try TodoTxt.plan(text, today: today, timeZone: utc)
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func exportRoundTrip() throws {
    let seoul = TimeZone(identifier: "Asia/Seoul")!
    let created = Date(timeIntervalSince1970: 1_709_000_000)
    let uuids = (1...4).map { "a1b2c3d4-0000-4000-8000-00000000000\($0)" }
    var todos = [
      Todo(id: 1, title: "회의 🚀", priority: .high, day: Day(iso: "2024-03-02")!, project: "work.client",
           createdAt: created, uuid: uuids[0]),
      Todo(id: 2, title: "done one", priority: .low, day: Day(iso: "2024-03-03")!, isDone: true,
           doneAt: Date(timeIntervalSince1970: 1_709_500_000), createdAt: created, uuid: uuids[1]),
      Todo(id: 3, title: "mid\nsplit", priority: .mid, day: Day(iso: "2024-03-04")!, createdAt: created, uuid: uuids[2]),
      Todo(id: 4, title: "given up", priority: .mid, day: Day(iso: "2024-03-05")!, createdAt: created, uuid: uuids[3]),
    ]
    todos[0].tags = ["bug", "집"]
    todos[2].tags = ["solo"]  // no project: a +solo would come back as the project
    todos[2].attributes = ["t": "2024-03-01", "rec": "1w", "note": "two words", "due": "x"]
    todos[3].isDropped = true
    let text = TodoTxt.export(todos, timeZone: seoul)
    #expect(text == """
      (A) 2024-02-27 회의 🚀 +work.client @bug @집 due:2024-03-02 ootd:\(uuids[0]) ootdid:1
      x 2024-03-04 2024-02-27 done one due:2024-03-03 pri:C ootd:\(uuids[1]) ootdid:2
      (B) 2024-02-27 mid\\u000Asplit @solo due:2024-03-04 rec:1w t:2024-03-01 ootd:\(uuids[2]) ootdid:3
      (B) 2024-02-27 given up due:2024-03-05 dropped:yes ootd:\(uuids[3]) ootdid:4

      """)
    var back = try TodoTxt.plan(text, today: today, timeZone: seoul).todos
    #expect(back.map(\.uuid) == uuids)
    #expect(back.map(\.isDropped) == [false, false, false, true])
    #expect(back[2].attributes == ["t": "2024-03-01", "rec": "1w"])
    todos.removeLast()
    back.removeLast()
    // The line end is escaped in the line and read back (TodoTxtTitleEscapeTests).
    #expect(back.map(\.title) == ["회의 🚀", "done one", "mid\nsplit"])
    #expect(back.map(\.priority) == [.high, .low, .mid])
    #expect(back.map(\.day) == todos.map(\.day))
    #expect(back.map(\.isDone) == [false, true, false])
    #expect(back.map(\.project) == ["work.client", nil, nil])
    #expect(back.map(\.tags) == [["bug", "집"], [], ["solo"]])
    #expect(back.allSatisfy { $0.notes == nil })
  }

  /// The block a todo was made from is the word `ootdblock:NAME` (the name of Taskwarrior's
  /// UDA), read back as the block; a value no word can hold as it is (a space, a colon, a control
  /// character) is escaped as a title is and comes back exactly; one that is no block name
  /// stays in the notes, as Taskwarrior's does. Before, the export left the block out.
  /// ootd's own keys: exactly what ootd writes is the field; another value stays a word of the
  /// title (as `due:soon` does), never a crash nor a silent loss.
  @Test func ootdKeys_readBackOrStayInTheTitle() throws {
    let good = try #require(
      try TodoTxt.plan(
        "x 2026-01-02 2026-01-01 d due:2026-01-01 ootdcarriedfrom:2025-12-31 ootddoneby:github ootdid:7\n",
        today: today, timeZone: utc
      ).todos.first)
    #expect(good.title == "d" && good.number == 7 && good.doneBy == .github)
    #expect(good.carriedFrom == [Day(iso: "2025-12-31")!])
    for word in ["ootdid:0", "ootdid:x", "ootdcarriedfrom:2026-02-30", "ootddoneby:me"] {
      let todo = try #require(try TodoTxt.plan("(B) d \(word)\n", today: today, timeZone: utc).todos.first)
      #expect(todo.title == "d \(word)" && todo.number == nil && todo.carriedFrom == nil, "\(word)")
    }
    let open = try #require(try TodoTxt.plan("(B) d ootddoneby:manual\n", today: today, timeZone: utc).todos.first)
    #expect(open.title == "d" && open.doneBy == nil && open.notes == "ootddoneby: manual")
  }

  @Test func block_isTheOotdblockWord() throws {
    let created = Date(timeIntervalSince1970: 1_709_000_000)
    let uuid = "a1b2c3d4-0000-4000-8000-000000000001"
    var todo = Todo(id: 1, title: "Pair", priority: .high, day: Day(iso: "2024-03-02")!, createdAt: created, uuid: uuid)
    todo.block = "pairing"
    todo.isDropped = true
    #expect(TodoTxt.line(todo, timeZone: utc) == "(A) 2024-02-27 Pair due:2024-03-02 ootdblock:pairing dropped:yes ootd:\(uuid) ootdid:1")
    let back = try TodoTxt.plan(TodoTxt.export([todo], timeZone: utc), today: today, timeZone: utc).todos
    #expect(back.map(\.block) == ["pairing"])
    #expect(back.map(\.notes) == [nil])
    // Any name, even one no block can have, is one word that reads back exactly.
    for name in ["회의.v2-x_1", "a b:c", "esc\u{1B}\nx", #"back\u0020slash"#, "+p @c"] {
      todo.block = name
      let line = TodoTxt.line(todo, timeZone: utc)
      let word = try #require(line.split(separator: " ").first { $0.hasPrefix("ootdblock:") })
      #expect(Attributes.isWord(word.dropFirst("ootdblock:".count)), "\(line)")
      #expect(try TodoTxt.parse(line)?.block == name, "\(line)")
      #expect(try TodoTxt.parse(line)?.title == "Pair")
    }
    let odd = try TodoTxt.plan("(B) Pair ootdblock:a\\u0020b", today: today, timeZone: utc).todos
    #expect(odd.map(\.block) == [nil])
    #expect(odd.map(\.notes) == ["ootdblock: a b"])
    // A title's own `ootdblock:` word stays in the title.
    todo.title = "see ootdblock:x"
    todo.block = "pairing"
    let parsed = try #require(try TodoTxt.parse(TodoTxt.line(todo, timeZone: utc)))
    #expect(parsed.block == "pairing" && TodoTxt.unescapedTitle(parsed.title) == "see ootdblock:x")
  }
}
