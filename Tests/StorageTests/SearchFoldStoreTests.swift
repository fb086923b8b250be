import Core
import Foundation
import GRDB
import Testing

@testable import Storage

/// Migration v15-search-fold: each todo's `titleFold` is Core's fold of its title, filled for
/// the rows a database already had and written by every write path; a row without one (written
/// by other means) is still searched by the rule.
@Suite struct SearchFoldStoreTests {
  func folds(_ path: String) throws -> [String: String?] {
    try withRawDatabase(path) { db in
      var folds: [String: String?] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT title, titleFold FROM todo") {
        folds[row["title"] as String] = row["titleFold"] as String?
      }
      return folds
    }
  }

  @Test func theMigrationFoldsTheTitlesADatabaseAlreadyHad() throws {
    let scratch = Scratch()
    let path = scratch.path()
    try ReleasedSchema.writeVersion1(at: path)
    try withRawDatabase(path) { db in
      try db.execute(
        sql: """
          INSERT INTO todo (title, priority, day, createdAt) VALUES
            ('Enable WAL Mode', 1, '2026-11-20', '2026-11-20 09:00:00.000'),
            ('최단경로 ΣΊΣΥΦΟΣ Привет 🧭', 1, '2026-11-21', '2026-11-21 09:00:00.000')
          """)
    }
    let database = try AppDatabase.open(path: path)
    let folds = try folds(path)
    #expect(folds["Enable WAL Mode"] == "enable wal mode")
    let korean = "최단경로 ΣΊΣΥΦΟΣ Привет 🧭"
    #expect(folds[korean] == TodoFilter.fold(korean))
    #expect(try database.todos(matching: TodoFilter(days: .all, text: "привет")).map(\.title) == [korean])
    #expect(try database.todos(matching: TodoFilter(days: .all, text: "\u{110E}\u{116C}")).map(\.title) == [korean])
  }

  @Test func aRowWrittenWithoutAFold_isStillSearchedByTheRule() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    try withRawDatabase(scratch.path()) { db in
      try db.execute(
        sql: """
          INSERT INTO todo (title, priority, day, createdAt, uuid)
          VALUES ('Ärger mit ÖL', 1, '2026-11-20', '2026-11-20 09:00:00.000', 'raw-row')
          """)
    }
    #expect(try folds(scratch.path())["Ärger mit ÖL"] == .some(nil))
    #expect(try database.todos(matching: TodoFilter(days: .all, text: "äRGER")).map(\.title) == ["Ärger mit ÖL"])
  }

  /// Migration v19-search-fold-caseless: a database folded by the earlier rule (lowercasing
  /// only) is folded again where the rule changed, so `STRASSE` finds `Straße` after the
  /// upgrade; an ASCII title's fold is not rewritten (it cannot have changed).
  @Test func theCaselessMigration_foldsAgainOnlyTitlesBeyondASCII() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    try database.addTodo(try draft("Straße fegen", on: "2026-11-20"), now: fixedNow)
    try database.addTodo(try draft("ΦΟΣ", on: "2026-11-20"), now: fixedNow)
    try database.addTodo(try draft("Plain ASCII", on: "2026-11-20"), now: fixedNow)
    try withRawDatabase(scratch.path()) { db in
      // As the earlier rule folded them, and the migration not yet applied.
      try db.execute(sql: "UPDATE todo SET titleFold = 'straße fegen' WHERE title = 'Straße fegen'")
      try db.execute(sql: "UPDATE todo SET titleFold = 'φοσ' WHERE title = 'ΦΟΣ'")
      try db.execute(sql: "UPDATE todo SET titleFold = 'left as it was' WHERE title = 'Plain ASCII'")
      try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v19-search-fold-caseless'")
    }
    let upgraded = try AppDatabase.open(path: scratch.path())
    let folds = try folds(scratch.path())
    #expect(folds["Straße fegen"] == "strasse fegen")
    #expect(folds["ΦΟΣ"] == "φοσ")
    #expect(folds["Plain ASCII"] == "left as it was")
    #expect(try upgraded.todos(matching: TodoFilter(days: .all, text: "STRASSE")).map(\.title) == ["Straße fegen"])
    #expect(try upgraded.todos(matching: TodoFilter(days: .all, text: "φος")).map(\.title) == ["ΦΟΣ"])
  }
}
