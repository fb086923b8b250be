import Core
import Foundation
import GRDB

// The changes a sync refuses to push because this machine's clock was wrong when they were made
// (issue 24 §2), and the server's instant of the last completed sync they are judged by.

extension SyncState {
  /// This machine's changes not pushed yet made (by `journalChange.at`, the wall clock they
  /// were made at) more than `toleranceMilliseconds` after `serverNow`, or as far before the
  /// previous completed sync's server instant. A change undone here is not counted, nor its
  /// undo: undoing is a way out.
  public func misstampedChanges(serverNow: Int64, toleranceMilliseconds: Int64)
    throws(StorageError) -> MisstampedChanges
  {
    try read { db in
      var found = MisstampedChanges(serverNow: serverNow)
      guard try SyncState.isSyncing(db) else { return found }
      found.previousSync = try SyncState.integer(db, "lastSyncServer")
      let late = Timestamp.string(Self.date(HybridClock.advanced(serverNow, by: toleranceMilliseconds)), .sqlite)
      // Before any recorded sync nothing is too early ('' sorts before every instant).
      let early = found.previousSync.map { Timestamp.string(Self.date($0 - toleranceMilliseconds), .sqlite) } ?? ""
      let pending = "SELECT changeId FROM journalOperation WHERE id > :pushed"
      let row = try Row.fetchOne(
        db,
        sql: """
          SELECT coalesce(sum(c.at > :late), 0), max(c.at), coalesce(sum(c.at < :early), 0), min(c.at)
          FROM journalChange c
          WHERE c.remote = 0 AND c.id IN (\(pending)) AND c.command != :settled
            AND NOT (c.kind = 'change' AND c.undone = 1)
            AND NOT (c.kind = 'undo' AND c.target IN (\(pending))
              AND EXISTS (SELECT 1 FROM journalChange t WHERE t.id = c.target AND t.undone = 1))
          """,
        arguments: [
          "late": late, "early": early, "pushed": try SyncState.integer(db, "pushedOperation") ?? 0,
          // What a sync settled itself (a renumbering, a rule kept: ``SyncState/resolutionCommand``)
          // is stamped past what it pulled and decided the same way on every machine, whatever
          // this clock said; it cannot be undone here either, so it never holds the push back
          // (tryout 19 S3: a machine once 2 days slow could never push again).
          "settled": SyncState.resolutionCommand,
        ])
      guard let row else { return found }
      found.ahead = row[0]
      found.behind = row[2]
      found.latest = (row[1] as String?).flatMap { Timestamp.date($0, .sqlite) }.map(Self.milliseconds)
      found.earliest = (row[3] as String?).flatMap { Timestamp.date($0, .sqlite) }.map(Self.milliseconds)
      return found
    }
  }

  static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
