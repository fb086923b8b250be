import Core
import GRDB

extension AppDatabase {
  /// Migration "v10-remote-sync": syncing through a server.
  ///
  /// - The journal's clock becomes a hybrid logical clock (``HybridClock``): existing values,
  ///   milliseconds, are shifted into its wall-time bits, so their order is kept.
  /// - `journalChange.remote` marks entries pulled from other machines (never pushed again).
  /// - `syncState` holds the push and pull cursors, the first sync's clock and the file's
  ///   identity (see ``SyncState``).
  /// - `syncStamp` holds the stamp of each row's existence (field `''`: 1 alive, 0 deleted) and
  ///   of each field set since by an update, with its value, so that later merges order every
  ///   change (a deleted row keeps its later edits for an undo of the deletion to merge with);
  ///   a todo's tag changed by a tags update has its own, under the field `+tag` (1 added, 0
  ///   taken away: ``SyncRow/tags``).
  static func syncMigration(_ db: Database) throws {
    try db.execute(
      sql: """
        UPDATE journalOperation SET clock = clock * 65536;
        UPDATE journalSetting SET value = value * 65536 WHERE key = 'clock';
        ALTER TABLE journalChange ADD COLUMN remote INTEGER NOT NULL DEFAULT 0 CHECK (remote IN (0, 1));
        CREATE INDEX journalChange_on_remote_undone ON journalChange(remote, kind, undone, id);
        CREATE TABLE syncState (
          key TEXT PRIMARY KEY NOT NULL,
          value
        ) WITHOUT ROWID;
        CREATE TABLE syncStamp (
          row TEXT NOT NULL,
          field TEXT NOT NULL,
          clock INTEGER NOT NULL,
          device TEXT NOT NULL,
          value,
          PRIMARY KEY (row, field)
        ) WITHOUT ROWID;
        """)
  }
}
