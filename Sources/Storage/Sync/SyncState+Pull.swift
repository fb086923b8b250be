import Core
import Foundation
import GRDB

// The pull side of a sync: pulled records merged and applied through the journaled write path
// (``ChangeRecorder``), the rules kept, the pull cursor moved, in one transaction.

extension SyncState {
  /// Applies records pulled from the server (with their server positions, in order) and moves
  /// the pull cursor past them, in one transaction: each operation is merged by
  /// ``SyncMerge`` with what this database knows of the row, and what changes is applied
  /// through the one write path, as a journal entry of the record's device keeping its clock.
  /// Records of this device are skipped (already applied here).
  ///
  /// A todo the merge leaves breaking a rule (done on a day after today everywhere, dropped and
  /// done, dropped and moved unseen) is then mended by ``TodoRules/resolve(_:today:latest:)``
  /// as a change of this machine, after every record is applied (so a state that later records
  /// mend is not reported), and so is a day left with its routine twice (``RoutineOnce``); each
  /// fix is reported in ``SyncPullResult/ruleConflicts``.
  ///
  /// A record whose every operation creates a todo never seen here (a first sync's) is applied
  /// by the bulk path, ``FreshTodos``: the same rows, stamps and journal entry, without reading
  /// each row's state first.
  ///
  /// A todo keeps the number it has on the machine it comes from when the number is free here;
  /// a clash of numbers is resolved after every record by ``TodoNumbers/resolve(_:now:)``, as a
  /// change of this machine too, and reported in ``SyncPullResult/renumbered``. Unless
  /// `settling` (a page of a pull that reads on), a clash waits for the pull's last page
  /// (``TodoNumbers/keep(_:)``), its todo under a number below zero: the records after the
  /// page may settle it as the machine that met it first did, and this machine then has
  /// nothing of its own to settle, or to push (issue 24 §1: a fresh machine whose pull
  /// committed between a clash and the record that settled it pushed a renumbering of its own).
  ///
  /// The records of one entry of another machine (an import of 2,500 todos is three records
  /// of ``Caps/operationsPerRecord``; a first sync's rows, one entry too) make one journal
  /// entry here, whether they arrive in one page, in several pulls, or a pull stopped between
  /// them is run again: each record naming the entry (``SyncPayload/Batch/entry``) adds its
  /// operations to the entry the first one began (``JoinedEntries``). A record of an older ootd,
  /// naming none, is an entry of its own.
  ///
  /// A record that cannot be applied (unreadable, over a cap of ``Caps``, a clock out of range,
  /// a value a constraint refuses) is set aside whole: nothing of it is applied, it is kept in
  /// `syncSetAside`, reported in ``SyncPullResult/setAside``, and the cursor moves past it, so
  /// that no later sync stops on it. Errors of this database itself (a full disk) still throw.
  public func applyPulled(
    _ records: [(seq: Int64, record: SyncRecord)], today: Day, now: Date, clocks: SyncClocks,
    settling: Bool = true
  ) throws(StorageError) -> SyncPullResult {
    return try write { db in
      // Nothing to apply and nothing left waiting (the end of most pulls): nothing to write.
      if records.isEmpty, try !TodoNumbers.hasKept(db) {
        return SyncPullResult(records: 0, operations: 0, changed: 0, conflicts: [])
      }
      // A page of a first pull writes thousands of rows into random places of the uuid
      // indexes: with SQLite's default 2 MB their pages spilled to the WAL and were read back
      // (63,667 writes and 36,152 reads for 20,000 todos), as an import's did. Kept for the
      // next pages (the pull's last statements): set back after each, the next page read its
      // index pages again (13,000 reads for 20,000 todos).
      try db.execute(sql: "PRAGMA cache_size = \(-AppDatabase.importCacheKiB)")
      // Each page's commit passed SQLite's 1,000-page mark and checkpointed: every page written
      // twice (WAL, then file) and fsynced. A checkpoint every 10,000 pages (40 MB of WAL)
      // writes each page once more only for the last version of it; kept for the next pages.
      try db.execute(sql: "PRAGMA wal_autocheckpoint = 10000")
      let device = try AppDatabase.device(db)
      guard let floor = try SyncState.integer(db, "floor"),
        let floorDevice = try SyncState.text(db, "floorDevice")
      else { throw StorageError.sqlite("the database has not started syncing") }
      let floorStamp = Stamp(clock: floor, device: floorDevice)
      let pushedClock = try SyncState.integer(db, "pushedClock") ?? floor
      let pushedCursor = try PushCursor(db, floor: floor)
      // This machine's changes another machine may not have seen when it pushed (issue 24 §3):
      // those not pushed yet, and those pushed but not yet read back here, whose records the
      // server holds after the records this pull reads before them. Each of this machine's own
      // records read back (skipped, applied here already) moves `echoed` past its clock: a
      // change of another machine read after it was pushed after this machine's, by a machine
      // that pulled it first (and reported the conflict itself, if any); one read before it was
      // pushed before it, so this machine's sync is the one to report their conflict, even when
      // both machines pushed before either pulled.
      var echoed = try SyncState.integer(db, "echoedClock") ?? pushedClock
      // The first sync's rows still to push, whose fields are stamped by this machine's journal
      // (``SyncState/row(_:_:_:floor:unpushed:)``): changes made before the floor that no other
      // machine has seen either.
      let unpushed = try UnpushedSnapshot(db)
      let isPending = { (stamp: Stamp) in
        stamp.device == device && (stamp.clock > echoed || (unpushed != nil && stamp.clock < floor))
      }
      // A row of this machine no other machine can have seen: changed after what the server
      // returned of this machine's, or one of the first sync's rows (stamped at the floor)
      // while they are still to push.
      let snapshotPending = try SyncState.integer(db, "snapshotPending") == 1
      let unseen = { (stamp: Stamp) in isPending(stamp) || (snapshotPending && stamp == floorStamp) }
      let links = LinkTranslation(db)
      // The latest journal entry before this page's (read by the first row made on two machines).
      var latestEntry: Int64?
      var result = SyncPullResult(records: 0, operations: 0, changed: 0, conflicts: [])
      var cursor = try SyncState.integer(db, "pulledThrough") ?? 0
      var clock = try Int64.fetchOne(db, sql: "SELECT value FROM journalSetting WHERE key = 'clock'") ?? 0
      // Todos whose day, done or dropped the merge changed: checked against the rules at the end.
      var touched = Set<String>()
      // Todos the merge created or moved (a day's routine kept once), and those whose drop met
      // a move made without seeing it (``TodoRules/movedUnseen(_:by:isPending:)``).
      var placed = Set<String>()
      var movedUnseen = Set<String>()
      // Todos whose tags a merge may have taken past the cap (``AppDatabase/keepTagCap(_:uuids:)``).
      var tagged = Set<String>()
      var numbers = TodoNumbers()
      // The names written in this page: a device's name is written once, not once a record.
      var names: [String: String] = [:]
      var named: (device: String, name: String)?
      var joined = JoinedEntries(joinedCache.known)
      for (seq, record) in records {
        named = nil
        cursor = max(cursor, seq)
        if record.device == device {
          if let clock = HybridClock.parse(record.clock) { echoed = max(echoed, clock) }
          // This machine's own record, applied here already, unless this database lost it (a
          // copy restored in place, ``isLostOwn(_:_:pushed:)``): then it is applied as any
          // other machine's, so what was pushed after the copy comes back.
          guard try SyncState.isLostOwn(db, record, pushed: pushedCursor) else { continue }
        }
        // Each record in a savepoint: one that fails half-way leaves nothing behind.
        var applied = (
          operations: 0, changed: 0, clock: clock, touched: Set<String>(), conflicts: [SyncConflictReport](),
          numbers: TodoNumbers()
        )
        var (placedHere, movedUnseenHere, taggedHere) = (Set<String>(), Set<String>(), Set<String>())
        // The entry this record's operations joined, as it stands after them.
        var joining: (uuid: String, id: Int64, summary: ChangeSummary.Builder, operations: Int)?
        do {
          try db.inSavepoint {
            let batch = try PulledRecord.check(record)
            for operation in batch.operations where operation.entity == .todo {
              switch operation.kind {
              case .create(let fields) where fields[todo: .block].map({ $0 != .null }) == true:
                placedHere.insert(operation.row)
              case .update(let field, _) where field == TodoField.day.rawValue || field == TodoField.block.rawValue:
                placedHere.insert(operation.row)
              default: break
              }
              // Tags merged tag by tag, or a creation's past the cap: checked against it at the end.
              switch operation.kind {
              case .update(let field, _) where field == TodoField.tags.rawValue: taggedHere.insert(operation.row)
              case .create(let fields) where Caps.mayExceedTags(fields[todo: .tags]?.text): taggedHere.insert(operation.row)
              default: break
              }
            }
            if let name = batch.from, names[record.device] != name {
              try SyncState.nameDevice(db, record.device, name)
              named = (record.device, name)
            }
            let uuid = batch.entry.map { JoinedEntries.uuid(device: record.device, entry: $0) }
            let recorder = ChangeRecorder(db, command: batch.command, now: now, device: record.device, uuid: uuid)
            let held = try uuid.flatMap { try joined.resume(recorder, $0) }
            let resumed = held != nil
            let firstSync = batch.command == SyncState.firstSyncCommand
            if firstSync, let clock = HybridClock.parse(record.clock) {
              try SyncState.recordFirstSync(db, record.device, clock)
            }
            if firstSync {
              // Its entry says what it brought, even where every row was here already.
              var rows: [Entity: Set<String>] = [:]
              for operation in batch.operations { rows[operation.entity, default: []].insert(operation.row) }
              recorder.brought = rows.mapValues(\.count)
              // An entry joined: what all its records brought.
              if let uuid { recorder.brought = try JoinedEntries.brought(db, uuid, adding: rows.mapValues(\.count)) }
            }
            recorder.clockCeiling = clocks.ceiling
            // Todos never seen here (a first sync's): the bulk path, the same rows as below.
            let fresh = bulkPull ? try FreshTodos.of(db, batch.operations) : nil
            if let fresh {
              let bulk = try fresh.apply(recorder, links: links, clock: applied.clock, ceiling: clocks.ceiling)
              (applied.clock, applied.touched, applied.numbers) = (bulk.clock, bulk.touched, bulk.numbers)
            }
            for remote in fresh == nil ? batch.operations : [] {
              applied.clock = HybridClock.receive(last: applied.clock, remote: remote.stamp.clock, ceiling: clocks.ceiling)
              let operation = try links.incoming(remote)
              let before = try SyncState.row(db, operation.entity, operation.row, floor: floorStamp, unpushed: unpushed)
              var outcome = SyncMerge.merge(operation, into: before, isPending: isPending, firstSync: firstSync)
              recorder.remoteClock = remote.stamp.clock
              try Self.apply(
                outcome.effect, of: operation, recorder: recorder, outcome: &outcome, numbers: &applied.numbers,
                unseen: { holder in
                  // One of the first sync's rows still to push: no other machine has seen it.
                  if try SyncState.isUnpushedOwn(db, operation.entity, holder, unpushed) { return true }
                  // Holding the name since its creation or since a rename, whichever is later.
                  let row = try SyncState.row(db, operation.entity, holder, floor: floorStamp, unpushed: unpushed)
                  return [row?.existence?.stamp, row?.fields["name"]?.stamp].compactMap { $0 }.max().map(unseen) ?? true
                })
              // The todo's number as its merge now holds it, when this operation decided it.
              applied.numbers.merged(operation, into: outcome.row)
              if operation.entity == .todo, Self.touchesRules(outcome.effect) { applied.touched.insert(operation.row) }
              if TodoRules.movedUnseen(outcome.row, by: operation, isPending: isPending) {
                movedUnseenHere.insert(operation.row)
              }
              // A creation of a row here merges its tags with the tags changed here since.
              if operation.entity == .todo, case .create = operation.kind, before != nil { taggedHere.insert(operation.row) }
              try SyncState.writeStamps(
                db, operation.row, before: before, after: outcome.row,
                unpushed: before?.isAlive == true && SyncState.isUnpushedOwn(db, operation.entity, operation.row, unpushed))
              // A row another machine made too (the same file imported on both): an undo here
              // of the change that made it keeps it (``SyncState/madeElsewhere(_:_:since:)``).
              // A deletion pulled takes the mark away: what was made there is gone there.
              if case .create = operation.kind, before?.isAlive == true, remote.stamp.device != device {
                latestEntry = try latestEntry ?? SyncState.latestEntry(db)
                try SyncState.markMadeElsewhere(db, operation.row, remote.stamp, entry: latestEntry ?? 0)
              } else if case .delete = operation.kind {
                try SyncState.forgetMadeElsewhere(db, operation.row)
              }
              for var conflict in outcome.conflicts {
                let current = try OperationExecutor.currentFields(db, operation.entity, row: operation.row)
                // A row deleted here: as this machine's journal last knew it (not as the edit
                // deleted here would have made it, nor "a todo" when it set no title).
                let deleted = current == nil ? try ChangeRecorder.fieldsWhenDeleted(db, row: operation.row) : nil
                func known(_ field: String) -> FieldValue? {
                  current?[field] ?? deleted?[field] ?? outcome.row.fields[field]?.value
                }
                if operation.entity == .todo, conflict.field == TodoField.project.rawValue {
                  // A project by its name, as the user knows it.
                  conflict.kept = try conflict.kept.map { try Self.projectName(db, $0) }
                  conflict.lost = try conflict.lost.map { try Self.projectName(db, $0) }
                }
                applied.conflicts.append(
                  SyncConflictReport(
                    conflict: conflict, name: known(operation.entity.nameField)?.text,
                    number: operation.entity == .todo ? known(TodoField.id.rawValue)?.integer : nil,
                    rule: clocks.rule(winner: conflict.winner, loser: conflict.loser)))
              }
            }
            applied.operations = batch.operations.count
            applied.changed = recorder.count
            // A first sync's entry joined says what the record brought, even when it changed nothing.
            if let id = try recorder.finish(always: resumed && firstSync), let uuid {
              joining = (uuid, id, recorder.summarySoFar, (held ?? 0) + recorder.count)
            }
            return .commit
          }
        } catch {
          guard let reason = PulledRecord.reason(error) else { throw error }
          let row = SetAsideRow(
            seq: seq, device: record.device, reason: reason, opID: record.opID, unopened: record.unopened != nil)
          try PulledRecord.setAside(db, row, opID: record.opID, now: now)
          result.setAside.append(row)
          continue
        }
        if let named { names[named.device] = named.name }
        if let joining {
          joined.finished(joining.uuid, id: joining.id, summary: joining.summary, operations: joining.operations)
        }
        result.records += 1
        result.operations += applied.operations
        result.changed += applied.changed
        result.conflicts += applied.conflicts
        clock = applied.clock
        touched.formUnion(applied.touched)
        placed.formUnion(placedHere)
        tagged.formUnion(taggedHere)
        movedUnseen.formUnion(movedUnseenHere)
        numbers.formUnion(applied.numbers)
      }
      try db.execute(
        sql: "UPDATE journalSetting SET value = max(value, ?) WHERE key = 'clock'", arguments: [clock])
      // The fix is this machine's change, stamped after everything pulled: the next push takes
      // it to the others, which resolve the same merge the same way (the same values converge).
      let fixing = ChangeRecorder(db, command: SyncState.resolutionCommand, now: now)
      // The clashes an earlier page of the pull left, before this page's claims.
      try numbers.takeKept(db)
      if settling {
        result.renumbered = try numbers.resolve(fixing, now: now)
      } else {
        try numbers.keep(db)
        result.renumbered = try numbers.report(db)
      }
      result.arrived = numbers.arrived
      let routine = try AppDatabase.keepRoutineOnce(fixing, uuids: placed)
      // A day after today is judged by the zone furthest ahead: another machine's today is
      // not this one's tomorrow (``TodoRules/latestDay(at:)``).
      result.ruleConflicts =
        routine.sentences
        + (try AppDatabase.keepTodoRules(
          fixing, uuids: touched.union(routine.tookDone), today: today, latest: TodoRules.latestDay(at: clocks.latestInstant),
          movedUnseen: movedUnseen))
      // Tags merged past the cap, cut the same on every machine (``AppDatabase/keepTagCap(_:uuids:)``).
      result.ruleConflicts += try AppDatabase.keepTagCap(fixing, uuids: tagged)
      try fixing.finish()
      try SyncState.set(db, "pulledThrough", cursor)
      try SyncState.set(db, "echoedClock", echoed)
      // (Checked again by the next transaction: kept before this one commits.)
      joinedCache.keep(joined.open)
      return result
    }
  }

