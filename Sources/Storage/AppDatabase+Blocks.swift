import Core
import Foundation
import GRDB
import Zone

extension AppDatabase {
  /// Every task block, built-in ones first, then by name.
  public func blocks() throws(StorageError) -> [TaskBlock] {
    try read { db in
      try BlockRecord.fetchAll(db, sql: "SELECT * FROM block ORDER BY builtIn DESC, name")
        .map { try $0.block() }
    }
  }

  /// The block named `name` (case-insensitive).
  public func block(named name: String) throws(StorageError) -> TaskBlock {
    try read { db in try BlockRecord.named(db, name).block() }
  }

  /// Adds a user block; names are unique regardless of case. A routine block due on
  /// ``routineDay`` gets that day's todo in the same change (returned).
  @discardableResult
  public func addBlock(_ block: TaskBlock, now: Date) throws(StorageError) -> [Todo] {
    try change(now: now) { recorder in
      if try Row.fetchOne(
        recorder.db, sql: "SELECT 1 FROM block WHERE name = ?", arguments: [block.name]) != nil
      {
        throw StorageError.duplicateBlock(block.name)
      }
      try recorder.create(.block, block.userFields(createdAt: Timestamp.string(now, .sqlite)))
      return try planToday(recorder, now: now)
    }
  }

  /// Removes a block. Todos made from it keep their title and the block's name.
  public func removeBlock(named name: String, now: Date) throws(StorageError) {
    try change(now: now) { recorder in
      let record = try BlockRecord.named(recorder.db, name)
      try recorder.delete(.block, row: record.uuid, fields: record.fields)
    }
  }

  /// Brings back a built-in block removed with `block rm`, as a fresh database has it (its
  /// title, priority and uuid; not in the routine). Returns it.
  ///
  /// - Throws: ``StorageError/blockNotFound(_:)`` when `name` is no built-in block,
  ///   ``StorageError/duplicateBlock(_:)`` when a block of that name exists.
  public func restoreBuiltInBlock(named name: String, now: Date) throws(StorageError)
    -> TaskBlock
  {
    guard let builtIn = TaskBlock.builtIns.first(where: { $0.name == name.lowercased() }) else {
      throw .blockNotFound(name)
    }
    return try change(now: now) { recorder in
      if try Row.fetchOne(
        recorder.db, sql: "SELECT 1 FROM block WHERE name = ? COLLATE NOCASE", arguments: [builtIn.name]) != nil
      {
        throw StorageError.duplicateBlock(builtIn.name)
      }
      try recorder.create(
        .block, TaskBlock.builtInFields(builtIn.name, createdAt: Timestamp.string(now, .sqlite)) ?? [:],
        uuid: RowID.builtInBlock(builtIn.name))
      return try BlockRecord.named(recorder.db, builtIn.name).block()
    }
  }

  /// Marks a block as part of the routine on the days of `recurrence` (or, with `isRoutine`
  /// false, takes it out). A block that becomes due on ``routineDay`` gets that day's todo in
  /// the same change, so that undo takes both back.
  public func setRoutine(
    named name: String, _ isRoutine: Bool, recurrence: Recurrence = .daily, now: Date
  ) throws(StorageError) -> (block: TaskBlock, planned: [Todo]) {
    try change(now: now) { recorder in
      let record = try BlockRecord.named(recorder.db, name)
      try recorder.update(
        .block, row: record.uuid, current: record.fields,
        to: [
          "routine": .bool(isRoutine),
          "recurrence": isRoutine && recurrence != .daily ? .text(recurrence.text) : .null,
        ])
      let planned = isRoutine ? try planToday(recorder, now: now) : []
      return (try BlockRecord.named(recorder.db, name).block(), planned)
    }
  }

  /// Within a change: plans ``routineDay``'s routine blocks not planned on it yet (a block just
  /// made routine), as part of the change. Returns the todos added.
  private func planToday(_ recorder: ChangeRecorder, now: Date) throws -> [Todo] {
    guard let routineDay else { return [] }
    let uuids = try Self.planRoutine(recorder, on: routineDay, now: now, automatic: true)
    return try Self.todos(recorder.db, uuids: uuids)
  }

