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
      let recorder = ChangeRecorder(db, command: command, now: now)
      let result = try body(recorder)
      try recorder.finish()
      return result
    }
  }

  /// As ``change(now:_:)``, but adding to this machine's change `id` when it is still its latest
  /// entry and not undone (else beginning one, as ``change(now:_:)`` does). Returns `body`'s
  /// result and the entry the operations are in (nil when there is none).
  func change<T>(now: Date, continuing id: Int64?, _ body: (ChangeRecorder) throws -> T) throws(StorageError)
    -> (T, Int64?)
  {
    try write { db in
      if let routineDay { _ = try Self.planDueRoutine(db, on: routineDay, now: now) }
      let recorder = ChangeRecorder(db, command: command, now: now)
      var resumed: Int64?
      if let id,
        try Bool.fetchOne(
          db,
          sql: """
            SELECT id = (SELECT MAX(id) FROM journalChange) AND kind = 'change' AND undone = 0 AND remote = 0
            FROM journalChange WHERE id = ?
            """, arguments: [id]) == true
      {
        try recorder.resume(id)
        resumed = id
      }
      let result = try body(recorder)
      return (result, try recorder.finish() ?? resumed)
    }
  }

  /// Applies operations made on another machine as one journal entry of that machine's
  /// `device`, keeping their clock values (`clocks`, one per operation, or consecutive values
  /// after this machine's clock when nil) and moving this machine's clock past them. Such
  /// entries are never pushed nor undone from this machine, but an undo here refuses to
  /// overwrite rows they changed. ``SyncState/applyPulled(_:today:now:)`` is the syncing path,
  /// which merges first; this one applies as given.
  public func applyChange(
    _ operations: [JournalOperation], fromDevice device: String, command: String,
    clocks: [Int64]? = nil, now: Date
  ) throws(StorageError) {
    try write { db in
      let recorder = ChangeRecorder(db, command: command, now: now, device: device)
      for (index, operation) in operations.enumerated() {
        recorder.remoteClock = clocks?[index]
        try recorder.apply(operation)
      }
      try recorder.finish(always: true)
    }
  }

  // MARK: - Undo, redo, log

  /// Reverts this device's most recent change that is not undone, atomically, and records the
  /// undo as a change of its own.
  ///
  /// - Throws: ``StorageError/nothingToUndo`` when there is none, and
  ///   ``StorageError/journalConflict(_:)`` (changing nothing) when a row it touched was changed
  ///   since by this machine's own change that still stands, or outside the journal.
  ///   It refuses the same way when the step would leave a todo breaking a rule on `today`
  ///   (``TodoRules``), e.g. undoing a sync's resolution; every command passes `today` (without
  ///   it, a caller that does not know the user's today, the rules are not checked).
  ///
  /// What a sync settled itself (``SyncState/resolutionCommand``: a todo renumbered, a todo
  /// dropped and done mended) is passed over: every machine settles it the same way, so it
  /// stands (undoing it would give back the clash, or be refused for the rule it mended), and
  /// the user's own changes before it stay undoable. The step says so (``JournalStep/note``).
  ///
  /// Each machine undoes only its own changes: a field another device (or a sync's settling)
  /// set since is left as it set it, a row it worked on since is kept rather than deleted, and
  /// the rest of the change is undone (``JournalStep/left``, issue 24). A change of which
  /// nothing is left to undo that way counts as undone and is passed over to the one before it
  /// (``JournalStep/passedOver``); when that one is refused (or there is none), the undo is of
  /// the change passed over last, and the next undo says the refusal.
  public func undo(today: Day? = nil, now: Date) throws(StorageError) -> JournalStep {
    try write { db in
      var passed: [JournalStep] = []
      while true {
        guard
          let target = try JournalChangeRecord.fetchOne(
            db,
            sql: """
              SELECT \(JournalChangeRecord.selection()) FROM journalChange
              WHERE remote = 0 AND kind = 'change' AND undone = 0 AND command != '\(SyncState.resolutionCommand)'
              ORDER BY id DESC LIMIT 1
              """)
        else {
          // Nothing older: the last change passed over is the step.
          guard let last = Self.lastPassed(passed) else { throw StorageError.nothingToUndo }
          return last
        }
        var taken: (step: JournalStep, applied: Int)?
        do {
          if passed.isEmpty {
            taken = try step(db, .undo, target: target, today: today, now: now)
          } else {
            // Past a change passed over, an older one refused stays for the next undo to say:
            // what was passed over stands (a savepoint takes back the refused step's writes).
            try db.inSavepoint {
              taken = try step(db, .undo, target: target, today: today, now: now)
              return .commit
            }
          }
        } catch StorageError.journalConflict(let message) {
          guard let last = Self.lastPassed(passed) else { throw StorageError.journalConflict(message) }
          return last
        }
        guard var (step, applied) = taken else { throw StorageError.nothingToUndo }
        if applied == 0, step.leftCount > 0 {
          passed.append(step)
          continue
        }
        step.passedOver = passed.map(\.entry)
        step.left = passed.flatMap(\.left) + step.left
        step.leftCount += passed.reduce(0) { $0 + $1.leftCount }
        let resolutions = try Int.fetchOne(
          db,
          sql: """
            SELECT count(*) FROM journalChange
            WHERE id > ? AND remote = 0 AND kind = 'change' AND undone = 0 AND command = '\(SyncState.resolutionCommand)'
            """, arguments: [target.id]) ?? 0
        if resolutions > 0 { step.note = ChangeSummary.passedOver(resolutions) }
        return step
      }
    }
  }

  /// The step of the last change `passed` holds (passed over by ``undo(today:now:)``, nothing
  /// of it left to undo), saying the ones before it too; nil when there is none.
  private static func lastPassed(_ passed: [JournalStep]) -> JournalStep? {
    var passed = passed
    guard var last = passed.popLast() else { return nil }
    last.passedOver = passed.map(\.entry) + last.passedOver
    last.left = passed.flatMap(\.left) + last.left
    last.leftCount += passed.reduce(0) { $0 + $1.leftCount }
    return last
  }

  /// Applies again the change undone most recently, unless a change was made since that undo:
  /// what that undo did, taken back (what it left as another device set it stays so).
  ///
  /// - Throws: ``StorageError/nothingToRedo`` when there is none, and
  ///   ``StorageError/journalConflict(_:)`` as ``undo(today:now:)`` does.
  public func redo(today: Day? = nil, now: Date) throws(StorageError) -> JournalStep {
    try write { db in
      guard
        let target = try JournalChangeRecord.fetchOne(
          db,
          sql: """
            SELECT \(JournalChangeRecord.selection(of: "target")) FROM journalChange AS undo
            JOIN journalChange AS target ON target.id = undo.target
            WHERE undo.kind = 'undo' AND undo.remote = 0 AND target.undone = 1 AND target.redoable = 1
            ORDER BY undo.id DESC LIMIT 1
            """)
      else { throw StorageError.nothingToRedo }
      return try step(db, .redo, target: target, today: today, now: now).step
    }
  }

  /// Undoes or redoes the change `target` (one of this machine's own entries): applies,
  /// last first, the inverse of each operation of the change (undo), or of the undo that took
  /// it back last (redo: what that undo did, and only that), each checked against the row as it
  /// is, flips the change's state, and records the step as a journal entry of its own. Returns
  /// the step and how many operations it applied.
  /// The operations are read a batch at a time: a step of a million rows holds a thousand.
  private func step(
    _ db: Database, _ kind: JournalEntry.Kind, target: JournalChangeRecord, today: Day?, now: Date
  ) throws -> (step: JournalStep, applied: Int) {
    let undo = kind == .undo
    // The entry whose operations are taken back: the change, or its latest undo.
    let source: Int64
    if undo {
      source = target.id
    } else {
      guard
        let id = try Int64.fetchOne(
          db, sql: "SELECT id FROM journalChange WHERE kind = 'undo' AND remote = 0 AND target = ? ORDER BY id DESC LIMIT 1",
          arguments: [target.id])
      else { throw StorageError.nothingToRedo }
      source = id
    }
    let recorder = ChangeRecorder(db, kind: kind, command: command, target: target.id, now: now)
    // The todos whose day, done or dropped the step sets: checked against the rules.
    var touched = Set<String>()
    // The operations left as they are, which the step's words leave out (it claims only what
    // it changes): a todo's number, a field that already holds what the step would set, and
    // what another device changed since.
    var left = Set<Int64>()
    var applied = 0
    var leaving = Leaving()
    // Whether this database syncs (asked once, by the first creation an undo takes back).
    var syncing: Bool?
    func apply(_ id: Int64, _ operation: JournalOperation) throws {
      // A todo's number moved by a sync stays: moving it back could take another todo's.
      if operation.entity == .todo, case .update(TodoField.id.rawValue, _, _) = operation.action {
        left.insert(id)
        return
      }
      let inverse = operation.inverse
      // A row another machine made too (the same todo.txt imported there): undoing this
      // machine's making of it would delete theirs; it stays.
      if undo, case .create = operation.action {
        let syncs = try syncing ?? SyncState.isSyncing(db)
        syncing = syncs
        if syncs, let device = try SyncState.madeElsewhere(db, operation.row, since: target.id),
          try OperationExecutor.currentFields(db, operation.entity, row: operation.row) != nil
        {
          left.insert(id)
          let name = try String.fetchOne(db, sql: "SELECT name FROM syncDevice WHERE device = ?", arguments: [device])
          try leaving.leave(db, inverse, .rowExists, by: Overrider(device: device, name: name), madeToo: true)
          return
        }
      }
      // A project a kept todo is in stays with it.
      if case .delete = inverse.action, inverse.entity == .project, let holder = leaving.holders[inverse.row] {
        left.insert(id)
        try leaving.leave(db, inverse, .rowExists, by: holder.by, holding: holder.subject)
        return
      }
      do {
        try recorder.apply(inverse, checked: true)
        applied += 1
        if inverse.touchesRules { touched.insert(operation.row) }
      } catch let error as JournalConflictError {
        // A todo's tags, changed since (another machine's tag, merged tag by tag): the step
        // takes back only the tags its change added and gives back the ones it took away,
        // leaving the others as they are now (review 19: the whole set was left, and the undo
        // passed over to an older change).
        if case .fieldChanged(_, _, let found) = error.conflict, inverse.entity == .todo,
          case .update(let field, let set, let restored) = inverse.action, SyncMerge.carriesOld(.todo, field)
        {
          let now = Tag.tags(found.text)
          let target = SyncMerge.rebaseTags(now: now, before: Tag.tags(restored.text), after: Tag.tags(set.text))
          if target == now {
            left.insert(id)
            return
          }
          try recorder.apply(
            JournalOperation(.todo, row: inverse.row, .update(field: field, old: found, new: .optional(Tag.text(Array(target))))),
            checked: true)
          applied += 1
          return
        }
        // Set since to the very value the step sets (a sync's resolution that overrode it):
        // nothing to do, and nothing in the way of the user's earlier changes.
        if case .fieldChanged(_, _, let found) = error.conflict, case .update(_, _, let new) = inverse.action,
          found == new
        {
          left.insert(id)
          return
        }
        // Changed since by another device (or settled by a sync): left as it is there.
        if !error.missingProject, let by = try Self.overrider(db, of: inverse, after: target.id) {
          left.insert(id)
          try leaving.leave(db, inverse, error.conflict, by: by)
          return
        }
        throw StorageError.journalConflict(
          try Self.conflictMessage(db, error, target: target, verb: undo ? "undo" : "redo"))
      } catch let error as DatabaseError
        where [ResultCode.SQLITE_CONSTRAINT_CHECK, .SQLITE_CONSTRAINT_NOTNULL].contains(error.extendedResultCode)
      {
        // A value no row may hold (a priority of 7, an empty title): the journal is damaged,
        // said as the other corrupt entries are, not as SQLite's "CHECK constraint failed".
        throw StorageError.sqlite("corrupt journal operation \(id)")
      }
    }
    // Described in the change's own order: the same rows, in the order the user named them
    // (an undo's operations are the change's last first).
    var summary = ChangeSummary.Builder()
    let names: [String: String]
    // A change of a few operations is read once; a bigger one a batch at a time, twice.
    let first = try Self.operations(db, of: source, after: .min, backwards: false)
    if first.count < Self.batch {
      for (id, operation) in first.reversed() { try apply(id, operation) }
      let kept = first.filter { !left.contains($0.id) }
      let described = (undo ? kept : kept.reversed()).map(\.operation.inverse)
      for operation in described { summary.add(operation) }
      names = try recorder.names(summary.namedRows) { row in ChangeRecorder.knownName(of: row, in: described) }
    } else {
      try Self.forEachOperation(db, of: source, backwards: true, apply)
      // The first batch, read already, starts each pass that goes forwards.
      try Self.forEachOperation(db, of: source, backwards: !undo, startingWith: undo ? first : nil) { id, operation in
        if !left.contains(id) { summary.add(operation.inverse) }
      }
      names = try recorder.names(summary.namedRows, change: source, inverted: true)
    }
    if let today {
      // A done todo of a day that is today somewhere (a sync's or an import's, made where the
      // date was ahead) is a state the journal may hold: restoring it is no breach.
      try Self.checkTodoRules(
        db, uuids: touched, today: today, latest: TodoRules.latestDay(at: now),
        refusing: "\(undo ? "undo" : "redo") '\(target.command)'")
    }
    try db.execute(
      sql: "UPDATE journalChange SET undone = ?, redoable = ? WHERE id = ?",
      arguments: [undo, undo, target.id])
    let effect = applied == 0 && leaving.count > 0 ? ChangeSummary.nothingLeft(undo ? "undo" : "redo") : summary.text(names: names)
    let line = undo ? ChangeSummary.undid(target.command, effect: effect) : ChangeSummary.redid(target.command, effect: effect)
    try recorder.finish(
      summary: leaving.count > 0 ? line + "; " + LeftRow.summary(leaving.rows, count: leaving.count) : line,
      always: true)
    var entry = target.entry
    entry.isUndone = undo
    var step = JournalStep(entry: entry, effect: effect)
    step.left = leaving.rows
    step.leftCount = leaving.count
    return (step, applied)
  }

  /// The rows a step left as another device made them (``LeftRow``): the first
  /// ``keptRows`` of them, one each, and how many in all.
  private struct Leaving {
    var rows: [LeftRow] = []
    var count = 0
    private var seen = Set<String>()
    private var index: [String: Int] = [:]
    /// The projects of the todos kept, by uuid: the first kept todo in each, and who worked on it.
    private(set) var holders: [String: (subject: String, by: Overrider)] = [:]

    /// How many rows a step keeps to name (an undo of a million rows another device worked on
    /// names a few and counts the rest).
    static let keptRows = 100

    /// Notes that `operation` was left, for `conflict`, as `by` made its row.
    /// `holding`: the todo kept that keeps this project.
    mutating func leave(
      _ db: Database, _ operation: JournalOperation, _ conflict: OperationConflict, by: Overrider,
      holding: String? = nil, madeToo: Bool = false
    ) throws {
      if let at = index[operation.row] {
        if case .fields(var fields) = rows[at].kind, case .update(let field, _, _) = operation.action {
          if !fields.contains(field) { fields.append(field) }
          rows[at].kind = .fields(fields)
        }
        return
      }
      guard seen.insert(operation.row).inserted else { return }
      count += 1
      let kind: LeftRow.Kind
      switch (operation.action, conflict) {
      case (.delete, _) where madeToo: kind = .madeToo
      case (.update(let field, _, _), .fieldChanged): kind = .fields([field])
      case (.delete, .fieldChanged): kind = .kept
      case (.delete, .rowExists): kind = .holding(holding ?? "a todo")
      case (.create, _): kind = .present
      default: kind = .deleted
      }
      let current = try OperationExecutor.currentFields(db, operation.entity, row: operation.row)
      let row = LeftRow(
        entity: operation.entity, uuid: operation.row,
        number: operation.entity == .todo ? current?[todo: .id]?.integer : nil,
        name: current?[operation.entity.nameField]?.text ?? operation.knownName,
        kind: kind, by: by.words, fromDevice: by.device, fromDeviceName: by.name)
      if kind == .kept || kind == .madeToo, let project = current?[todo: .project]?.text, holders[project] == nil {
        holders[project] = (row.subject, by)
      }
      guard rows.count < Self.keptRows else { return }
      rows.append(row)
      index[operation.row] = rows.count - 1
    }
  }

  /// Who made the change that a step finds in its way: another machine (`device`, and its name
  /// as its records said), or a sync's own settling (no device).
  private struct Overrider {
    var device: String?
    var name: String?

    /// `desktop`, `another device`, `the sync`.
    var words: String {
      guard device != nil else { return "the sync" }
      return name.flatMap(DeviceName.sanitised) ?? "another device"
    }
  }

  /// The change in the way of `operation` (applied by a step on change `change`) when another
  /// device made it, or a sync settled it: the latest change after `change` that still stands
  /// and touched the row (for an update, its field). Nil when that change is this machine's own
  /// (undo takes changes in order: it must be undone first), or there is none (the row was
  /// changed outside ootd's journal): the step refuses then.
  private static func overrider(_ db: Database, of operation: JournalOperation, after change: Int64) throws -> Overrider? {
    var field: String?
    if case .update(let name, _, _) = operation.action { field = name }
    guard
      let row = try Row.fetchOne(
        db.cachedStatement(
          sql: """
            SELECT journalChange.remote, journalChange.command, journalChange.device, syncDevice.name
            FROM journalOperation JOIN journalChange ON journalChange.id = journalOperation.changeId
            LEFT JOIN syncDevice ON journalChange.remote = 1 AND syncDevice.device = journalChange.device
            WHERE journalOperation.row = ? AND journalOperation.changeId > ?
              AND journalChange.kind = 'change' AND journalChange.undone = 0
              AND (journalOperation.field IS NULL OR ? IS NULL OR journalOperation.field = ?)
            ORDER BY journalOperation.id DESC LIMIT 1
            """), arguments: [operation.row, change, field, field])
    else { return nil }
    if row["remote"] as Bool { return Overrider(device: row["device"], name: row["name"]) }
    if row["command"] as String == SyncState.resolutionCommand { return Overrider(device: nil, name: nil) }
    return nil
  }

  /// The most recent journal entries, newest first.
  public func journal(limit: Int) throws(StorageError) -> [JournalEntry] {
    try read { db in
      try JournalChangeRecord.fetchAll(
        db,
        sql: """
          SELECT c.*, d.name AS deviceName FROM journalChange c
          LEFT JOIN syncDevice d ON c.remote = 1 AND d.device = c.device
          ORDER BY c.id DESC LIMIT ?
          """, arguments: [limit]
      ).map(\.entry)
    }
  }

  // MARK: - Helpers

  /// Calls `body` with each operation of change `id` (and the operation's id), in the order they were applied (or the
  /// reverse), reading them a thousand at a time (the first thousand being `first`, when they
  /// were read already); `body` may write to the journal meanwhile.
  static func forEachOperation(
    _ db: Database, of id: Int64, backwards: Bool,
    startingWith first: [(id: Int64, operation: JournalOperation)]? = nil,
    _ body: (_ id: Int64, JournalOperation) throws -> Void
  ) throws {
    var read = try first ?? operations(db, of: id, after: backwards ? .max : .min, backwards: backwards)
    while true {
      for (id, operation) in read { try body(id, operation) }
      guard read.count == batch, let last = read.last else { return }
      read = try operations(db, of: id, after: last.id, backwards: backwards)
    }
  }

  /// How many rows a command of any size reads, holds or writes at a time (operations of a
  /// change, overdue todos to carry, todos to unlink): a million take the memory of this many.
  static let batch = 1000

  /// Folds the write-ahead log of a change of `rows` rows into the database now, when it is
  /// large, rather than in the middle of the user's next command.
  func checkpointAfterWriting(_ rows: Int) throws(StorageError) {
    guard rows > Self.batch else { return }
    do {
      try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    } catch {
      throw Self.map(error, path: path)
    }
  }

  /// The next ``batch`` operations of change `id` after the one with id `after`
  /// (before it, `backwards`), with their ids.
  private static func operations(_ db: Database, of id: Int64, after: Int64, backwards: Bool) throws
    -> [(id: Int64, operation: JournalOperation)]
  {
    let sql =
      backwards
      ? "SELECT \(JournalOperationRecord.selection) FROM journalOperation WHERE changeId = ? AND id < ? ORDER BY id DESC LIMIT ?"
      : "SELECT \(JournalOperationRecord.selection) FROM journalOperation WHERE changeId = ? AND id > ? ORDER BY id LIMIT ?"
    return try Row.fetchAll(try db.cachedStatement(sql: sql), arguments: [id, after, batch]).map {
      (id: $0[JournalOperationRecord.Columns.id], operation: try JournalOperationRecord(row: $0).operation)
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

  /// This database's device id.
  static func device(_ db: Database) throws -> String {
    guard let device = try String.fetchOne(try db.cachedStatement(sql: deviceQuery)) else { throw noDevice }
    return device
  }

  /// The query of this database's device id (also part of a bigger statement).
  static let deviceQuery = "SELECT value FROM journalSetting WHERE key = 'device'"

  /// The error of a journal without a device id.
  static let noDevice = StorageError.sqlite("the journal has no device id")
}
