import GRDB

extension AppDatabase {
  /// Migration "v12-sync-set-aside": rows pulled from the sync server that this machine could
  /// not apply (unreadable, over a cap of ``Core/Caps``, a clock out of range, refused by a
  /// constraint) are set aside here, one row each, and the pull cursor moves past them, so one
  /// bad row never stops later syncs. `seq` is the server's position, `opId` and `device` the
  /// record's, `reason` one sentence, `at` when it was set aside.
  static func setAsideMigration(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE syncSetAside (
          seq INTEGER PRIMARY KEY NOT NULL,
          opId TEXT NOT NULL,
          device TEXT NOT NULL,
          reason TEXT NOT NULL,
          at TEXT NOT NULL
        )
        """)
  }
}
