import Core
import Foundation
import GRDB

// Where this database stands with the server: beginning and finishing a sync, the pull cursor,
// the status `ootd remote status` shows, and a copied file's adoption of its unpushed changes.

extension SyncState {
  /// Prepares a sync: binds the database to `account` (``follow(_:_:)``: a database that synced
  /// with another account starts over); on the first sync, records the clock value the whole
  /// database is pushed at and where the push cursor starts; gives this database a new device
  /// id on its first sync and whenever `fileIdentity` (the file's device and inode numbers, from
  /// the caller) differs from the one recorded, which is what a copied file looks like (`cp`,
  /// `sqlite3 .backup`; `mv` on one file system keeps the file, so a moved database keeps its
  /// id, and a move across file systems looks like a copy: a new id, harmless). A copy thus
  /// never pushes under its original's device id: the changes it has not pushed yet, made since
  /// the copy under the original's id, become the new id's (``adoptUnpushed(_:from:to:)``), so
  /// the original receives them. Returns the device id, and the account synced with before when
  /// it was another one. One write transaction, which every sync makes (issue 24, session 18:
  /// the account was checked in a write transaction of its own, every sync).
  public func beginSync(fileIdentity: String?, account: SyncAccount?, now: Date) throws(StorageError)
    -> SyncBeginning
  {
    try write { db in
      let previous = try account.flatMap { try SyncState.follow(db, $0) }
      let firstSync = try !SyncState.isSyncing(db)
      let recorded = try SyncState.text(db, "fileIdentity")
      let copied = !firstSync && fileIdentity != nil && recorded != nil && recorded != fileIdentity
      let old = try AppDatabase.device(db)
      if firstSync || copied {
        try db.execute(
          sql: "UPDATE journalSetting SET value = ? WHERE key = 'device'", arguments: [RowID.random()])
      }
      if copied { try SyncState.adoptUnpushed(db, from: old, to: try AppDatabase.device(db)) }
      if let fileIdentity, fileIdentity != recorded { try SyncState.set(db, "fileIdentity", fileIdentity) }
      if firstSync {
        let last = try Int64.fetchOne(db, sql: "SELECT value FROM journalSetting WHERE key = 'clock'") ?? 0
        let floor = HybridClock.tick(last: last, milliseconds: Self.milliseconds(now))
        try db.execute(sql: "UPDATE journalSetting SET value = ? WHERE key = 'clock'", arguments: [floor])
        try SyncState.set(db, "floor", floor)
        try SyncState.set(db, "floorDevice", try AppDatabase.device(db))
        try SyncState.set(db, "pushedOperation", try Int64.fetchOne(db, sql: "SELECT max(id) FROM journalOperation") ?? 0)
        try SyncState.set(db, "pushedClock", floor)
        // The first sync's rows are stamped at the floor: none is a change made since.
        try SyncState.set(db, "echoedClock", floor)
        try SyncState.set(db, "snapshotPending", 1)
      }
      return SyncBeginning(device: try AppDatabase.device(db), previousAccount: previous)
    }
  }

  /// Binds this database's sync to `account` (the server's database and role it syncs with).
  /// The cursors, stamps and aliases belong to one account: when the database synced with
  /// another one before, they are dropped (its journal stays), so that the sync is a first sync
  /// again, pushing every row to the new account (issue 24: a `remote set` to another role or
  /// server left the push cursor past every change, and no todo ever reached the new account).
  /// Returns the account (its name) it synced with before, when it was another one; nil
  /// otherwise (a database that synced before accounts were recorded takes `account` as its own).
  ///
  /// Accounts are compared by the identity the server holds when both have one, so two URIs
  /// reaching one server (`localhost`, `127.0.0.1`) are one account (issue 24, session 18: the
  /// other spelling cost a full first push); else by name: a state recorded before identities
  /// were (its name only) takes the identity of the account of the same name, without starting
  /// over, and one of another name starts over, as before. Writes only what changed.
  static func follow(_ db: Database, _ account: SyncAccount) throws -> String? {
    let name = try text(db, "account")
    let identity = try text(db, "accountIdentity")
    let same =
      if let identity, let current = account.identity { identity == current } else { name == nil || name == account.name }
    var previous: String?
    if !same, let name, try isSyncing(db) {
      try db.execute(sql: "DELETE FROM syncState WHERE key <> 'fileIdentity'")
      try db.execute(sql: "DELETE FROM syncStamp")
      try db.execute(sql: "DELETE FROM syncSetAside")
      previous = name
    }
    if previous != nil || name != account.name { try set(db, "account", account.name) }
    if let current = account.identity, previous != nil || identity != current {
      try set(db, "accountIdentity", current)
    }
    return previous
  }

