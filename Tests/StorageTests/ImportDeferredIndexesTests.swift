import Core
import Foundation
import GRDB
import GRDBSQLite
@testable import Storage
import Testing

/// Issue 25: an import that creates many todos leaves out the indexes it does not read while it
/// writes, and builds them again before its change ends: the same result, rows, journal and
/// schema as an import that keeps them, one undo away; an import that fails leaves the schema
/// as it was.
@Suite struct ImportDeferredIndexesTests {
  /// The todo of `index`: days, priorities, projects and tags in no order of the file.
  func todo(_ index: Int, title: String? = nil) throws -> ImportedTodo {
    try ImportedTodo(
      uuid: String(format: "c0000000-0000-4000-8000-%012d", index), title: title ?? "todo \(index)",
      priority: Priority.allCases[index % 3], day: fixedToday.adding(days: -(index * 7919 % 400)),
      isDone: index % 4 == 0, project: "p\(index % 5)", tags: ["t\(index % 3)"])
  }

  /// A database with todo 0 in it (seeded uuids: two databases made alike are alike).
  func database() throws -> AppDatabase {
    let database = try AppDatabase.inMemory()
    _ = try database.importTodos(ImportPlan(todos: [try todo(0)]), today: fixedToday, now: fixedNow)
    return database
  }

  /// The schema, and every row of the todos, projects and journal.
  func contents(_ database: AppDatabase) throws -> [[String]] {
    try database.writer.read { db in
      try [
        "SELECT type, name, sql FROM sqlite_master ORDER BY name", "SELECT * FROM todo ORDER BY id",
        "SELECT * FROM project ORDER BY id", "SELECT * FROM journalChange ORDER BY id",
        "SELECT * FROM journalOperation ORDER BY id",
      ].map { sql in try Row.fetchAll(db, sql: sql).map(\.description) }
    }
  }

  /// Imports 1,300 new todos (three batches) into `database`, todo 0 met in the first batch
  /// and again in the last (counted once, by what the journal says it was), failing after
  /// `failing` todos when given. Returns the result, and whether the indexes were out after the
  /// first batch.
  func importing(
    into database: AppDatabase, deferringFrom: Int = ImportWriter.deferIndexesFrom, size: ImportSizeEstimate? = nil,
    failing: Int? = nil
  ) throws -> (result: ImportResult, out: Bool) {
    var out = false
    let result = try database.importTodos(
      today: fixedToday, now: fixedNow, size: size, deferringIndexesFrom: deferringFrom
    ) { writer in
      try writer.add(todo(0, title: "met first"))
      for index in 1...1300 {
        if index == failing { throw CancellationError() }
        try writer.add(todo(index))
        if index == 600 { out = writer.leavesIndexesOut }
      }
      try writer.add(todo(0, title: "met last"))
    }
    return (result, out)
  }

  @Test func aBigImport_leavesIndexesOutWhileItWrites_andEndsAsOneThatKeepsThem() throws {
    try RowID.$source.withValue(RowIDSource(SeededGenerator(seed: 25))) {
      let kept = try database()
      let before = try contents(kept)
      let keeping = try importing(into: kept, deferringFrom: .max)
      #expect(!keeping.out)
      try RowID.$source.withValue(RowIDSource(SeededGenerator(seed: 25))) {
        let left = try database()
        #expect(try contents(left) == before)
        let leaving = try importing(into: left, deferringFrom: 1)
        #expect(leaving.out)
        #expect(leaving.result == keeping.result)
        #expect((leaving.result.added, leaving.result.updated) == (1300, 1))
        #expect(try contents(left) == contents(kept))
        #expect(try left.writer.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])
        _ = try left.undo(now: fixedNow)
        #expect(try contents(left)[0...2] == before[0...2])
      }
    }
  }

