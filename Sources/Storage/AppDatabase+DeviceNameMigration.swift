import GRDB

extension AppDatabase {
  /// Migration "v17-device-names" (issue 24 §3): `syncDevice` keeps the name of each other
  /// machine, as the last record pulled from it said (its device id to its name, sanitised), so
  /// that `ootd log` says `from desktop`; a machine whose records carry no name has no row (the
  /// log shows its short id). The names travel sealed: the server never has them.
  ///
  /// It also starts `syncState`'s `echoedClock` (the latest clock of this machine's own records
  /// the pull has read back from the server, see ``SyncState/applyPulled(_:today:now:clocks:settling:)``)
  /// at what a syncing database has pushed: those records were read back by its syncs before.
  static func deviceNameMigration(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE syncDevice (
          device TEXT PRIMARY KEY NOT NULL,
          name TEXT NOT NULL
        ) WITHOUT ROWID;
        INSERT OR IGNORE INTO syncState (key, value)
          SELECT 'echoedClock', value FROM syncState WHERE key = 'pushedClock';
        """)
  }
}
