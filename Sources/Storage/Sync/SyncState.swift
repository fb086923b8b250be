import Core
import Foundation
import GRDB

// The sync state: its store, its key/value table and what the journaled write path asks of it
// here; where the database stands with the server (begin, finish, the cursors, the status) in
// SyncState+Status.swift, the push side in SyncState+Push.swift, the pull side in
// SyncState+Pull.swift, the stamps merges compare and the id aliases in SyncState+Stamps.swift,
// and the door pulled records pass in PulledRecord.swift.

/// This machine's side of a sync (Core's ``SyncJournal``): the `syncState` table (the cursors,
/// the first sync's clock, the file identity, the id aliases), the `syncStamp` table (the stamps
/// merges compare) and the records set aside (`syncSetAside`). Reached as `database.sync`.
///
/// Its pull side changes todos, projects and blocks, and does so only through the one journaled
/// write path: each pulled record is applied by a ``ChangeRecorder`` inside the store's one
/// transaction (a journal entry of the record's device), and the rules' fixes by
/// `AppDatabase.keepTodoRules`, the same internal entry points `change(now:)` uses. In return the
/// journaled path asks the sync state (the static members here) whether the database is
/// syncing, stamps each local operation, and keeps journal entries not yet pushed from pruning.
public struct SyncState: DatabaseStore {
  let writer: any DatabaseWriter
  let path: String
  /// Whether a pulled record of todos never seen here takes the bulk path (``FreshTodos``);
  /// off only in tests comparing it with the per-row path.
  var bulkPull = true
  /// The entries of other machines this value's pulls joined records into, across their
  /// transactions (``JoinedEntries``).
  let joinedCache = JoinedEntries.Cache()
}

extension AppDatabase {
  /// The sync state of this database: what it has pushed and pulled, through ``SyncJournal``.
  public var sync: SyncState { SyncState(writer: writer, path: path) }
}

/// The sync run reaches this machine's journal through Core's ``SyncJournal``.
extension SyncState: SyncJournal {}

// MARK: - The key/value table, and what the journaled write path reads

extension SyncState {
  /// The command of the records a first sync pushes (every row, by entity): what another
  /// machine's log shows for them.
  static let firstSyncCommand = "(first sync)"

  /// The command of what a pull settles as this machine's change (a todo renumbered, a rule
  /// mended), which undo passes over (``AppDatabase/undo(today:now:)``).
  static let resolutionCommand = "remote sync"

  static func text(_ db: Database, _ key: String) throws -> String? {
    try KeyValueTable.syncState.value(db, key, as: String.self)
  }

  static func integer(_ db: Database, _ key: String) throws -> Int64? {
    try KeyValueTable.syncState.value(db, key, as: Int64.self)
  }

  static func set(_ db: Database, _ key: String, _ value: some DatabaseValueConvertible) throws {
    try KeyValueTable.syncState.set(db, key, to: value)
  }

  /// Whether this database has started syncing (its changes are stamped from then on).
  static func isSyncing(_ db: Database) throws -> Bool {
    try Bool.fetchOne(db.cachedStatement(sql: "SELECT \(syncingCondition)")) ?? false
  }

  /// Whether syncing, as an SQL expression: the first sync recorded its floor.
  static let syncingCondition = "(SELECT value IS NOT NULL FROM syncState WHERE key = 'floor')"

  /// The first local journal entry with an operation not yet pushed, once syncing.
  static func firstUnpushedChange(_ db: Database) throws -> Int64? {
    guard try isSyncing(db) else { return nil }
    return try Int64.fetchOne(
      db,
      sql: """
        SELECT min(o.changeId) FROM journalOperation o JOIN journalChange c ON c.id = o.changeId
        WHERE o.id > ? AND c.remote = 0
        """, arguments: [try integer(db, "pushedOperation") ?? 0])
  }
}