  /// The todos 0..<25 there before an import of 2,000 new ones (five batches), each met in
  /// the first batch and again in the last (3 also in the third), its title as `title(index,
  /// meeting)` gives it (nil: as it is): back as it was (0, 3), changed again (1), changed only
  /// in the last (2), the same change twice (4). Returns the result, and whether the indexes
  /// were out after the first batch.
  func importingRepeats(
    into database: AppDatabase, deferringFrom: Int, dryRun: Bool = false
  ) throws -> (result: ImportResult, out: Bool) {
    let titles: [[String?]] = [
      ["changed", nil], ["changed", "changed again"], [nil, "changed"], ["changed", "changed again", nil],
      ["changed", "changed"],
    ]
    func met(_ index: Int, _ meeting: Int) throws -> ImportedTodo {
      try todo(index, title: titles[index % 5][meeting].map { "\($0) \(index)" })
    }
    var out = false
    let result = try database.importTodos(
      dryRun: dryRun, today: fixedToday, now: fixedNow, deferringIndexesFrom: deferringFrom
    ) { writer in
      for index in 0..<25 { try writer.add(met(index, 0)) }
      for index in 25..<2025 {
        try writer.add(todo(index))
        if index == 600 { out = writer.leavesIndexesOut }
        if index == 1100 { for index in stride(from: 3, to: 25, by: 5) { try writer.add(met(index, 1)) } }
      }
      for index in 0..<25 { try writer.add(met(index, titles[index % 5].count - 1)) }
    }
    return (result, out)
  }

  /// A database with the todos 0..<25 in it.
  func databaseOf25() throws -> AppDatabase {
    let database = try AppDatabase.inMemory()
    let plan = ImportPlan(todos: try (0..<25).map { try todo($0) })
    _ = try database.importTodos(plan, today: fixedToday, now: fixedNow)
    return database
  }

  /// Issue 25: a todo there before a big import, updated by an object of the file and met again
  /// in a later batch, is counted by what it is at the end beside what it was before: as an
  /// import that keeps its indexes counts it, and a dry run. The same rows and journal, one
  /// undo away from the database before, one redo from the import's.
  @Test func aBigImportThatMeetsTodosAgain_countsThemAsOneThatKeepsItsIndexes() throws {
    try RowID.$source.withValue(RowIDSource(SeededGenerator(seed: 25))) {
      let kept = try databaseOf25()
      let before = try contents(kept)
      let dry = try importingRepeats(into: kept, deferringFrom: .max, dryRun: true).result
      let keeping = try importingRepeats(into: kept, deferringFrom: .max)
      #expect(!keeping.out)
      // Updated: 1, 2 and 4 (five each); unchanged: 0 and 3, back as they were.
      #expect((keeping.result.added, keeping.result.updated, keeping.result.unchanged) == (2000, 15, 10))
      #expect(dry == keeping.result)
      let imported = try contents(kept)
      _ = try kept.undo(now: fixedNow)
      let undone = try contents(kept)
      #expect(undone[0...2] == before[0...2])
      _ = try kept.redo(now: fixedNow)
      let redone = try contents(kept)
      #expect(redone[0...2] == imported[0...2])
      try RowID.$source.withValue(RowIDSource(SeededGenerator(seed: 25))) {
        let left = try databaseOf25()
        #expect(try contents(left) == before)
        _ = try importingRepeats(into: left, deferringFrom: 1, dryRun: true)
        let leaving = try importingRepeats(into: left, deferringFrom: 1)
        #expect(leaving.out)
        #expect(leaving.result == keeping.result)
        #expect(try contents(left) == imported)
        #expect(try left.writer.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])
        _ = try left.undo(now: fixedNow)
        #expect(try contents(left) == undone)
        _ = try left.redo(now: fixedNow)
        #expect(try contents(left) == redone)
      }
    }
  }

  /// Issue 25: while a big import leaves the journal's index by row out, nothing reads a todo's
  /// operations in this change: a todo met again in a later batch read them through the
  /// journal's index by change, every row the import wrote so far (2,000 and more here), a scan
  /// per todo met again. Each statement that reads the journal now visits a few rows.
  @Test func aBigImportThatMeetsTodosAgain_scansNoJournalPerTodo() throws {
    let database = try databaseOf25()
    let (steps, imported) = try journalReads(database) {
      try importingRepeats(into: database, deferringFrom: 1)
    }
    #expect(imported.out && imported.result.updated == 15)
    let rows = try database.writer.read { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM journalOperation") ?? 0
    }
    #expect(rows > 2000)
    #expect(!steps.isEmpty)
    #expect(steps.allSatisfy { $0 < 200 }, "SQLite's steps of each read of the journal: \(steps)")
  }

