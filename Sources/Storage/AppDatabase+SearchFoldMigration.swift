import Core
import GRDB

extension AppDatabase {
  /// Migration "v15-search-fold": `titleFold`, each todo's title as Core's search key
  /// (``Core/TodoFilter/fold(_:)``), so that `search` and `list --grep` find their candidates
  /// with SQLite's `instr` instead of calling Swift for every row (docs/decisions/search.md).
  /// Derived, not journaled: the journal's executor writes it with every title
  /// (``OperationExecutor``), so undo, redo, sync and import keep it; existing rows are filled
  /// here. NULL (a row written by other means) makes the search apply the rule to that row.
  static func searchFoldMigration(_ db: Database) throws {
    try db.execute(sql: "ALTER TABLE todo ADD COLUMN titleFold TEXT")
    let fold = DatabaseFunction("ootd_fold", argumentCount: 1, pure: true) { values in
      String.fromDatabaseValue(values[0]).map(TodoFilter.fold)
    }
    db.add(function: fold)
    try db.execute(sql: "UPDATE todo SET titleFold = ootd_fold(title)")
    db.remove(function: fold)
  }
}

extension AppDatabase {
  /// Migration "v19-search-fold-caseless": `titleFold` folded again where the rule changed
  /// (``Core/TodoFilter/caseless(_:)``: `ß` and `ss`, final `ς` and `σ`, `İ` and `i` now find
  /// each other). An ASCII title's fold is what it was (only lowercased), so only titles with
  /// other characters are read and written.
  static func searchFoldCaselessMigration(_ db: Database) throws {
    let fold = DatabaseFunction("ootd_fold", argumentCount: 1, pure: true) { values in
      String.fromDatabaseValue(values[0]).map(TodoFilter.fold)
    }
    db.add(function: fold)
    try db.execute(
      sql: """
        UPDATE todo SET titleFold = ootd_fold(title)
        WHERE titleFold IS NOT NULL AND length(title) <> length(CAST(title AS BLOB))
        """)
    db.remove(function: fold)
  }
}