  /// `ootd plan`: adds a todo on `day` for each routine block due that day that has no todo
  /// on that day yet. Running it twice adds nothing the second time. Returns the todos it added.
  /// With `timeZone`, those of blocks with a `commits` rule are done at once when their day
  /// already has a commit (as ``addTodo(_:done:now:timeZone:)`` does).
  public func planRoutine(on day: Day, now: Date, timeZone: (any ZoneRules)? = nil)
    throws(StorageError) -> [Todo]
  {
    try change(now: now) { recorder in
      let uuids = try Self.planRoutine(recorder, on: day, now: now, automatic: false)
      if let timeZone {
        _ = try Self.tickByCommits(
          recorder, today: Day(now, in: timeZone), timeZone: timeZone, onlyUUIDs: uuids)
      }
      return try Self.todos(recorder.db, uuids: uuids)
    }
  }

  /// Plans the routine of `day` by itself, unless it is planned already (one IMMEDIATE write
  /// transaction: concurrent processes plan it once), as its own journal entry: what the
  /// dashboard and a list of today run before showing the day. Returns the todos it added.
  @discardableResult
  public func planDueRoutine(on day: Day, now: Date) throws(StorageError) -> [Todo] {
    try planDueRoutine(on: day, now: now) { db, uuids in try Self.todos(db, uuids: uuids) } ?? []
  }

  /// Plans as ``planDueRoutine(on:now:)`` does, and returns how many todos it added without
  /// reading them back: for a command that shows the day next and reads them then (the
  /// dashboard, a list of today; reading them back cost the first one of a day 0.9 M
  /// instructions, issue 25).
  @discardableResult
  public func planDueRoutineCount(on day: Day, now: Date) throws(StorageError) -> Int {
    try planDueRoutine(on: day, now: now) { _, uuids in uuids.count } ?? 0
  }

  /// The one path of both: nil when nothing is due (no write transaction at all), else
  /// `result` of the uuids planned, within the transaction.
  private func planDueRoutine<T>(
    on day: Day, now: Date, _ result: (Database, [String]) throws -> T
  ) throws(StorageError) -> T? {
    guard try readStatement({ db in try Self.hasDueRoutine(db, on: day) }) else { return nil }
    return try writeDerived { db in try result(db, try Self.planDueRoutine(db, on: day, now: now)) }
  }

  // MARK: - The routine rule

  /// The command the journal records for a routine planned by itself.
  static let automaticPlanCommand = "plan (automatic)"

  /// Within a write transaction: plans `day`'s routine blocks that the routine has not planned
  /// on that day yet, recording them as a journal entry of their own (before the command's).
  static func planDueRoutine(_ db: Database, on day: Day, now: Date) throws -> [String] {
    // The common case, every command of a day once it is planned: one small indexed query.
    guard try hasDueRoutine(db, on: day) else { return [] }
    let recorder = ChangeRecorder(db, command: automaticPlanCommand, now: now)
    let uuids = try planRoutine(recorder, on: day, now: now, automatic: true)
    try recorder.finish()
    return uuids
  }

  /// Routine blocks due on `day` whose planning for that day is not recorded yet.
  static func dueRoutineBlocks(_ db: Database, on day: Day) throws -> [BlockRecord] {
    // Rows, then records: `BlockRecord.fetchAll` would instantiate a cursor type whose first
    // use scans the binary's conformance records, on every write.
    try Row.fetchAll(
      try db.cachedStatement(sql: "SELECT * FROM block WHERE \(unplannedRoutine) ORDER BY priority, name"),
      arguments: [day.description]
    ).map { try BlockRecord(row: $0) }.filter { occurs($0.recurrence, on: day) }
  }

  /// Whether ``dueRoutineBlocks(_:on:)`` finds any, reading only the recurrences: what every
  /// command asks, and the answer is almost always no (the statement of whole blocks costs
  /// every command twice the instructions to prepare and read).
  static func hasDueRoutine(_ db: Database, on day: Day) throws -> Bool {
    let rows = try Row.fetchCursor(
      db.cachedStatement(sql: "SELECT recurrence FROM block WHERE \(unplannedRoutine)"),
      arguments: [day.description])
    while let row = try rows.next() {
      if occurs(row[0], on: day) { return true }
    }
    return false
  }

