import Core
import Foundation
import Testing

@Suite("Title")
struct TitleTests {
  @Test(
    "titles are trimmed at the edges and otherwise kept exactly",
    arguments: [
      ("Ship it", "Ship it"),
      ("  padded  ", "padded"),
      ("\tTabbed\n", "Tabbed"),
      ("\n\n two lines\ninside \r\n", "two lines\ninside"),
      ("inner  double   spaces", "inner  double   spaces"),
      (#"Reply to "crash on empty list""#, #"Reply to "crash on empty list""#),
      ("It's Bob's", "It's Bob's"),
      ("'); DROP TABLE todo; --", "'); DROP TABLE todo; --"),
      ("Robert\"); DELETE FROM todo WHERE 1=1; --", "Robert\"); DELETE FROM todo WHERE 1=1; --"),
      ("Tidy dotfiles 🧹", "Tidy dotfiles 🧹"),
      ("👩‍💻 family 👨‍👩‍👧", "👩‍💻 family 👨‍👩‍👧"),
      ("BOJ 1753: 최단경로 (Dijkstra)", "BOJ 1753: 최단경로 (Dijkstra)"),
      ("　全角スペース　", "全角スペース"),  // ideographic spaces are white space
      ("%_ LIKE wildcards \\ backslash", "%_ LIKE wildcards \\ backslash"),
      ("x", "x"),
    ])
  func keepsText(input: String, expected: String) throws {
    let title = try Title.validate(input)
    #expect(title == expected)
    #expect(Array(title.unicodeScalars) == Array(expected.unicodeScalars))
  }

  @Test("blank or white-space-only titles throw emptyTitle", arguments: [
    "", " ", "   ", "\t", "\n", " \r\n\t ", "\u{3000}", "\u{00A0}",
  ])
  func blank(input: String) {
    #expect(throws: CoreError.emptyTitle(kind: "todo")) { try Title.validate(input) }
  }

  @Test("the length limit is 500 characters, counted as the user sees them")
  func lengthLimit() throws {
    #expect(Title.maximumLength == 500)
    #expect(try Title.validate(String(repeating: "a", count: 500)).count == 500)
    // 500 emoji with skin tone are 1000 scalars but 500 characters.
    #expect(try Title.validate(String(repeating: "👍🏽", count: 500)).count == 500)
    // Padding is trimmed before the length is checked.
    #expect(try Title.validate("  " + String(repeating: "b", count: 500) + "  ").count == 500)
    #expect(throws: CoreError.titleTooLong(limit: 500)) {
      try Title.validate(String(repeating: "a", count: 501))
    }
    #expect(throws: CoreError.titleTooLong(limit: 500)) {
      try Title.validate(String(repeating: "한", count: 501))
    }
  }
}

@Suite("Name")
struct NameTests {
  @Test(
    "short identifiers of letters, digits, '-', '_' and '.' are valid",
    arguments: [
      "ootd", "algo-study", "my_proj", "v1.2", "2026", "a", "A-b_c.d", "한글프로젝트", "ÉcoleDB",
      String(repeating: "n", count: 40),
    ])
  func valid(name: String) throws {
    #expect(try Name.validate(name, kind: "project") == name)
  }

  @Test(
    "anything else throws invalidName with the kind and the name",
    arguments: [
      "", " ootd", "ootd ", "-lead", ".hidden", "_under", "has space", "rocket🚀", "slash/x",
      "semi;colon", "quote'", "ootd\n", "tab\there", String(repeating: "n", count: 41),
    ])
  func invalid(name: String) {
    #expect(throws: CoreError.invalidName(kind: "block", name: name)) {
      try Name.validate(name, kind: "block")
    }
  }
}

@Suite("NewTodo, TodoChanges and TaskBlock")
struct DraftTests {
  let today = Day(year: 2026, month: 11, day: 22)!

  @Test("a new todo trims its title and keeps every other field")
  func newTodo() throws {
    let draft = try NewTodo(
      title: "  Write tests \n", priority: .high, day: today, project: "ootd", block: "commit")
    #expect(draft.title == "Write tests")
    #expect(draft.priority == .high)
    #expect(draft.day == today)
    #expect(draft.project == "ootd")
    #expect(draft.block == "commit")
  }

  @Test("a new todo with a blank title throws emptyTitle")
  func newTodoBlank() {
    #expect(throws: CoreError.emptyTitle(kind: "todo")) { try NewTodo(title: " \t ", priority: .low, day: today) }
  }

  @Test("an empty change set changes nothing")
  func emptyChanges() throws {
    let changes = try TodoChanges()
    #expect(changes.isEmpty)
    #expect(changes.title == nil && changes.priority == nil && changes.day == nil)
    #expect(changes.project == nil)
  }

  @Test(
    "any one field makes a change set non-empty, including unlinking the project",
    arguments: [
      try! TodoChanges(title: "new"), try! TodoChanges(priority: .low),
      try! TodoChanges(day: .day(Day(ordinal: 0))), try! TodoChanges(day: .backlog),
      try! TodoChanges(project: .some("ootd")),
      try! TodoChanges(project: .some(nil)),
    ])
  func nonEmptyChanges(changes: TodoChanges) {
    #expect(!changes.isEmpty)
  }

  @Test("unlinking (.some(nil)) and leaving the project alone (nil) are different")
  func unlinkIsNotNoChange() throws {
    let unlink = try TodoChanges(project: .some(nil))
    let keep = try TodoChanges(project: nil)
    #expect(unlink.project != nil)
    #expect(unlink.project! == nil)
    #expect(keep.project == nil)
    #expect(unlink != keep)
  }

