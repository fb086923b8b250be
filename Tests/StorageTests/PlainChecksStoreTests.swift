import Core
import Foundation
import GRDB
import Testing

@testable import Storage

/// Migration v16-plain-checks: the checks on `todo.priority`, `todo.doneBy` and
/// `journalOperation.entity` / `.action` as plain comparisons (no temporary b-tree per written
/// row), accepting exactly what the `IN (…)` checks accepted, on a database that keeps every row.
@Suite struct PlainChecksStoreTests {
  /// Values of every storage class, near and far from the accepted ones.
  static let candidates = [
    "0", "1", "2", "3", "-1", "1.0", "1.5", "2.0000001", "'1'", "'2'", "' 1'", "'x'", "x'01'", "NULL",
    "'manual'", "'commits'", "'github'", "'Manual'", "'github '", "''",
    "'todo'", "'project'", "'block'", "'create'", "'update'", "'delete'", "'TODO'", "'Update'",
  ]

  /// Whether a row with `value` in `column` goes into `table` of the database at `path`, the
  /// other columns given by `others` (the insert is rolled back either way).
  func accepts(_ path: String, _ table: String, _ column: String, _ value: String, others: [String: String]) throws -> Bool {
    try withRawDatabase(path) { db in
      var values = others
      values[column] = value
      let names = values.keys.sorted()
      var accepted = false
      try db.inTransaction {
        do {
          try db.execute(
            sql: "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(names.map { values[$0]! }.joined(separator: ", ")))")
          accepted = true
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
          accepted = false
        }
        return .rollback
      }
      return accepted
    }
  }

