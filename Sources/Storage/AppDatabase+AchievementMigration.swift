import GRDB

extension AppDatabase {
  /// Migration "v5: dropped and carried todos".
  ///
  /// `dropped` marks a todo given up (`ootd drop`): open, not overdue, not done on its day.
  /// `carriedFrom` lists the days (comma-separated `YYYY-MM-DD`, oldest first) that had begun
  /// when the todo was moved away from them while open: each still counts it as planned and
  /// not done. Both are journaled todo fields, so undo and redo cover them. A partial index
  /// finds the few carried todos without scanning the table.
  static func achievementMigration(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE todo ADD COLUMN dropped INTEGER NOT NULL DEFAULT 0 CHECK (dropped IN (0, 1));
        ALTER TABLE todo ADD COLUMN carriedFrom TEXT;
        CREATE INDEX todo_carried ON todo(carriedFrom) WHERE carriedFrom IS NOT NULL;
        """)
  }
}
