import Core
import Foundation
import GRDB
import Testing

@testable import Storage

/// The interactive commands' queries stay on indexes ("v11-lean-indexes" dropped and narrowed
/// some): each operation below runs on a real database file while every statement it executes
/// is traced, and the plan of each (`EXPLAIN QUERY PLAN`) must not scan a table that grows with
/// use. A dropped index that one of them needed shows up here as a `SCAN`.
@Suite("Query plans of the interactive commands")
struct QueryPlanTests {
  /// Tables that grow with use: a full scan of one is never acceptable on an interactive path.
  static let growingTables = ["todo", "journalChange", "journalOperation", "syncStamp"]

  /// Scans of a partial index are allowed: it holds only the few rows it names.
  static let partialIndexes = ["journalChange_redoable", "todo_carried", "todo_open_on_day"]

  /// What a command does through Storage, on the database ``seeded()`` makes.
  struct Operation: CustomTestStringConvertible, Sendable {
    let name: String
    let run: @Sendable (AppDatabase, Seed) throws -> Void
    var testDescription: String { name }
  }

  /// The rows ``seeded()`` made.
  struct Seed {
    let open: Todo
    let done: Todo
    let inProject: Todo
  }

  static let operations: [Operation] = [
    Operation(name: "add") { database, _ in
      _ = try database.addTodo(try draft("new", .high), now: fixedNow)
    },
    Operation(name: "add --project") { database, _ in
      _ = try database.addTodo(try draft("new", project: "ootd"), now: fixedNow)
    },
    Operation(name: "done") { database, seed in
      _ = try database.setDoneTellingUnchanged(ids: [seed.open.id], done: true, now: fixedNow)
    },
    Operation(name: "done PREFIX (the uuid prefix looked up)") { database, seed in
      _ = try database.todoIDs(matchingUUIDPrefix: String(seed.open.uuid.prefix(6)))
    },
    Operation(name: "undone") { database, seed in
      _ = try database.setDoneTellingUnchanged(ids: [seed.done.id], done: false, now: fixedNow)
    },
    Operation(name: "list (today)") { database, _ in
      _ = try database.todos(matching: TodoFilter(days: .range(DayRange(day: day("2026-11-22")))))
    },
    Operation(name: "list --project") { database, _ in
      _ = try database.todos(matching: TodoFilter(days: .all, project: "ootd"))
    },
    Operation(name: "list --open over a month") { database, _ in
      let month = try DayRange(from: day("2026-11-01"), to: day("2026-11-30"))
      _ = try database.todos(matching: TodoFilter(days: .range(month), status: .open))
    },
    Operation(name: "dashboard: overdue, counts and streak") { database, _ in
      _ = try database.overdueSummary(before: day("2026-11-22"), limit: 10)
      _ = try database.perfectDayStreak(before: day("2026-11-22"))
      _ = try database.achievementCounts(in: DayRange(day: day("2026-11-22")))
    },
    Operation(name: "report --project") { database, _ in
      let year = try DayRange(from: day("2026-01-01"), to: day("2026-12-31"))
      _ = try database.achievementCounts(in: year, project: "ootd")
    },
    Operation(name: "show (history)") { database, seed in
      _ = try database.todos(ids: [seed.inProject.id])
      _ = try database.history(ofRow: seed.inProject.uuid)
    },
    Operation(name: "undo") { database, _ in
      _ = try database.undo(now: fixedNow)
    },
    Operation(name: "redo") { database, _ in
      _ = try database.undo(now: fixedNow)
      _ = try database.redo(now: fixedNow)
    },
    Operation(name: "rm") { database, seed in
      _ = try database.deleteTodos(ids: [seed.open.id], now: fixedNow)
    },
  ]

  /// A database file with a project, todos on several days (open, done, in the project), and
  /// journal entries for all of them.
  static func seeded() throws -> (AppDatabase, Seed) {
    let database = try Scratch().freshDatabase()
    try database.addProject(try Project(name: "ootd"), now: fixedNow)
    for (index, text) in ["2026-11-19", "2026-11-20", "2026-11-21"].enumerated() {
      _ = try database.addTodo(try draft("earlier \(index)", on: text), now: fixedNow)
    }
    let open = try database.addTodo(try draft("open", .low), now: fixedNow)
    let done = try database.addTodo(try draft("done"), now: fixedNow)
    _ = try database.setDone(ids: [done.id], done: true, now: fixedNow)
    let inProject = try database.addTodo(try draft("in project", project: "ootd"), now: fixedNow)
    return (database, Seed(open: open, done: done, inProject: inProject))
  }

