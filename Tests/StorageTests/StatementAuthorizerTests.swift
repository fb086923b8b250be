import Core
import Foundation
import GRDB
@testable import Storage
import Testing

/// Issue 25: once migrated, a connection compiles its statements without GRDB's authorizer
/// (``AppDatabase/dropStatementAuthorizer(_:)``), on every way a database is opened, and
/// still reads, writes, journals and undoes as before.
@Suite("GRDB's statement authorizer is off once migrated")
struct StatementAuthorizerTests {
  /// Whether a statement compiled now learns what it reads: GRDB's authorizer is what tells it.
  static func authorizerReports(_ writer: any DatabaseWriter) throws -> Bool {
    try writer.unsafeReentrantRead { db in
      !(try db.makeStatement(sql: "SELECT title, day FROM todo WHERE id = 1").databaseRegion.isEmpty)
    }
  }

  @Test("GRDB's own connection reports what a statement reads: the check can fail")
  func grdbAloneReports() throws {
    let queue = try DatabaseQueue()
    try queue.write { db in try db.execute(sql: "CREATE TABLE todo (id INTEGER PRIMARY KEY, title TEXT, day TEXT)") }
    #expect(try Self.authorizerReports(queue))
  }

  @Test("a file opened for writing, for reading, and a database in memory have no authorizer")
  func everyOpenDropsIt() throws {
    let scratch = Scratch()
    let written = try scratch.freshDatabase()
    #expect(try !Self.authorizerReports(written.writer))
    try written.addTodo(NewTodo(title: "Kept", priority: .mid, day: Day(year: 2026, month: 11, day: 27)), now: Date(timeIntervalSince1970: 1_800_000_000))
    written.close()
    let read = try AppDatabase.openForReading(path: scratch.path())
    #expect(try !Self.authorizerReports(read.writer))
    read.close()
    #expect(try !Self.authorizerReports(AppDatabase.inMemory().writer))
  }

  @Test("a fresh file migrates with the authorizer, then writes, journals and undoes without it")
  func migratesThenWrites() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    // The schema GRDB cached while migrating is the schema (every migration's columns).
    let columns = try database.writer.unsafeReentrantRead { db in try db.columns(in: "todo").map(\.name) }
    #expect(columns.contains("attributes") && columns.contains("titleFold"))
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let day = try #require(Day(year: 2026, month: 11, day: 27))
    let todo = try database.addTodo(NewTodo(title: "Write", priority: .high, day: day), now: now)
    _ = try database.setDone(ids: [todo.id], done: true, now: now)
    #expect(try database.todos(ids: [todo.id]).first?.isDone == true)
    _ = try database.undo(now: now)
    #expect(try database.todos(ids: [todo.id]).first?.isDone == false)
    _ = try database.undo(now: now)
    #expect(try database.todos(matching: TodoFilter(days: .all)).isEmpty)
  }
}
