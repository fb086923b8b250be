import Core
import Foundation
import GRDB

// The push side of a sync: the pages of records to push, and the push cursor moved past a page
// the server took.

extension SyncState {
  /// The next records to push (nil when everything is pushed): on the first sync every row
  /// not pulled from the server (blocks, projects, then todos) as creations at the first
  /// sync's clock; then this
  /// machine's journal entries not yet pushed, whole entries up to about `maxOperations`
  /// operations, in order. Record ids derive from the entry's uuid (or the first sync's
  /// clock), so pushing the same page again is deduplicated by the server.
  public func pushPage(maxOperations: Int) throws(StorageError) -> SyncPushPage? {
    try read { db in
      guard let floor = try SyncState.integer(db, "floor"),
        let floorDevice = try SyncState.text(db, "floorDevice")
      else { throw StorageError.sqlite("the database has not started syncing") }
      let pushed = try SyncState.integer(db, "pushedOperation") ?? 0
      let pushedClock = try SyncState.integer(db, "pushedClock") ?? floor
      let links = LinkTranslation(db)
      if try SyncState.integer(db, "snapshotPending") == 1 {
        let stamp = Stamp(clock: floor, device: floorDevice)
        var records: [SyncRecord] = []
        var count = 0
        func add(_ entity: Entity, _ rows: [(uuid: String, fields: Fields)]) throws {
          let operations = try rows.map { row in
            try links.outgoing(SyncOperation(entity, row: row.uuid, .create(row.fields), stamp: stamp))
          }
          count += operations.count
          for (chunk, (payload, range)) in SyncPayload.chunks(command: "(first sync)", operations).enumerated() {
            let slice = rows[range]
            records.append(
              SyncRecord(
                // Named by the rows it holds: a first sync stopped and run again after rows
                // changed makes new records for chunks that changed (their rows merge as one).
                opID: RowID.syncRecord(
                  "first sync \(floorDevice) \(floor) \(entity) \(chunk) \(slice.first!.uuid) \(slice.last!.uuid) \(slice.count)"),
                device: floorDevice, clock: HybridClock.text(floor), payload: payload))
          }
        }
        // Rows pulled from the server (stamped) are there already: only this machine's own.
        let unstamped = "NOT EXISTS (SELECT 1 FROM syncStamp WHERE syncStamp.row = %@.uuid AND syncStamp.field = '')"
        func own(_ table: String) -> String { unstamped.replacingOccurrences(of: "%@", with: table) }
        try add(.block, try BlockRecord.fetchAll(db, sql: "SELECT * FROM block WHERE \(own("block")) ORDER BY uuid").map { ($0.uuid, $0.fields) })
        try add(.project, try ProjectRecord.fetchAll(db, sql: "SELECT * FROM project WHERE \(own("project")) ORDER BY uuid").map { ($0.uuid, $0.fields) })
        var todos: [(uuid: String, fields: Fields)] = []
        try TodoRecord.forEach(db, where: own("todo")) { record in
          todos.append((record.uuid, record.fields))
          return true
        }
        try add(.todo, todos)
        return SyncPushPage(
          records: records, operations: count, throughOperation: pushed, throughClock: pushedClock,
          snapshot: true)
      }
      // No DISTINCT in the subquery: with it SQLite walks the whole changeId index (every
      // operation ever journaled) instead of the rowid range past the cursor.
      let changes = try Row.fetchAll(
        db,
        sql: """
          SELECT id, uuid, command, device FROM journalChange
          WHERE remote = 0 AND id IN (SELECT changeId FROM journalOperation WHERE id > ?)
          ORDER BY id
          """, arguments: [pushed])
      guard !changes.isEmpty else { return nil }
      var records: [SyncRecord] = []
      var count = 0
      var through = pushed
      var throughClock = pushedClock
      var entries = 0
      for change in changes {
        if count >= maxOperations { break }
        entries += 1
        let changeID: Int64 = change["id"]
        let changeUUID: String = change["uuid"]
        let command: String = change["command"]
        let device: String = change["device"]
        var operations: [SyncOperation] = []
        let rows = try Row.fetchCursor(
          db, sql: "SELECT * FROM journalOperation WHERE changeId = ? AND id > ? ORDER BY id",
          arguments: [changeID, pushed])
        while let row = try rows.next() {
          let operation = try JournalOperationRecord(row: row).operation
          let clock: Int64 = row["clock"]
          let id: Int64 = row["id"]
          through = max(through, id)
          throughClock = max(throughClock, clock)
          if case .update(let field, _, _) = operation.action, SyncMerge.isLocal(operation.entity, field) { continue }
          operations.append(try links.outgoing(SyncOperation(operation, stamp: Stamp(clock: clock, device: device))))
        }
        for (chunk, (payload, range)) in SyncPayload.chunks(command: command, operations).enumerated() {
          records.append(
            SyncRecord(
              opID: RowID.syncRecord("\(changeUUID) \(chunk)"), device: device,
              clock: HybridClock.text(operations[range].map(\.stamp.clock).max() ?? 0), payload: payload))
        }
        count += operations.count
      }
      return SyncPushPage(
        records: records, operations: count, throughOperation: through, throughClock: throughClock,
        snapshot: false, changes: entries)
    }
  }

  /// Records that `page` reached the server: the push cursor moves past it (a page pushed
  /// again after a crash before this is deduplicated by the server).
  public func markPushed(_ page: SyncPushPage) throws(StorageError) {
    try write { db in
      let pushed = try SyncState.integer(db, "pushedOperation") ?? 0
      let clock = try SyncState.integer(db, "pushedClock") ?? 0
      try SyncState.set(db, "pushedOperation", max(pushed, page.throughOperation))
      try SyncState.set(db, "pushedClock", max(clock, page.throughClock))
      if page.snapshot { try SyncState.set(db, "snapshotPending", 0) }
    }
  }
}
