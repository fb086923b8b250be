import Core
import Foundation
import GRDB
import Zone

extension AppDatabase {
  // MARK: - Syncing

  /// Prepares a sync: on the first one, records the clock value the whole database is pushed
  /// at and where the push cursor starts; gives this database a new device id on its first
  /// sync and whenever `fileIdentity` (the file's device and inode numbers, from the caller)
  /// differs from the one recorded, which is what a copied file looks like (`cp`, `sqlite3
  /// .backup`; `mv` on one file system keeps the file, so a moved database keeps its id, and a
  /// move across file systems looks like a copy: a new id, harmless). A copy thus never pushes
  /// under its original's device id: the changes it has not pushed yet, made since the copy
  /// under the original's id, become the new id's (``SyncState/adoptUnpushed(_:from:to:)``), so
  /// the original receives them. Returns the device id.
  @discardableResult
  public func beginSync(fileIdentity: String?, now: Date) throws(StorageError) -> String {
    try write { db in
      let firstSync = try !SyncState.isSyncing(db)
      let recorded = try SyncState.text(db, "fileIdentity")
      let copied = !firstSync && fileIdentity != nil && recorded != nil && recorded != fileIdentity
      let old = try Self.device(db)
      if firstSync || copied {
        try db.execute(
          sql: "UPDATE journalSetting SET value = ? WHERE key = 'device'", arguments: [RowID.random()])
      }
      if copied { try SyncState.adoptUnpushed(db, from: old, to: try Self.device(db)) }
      if let fileIdentity { try SyncState.set(db, "fileIdentity", fileIdentity) }
      if firstSync {
        let last = try Int64.fetchOne(db, sql: "SELECT value FROM journalSetting WHERE key = 'clock'") ?? 0
        let floor = HybridClock.tick(last: last, milliseconds: Self.milliseconds(now))
        try db.execute(sql: "UPDATE journalSetting SET value = ? WHERE key = 'clock'", arguments: [floor])
        try SyncState.set(db, "floor", floor)
        try SyncState.set(db, "floorDevice", try Self.device(db))
        try SyncState.set(db, "pushedOperation", try Int64.fetchOne(db, sql: "SELECT max(id) FROM journalOperation") ?? 0)
        try SyncState.set(db, "pushedClock", floor)
        try SyncState.set(db, "snapshotPending", 1)
      }
      return try Self.device(db)
    }
  }