  @Test("the rewritten checks accept exactly the values the IN (…) checks accepted, and build no b-tree per row")
  func sameValuesRefused() throws {
    let scratch = Scratch()
    _ = try scratch.freshDatabase()
    let path = scratch.path()
    // The checks as v1, v8 and v4 wrote them, on tables of the same columns' affinity.
    try withRawDatabase(path) { db in
      try db.execute(
        sql: """
          CREATE TABLE oldTodo (
            priority INTEGER NOT NULL CHECK (priority IN (0, 1, 2)),
            doneBy TEXT CHECK (doneBy IS NULL OR doneBy IN ('manual', 'commits', 'github')));
          CREATE TABLE oldOperation (
            entity TEXT NOT NULL CHECK (entity IN ('todo', 'project', 'block')),
            action TEXT NOT NULL CHECK (action IN ('create', 'update', 'delete')),
            field TEXT CHECK ((action = 'update') = (field IS NOT NULL)));
          INSERT INTO journalChange (uuid, at, device, kind, command, summary)
            VALUES ('c', '2026-11-18 00:00:00', 'd', 'change', 'x', 'x');
          """)
    }
    let todo = ["title": "'t'", "priority": "1", "day": "'2026-11-18'", "createdAt": "'2026-11-18 00:00:00'", "uuid": "'u'"]
    let operation = [
      "changeId": "1", "entity": "'todo'", "row": "'r'", "action": "'create'", "field": "NULL", "clock": "1",
      "device": "'d'",
    ]
    var refused = 0
    for value in Self.candidates {
      for (column, old, oldOthers, new, others) in [
        ("priority", "oldTodo", [:], "todo", todo), ("doneBy", "oldTodo", ["priority": "1"], "todo", todo),
        ("entity", "oldOperation", ["action": "'create'"], "journalOperation", operation),
        ("action", "oldOperation", ["entity": "'todo'"], "journalOperation", operation),
      ] {
        let before = try accepts(path, old, column, value, others: oldOthers)
        let now = try accepts(path, new, column, value, others: others)
        #expect(before == now, "\(column) = \(value): accepted before \(before), now \(now)")
        if !now { refused += 1 }
      }
    }
    // (the comparison means something: most candidates are refused by each check)
    #expect(refused > 60)
    // And writing a todo or an operation opens no temporary table any more
    let programs = try withRawDatabase(path) { db in
      try ["INSERT INTO todo (title, priority, day, createdAt, doneBy) VALUES ('t', 1, NULL, 'x', 'manual')",
           "INSERT INTO journalOperation (changeId, entity, row, action, clock, device) VALUES (1, 'todo', 'r', 'create', 1, 'd')",
      ].map { try String.fetchAll(db, sql: "EXPLAIN \($0)") }
    }
    for program in programs { #expect(!program.contains("OpenEphemeral")) }
  }

  @Test("v16-plain-checks: a v15 database keeps every todo and journal row, their ids and indexes, and never reuses an id")
  func migratesAVersion15Database() throws {
    // Given a database migrated up to v15 with todos, a journal, and a deleted last todo
    let scratch = Scratch()
    let path = scratch.path()
    do {
      let queue = try DatabaseQueue(path: path)
      try AppDatabase.migrator.migrate(queue, upTo: "v15-search-fold")
    }
    try withRawDatabase(path) { db in
      try db.execute(
        sql: """
          INSERT INTO project (name, createdAt, uuid) VALUES ('ootd', '2026-11-01 00:00:00', 'p');
          INSERT INTO todo (title, priority, day, done, doneAt, projectId, createdAt, uuid, dropped, notes, tags, doneBy, annotations, attributes, titleFold) VALUES
            ('a', 2, '2026-11-21', 1, '2026-11-21 10:00:00.000', 1, '2026-11-01 00:00:00', 'u1', 0, 'n', 'x y', 'github', 'an', 'at', 'a'),
            ('b', 0, NULL, 0, NULL, NULL, '2026-11-01 00:00:00', 'u2', 1, NULL, NULL, NULL, NULL, NULL, NULL),
            ('c', 1, '2026-11-22', 0, NULL, NULL, '2026-11-01 00:00:00', 'u3', 0, NULL, NULL, NULL, NULL, NULL, 'c');
          DELETE FROM todo WHERE id = 3;
          INSERT INTO journalChange (uuid, at, device, kind, command, summary)
            VALUES ('c1', '2026-11-18 00:00:00', 'd', 'change', 'add', 's');
          INSERT INTO journalOperation (changeId, entity, row, action, field, oldValue, newValue, clock, device) VALUES
            (1, 'todo', 'u1', 'create', NULL, NULL, '{"title":"a"}', 5, 'd'),
            (1, 'project', 'p', 'update', 'name', 'x', 'ootd', 6, 'd'),
            (1, 'block', 'b', 'delete', NULL, '{}', NULL, 7, 'd');
          DELETE FROM journalOperation WHERE id = 3;
          """)
    }
    func snapshot() throws -> [String: [[DatabaseValue]]] {
      try withRawDatabase(path) { db in
        var tables: [String: [[DatabaseValue]]] = [:]
        for (name, query) in [
          ("todo", "SELECT * FROM todo ORDER BY id"), ("journalOperation", "SELECT * FROM journalOperation ORDER BY id"),
          ("sequence", "SELECT name, seq FROM sqlite_sequence WHERE name IN ('todo', 'journalOperation') ORDER BY name"),
          ("indexes", "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('todo', 'journalOperation') ORDER BY name"),
          ("columns", "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info('todo') UNION ALL SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info('journalOperation')"),
        ] {
          tables[name] = try Row.fetchAll(db, sql: query).map { Array($0.databaseValues) }
        }
        return tables
      }
    }
    let before = try snapshot()
    // When this ootd opens it
    let database = try AppDatabase.open(path: path)
    // Then every row, column, index and counter is as it was, and the file is sound
    let after = try snapshot()
    #expect(after == before)
    #expect(before["todo"]?.count == 2 && before["journalOperation"]?.count == 2 && before["sequence"]?.count == 2)
    #expect(try withRawDatabase(path) { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"])
    #expect(try withRawDatabase(path) { try Row.fetchAll($0, sql: "PRAGMA foreign_key_check") }.isEmpty)
    // And the next todo gets id 4, not the deleted 3
    let added = try database.addTodo(try draft("later"), now: fixedNow)
    #expect(added.id == 4)
  }
}
