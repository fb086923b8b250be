import Core
import Foundation
import GRDB
import Storage
import Testing

/// A change that sets several fields of a row (one UPDATE since the statements work) still
/// journals one operation per field that changes, in field order, and undo and redo restore
/// the row exactly.
@Suite("Several fields of one row, journaled")
struct JournalMultiFieldTests {
  @Test("tick and reopen journal each changed field in order; undo and redo restore the row exactly")
  func multiFieldUpdate() throws {
    let scratch = Scratch()
    let database = try AppDatabase.open(path: scratch.path(), command: "done 1")
    let todo = try database.addTodo(try draft("x"), now: fixedNow)
    let open = try todoRow(scratch)
    _ = try database.setDone(ids: [todo.id], done: true, now: fixedNow.addingTimeInterval(60))
    let done = try todoRow(scratch)

    // One update per changed field, sorted by field; `dropped` (already false) is not recorded.
    let ticked = try operations(scratch, change: lastChange(scratch))
    #expect(ticked.map(\.field) == ["done", "doneAt", "doneBy"])
    #expect(ticked.allSatisfy { $0.action == "update" && $0.row == todo.uuid })
    #expect(ticked[0].old == "0" && ticked[0].new == "1")
    #expect(ticked[1].old == "NULL" && ticked[1].new != "NULL")
    #expect(ticked[2].old == "NULL" && ticked[2].new == "'manual'")
    #expect(open != done)

    // Undo restores the row byte for byte, applying the inverse operations in reverse order.
    _ = try database.undo(now: fixedNow.addingTimeInterval(120))
    #expect(try todoRow(scratch) == open)
    let undone = try operations(scratch, change: lastChange(scratch))
    #expect(undone.map(\.field) == ["doneBy", "doneAt", "done"])
    #expect(zip(undone, ticked.reversed()).allSatisfy { $0.old == $1.new && $0.new == $1.old })

    // Redo brings the ticked row back exactly.
    _ = try database.redo(now: fixedNow.addingTimeInterval(180))
    #expect(try todoRow(scratch) == done)

    // Reopening sets the same fields back in one change, again one operation per changed field.
    _ = try database.setDone(ids: [todo.id], done: false, now: fixedNow.addingTimeInterval(240))
    #expect(try operations(scratch, change: lastChange(scratch)).map(\.field) == ["done", "doneAt", "doneBy"])
    #expect(try todoRow(scratch) == open)
  }

  struct Operation: Equatable {
    let row: String
    let action: String
    let field: String?
    let old: String?
    let new: String?
  }

  func todoRow(_ scratch: Scratch) throws -> String {
    try withRawDatabase(scratch.path()) { db in
      try Row.fetchAll(db, sql: "SELECT * FROM todo ORDER BY id").map(\.description).joined(separator: "\n")
    }
  }

  func lastChange(_ scratch: Scratch) throws -> Int64 {
    try withRawDatabase(scratch.path()) { db in try Int64.fetchOne(db, sql: "SELECT max(id) FROM journalChange")! }
  }

  func operations(_ scratch: Scratch, change: Int64) throws -> [Operation] {
    try withRawDatabase(scratch.path()) { db in
      try Row.fetchAll(
        db, sql: "SELECT row, action, field, quote(oldValue), quote(newValue) FROM journalOperation WHERE changeId = ? ORDER BY id",
        arguments: [change]
      ).map { Operation(row: $0[0], action: $0[1], field: $0[2], old: $0[3], new: $0[4]) }
    }
  }
}