  /// Records that a sync completed at `now`.
  public func finishSync(now: Date) throws(StorageError) {
    try write { db in try SyncState.set(db, "lastSync", Timestamp.string(now, .sqlite)) }
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
        device: try Self.device(db), deviceAssigned: syncing,
        lastSync: try SyncState.text(db, "lastSync").flatMap { Timestamp.date($0, .sqlite) },
        firstSyncPending: try !syncing || SyncState.integer(db, "snapshotPending") == 1,
        waitingChanges: waiting?[0] ?? 0, waitingOperations: waiting?[1] ?? 0,
        pulledThrough: try SyncState.integer(db, "pulledThrough") ?? 0,
        setAside: try PulledRecord.all(db))
    }
  }

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
      for change in changes {
        if count >= maxOperations { break }
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
          if case .update(let field, _, _) = operation.action, SyncMerge.localFields.contains(field) { continue }
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
        snapshot: false)
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

  /// Applies records pulled from the server (with their server positions, in order) and moves
  /// the pull cursor past them, in one transaction: each operation is merged by
  /// ``SyncMerge`` with what this database knows of the row, and what changes is applied
  /// through the one write path, as a journal entry of the record's device keeping its clock.
  /// Records of this device are skipped (already applied here).
  ///
  /// A todo the merge leaves breaking a rule on `today` (done on a later day, dropped and done)
  /// is then mended by ``TodoRules/resolve(_:today:)`` as a change of this machine, after
  /// every record is applied (so a state that later records mend is not reported), and the
  /// fix reported in ``SyncPullResult/ruleConflicts``. `today` defaults to the day of `now` here.
  ///
  /// A record that cannot be applied (unreadable, over a cap of ``Caps``, a clock out of range,
  /// a value a constraint refuses) is set aside whole: nothing of it is applied, it is kept in
  /// `syncSetAside`, reported in ``SyncPullResult/setAside``, and the cursor moves past it, so
  /// that no later sync stops on it. Errors of this database itself (a full disk) still throw.
  public func applyPulled(
    _ records: [(seq: Int64, record: SyncRecord)], today: Day, now: Date
  ) throws(StorageError) -> SyncPullResult {
    return try write { db in
      let device = try Self.device(db)
      guard let floor = try SyncState.integer(db, "floor"),
        let floorDevice = try SyncState.text(db, "floorDevice")
      else { throw StorageError.sqlite("the database has not started syncing") }
      let floorStamp = Stamp(clock: floor, device: floorDevice)
      let pushedClock = try SyncState.integer(db, "pushedClock") ?? floor
      let isPending = { (stamp: Stamp) in stamp.device == device && stamp.clock > pushedClock }
      let links = LinkTranslation(db)
      var result = SyncPullResult(records: 0, operations: 0, changed: 0, conflicts: [])
      var cursor = try SyncState.integer(db, "pulledThrough") ?? 0
      var clock = try Int64.fetchOne(db, sql: "SELECT value FROM journalSetting WHERE key = 'clock'") ?? 0
      // Todos whose day, done or dropped the merge changed: checked against the rules at the end.
      var touched = Set<String>()
      for (seq, record) in records {
        cursor = max(cursor, seq)
        guard record.device != device else { continue }
        // Each record in a savepoint: one that fails half-way leaves nothing behind.
        var applied = (operations: 0, changed: 0, clock: clock, touched: Set<String>(), conflicts: [SyncConflictReport]())
        do {
          try db.inSavepoint {
            let batch = try PulledRecord.check(record)
            let recorder = ChangeRecorder(db, command: batch.command, now: now, device: record.device)
            for remote in batch.operations {
              applied.clock = HybridClock.receive(last: applied.clock, remote: remote.stamp.clock)
              let operation = try links.incoming(remote)
              let before = try SyncState.row(db, operation.entity, operation.row, floor: floorStamp)
              var outcome = SyncMerge.merge(operation, into: before, isPending: isPending)
              recorder.remoteClock = remote.stamp.clock
              try Self.apply(outcome.effect, of: operation, recorder: recorder, outcome: &outcome)
              if operation.entity == .todo, Self.touchesRules(outcome.effect) { applied.touched.insert(operation.row) }
              try SyncState.write(db, operation.row, before: before, after: outcome.row)
              for conflict in outcome.conflicts {
                let name = try OperationExecutor.currentFields(db, operation.entity, row: operation.row)?[
                  operation.entity.nameField]?.text
                  ?? outcome.row.fields[operation.entity.nameField]?.value.text
                applied.conflicts.append(SyncConflictReport(conflict: conflict, name: name))
              }
            }
            applied.operations = batch.operations.count
            applied.changed = recorder.count
            try recorder.finish()
            return .commit
          }
        } catch {
          guard let reason = PulledRecord.reason(error) else { throw error }
          let row = SetAsideRow(seq: seq, device: record.device, reason: reason)
          try PulledRecord.setAside(db, row, opID: record.opID, now: now)
          result.setAside.append(row)
          continue
        }
        result.records += 1
        result.operations += applied.operations
        result.changed += applied.changed
        result.conflicts += applied.conflicts
        clock = applied.clock
        touched.formUnion(applied.touched)
      }
      try db.execute(
        sql: "UPDATE journalSetting SET value = max(value, ?) WHERE key = 'clock'", arguments: [clock])
      // The fix is this machine's change, stamped after everything pulled: the next push takes
      // it to the others, which resolve the same merge the same way (the same values converge).
      let fixing = ChangeRecorder(db, command: "remote sync", now: now)
      result.ruleConflicts = try Self.keepTodoRules(fixing, uuids: touched, today: today)
      try fixing.finish()
      try SyncState.set(db, "pulledThrough", cursor)
      return result
    }
  }

  /// Applies what a merge changes in the visible row through the recorder. A project or block
  /// whose name is taken here by another row is not created (reported as a conflict).
  private static func apply(
    _ effect: SyncEffect, of operation: SyncOperation, recorder: ChangeRecorder,
    outcome: inout SyncMerge.Outcome
  ) throws {
    let db = recorder.db
    switch effect {
    case .none: return
    case .create(let fields):
      if operation.entity != .todo, let name = fields["name"]?.text,
        let holder = try String.fetchOne(
          db, sql: "SELECT uuid FROM \(OperationExecutor.table(operation.entity)) WHERE name = ? COLLATE NOCASE",
          arguments: [name]), holder != operation.row
      {
        outcome.conflicts.append(
          SyncConflict(
            kind: .nameTaken, entity: operation.entity, row: operation.row, field: "name",
            kept: .text(name), lost: .text(name), winner: operation.stamp, loser: operation.stamp))
        outcome.row.existence = nil
        // The same name made on two machines is one project (or block) to its user: todos
        // linked to the other machine's row link to this one here, so both machines list them
        // under the same name.
        try SyncState.set(db, LinkTranslation.aliasKey(operation.row), holder)
        return
      }
      try recorder.apply(JournalOperation(operation.entity, row: operation.row, .create(fields)))
    case .update(let changes):
      let current = try OperationExecutor.currentFields(db, operation.entity, row: operation.row) ?? [:]
      for change in changes {
        try recorder.update(
          operation.entity, row: operation.row, change.field, from: current[change.field] ?? .null,
          to: change.new)
      }
    case .delete:
      guard let current = try OperationExecutor.currentFields(db, operation.entity, row: operation.row)
      else { return }
      try recorder.delete(operation.entity, row: operation.row, fields: current)
    }
  }

  /// Whether a merge's effect on a todo sets what the rules look at.
  private static func touchesRules(_ effect: SyncEffect) -> Bool {
    switch effect {
    case .none, .delete: return false
    case .create: return true
    case .update(let changes): return changes.contains { TodoRules.fields.contains($0.field) }
    }
  }

  static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
  }
}