  /// Applies what a merge changes in the visible row through the recorder. A project or block
  /// whose name is taken here by another row is not created (reported as a conflict). A todo
  /// whose number another todo holds here waits for it below zero (``TodoNumbers``), until
  /// `numbers` resolves the claims (recorded from the merge, ``TodoNumbers/merged(_:into:)``).
  private static func apply(
    _ effect: SyncEffect, of operation: SyncOperation, recorder: ChangeRecorder,
    outcome: inout SyncMerge.Outcome, numbers: inout TodoNumbers, unseen: (String) throws -> Bool
  ) throws {
    let db = recorder.db
    switch effect {
    case .none: return
    case .create(var fields):
      if operation.entity != .todo, let name = fields["name"]?.text,
        let holder = try String.fetchOne(
          db, sql: "SELECT uuid FROM \(OperationExecutor.table(operation.entity)) WHERE name = ? COLLATE NOCASE",
          arguments: [name]), holder != operation.row
      {
        // Reported once (issue 24 §3), by the machine whose sync met it: the one holding the
        // name with a row the other machine had not seen when it made its own; the other
        // machine, pulling that row later, resolves it alike without a word.
        if try unseen(holder) {
          outcome.conflicts.append(
            SyncConflict(
              kind: .nameTaken, entity: operation.entity, row: operation.row, field: "name",
              kept: .text(name), lost: .text(name), winner: operation.stamp, loser: operation.stamp))
        }
        outcome.row.existence = nil
        // The same name made on two machines is one project (or block) to its user: todos
        // linked to the other machine's row link to this one here, so both machines list them
        // under the same name.
        try SyncState.set(db, LinkTranslation.aliasKey(operation.row), holder)
        return
      }
      if operation.entity == .todo, let number = fields[todo: .id]?.integer {
        // Its number when free here; else it waits under one no todo shows (below zero),
        // taking no number another pulled todo may have, until the clash is resolved.
        // (Its claim, given or not, stands over any earlier one of the todo in this pull, a
        // creation's deleted and undone elsewhere: ``TodoNumbers/merged(_:into:)``.)
        fields[todo: .id] = .integer(
          try numbers.arriving(
            operation.row, number, device: operation.stamp.device, holder: try TodoNumbers.holder(db, number),
            waiting: { try TodoNumbers.waiting(db) }))
      }
      try recorder.apply(JournalOperation(operation.entity, row: operation.row, .create(fields)))
    case .update(let changes):
      let current = try OperationExecutor.currentFields(db, operation.entity, row: operation.row) ?? [:]
      for change in changes {
        // A built-in block is the same on every machine but for the time each machine made
        // it, which is that machine's own: pulling another's changes nothing (issue 24 §3).
        if operation.entity == .block, change.field == BlockField.createdAt.rawValue,
          current[BlockField.builtIn.rawValue]?.integer == 1
        {
          continue
        }
        if operation.entity == .todo, change.field == TodoField.id.rawValue, let number = change.new.integer {
          // Held here by another todo: it waits for ``TodoNumbers/resolve(_:now:)`` (its claim
          // is the merge's, ``TodoNumbers/merged(_:into:)``); else applied now.
          if let holder = try TodoNumbers.holder(db, number), holder != operation.row { continue }
          // (A todo waiting for its number was never shown under the one it had.)
          if let old = current[todo: .id]?.integer, old > 0 { numbers.changed(operation.row, from: old, to: number) }
        }
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

  /// Remembers `name` as the name of `device` (another machine), as its latest record says.
  static func nameDevice(_ db: Database, _ device: String, _ name: String) throws {
    try db.cachedStatement(
      sql: "INSERT INTO syncDevice (device, name) VALUES (?, ?) ON CONFLICT (device) DO UPDATE SET name = excluded.name"
    ).execute(arguments: [device, name])
  }

  /// A project link's value as its name (a project deleted here keeps its uuid).
  private static func projectName(_ db: Database, _ value: FieldValue) throws -> FieldValue {
    guard let uuid = value.text else { return value }
    return .text(try OperationExecutor.currentName(db, .project, row: uuid) ?? uuid)
  }

  /// Whether a merge's effect on a todo sets what the rules look at: a creation that may break
  /// a rule (``TodoRules/mayBreak(creating:)``, as ``FreshTodos`` asks it), or an update of
  /// ``TodoRules/fields``.
  private static func touchesRules(_ effect: SyncEffect) -> Bool {
    switch effect {
    case .none, .delete: return false
    case .create(let fields): return TodoRules.mayBreak(creating: fields)
    case .update(let changes): return changes.contains { TodoRules.fields.contains($0.field) }
    }
  }
}

extension SyncState {
  /// Whether `record`, one of this device's own read back from the server, is missing here:
  /// stamped past what this database recorded as pushed (`pushed`), and none of the operations
  /// journaled here since has its clock (each of this device's clocks is its own). That is a
  /// database restored in place from an older copy (`cp backup.sqlite ootd.sqlite`: the same
  /// file, so the same device id), which skipped as its own every record it had pushed after
  /// the copy and never got them back (tryout 18). A record pushed but not yet marked pushed
  /// here (a sync stopped between the server's commit and this database's) has its operations
  /// here: it stays skipped.
  static func isLostOwn(_ db: Database, _ record: SyncRecord, pushed: PushCursor) throws -> Bool {
    guard let clock = HybridClock.parse(record.clock), clock > pushed.clock else { return false }
    let here = try Bool.fetchOne(
      db,
      sql: "SELECT EXISTS (SELECT 1 FROM journalOperation WHERE id > ? AND clock = ?)",
      arguments: [pushed.operation, clock]) ?? false
    return !here
  }
}

/// The entries of other machines a pull joins records into (``SyncState/applyPulled(_:today:now:clocks:settling:)``):
/// each named by a uuid made of its device and the entry its records name, found in the
/// journal, or as the last record left it, in this transaction or an earlier one of the same
/// sync (``Cache``): its summary so far kept, so that the records of one entry do not read
/// each other's operations back (a first pull of 20,000 todos is one entry of 20 records,
/// applied in several commits).
struct JoinedEntries {
  /// An entry as the last record joined into it left it.
  struct Open {
    var id: Int64
    var summary: ChangeSummary.Builder
    /// How many operations the entry holds.
    var operations: Int
    /// Whether this transaction found the entry as the last record left it (one of an earlier
    /// transaction is checked once: a transaction rolled back, or another process, may have
    /// changed it since; then its operations are read back).
    var checked: Bool
  }

  /// The entries joined so far by a sync's pulls, across their transactions: `database.sync`
  /// is one ``SyncState`` for a whole sync run.
  final class Cache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: Open] = [:]
    var known: [String: Open] { lock.withLock { entries } }
    func keep(_ open: [String: Open]) { lock.withLock { entries = open } }
  }

  private(set) var open: [String: Open]

  init(_ known: [String: Open] = [:]) {
    open = known.mapValues { entry in
      var entry = entry
      entry.checked = false
      return entry
    }
  }

  /// The uuid of the entry here of `device`'s entry `entry`.
  static func uuid(device: String, entry: String) -> String {
    RowID.syncRecord("pulled entry \(device) \(entry)")
  }

  /// Makes `recorder` add to the entry `uuid` when it is here already, returning how many
  /// operations it held; nil when it is not here (`recorder` begins it).
  mutating func resume(_ recorder: ChangeRecorder, _ uuid: String) throws -> Int? {
    let db = recorder.db
    let id = { () throws -> Int64? in
      try Int64.fetchOne(
        db.cachedStatement(sql: "SELECT id FROM journalChange WHERE uuid = ? AND remote = 1"), arguments: [uuid])
    }
    if var known = open[uuid] {
      if !known.checked {
        let operations = try Int.fetchOne(
          db.cachedStatement(sql: "SELECT count(*) FROM journalOperation WHERE changeId = ?"), arguments: [known.id])
        known.checked = try id() == known.id && operations == known.operations
        open[uuid] = known.checked ? known : nil
      }
      if known.checked {
        try recorder.resume(known.id, summary: known.summary)
        return known.operations
      }
    }
    guard let found = try id() else { return nil }
    return try recorder.resume(found)
  }

  /// Records the entry `uuid` as the record just applied left it.
  mutating func finished(_ uuid: String, id: Int64, summary: ChangeSummary.Builder, operations: Int) {
    open[uuid] = Open(id: id, summary: summary, operations: operations, checked: true)
  }

  /// The rows a first sync's entry `uuid` brought, `rows` of the record just read added to
  /// those of its records read before (kept in `syncState`, `brought:` and the uuid, as
  /// `todo=2500,project=3`: an entry's records may come in several pulls).
  static func brought(_ db: Database, _ uuid: String, adding rows: [Entity: Int]) throws -> [Entity: Int] {
    let key = "brought:" + uuid
    var brought = rows
    for part in (try SyncState.text(db, key) ?? "").split(separator: ",") {
      let pair = part.split(separator: "=")
      guard pair.count == 2, let entity = Entity(rawValue: String(pair[0])), let count = Int(pair[1]) else { continue }
      brought[entity, default: 0] += count
    }
    let text = Entity.allCases.compactMap { entity in brought[entity].map { "\(entity.rawValue)=\($0)" } }
    try SyncState.set(db, key, text.joined(separator: ","))
    return brought
  }
}
