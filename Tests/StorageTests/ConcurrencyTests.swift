import Core
import Foundation
import GRDB
import Storage
import Testing

@Suite("Several writers on one file")
struct ConcurrencyTests {
  @Test("8 threads, each with its own AppDatabase, add 50 todos each: exactly 400, none lost")
  func concurrentWriters() throws {
    // Given one migrated file
    let scratch = Scratch()
    let path = scratch.path()
    do {
      let database = try AppDatabase.open(path: path)
      try database.addProject(try Project(name: "shared"), now: fixedNow)
    }
    let failures = Locked<[String]>([])
    let ids = Locked<[Int64]>([])
    // When 8 threads write at the same moment (half of them through a project lookup, which
    // reads before it writes, and ticking their todos, which reads then updates)
    runOnThreads(8) { thread in
      do {
        let database = try AppDatabase.open(path: path)
        for index in 0..<50 {
          let todo = try database.addTodo(
            try draft("t\(thread)-\(index)", project: thread.isMultiple(of: 2) ? "shared" : nil), now: fixedNow)
          ids.withLock { $0.append(todo.id) }
          if index.isMultiple(of: 10) { _ = try database.setDone(ids: [todo.id], done: true, now: fixedNow) }
        }
      } catch {
        failures.withLock { $0.append("thread \(thread): \(error)") }
      }
    }
    // Then
    #expect(failures.withLock { $0 } == [])
    let reopened = try AppDatabase.open(path: path)
    let todos = try allTodos(reopened)
    #expect(todos.count == 400)
    #expect(Set(todos.map(\.id)).count == 400)
    #expect(Set(ids.withLock { $0 }) == Set(todos.map(\.id)))
    let titles = Set(todos.map(\.title))
    for thread in 0..<8 {
      for index in 0..<50 { #expect(titles.contains("t\(thread)-\(index)")) }
    }
    #expect(todos.filter(\.isDone).count == 8 * 5)
    #expect(try reopened.project(named: "shared").total == 200)
  }

  @Test("8 threads opening the same fresh file at once all succeed and migrate it once", arguments: 0..<4)
  func migrationRace(round: Int) throws {
    // Given a path that does not exist yet
    let scratch = Scratch()
    let path = scratch.path("race-\(round)/ootd.sqlite")
    let failures = Locked<[String]>([])
    // When
    runOnThreads(8) { thread in
      do {
        let database = try AppDatabase.open(path: path)
        try database.addTodo(try draft("from \(thread)"), now: fixedNow)
      } catch {
        failures.withLock { $0.append("thread \(thread): \(error)") }
      }
    }
    // Then
    #expect(failures.withLock { $0 } == [])

    let database = try AppDatabase.open(path: path)
    #expect(try allTodos(database).count == 8)
    #expect(try database.blocks().count == TaskBlock.builtIns.count)
    let applied = try withRawDatabase(path) {
      try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
    }
    #expect(Array(applied.prefix(ReleasedSchema.migrationIdentifiers.count)) == ReleasedSchema.migrationIdentifiers)
    #expect(try withRawDatabase(path) { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
  }

  @Test("a fresh file caught mid-migration (grdb_migrations created, v1 not committed yet) is not foreign")
  func midMigrationIsNotForeign() throws {
    // Given the state a second opener can observe while the first runs the migrator: GRDB commits
    // `CREATE TABLE grdb_migrations` on its own before the v1 transaction sets application_id.
    let scratch = Scratch()
    let path = scratch.path()
    try withRawDatabase(path) { db in
      try db.execute(sql: "PRAGMA journal_mode = WAL")
      try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
    }
    // When
    let result = Result { () throws(StorageError) in try AppDatabase.open(path: path) }
    // Then
    let database = try result.get()
    #expect(try database.blocks().count == TaskBlock.builtIns.count)
  }
}