  /// The routine blocks whose planning for the day (the argument) is not recorded yet, as an
  /// SQL condition on `block`.
  private static let unplannedRoutine = """
    routine = 1 AND NOT EXISTS (
      SELECT 1 FROM routinePlan WHERE routinePlan.block = block.uuid AND routinePlan.day = ?)
    """

  /// Whether a routine block of `recurrence` (nil: daily) is due on `day`.
  private static func occurs(_ recurrence: String?, on day: Day) -> Bool {
    Recurrence(text: recurrence)?.occurs(on: day) ?? false
  }

  /// The one rule of routine planning, for `plan` and the automatic plan alike. Each routine
  /// block due on `day` gets one todo there, named by ``RowID/routineTodo(block:day:)`` (the
  /// same on every machine), unless the day already has a todo from that block or that todo
  /// exists (moved elsewhere). Every (block, day) considered is recorded in `routinePlan`;
  /// `automatic` planning skips those already recorded, so a todo removed or dropped stays
  /// away, while an explicit `plan` brings it back.
  static func planRoutine(_ recorder: ChangeRecorder, on day: Day, now: Date, automatic: Bool)
    throws -> [String]
  {
    let db = recorder.db
    let blocks: [BlockRecord]
    if automatic {
      blocks = try dueRoutineBlocks(db, on: day)
    } else {
      blocks = try BlockRecord.fetchAll(
        db, sql: "SELECT * FROM block WHERE routine = 1 ORDER BY priority, name"
      ).filter { Recurrence(text: $0.recurrence)?.occurs(on: day) ?? false }
    }
    guard !blocks.isEmpty else { return [] }
    // Set-wise (issue 25): one statement records every (block, day) considered, one finds which
    // blocks the day has already, then one creation per todo (the journal records each). Before,
    // two statements a block, each prepared anew: the first command of a day paid for them.
    let dayText = day.description
    // Arguments appended as literals: an array of `any DatabaseValueConvertible` cast to
    // StatementArguments cost 0.56 M instructions of conformance lookups.
    let pairs = Array(repeating: "(?, ?)", count: blocks.count).joined(separator: ", ")
    var considered = StatementArguments()
    for block in blocks { considered += [block.uuid, dayText] }
    try db.execute(sql: "INSERT OR IGNORE INTO routinePlan (block, day) VALUES \(pairs)", arguments: considered)
    let candidates = blocks.map { RowID.routineTodo(block: $0.uuid, day: day) }
    // A block is planned when its routine todo exists (moved elsewhere) or the day has a todo
    // from the block.
    let rows = Array(repeating: "(?, ?, ?)", count: blocks.count).joined(separator: ", ")
    var arguments = StatementArguments()
    for (position, block) in blocks.enumerated() { arguments += [position, candidates[position], block.name] }
    arguments += [dayText]
    var planned = Array(repeating: false, count: blocks.count)
    // Read as rows: a cursor of `Int` would be a type whose first use scans the binary's
    // conformance records.
    let found = try Row.fetchCursor(
      db,
      sql: """
        WITH candidate(position, uuid, name) AS (VALUES \(rows))
        SELECT position FROM candidate
        WHERE EXISTS (SELECT 1 FROM todo WHERE todo.uuid = candidate.uuid)
          OR EXISTS (SELECT 1 FROM todo WHERE todo.day = ? AND todo.block = candidate.name COLLATE NOCASE)
        """, arguments: arguments)
    while let row = try found.next() {
      let position: Int = row[0]
      planned[position] = true
    }
    var uuids: [String] = []
    for (position, block) in blocks.enumerated() where !planned[position] {
      let draft = try NewTodo(
        title: block.title, priority: Priority(rank: block.priority) ?? .mid, day: day,
        block: block.name)
      uuids.append(try insert(recorder, draft, done: false, now: now, uuid: candidates[position]))
    }
    return uuids
  }
}
