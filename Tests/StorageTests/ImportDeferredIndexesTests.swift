import Core
import Foundation
import GRDB
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