/// The translation of a todo's links between this machine's form and the traveling form: the
/// journal names a todo's block by name and its project by uuid; records name both by uuid
/// (built-in blocks have the same uuid everywhere). A link to a row another machine made under
/// a name this machine already had goes to this machine's row of that name (its alias, kept in
/// `syncState`); a link to a row this machine does not have (deleted here) becomes none.
struct LinkTranslation {
  let db: Database

  init(_ db: Database) { self.db = db }

  /// The `syncState` key of the local row standing in for another machine's row `uuid`.
  static func aliasKey(_ uuid: String) -> String { "alias:" + uuid }

  /// `uuid`, or the local row standing in for it.
  private func local(_ uuid: String) throws -> String {
    try SyncState.text(db, Self.aliasKey(uuid)) ?? uuid
  }

  func outgoing(_ operation: SyncOperation) throws -> SyncOperation {
    try map(operation) { field, value in
      guard field == "block", let name = value.text else { return value }
      return .text(
        try String.fetchOne(
          db.cachedStatement(sql: "SELECT uuid FROM block WHERE name = ? COLLATE NOCASE"), arguments: [name])
          ?? name)
    }
  }

  func incoming(_ operation: SyncOperation) throws -> SyncOperation {
    try map(operation) { field, value in
      guard let text = value.text else { return value }
      switch field {
      case "block":
        guard RowID.isValid(text) else { return value }
        return .optional(
          try String.fetchOne(
            db.cachedStatement(sql: "SELECT name FROM block WHERE uuid = ?"), arguments: [try local(text)]))
      case "project":
        let uuid = try local(text)
        return try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM project WHERE uuid = ?"), arguments: [uuid])
          == true ? .text(uuid) : .null
      default: return value
      }
    }
  }

  private func map(_ operation: SyncOperation, _ transform: (String, FieldValue) throws -> FieldValue)
    throws -> SyncOperation
  {
    guard operation.entity == .todo else { return operation }
    var result = operation
    switch operation.kind {
    case .create(var fields):
      for field in ["block", "project"] where fields[field] != nil {
        fields[field] = try transform(field, fields[field]!)
      }
      result.kind = .create(fields)
    case .update(let field, let value):
      result.kind = .update(field: field, value: try transform(field, value))
    case .delete: break
    }
    return result
  }
}

/// The `syncState` table (cursors, the first sync's clock, the file identity) and the
/// `syncStamp` table (the stamps merges compare).
enum SyncState {
  static func text(_ db: Database, _ key: String) throws -> String? {
    try KeyValueTable.syncState.value(db, key, as: String.self)
  }

  static func integer(_ db: Database, _ key: String) throws -> Int64? {
    try KeyValueTable.syncState.value(db, key, as: Int64.self)
  }

  static func set(_ db: Database, _ key: String, _ value: some DatabaseValueConvertible) throws {
    try KeyValueTable.syncState.set(db, key, to: value)
  }

