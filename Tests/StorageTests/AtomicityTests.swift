import Core
import Foundation
import Storage
import Testing

/// Each public write runs in one transaction: when it fails, every table is as it was.
@Suite("Failed writes leave the database unchanged")
struct AtomicityTests {
  /// A database with projects, blocks and todos in several states.
  static func populated(_ scratch: Scratch) throws -> (AppDatabase, [Todo]) {
    let database = try scratch.freshDatabase()
    try database.addProject(try Project(name: "ootd", tech: ["swift"]), now: fixedNow)
    try database.addBlock(try TaskBlock(name: "leetcode", title: "One problem", isRoutine: true), now: fixedNow)
    var todos: [Todo] = []
    for (index, text) in ["2026-11-20", "2026-11-21", "2026-11-22"].enumerated() {
      todos.append(try database.addTodo(
        try draft("todo \(index)", on: text, project: index == 0 ? "ootd" : nil), now: fixedNow))
    }
    _ = try database.setDone(ids: [todos[1].id], done: true, now: fixedNow)
    return (database, todos)
  }

  @Test("ticking a list with one unknown id changes no row of any table")
  func setDoneWithUnknownID() throws {
    // Given
    let scratch = Scratch()
    let (database, todos) = try Self.populated(scratch)
    let before = try dump(scratch.path())
    // When
    #expect(throws: StorageError.todosNotFound([999])) {
      try database.setDone(ids: [todos[0].id, todos[2].id, 999], done: true, now: fixedNow.addingTimeInterval(5))
    }
    // Then
    #expect(try dump(scratch.path()) == before)
  }

  @Test("an edit naming an unknown project changes no row of any table")
  func editWithUnknownProject() throws {
    let scratch = Scratch()
    let (database, todos) = try Self.populated(scratch)
    let before = try dump(scratch.path())
    #expect(throws: StorageError.projectNotFound("ghost")) {
      try database.editTodo(
        id: todos[0].id,
        try TodoChanges(title: "changed", priority: .high, day: .day(day("2027-01-01")), project: .some("ghost")), today: fixedToday, now: fixedNow)
    }
    #expect(try dump(scratch.path()) == before)
  }

  @Test("adding many todos where one names an unknown project adds none of them")
  func addTodosAllOrNothing() throws {
    let scratch = Scratch()
    let (database, _) = try Self.populated(scratch)
    let before = try dump(scratch.path())
    #expect(throws: StorageError.projectNotFound("ghost")) {
      try database.addTodos(
        [(try draft("fine 1"), false), (try draft("fine 2"), true), (try draft("bad", project: "ghost"), false)],
        now: fixedNow)
    }
    #expect(try dump(scratch.path()) == before)
  }

  @Test("deleting or carrying over with an unknown id changes no row of any table")
  func deleteAndCarryOverWithUnknownID() throws {
    let scratch = Scratch()
    let (database, todos) = try Self.populated(scratch)
    let before = try dump(scratch.path())
    #expect(throws: StorageError.todosNotFound([12345])) {
      try database.deleteTodos(ids: todos.map(\.id) + [12345], now: fixedNow)
    }
    #expect(throws: StorageError.todosNotFound([12345])) {
      try database.carryOver(ids: [todos[0].id, 12345], today: day("2026-11-23"), to: day("2026-11-23"), now: fixedNow)
    }
    #expect(try dump(scratch.path()) == before)
  }
}
