import Core
import Foundation
import GRDB

extension AppDatabase {
  /// How many journal entries are kept at least (the undo depth, counting undo and redo
  /// entries); older ones are pruned a hundred at a time.
  static let journalDepth: Int64 = 2500

  // MARK: - The write path

  /// Runs `body` in one write transaction with a ``ChangeRecorder``, then records what it
  /// changed as one journal entry of this database's command (nothing when nothing changed).
  /// Every write to todos, projects and blocks goes through here. With a ``routineDay``, the
  /// day's routine is planned first, in the same transaction, as an entry of its own.
  func change<T>(now: Date, _ body: (ChangeRecorder) throws -> T) throws(StorageError) -> T {
    try write { db in
      if let routineDay { _ = try Self.planDueRoutine(db, on: routineDay, now: now) }
      let recorder = ChangeRecorder(db)
      let result = try body(recorder)
      if !recorder.operations.isEmpty {
        _ = try Self.record(
          db, kind: .change, command: command, operations: recorder.operations, target: nil,
          now: now)
      }
      return result
    }
  }

  /// Applies operations made on another machine as one journal entry of that machine's
  /// `device`, keeping their clock values (`clocks`, one per operation, or consecutive values
  /// after this machine's clock when nil) and moving this machine's clock past them. Such
  /// entries are never pushed nor undone from this machine, but an undo here refuses to
  /// overwrite rows they changed. ``applyPulled(_:now:)`` is the syncing path, which merges
  /// first; this one applies as given.
  public func applyChange(
    _ operations: [JournalOperation], fromDevice device: String, command: String,
    clocks: [Int64]? = nil, now: Date = Date()
  ) throws(StorageError) {
    try write { db in
      let recorder = ChangeRecorder(db)
      for operation in operations { try recorder.apply(operation) }
      _ = try Self.record(
        db, kind: .change, command: command, operations: recorder.operations, target: nil, now: now,
        device: device, clocks: clocks)
    }
  }

  // MARK: - Undo, redo, log

  /// Reverts this device's most recent change that is not undone, atomically, and records the
  /// undo as a change of its own.
  ///
  /// - Throws: ``StorageError/nothingToUndo`` when there is none, and
  ///   ``StorageError/journalConflict(_:)`` (changing nothing) when a row it touched was changed
  ///   since by a change that is not undone.
  public func undo(now: Date = Date()) throws(StorageError) -> JournalStep {
    try step(
      .undo, now: now,
      target: """
        SELECT * FROM journalChange WHERE remote = 0 AND kind = 'change' AND undone = 0
        ORDER BY id DESC LIMIT 1
        """)
  }

  /// Applies again the change undone most recently, unless a change was made since that undo.
  ///
  /// - Throws: ``StorageError/nothingToRedo`` when there is none, and
  ///   ``StorageError/journalConflict(_:)`` as ``undo(now:)`` does.
  public func redo(now: Date = Date()) throws(StorageError) -> JournalStep {
    try step(
      .redo, now: now,
      target: """
        SELECT target.* FROM journalChange AS undo
        JOIN journalChange AS target ON target.id = undo.target
        WHERE undo.kind = 'undo' AND undo.remote = 0 AND target.undone = 1 AND target.redoable = 1
        ORDER BY undo.id DESC LIMIT 1
        """)
  }

  /// Undoes or redoes the change `target` (a query over this machine's own entries) selects: applies its
  /// operations inverted (undo) or again (redo), each checked against the row as it is, flips
  /// the change's state, and records the step as a journal entry of its own.
  private func step(_ kind: JournalEntry.Kind, now: Date, target query: String)
    throws(StorageError) -> JournalStep
  {
    let undo = kind == .undo
    return try write { db in
      guard
        let target = try JournalChangeRecord.fetchOne(
          db, sql: query)
      else { throw undo ? StorageError.nothingToUndo : StorageError.nothingToRedo }
      let recorded = try Self.operations(db, change: target.id)
      let operations = undo ? JournalOperation.inverse(of: recorded) : recorded
      try Self.reapply(db, operations, of: target, verb: undo ? "undo" : "redo")
      try db.execute(
        sql: "UPDATE journalChange SET undone = ?, redoable = ? WHERE id = ?",
        arguments: [undo, undo, target.id])
      // Described in the change's own order: the same rows, in the order the user named them.
      let described = undo ? recorded.map(\.inverse) : recorded
      let effect = ChangeSummary.describe(described, names: try Self.names(db, described))
      _ = try Self.record(
        db, kind: kind, command: command, operations: operations, target: target.id, now: now,
        summary: undo
          ? ChangeSummary.undid(target.command, effect: effect)
          : ChangeSummary.redid(target.command, effect: effect))
      var entry = target.entry
      entry.isUndone = undo
      return JournalStep(entry: entry, effect: effect)
    }
  }