  /// Makes this machine's changes not pushed yet `old`'s no longer: their journal entries,
  /// operations and stamps take device id `new` (a copied database, see
  /// ``AppDatabase/beginSync(fileIdentity:now:)``). Changes that were not pushed when the file was
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
    if try integer(db, "snapshotPending") == 1 { try set(db, "floorDevice", new) }
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

  /// Stamps what a local operation sets.
  static func stampLocal(_ db: Database, _ operation: JournalOperation, _ stamp: Stamp) throws {
    switch operation.action {
    case .create: try upsert(db, operation.row, "", stamp, .integer(1))
    case .delete: try upsert(db, operation.row, "", stamp, .integer(0))
    case .update(let field, _, let new):
      guard !SyncMerge.localFields.contains(field) else { return }
      try upsert(db, operation.row, field, stamp, new)
    }
  }

  static func upsert(_ db: Database, _ row: String, _ field: String, _ stamp: Stamp, _ value: FieldValue) throws {
    try db.cachedStatement(
      sql: """
        INSERT INTO syncStamp (row, field, clock, device, value) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (row, field) DO UPDATE SET clock = excluded.clock, device = excluded.device,
          value = excluded.value
        """
    ).execute(arguments: [row, field, stamp.clock, stamp.device, value.databaseValue])
  }

  /// What this database knows of a row for merging: its existence (stamped, or at the first
  /// sync's stamp when the row is here unstamped) and its fields (the row's values stamped by
  /// the later of the existence and the field's own stamp; for a deleted row, the stamped edits).
  static func row(_ db: Database, _ entity: Entity, _ uuid: String, floor: Stamp) throws -> SyncRow? {
    var entries: [String: Stamped<FieldValue>] = [:]
    let rows = try Row.fetchCursor(
      db.cachedStatement(sql: "SELECT field, clock, device, value FROM syncStamp WHERE row = ?"),
      arguments: [uuid])
    while let row = try rows.next() {
      entries[row[0]] = Stamped(
        FieldValue(row[3] as DatabaseValue), Stamp(clock: row[1], device: row[2]))
    }
    // Most pulled rows are new here: a cached lookup answers before any row is read.
    let exists = try Bool.fetchOne(
      db.cachedStatement(sql: "SELECT 1 FROM \(OperationExecutor.table(entity)) WHERE uuid = ?"),
      arguments: [uuid]) == true
    if !exists && entries.isEmpty { return nil }
    let current = exists ? try OperationExecutor.currentFields(db, entity, row: uuid) : nil
    var state = SyncRow()
    if let existence = entries.removeValue(forKey: "") {
      state.existence = Stamped(existence.value == .integer(1), existence.stamp)
    } else if current != nil {
      state.existence = Stamped(true, floor)
    }
    if let current, let existence = state.existence, existence.value {
      for (field, value) in current where !SyncMerge.localFields.contains(field) {
        let stamp = max(entries[field]?.stamp ?? existence.stamp, existence.stamp)
        state.fields[field] = Stamped(value, stamp)
      }
    } else {
      state.fields = entries
    }
    return state.existence == nil && state.fields.isEmpty ? nil : state
  }

  /// Writes the stamps that changed between two states of a row (a field stamped as the row's
  /// creation needs no stamp of its own).
  static func write(_ db: Database, _ uuid: String, before: SyncRow?, after: SyncRow) throws {
    if let existence = after.existence, existence != before?.existence {
      try upsert(db, uuid, "", existence.stamp, .integer(existence.value ? 1 : 0))
    }
    for (field, value) in after.fields where before?.fields[field] != value {
      if after.isAlive, value.stamp == after.existence?.stamp { continue }
      try upsert(db, uuid, field, value.stamp, value.value)
    }
  }
}

/// The sync run reaches this machine's journal through Core's ``SyncJournal``.
extension AppDatabase: SyncJournal {}

/// The sync run reads the day figures it publishes through Core's ``DayFigureSource``.
extension AppDatabase: DayFigureSource {
  public func tallies(in range: DayRange) throws -> [(day: Day, tally: Tally)] {
    try achievementCounts(in: range).map { ($0.day, $0.tally) }
  }

  public func commits(in range: DayRange, timeZone: any ZoneRules) throws -> CommitCalendar? {
    guard try gitHub.hasCommits() else { return nil }
    return try gitHub.commitCalendar(
      range, timeZone: timeZone, filter: gitHub.commitFilter(author: gitHub.commitAuthor()))
  }
}
