import Core
import Foundation
import GRDB
import Testing

@testable import Storage

/// The rules kept by the paths that change todos without a command's own checks (a pull, a
/// GitHub or CalDAV sync, undo and redo): ``AppDatabase/keepTodoRules(_:uuids:today:)`` and
/// ``AppDatabase/checkTodoRules(_:uuids:today:refusing:)`` find every todo that breaks one.
@Suite("Todo rules kept in storage")
struct TodoRulesStoreTests {
  @Test("a todo done in the backlog (no day) is moved to today by keepTodoRules and refused by checkTodoRules")
  func doneInBacklog() throws {
    // Given a todo in the backlog, marked done by a path that sets only `done` (as a closed
    // GitHub issue or a pulled change does)
    let temporary = try TemporaryDatabase()
    let database = temporary.database
    let waiting = try database.addTodo(try NewTodo(title: "waiting", priority: .mid, day: nil), now: fixedNow)
    let uuid = waiting.uuid
    // When keepTodoRules runs in the change that marks it done, after checkTodoRules
    var refused = false
    let sentences = try database.change(now: fixedNow) { recorder in
      try recorder.update(.todo, row: uuid, "done", from: .bool(false), to: .bool(true))
      do {
        try AppDatabase.checkTodoRules(recorder.db, uuids: [uuid], today: fixedToday, refusing: "test")
      } catch {
        refused = true
      }
      return try AppDatabase.keepTodoRules(recorder, uuids: [uuid], today: fixedToday)
    }
    // Then checkTodoRules refused it
    #expect(refused)
    // Then it is done today, and that is reported
    #expect(sentences.count == 1)
    let todo = try #require(try database.todos(ids: [waiting.id]).first)
    #expect(todo.isDone && todo.day == fixedToday)
  }
}