  /// The most recent journal entries, newest first.
  public func journal(limit: Int) throws(StorageError) -> [JournalEntry] {
    try read { db in
      try JournalChangeRecord.fetchAll(
        db, sql: "SELECT * FROM journalChange ORDER BY id DESC LIMIT ?", arguments: [limit]
      ).map(\.entry)
    }
  }

  /// The operations of one journal entry, in the order they were applied.
  public func operations(ofChange id: Int64) throws(StorageError) -> [JournalOperation] {
    try read { db in try Self.operations(db, change: id) }
  }

  // MARK: - Helpers

  /// Applies operations checking each against the row as it is, so that a row changed since
  /// (by a change that is not undone) stops the whole undo or redo instead of being overwritten.
  private static func reapply(
    _ db: Database, _ operations: [JournalOperation], of target: JournalChangeRecord, verb: String
  ) throws {
    let recorder = ChangeRecorder(db)
    for operation in operations {
      do {
        try recorder.apply(operation, checked: true)
      } catch let error as JournalConflictError {
        throw StorageError.journalConflict(
          try conflictMessage(db, error, target: target, verb: verb))
      }
    }
  }

  /// `cannot undo 'edit 3 --title x' (change 12): todo 'Read' was changed since by
  /// 'edit 3 --title y' (change 15, from another device); nothing was changed`.
  private static func conflictMessage(
    _ db: Database, _ error: JournalConflictError, target: JournalChangeRecord, verb: String
  ) throws -> String {
    let operation = error.operation
    let current = try OperationExecutor.currentFields(db, operation.entity, row: operation.row)
    let known = current?[operation.entity.nameField]?.text ?? operation.knownName
    let name = known.map { " '\($0)'" } ?? ""
    let subject = "\(operation.entity)\(name)"
    var what: String
    switch error.conflict {
    case _ where error.missingProject: what = "the project of \(subject) has been deleted since"
    case .rowExists: what = "\(subject) exists again"
    case .rowMissing: what = "\(subject) has been deleted since"
    case .fieldChanged(let field, _, _): what = "the \(field) of \(subject) has been changed since"
    }
    // The latest change that touched the row and still stands (not an undo or redo of this one).
    if let later = try Row.fetchOne(
      db,
      sql: """
        SELECT journalChange.id, journalChange.command, journalChange.remote
        FROM journalOperation JOIN journalChange ON journalChange.id = journalOperation.changeId
        WHERE journalOperation.row = ? AND journalOperation.changeId > ?
          AND journalChange.undone = 0 AND journalChange.target IS NOT ?
        ORDER BY journalOperation.id DESC LIMIT 1
        """, arguments: [operation.row, target.id, target.id])
    {
      let id: Int64 = later["id"]
      let command: String = later["command"]
      let remote: Bool = later["remote"]
      let origin = remote ? ", from another device" : ""
      what += " by '\(command)' (change \(id)\(origin))"
    } else {
      what += ", outside ootd's journal"
    }
    return "cannot \(verb) '\(target.command)' (change \(target.id)): \(what); nothing was changed"
  }

