import Core
import GRDB
import Testing

@testable import Storage

/// Issue 25: a change's journal rows past the few a command makes are written
/// ``JournalOperationRecord/rowsAStatement`` to a statement (then one a statement for the rest):
/// the same rows, in the same order and ids, as written one at a time, whatever the count.
@Suite struct JournalInsertAllTests {
  /// `count` operations of every kind, some with their fields' text given.
  func operations(_ count: Int) -> (operations: [(operation: JournalOperation, clock: Int64)], texts: [String?]) {
    var operations: [(operation: JournalOperation, clock: Int64)] = []
    var texts: [String?] = []
    for index in 0..<count {
      let row = "row-\(index)"
      let operation: JournalOperation
      switch index % 3 {
      case 0: operation = JournalOperation(.todo, row: row, .create(["title": .text("t\(index)"), "done": .integer(0)]))
      case 1: operation = JournalOperation(.todo, row: row, .update(field: "title", old: .text("a\(index)"), new: .null))
      default: operation = JournalOperation(.project, row: row, .delete(["name": .text("p\(index)")]))
      }
      operations.append((operation, Int64(1_000 + index)))
      texts.append(index % 6 == 0 ? #"{"done":0,"title":"t\#(index)"}"# : nil)
    }
    return (operations, texts)
  }

  /// The journal's rows of a database given `count` operations by `write`.
  func rows(_ count: Int, _ write: (Database, [(operation: JournalOperation, clock: Int64)], [String?]) throws -> Void)
    throws -> [Row]
  {
    let database = try AppDatabase.inMemory()
    return try database.writer.write { db in
      try db.execute(
        sql: "INSERT INTO journalChange (uuid, at, device, kind, command, summary) VALUES ('c', 'now', 'd', 'change', 'x', 'y')")
      let (operations, texts) = operations(count)
      try write(db, operations, texts)
      return try Row.fetchAll(db, sql: "SELECT * FROM journalOperation ORDER BY id")
    }
  }

  @Test(arguments: [1, 49, 50, 51, 149, 173])
  func manyRows_areTheRowsWrittenOneByOne(count: Int) throws {
    let together = try rows(count) { db, operations, texts in
      try JournalOperationRecord.insertAll(db, operations, changeID: 1, device: "d", fieldsTexts: texts)
    }
    let oneByOne = try rows(count) { db, operations, texts in
      for (index, (operation, clock)) in operations.enumerated() {
        try JournalOperationRecord.insert(db, operation, changeID: 1, clock: clock, device: "d", fieldsText: texts[index])
      }
    }
    #expect(together.count == count)
    #expect(together == oneByOne)
  }
}