  /// What `body` returns, and SQLite's count of virtual machine steps (about the rows it visited)
  /// of each statement reading `journalOperation` that it ran on `database`, in order.
  func journalReads<T>(_ database: AppDatabase, _ body: () throws -> T) throws -> ([Int32], T) {
    let steps = JournalSteps()
    try database.writer.write { db in
      // Counted from here: each statement's count is reset as it is read.
      var statement = sqlite3_next_stmt(db.sqliteConnection, nil)
      while let prepared = statement {
        _ = sqlite3_stmt_status(prepared, SQLITE_STMTSTATUS_VM_STEP, 1)
        statement = sqlite3_next_stmt(db.sqliteConnection, prepared)
      }
      sqlite3_trace_v2(
        db.sqliteConnection, UInt32(SQLITE_TRACE_PROFILE),
        { _, context, statement, _ in
          guard let context, let statement else { return 0 }
          let prepared = OpaquePointer(statement)
          if String(cString: sqlite3_sql(prepared)).contains("FROM journalOperation") {
            Unmanaged<JournalSteps>.fromOpaque(context).takeUnretainedValue().each.append(
              sqlite3_stmt_status(prepared, SQLITE_STMTSTATUS_VM_STEP, 1))
          }
          return 0
        }, Unmanaged.passUnretained(steps).toOpaque())
    }
    defer { try? database.writer.write { db in _ = sqlite3_trace_v2(db.sqliteConnection, 0, nil, nil) } }
    let result = try body()
    return (steps.each, result)
  }

  @Test func aBigImportThatFails_leavesTheSchemaAsItWas() throws {
    let database = try database()
    let before = try contents(database)
    #expect(throws: CancellationError.self) { try importing(into: database, deferringFrom: 1, failing: 1200) }
    #expect(try contents(database) == before)
  }

  /// An input that tells its size (a file: its length at the rate read so far) and is expected
  /// to create ``ImportWriter/deferIndexesFrom`` todos or more leaves the indexes out from its
  /// first batch on, not from its 20,000th todo: the same result, rows, journal and schema.
  /// Asked with the 501 items taken when the first batch is full (500 todos and the next).
  @Test func anInputExpectedToBeBig_leavesIndexesOutFromItsFirstBatch() throws {
    try RowID.$source.withValue(RowIDSource(SeededGenerator(seed: 25))) {
      let kept = try database()
      let keeping = try importing(into: kept)
      #expect(!keeping.out)
      try RowID.$source.withValue(RowIDSource(SeededGenerator(seed: 25))) {
        let left = try database()
        var asked: [Int] = []
        let leaving = try importing(into: left) { taken in
          asked.append(taken)
          return taken * 41  // 20,541 items: 499 new of the first 501 → 20,459 todos expected
        }
        #expect(asked == [501])
        #expect(leaving.out)
        #expect(leaving.result == keeping.result)
        #expect(try contents(left) == contents(kept))
        #expect(try left.writer.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])
      }
    }
  }

  /// An estimate under the threshold, or none (standard input), changes nothing: the indexes
  /// stay in until the import has created 20,000 todos.
  @Test func anInputExpectedToBeSmall_keepsItsIndexes() throws {
    #expect(try !importing(into: database()) { $0 * 39 }.out)  // 19,539 items: 19,461 todos
    #expect(try !importing(into: database()) { _ in nil }.out)
  }

  /// A file imported again creates no todo in its first batch: whatever its size, its indexes
  /// stay (nothing to write past them, and building them again would read every row).
  @Test func aFileImportedAgain_keepsItsIndexesWhateverItsSize() throws {
    let database = try database()
    _ = try importing(into: database)
    let again = try importing(into: database) { _ in 10_000_000 }
    #expect(!again.out)
    #expect((again.result.added, again.result.unchanged) == (0, 1301))
  }
}

/// The counts ``ImportDeferredIndexesTests/journalReads(_:_:)`` takes, one a statement run.
private final class JournalSteps {
  var each: [Int32] = []
}