  /// Writes a journal entry and its operations, stamping each operation with the next value
  /// of this database's hybrid clock (``HybridClock``: never going back) and its device id.
  ///
  /// An entry from another machine (`device` given) keeps the operations' own clock values
  /// (`clocks`), moves this machine's clock past them, and is marked remote: it is never pushed.
  /// Once this database syncs, each local operation also stamps the fields it sets
  /// (``syncStamp``), so that later merges order it correctly.
  static func record(
    _ db: Database, kind: JournalEntry.Kind, command: String, operations: [JournalOperation],
    target: Int64?, now: Date, summary: String? = nil, device: String? = nil, clocks: [Int64]? = nil
  ) throws -> Int64 {
    let remote = device != nil
    let device = try device ?? Self.device(db)
    let summary = try summary ?? ChangeSummary.describe(operations, names: names(db, operations))
    try db.cachedStatement(
      sql: """
        INSERT INTO journalChange (uuid, at, device, kind, command, summary, target, remote)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """
    ).execute(arguments: [
      RowID.random(), Timestamp.text(now), device, kind.rawValue, command, summary, target, remote,
    ])
    let changeID = db.lastInsertedRowID
    let last = try Int64.fetchOne(db, sql: "SELECT value FROM journalSetting WHERE key = 'clock'") ?? 0
    let start = HybridClock.tick(last: last, milliseconds: Int64((now.timeIntervalSince1970 * 1000).rounded(.down)))
    let syncing = try !remote && SyncState.isSyncing(db)
    var latest = last
    for (index, operation) in operations.enumerated() {
      let clock = clocks.map { $0[index] } ?? start + Int64(index)
      latest = max(latest, clock)
      try JournalOperationRecord.insert(db, operation, changeID: changeID, clock: clock, device: device)
      if syncing { try SyncState.stampLocal(db, operation, Stamp(clock: clock, device: device)) }
    }
    if !operations.isEmpty {
      try db.execute(sql: "UPDATE journalSetting SET value = ? WHERE key = 'clock'", arguments: [latest])
    }
    if kind == .change, !remote {
      // A new change ends what could be redone, as in every editor.
      try db.execute(sql: "UPDATE journalChange SET redoable = 0 WHERE redoable = 1")
    }
    if changeID % 100 == 0, changeID > journalDepth {
      var cut = changeID - journalDepth
      // Operations not yet pushed to the sync server are never pruned.
      if let unpushed = try SyncState.firstUnpushedChange(db) { cut = min(cut, unpushed - 1) }
      // Redo replays undone changes in the reverse order of their undos: once any link of that
      // chain is pruned, nothing can be redone safely any more.
      let breaksRedo = try Bool.fetchOne(
        db,
        sql: """
          SELECT EXISTS (SELECT 1 FROM journalChange WHERE redoable = 1 AND (id <= ? OR id IN (
            SELECT target FROM journalChange WHERE kind = 'undo' AND id <= ?)))
          """, arguments: [cut, cut]) ?? false
      if breaksRedo { try db.execute(sql: "UPDATE journalChange SET redoable = 0 WHERE redoable = 1") }
      try db.execute(sql: "DELETE FROM journalChange WHERE id <= ?", arguments: [cut])
    }
    return changeID
  }

  /// This database's device id.
  static func device(_ db: Database) throws -> String {
    guard let device = try String.fetchOne(
      try db.cachedStatement(sql: "SELECT value FROM journalSetting WHERE key = 'device'"))
    else { throw StorageError.sqlite("the journal has no device id") }
    return device
  }

  /// The operations of change `id`, in order.
  static func operations(_ db: Database, change id: Int64) throws -> [JournalOperation] {
    try JournalOperationRecord.fetchAll(
      db, sql: "SELECT * FROM journalOperation WHERE changeId = ? ORDER BY id", arguments: [id]
    ).map(\.operation)
  }

  /// The names (todo titles, project and block names) of the rows `operations` touch or link
  /// to, from the operations themselves or else from the rows as they are now.
  static func names(_ db: Database, _ operations: [JournalOperation]) throws -> [String: String] {
    var names: [String: String] = [:]
    for operation in operations {
      if let name = operation.knownName { names[operation.row] = names[operation.row] ?? name }
    }
    for operation in operations where names[operation.row] == nil {
      names[operation.row] = try OperationExecutor.currentFields(db, operation.entity, row: operation.row)?[
        operation.entity.nameField]?.text
    }
    for operation in operations where operation.entity == .todo {
      if case .update("project", let old, let new) = operation.action {
        for uuid in [old.text, new.text].compactMap({ $0 }) where names[uuid] == nil {
          names[uuid] = try String.fetchOne(
            db, sql: "SELECT name FROM project WHERE uuid = ?", arguments: [uuid])
        }
      }
    }
    return names
  }
}