  /// The SQL of every statement `body` executes (triggers' and GRDB's own bookkeeping left out).
  static func statements(_ database: AppDatabase, _ body: () throws -> Void) throws -> [String] {
    let traced = Locked<[String]>([])
    try database.write { db in
      db.trace(options: .statement) { event in
        guard case .statement(let statement) = event else { return }
        traced.withLock { $0.append(statement.sql) }
      }
    }
    defer { try? database.write { db in db.trace(options: .statement, nil) } }
    try body()
    return traced.withLock { $0 }
  }

  /// The plan of `sql`, each parameter bound to NULL (plans here do not depend on values).
  static func plan(_ database: AppDatabase, _ sql: String) throws -> [String] {
    try database.read { db in
      let statement = try db.makeStatement(sql: "EXPLAIN QUERY PLAN " + sql)
      // No values: SQLite reads a parameter left unbound as NULL.
      statement.setUncheckedArguments([])
      return try Row.fetchAll(statement).map { $0["detail"] as String }
    }
  }

  /// A plan line that reads a whole growing table or a whole index of one.
  static func fullScan(_ line: String) -> Bool {
    growingTables.contains { table in
      (line == "SCAN \(table)" || line.hasPrefix("SCAN \(table) "))
        && !partialIndexes.contains { line.hasSuffix("INDEX \($0)") }
    }
  }

  @Test(arguments: operations)
  func theQueriesOf(_ operation: Operation) throws {
    // Given a database with todos, a project and journal entries
    let (database, seed) = try Self.seeded()
    // When the operation runs
    let executed = try Self.statements(database) { try operation.run(database, seed) }
    let queries = Set(
      executed.filter { sql in
        let verb = sql.drop { $0.isWhitespace }.prefix(6).uppercased()
        return ["SELECT", "UPDATE", "DELETE"].contains(verb)
      })
    // Then it ran queries, and none scans a growing table
    #expect(!queries.isEmpty)
    for sql in queries {
      let plan = try Self.plan(database, sql)
      #expect(!plan.contains(where: Self.fullScan), "\(sql)\n  plan: \(plan)")
    }
  }

  @Test("the scan check catches a full scan and lets partial-index scans through")
  func fullScanDetection() {
    #expect(Self.fullScan("SCAN todo"))
    #expect(Self.fullScan("SCAN todo USING INDEX todo_on_day_priority_done"))
    #expect(Self.fullScan("SCAN journalOperation"))
    #expect(!Self.fullScan("SCAN journalChange USING INDEX journalChange_redoable"))
    #expect(!Self.fullScan("SEARCH todo USING INDEX todo_on_day_priority_done (day>? AND day<?)"))
    #expect(!Self.fullScan("SCAN project"))
  }

  @Test("v11-lean-indexes: the lists' order and the reports' counts each come from one index")
  func leanIndexesServeBothOrderAndCounts() throws {
    let (database, _) = try Self.seeded()
    let list = try Self.plan(
      database,
      "SELECT \(TodoRecord.selection) FROM \(TodoRecord.source) WHERE todo.day BETWEEN ? AND ? ORDER BY todo.day, todo.priority, todo.id"
    )
    #expect(list.contains { $0.contains("USING INDEX todo_on_day_priority_done") }, "\(list)")
    #expect(!list.contains { $0.contains("TEMP B-TREE") }, "\(list)")
    let counts = try Self.plan(
      database, "SELECT day, priority, count(*), sum(done) FROM todo WHERE day BETWEEN ? AND ? GROUP BY day, priority")
    #expect(counts.contains { $0.contains("COVERING INDEX todo_on_day_priority_done") }, "\(counts)")
    #expect(!counts.contains { $0.contains("TEMP B-TREE") }, "\(counts)")
  }

  @Test("v11-lean-indexes: the duplicate and unused indexes are gone, the project and target ones are partial")
  func leanIndexesLeaveOutWhatNoQueryReads() throws {
    let (database, _) = try Self.seeded()
    let indexes = try database.read { db in
      try String.fetchAll(
        db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('todo', 'journalChange')")
    }
    #expect(!indexes.contains("todo_on_day_priority"))
    #expect(!indexes.contains("journalChange_on_device_undone"))
    #expect(indexes.contains("todo_on_project_day") && indexes.contains("journalChange_on_target"))
    // The partial indexes' conditions, as SQLite stores them
    let definitions = try database.read { db in
      try String.fetchAll(
        db,
        sql: """
          SELECT sql FROM sqlite_master
          WHERE name IN ('todo_on_project_day', 'journalChange_on_target') ORDER BY name
          """)
    }
    #expect(definitions.count == 2)
    #expect(definitions.allSatisfy { $0.contains("IS NOT NULL") }, "\(definitions)")
  }
}