  /// Records that a sync completed at `now`, and the server's instant of it (`serverTime`, ms
  /// in this machine's reckoning), which a change made here after it cannot honestly be earlier
  /// than (``misstampedChanges(serverNow:toleranceMilliseconds:)``).
  public func finishSync(now: Date, serverTime: Int64? = nil) throws(StorageError) {
    try write { db in
      try SyncState.set(db, "lastSync", Timestamp.string(now, .sqlite))
      if let serverTime { try SyncState.set(db, "lastSyncServer", serverTime) }
    }
  }

  /// The day figures last published, as ``recordPublished(_:displayName:)`` kept them (none before).
  public func publishedFigures() throws(StorageError) -> [DayFigure] {
    try read { db in DayFigure.decode(try SyncState.text(db, "publishedFigures") ?? "") }
  }

  /// The display name last published ("" for none), nil before one was recorded.
  public func publishedDisplayName() throws(StorageError) -> String? {
    try read { db in try SyncState.text(db, "publishedName") }
  }

  /// Remembers the day figures and the display name the server now has from this machine:
  /// the next sync publishes only the days whose figures differ, and nothing when none does
  /// and the name is the same.
  public func recordPublished(_ figures: [DayFigure], displayName: String) throws(StorageError) {
    try write { db in
      try SyncState.set(db, "publishedFigures", DayFigure.encode(figures))
      try SyncState.set(db, "publishedName", displayName)
    }
  }

  /// The server position pulled up to (0 before the first pull).
  public func pullCursor() throws(StorageError) -> Int64 {
    try read { db in try SyncState.integer(db, "pulledThrough") ?? 0 }
  }

  /// Where this database stands with the server.
  public func syncStatus() throws(StorageError) -> SyncStatus {
    try read { db in
      let syncing = try SyncState.isSyncing(db)
      let pushed = try SyncState.integer(db, "pushedOperation") ?? 0
      let waiting = try Row.fetchOne(
        db,
        sql: """
          SELECT count(DISTINCT o.changeId), count(*) FROM journalOperation o
          JOIN journalChange c ON c.id = o.changeId WHERE o.id > ? AND c.remote = 0
          """, arguments: [syncing ? pushed : 0])
      return SyncStatus(
        device: try AppDatabase.device(db), deviceAssigned: syncing,
        lastSync: try SyncState.text(db, "lastSync").flatMap { Timestamp.date($0, .sqlite) },
        firstSyncPending: try !syncing || SyncState.integer(db, "snapshotPending") == 1,
        waitingChanges: waiting?[0] ?? 0, waitingOperations: waiting?[1] ?? 0,
        pulledThrough: try SyncState.integer(db, "pulledThrough") ?? 0,
        setAside: try PulledRecord.all(db))
    }
  }

  /// Forgets the rows set aside at `seqs`, which the server no longer holds (its owner deleted
  /// them): `remote status` stops listing them.
  public func forgetSetAside(_ seqs: [Int64]) throws(StorageError) {
    try write { db in try PulledRecord.forget(db, seqs) }
  }

  /// The milliseconds since 1970 of `date`, as the hybrid clock counts them.
  static func milliseconds(_ date: Date) -> Int64 { SyncClocks.milliseconds(date) }

  /// Makes this machine's changes not pushed yet `old`'s no longer: their journal entries,
  /// operations and stamps take device id `new` (a copied database, see
  /// ``beginSync(fileIdentity:now:)``). Changes that were not pushed when the file was
  /// copied are then on both machines under two ids; they carry the same values, so each
  /// machine receiving the other's copy changes nothing (the server keeps one record of each).
  static func adoptUnpushed(_ db: Database, from old: String, to new: String) throws {
    let pushed = try integer(db, "pushedOperation") ?? 0
    let pushedClock = try integer(db, "pushedClock") ?? 0
    try db.execute(
      sql: """
        UPDATE journalChange SET device = ? WHERE remote = 0 AND device = ?
          AND id IN (SELECT changeId FROM journalOperation WHERE id > ?)
        """, arguments: [new, old, pushed])
    try db.execute(
      sql: "UPDATE journalOperation SET device = ? WHERE id > ? AND device = ?", arguments: [new, pushed, old])
    try db.execute(
      sql: "UPDATE syncStamp SET device = ? WHERE device = ? AND clock > ?", arguments: [new, old, pushedClock])
    // A first sync that never finished pushes every row at its clock, under the new id too.
    if try integer(db, "snapshotPending") == 1 {
      try set(db, "floorDevice", new)
      // All of them: the pages pushed so far went under the old id.
      try db.execute(sql: "DELETE FROM syncState WHERE key = 'snapshotThrough'")
    }
  }
}
