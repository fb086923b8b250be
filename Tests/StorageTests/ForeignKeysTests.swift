import Core
import Foundation
import GRDB
@testable import Storage
import Testing

/// Issue 25: ootd turns SQLite's foreign keys on by a plain statement of its own (GRDB's
/// `foreignKeysEnabled` runs its pragma through an SQL literal, whose first `joined()` cost
/// every command a scan of the binary's conformance records). They are on, and enforced, on
/// every way a file is opened.
@Suite("Foreign keys are on for every database ootd opens")
struct ForeignKeysTests {
  /// Whether the connection has foreign keys on, and whether it refuses a todo whose project
  /// does not exist (the check can fail: SQLite's default is off).
  static func enforced(_ writer: any DatabaseWriter) throws -> (pragma: Bool, refused: Bool) {
    try writer.unsafeReentrantWrite { db in
      let pragma = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
      var refused = false
      do {
        try db.execute(
          sql: """
            INSERT INTO todo(title, priority, day, createdAt, uuid, projectId)
            VALUES ('orphan', 1, '2026-11-28', '2026-11-28 00:00:00', 'fk-test', 424242)
            """)
        try db.execute(sql: "DELETE FROM todo WHERE uuid = 'fk-test'")
      } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
        refused = true
      }
      return (pragma, refused)
    }
  }

  @Test("GRDB's connection without foreign keys accepts an orphan: the check can fail")
  func offAccepts() throws {
    var configuration = Configuration()
    configuration.foreignKeysEnabled = false
    let queue = try DatabaseQueue(configuration: configuration)
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE project (id INTEGER PRIMARY KEY)")
      try db.execute(
        sql: """
          CREATE TABLE todo (id INTEGER PRIMARY KEY, title TEXT, priority INTEGER, day TEXT, createdAt TEXT,
            uuid TEXT, projectId INTEGER REFERENCES project(id) ON DELETE SET NULL)
          """)
    }
    let answer = try Self.enforced(queue)
    #expect(!answer.pragma && !answer.refused)
  }

  @Test("a file opened for writing and opened again for reading enforces foreign keys")
  func fileOpens() throws {
    let scratch = Scratch()
    let written = try scratch.freshDatabase()
    let first = try Self.enforced(written.writer)
    #expect(first.pragma && first.refused)
    written.close()
    let read = try AppDatabase.openForReading(path: scratch.path())
    let again = try Self.enforced(read.writer)
    #expect(again.pragma && again.refused)
    read.close()
  }
}