  @Test("a change set trims a new title and rejects a blank or over-long one")
  func changesValidateTitle() throws {
    #expect(try TodoChanges(title: "  renamed  ").title == "renamed")
    #expect(throws: CoreError.emptyTitle(kind: "todo")) { try TodoChanges(title: "   ") }
    #expect(throws: CoreError.titleTooLong(limit: 500)) {
      try TodoChanges(title: String(repeating: "x", count: 501))
    }
  }

  @Test("a task block validates its name and title and defaults to a mid, non-routine user block")
  func taskBlock() throws {
    let block = try TaskBlock(name: "leetcode", title: "  One LeetCode problem ")
    #expect(block.title == "One LeetCode problem")
    #expect(block.priority == .mid)
    #expect(!block.isBuiltIn && !block.isRoutine)
    #expect(throws: CoreError.invalidName(kind: "block", name: "leet code")) {
      try TaskBlock(name: "leet code", title: "x")
    }
    #expect(throws: CoreError.emptyTitle(kind: "block")) { try TaskBlock(name: "ok", title: " ") }
  }

  @Test("the built-in blocks include the core habits, with valid and unique names")
  func builtIns() throws {
    let names = TaskBlock.builtIns.map(\.name)
    for expected in ["algorithm", "blog", "commit", "study"] {
      #expect(names.contains(expected))
    }
    #expect(Set(names.map { $0.lowercased() }).count == names.count)
    for builtIn in TaskBlock.builtIns {
      let block = try TaskBlock(name: builtIn.name, title: builtIn.title, priority: builtIn.priority)
      #expect(block.name == builtIn.name && block.title == builtIn.title)
    }
  }
}

@Suite("Todo rules")
struct TodoTests {
  static let created = Date(timeIntervalSince1970: 1_790_000_000)

  static func todo(_ id: Int64, _ day: String, _ priority: Priority, done: Bool = false) -> Todo {
    Todo(id: id, title: "t\(id)", priority: priority, day: Day(iso: day)!, isDone: done, createdAt: created)
  }

  @Test("list order is day, then high → mid → low, then id")
  func listOrder() {
    // Given todos in a scrambled order
    let todos = [
      Self.todo(7, "2026-11-23", .high),
      Self.todo(3, "2026-11-22", .low),
      Self.todo(9, "2026-11-22", .mid),
      Self.todo(2, "2026-11-22", .mid),
      Self.todo(5, "2026-11-21", .low),
      Self.todo(8, "2026-11-22", .high),
      Self.todo(1, "2026-11-23", .low),
      Self.todo(4, "2025-12-31", .low),
    ]
    // When
    let sorted = todos.sorted(by: Todo.listOrder)
    // Then
    #expect(sorted.map(\.id) == [4, 5, 8, 2, 9, 3, 7, 1])
    #expect(todos.reversed().sorted(by: Todo.listOrder).map(\.id) == sorted.map(\.id))
  }

  @Test("list order is a strict order: no todo sorts before itself")
  func listOrderIsIrreflexive() {
    let todo = Self.todo(1, "2026-11-22", .mid)
    #expect(!Todo.listOrder(todo, todo))
  }

  @Test(
    "a todo is overdue only when open and planned before today",
    arguments: [
      ("2026-11-21", false, true), ("2026-11-21", true, false), ("2026-11-22", false, false),
      ("2026-11-23", false, false), ("2025-11-22", false, true), ("2026-11-22", true, false),
    ])
  func overdue(day: String, done: Bool, overdue: Bool) {
    let todo = Self.todo(1, day, .mid, done: done)
    #expect(todo.isOverdue(today: Day(iso: "2026-11-22")!) == overdue)
  }
}

@Suite("CoreError")
struct CoreErrorTests {
  @Test(
    "each error reads as one line that names the offending value",
    arguments: [
      (CoreError.invalidDate("2024-02-30"), "2024-02-30"),
      (.invertedRange(from: Day(ordinal: 1), to: Day(ordinal: 0)), "1970-01-02"),
      (.invalidPriority("urgent"), "urgent"),
      (.emptyTitle(kind: "todo"), "empty"),
      (.emptyTitle(kind: "block"), "give the block some words"),
      (.titleTooLong(limit: 500), "500"),
      (.invalidName(kind: "project", name: "a b"), "a b"),
      (.invalidRepository("nope"), "nope"),
      (.projectEndsBeforeStart(start: Day(ordinal: 10), end: Day(ordinal: 5)), "1970-01-06"),
    ])
  func description(error: CoreError, mentions: String) {
    #expect(error.description.contains(mentions))
    #expect(!error.description.contains("\n"))
  }
}

@Suite("Trimming white space")
struct TrimmingTests {
  @Test(
    "trims exactly what Foundation's whitespacesAndNewlines trims",
    arguments: [
      "", " ", "x", "  x  ", "\t\nx\r\n", "\u{00A0}x\u{3000}", "\u{2028}x\u{2029}", "\u{85}x\u{0B}\u{0C}",
      "x y", " 최단경로 🧭 ", "\u{200B}x\u{200B}", "e\u{301} ", " \u{301}x", "🇰🇷 ", "\u{FEFF}x",
      "\u{1680}\u{2000}\u{200A}\u{202F}\u{205F}x", "\u{180E}x\u{180E}", "\u{200C}x\u{200D}",
      "\u{2060}x", "\u{1F}x\u{7F}", "\u{0}x",
    ])
  func matchesFoundation(text: String) {
    #expect(trimmingWhiteSpace(text) == text.trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
