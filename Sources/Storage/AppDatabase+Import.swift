import Core
import Foundation
import GRDB

/// What an import did (or, for a dry run, would do).
public struct ImportResult: Hashable, Sendable {
  /// Todos created.
  public var added = 0
  /// Todos that existed (same uuid) and had fields changed.
  public var updated = 0
  /// Todos that existed and already matched.
  public var unchanged = 0
  /// Items of the file left out, by reason.
  public var skipped: [String: Int] = [:]
  /// The projects created, in the order first met.
  public var projects: [String] = []
  /// The blocks created (a todo's block the database did not have), in the order first met.
  public var blocks: [String] = []
  /// Todos the file would have left breaking a rule (done on a day after today, dropped and
  /// done), imported mended by the fixed resolution (``TodoRules``): one sentence each.
  public var conflicts: [String] = []
  /// New todos whose file gave a number (ootd's own export) that a todo of the database has or
  /// had, or that an earlier todo of the file took: each took the next free number instead.
  public var renumbered = 0
  /// Items of the file that named the uuid of an earlier one, by outcome (``RepeatedUUID``).
  public var repeated: [String: Int] = [:]

  /// How many items were left out in all.
  public var skippedCount: Int { skipped.values.reduce(0, +) }
}

extension AppDatabase {
  /// Applies an import plan as one change (one transaction, one journal entry, so `ootd undo`
  /// takes it back whole): each todo is created under its uuid, or, when a todo has that uuid,
  /// updated in the fields that differ (the tags, notes, annotations and the attributes the format
  /// carries are replaced by the file's; what the format cannot carry is kept, and a done time
  /// the file gives more coarsely than ootd keeps it, see ``ImportedTodo/agreesOnDoneTime(_:)``,
  /// stays); missing projects are created. With `dryRun`, only counts what would happen. A todo
  /// whose day is only a default keeps its day on update. A todo that would break a rule on `today` is
  /// imported mended by ``TodoRules/resolve(_:today:)``, reported in
  /// ``ImportResult/conflicts``.
  public func importTodos(
    _ plan: consuming ImportPlan, dryRun: Bool = false, today: Day, now: Date
  ) throws(StorageError) -> ImportResult {
    let plan = consume plan
    do {
      return try importTodos(dryRun: dryRun, today: today, now: now) { writer in
        for (reason, count) in plan.skipped { writer.result.skipped[reason, default: 0] += count }
        for (outcome, count) in plan.repeated { writer.result.repeated[outcome, default: 0] += count }
        for todo in plan.todos { try writer.add(todo) }
      }
    } catch let error as StorageError {
      throw error
    } catch {
      throw .sqlite("\(error)")
    }
  }

  /// The page cache of an import, in KiB (SQLite's default is 2,000). 24 MiB: at 1,000,000
  /// tasks the indexes written in random order (the uuids of `todo` and of the journal, the
  /// days) are far larger than any cache, and each page missed is read back from the WAL or
  /// spilled to it; SQLite's part of such an import took a quarter less CPU than with 8 MiB,
  /// and the import's peak stays under 64 MB (BENCHMARKS.md, import25c). Since import25e a big
  /// import leaves all of them but the uuids of `todo` out while it writes
  /// (``ImportWriter/deferredIndexes``): 8 MiB then peaked at 30 MB instead of 48 at 1M, for
  /// ~1.5 s more CPU (sys) of ~20; the time had the priority.
  static let importCacheKiB = 24_576

  /// Imports what `read` hands to its ``ImportWriter`` as one change, as
  /// ``importTodos(_:dryRun:today:now:)`` does, a batch of 500 todos at a time: a file of any
  /// length is imported in the memory of a batch. An error `read` throws is rethrown as it is,
  /// and nothing is changed. `size`, when the input's length is known, estimates how many
  /// items it holds in all from how many the writer has taken (``ImportSizeEstimate``): a big
  /// import then leaves its deferred indexes out from its first batch on (nothing else differs).
  public func importTodos(
    dryRun: Bool = false, today: Day, now: Date, size: ImportSizeEstimate? = nil,
    _ read: (inout ImportWriter) throws -> Void
  ) throws -> ImportResult {
    try importTodos(
      dryRun: dryRun, today: today, now: now, size: size, deferringIndexesFrom: ImportWriter.deferIndexesFrom, read)
  }

  /// ``importTodos(dryRun:today:now:size:_:)``, its indexes left out from `deferringIndexesFrom`
  /// todos created (or expected) on (``ImportWriter/deferIndexesFrom``; a test gives fewer).
  func importTodos(
    dryRun: Bool = false, today: Day, now: Date, size: ImportSizeEstimate? = nil, deferringIndexesFrom: Int,
    _ read: (inout ImportWriter) throws -> Void
  ) throws -> ImportResult {
    // The reader's own error, kept apart from storage's while the transaction rolls back.
    var failure: (any Error)?
    func run(_ db: Database, _ recorder: ChangeRecorder?) throws -> ImportResult {
      var writer = try ImportWriter(
        db, recorder: recorder, today: today, now: now, size: size, deferringIndexesFrom: deferringIndexesFrom)
      do {
        try read(&writer)
      } catch {
        failure = error
        throw error
      }
      try writer.flush()
      try writer.buildDeferredIndexes()
      try writer.countTodosMetAgain()
      return writer.result
    }
    let result: ImportResult
    do {
      if dryRun {
        result = try self.read { db in try run(db, nil) }
      } else {
        result = try change(now: now) { recorder in
          // A bigger page cache while the import writes: the uuid index of `todo` (and, until
          // a big import leaves it out, the journal's by row) is written in random order, and
          // with SQLite's default 2 MB each row's pages were spilled to the WAL and read back.
          try recorder.db.execute(sql: "PRAGMA cache_size = \(-Self.importCacheKiB)")
          defer { try? recorder.db.execute(sql: "PRAGMA cache_size = -2000") }
          return try run(recorder.db, recorder)
        }
      }
    } catch {
      throw failure ?? error
    }
    if !dryRun { try checkpointAfterWriting(result.added + result.updated) }
    return result
  }
}

/// How many items (todos and items left out) an import's input holds in all, estimated from the
/// number `taken` so far (and what the reader knows: the bytes read of a file of known size);
/// nil when it cannot tell. Asked once, when the first batch is full: an estimate under the
/// truth only leaves the indexes in longer (``ImportWriter/deferIndexesFrom``), one over it only
/// builds them again when they could have stayed; neither changes what is imported.
public typealias ImportSizeEstimate = (_ taken: Int) -> Int?

/// Applies (or, without a recorder, counts) the todos of an import a batch at a time, inside
/// the import's transaction: ``AppDatabase/importTodos(dryRun:today:now:_:)`` hands it to the reader
/// of the file.
public struct ImportWriter: ImportSink {
  /// What the import did so far.
  public internal(set) var result = ImportResult()
  private let db: Database
  private let recorder: ChangeRecorder?
  private let today: Day
  /// The last day a done todo of the file may be on: the latest day that is today anywhere
  /// (``TodoRules/latestDay(at:)``), as for another machine's changes: a file is made elsewhere
  /// (or by this database's own export of a todo done on a day ahead of this zone's: it comes
  /// back unchanged).
  private let latest: Day
  private let now: Date
  private let timestamp: String
  /// Projects by lowercased name → uuid (names are unique regardless of case).
  private var projects: [String: String] = [:]
  /// Blocks' names by lowercased name (read when a todo of the file first names one).
  private var blocks: [String: String]? = nil
  /// The todos read but not yet applied, and the place of each uuid among them.
  private var batch: [ImportedTodo] = []
  private var batchPlaces: [String: Int] = [:]
  static let batchSize = 500
  /// Todos whose id is past this one were created by this import: a uuid met again there takes
  /// the place of the todo its first object created (nothing is held per todo).
  private let lastIDBefore: Int64
  /// A dry run creates nothing: the uuids it counted as added (16 bytes each).
  private var countedAsAdded: Set<UInt128> = []
  /// The todos of the batch to create, each with the number it takes, written together at the
  /// end of the batch (``ChangeRecorder/createAll(_:typed:)``: one prepared statement for the
  /// rows and one for their journal rows, each row's values bound straight).
  private var creations: [CreatedRow] = []
  /// The number the next created todo takes: the one SQLite's AUTOINCREMENT would give it.
  private var nextID: Int64
  /// The first number no todo of the database has or had (the first ``nextID``): a new todo
  /// keeps the number its file gives (``ImportedTodo/number``) from here on, when no earlier
  /// todo of the import took it (a number below was a todo's, whose removal undo takes back).
  private let firstFreeID: Int64
  /// The numbers this import gave or holds for the batch's todos that bring one (a bit each).
  private var numbered = RowIDBits()
  /// The numbers of the batch's new todos held for them before the batch is applied, so that a
  /// todo that takes another number takes none a later todo of the batch brings.
  private var held: Set<Int64> = []
  /// The todos there before the import that an object of the file met so far, of those the
  /// ones counted as updated, and of those the ones an object of a later batch met again, by
  /// id (a bit each, 64 to a word): a uuid met again is counted once, by what the todo is at
  /// the end beside what it was before the import (``count(_:differs:)``).
  private var met = RowIDBits()
  private var countedAsUpdated = RowIDBits()
  private var metAgain = RowIDBits()
  /// How many todos this import creates before it leaves out ``deferredIndexes``.
  private let deferIndexesFrom: Int
  /// The input's estimate of its items in all (nil: none), asked at the first batch's end.
  private let size: ImportSizeEstimate?
  /// The items of the file taken so far: todos (a uuid met again too) and items left out.
  private var taken = 0
  /// Whether a batch was applied already (only the first asks ``size``).
  private var flushedOnce = false
  /// The highest id of the todos and of the journal's operations before the import: about how
  /// many rows building the deferred indexes again reads besides the import's own.
  private let rowsBefore: Int64
  /// The statements that create the indexes left out, as the schema has them; empty while
  /// none is.
  private var deferred: [String] = []

  init(
    _ db: Database, recorder: ChangeRecorder?, today: Day, now: Date, size: ImportSizeEstimate? = nil,
    deferringIndexesFrom: Int
  ) throws {
    self.db = db
    self.size = size
    self.recorder = recorder
    self.today = today
    self.now = now
    self.latest = TodoRules.latestDay(at: now)
    deferIndexesFrom = deferringIndexesFrom
    timestamp = Timestamp.string(now, .sqlite)
    for row in try Row.fetchAll(db, sql: "SELECT name, uuid FROM project") {
      projects[(row["name"] as String).lowercased()] = row["uuid"]
    }
    lastIDBefore = try Int64.fetchOne(db, sql: "SELECT max(id) FROM todo") ?? 0
    rowsBefore = max(lastIDBefore, try Int64.fetchOne(db, sql: "SELECT max(id) FROM journalOperation") ?? 0)
    let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'todo'") ?? 0
    nextID = max(lastIDBefore, sequence) + 1
    firstFreeID = nextID
  }

  /// Takes the next todo of the file. A uuid met again keeps the place of the first todo of
  /// that uuid and takes the fields of this one, as if only this one had been read.
  public mutating func add(_ todo: ImportedTodo) throws {
    taken += 1
    if let place = batchPlaces[todo.uuid] {
      batch[place] = todo
      repeated(RepeatedUUID.laterKept)
      return
    }
    if batch.count >= Self.batchSize { try flush() }
    batchPlaces[todo.uuid] = batch.count
    batch.append(todo)
  }

  /// Counts one item of the file that named an earlier one's uuid (``RepeatedUUID``): by the
  /// reader, or here, where a uuid met again is found (in the batch, ``add(_:)``; past it,
  /// ``apply(_:existing:)`` and ``count(_:differs:)``).
  public mutating func repeated(_ outcome: String) { result.repeated[outcome, default: 0] += 1 }

  /// Counts one item of the file left out for `reason`.
  public mutating func skip(_ reason: String) {
    taken += 1
    result.skipped[reason, default: 0] += 1
  }

  /// Applies the batch: creates each todo, or updates the one that has its uuid.
  mutating func flush() throws {
    guard !batch.isEmpty else { return }
    // Only the first batch, and full (more to come), asks the input's estimate.
    let first = !flushedOnce && batch.count >= Self.batchSize
    flushedOnce = true
    // The todos the batch names, by uuid, in one query: a full batch's statement compiled once
    // for the import (its 500 marks written once), the uuids passed as GRDB binds them cheapest.
    var existing: [String: TodoRecord] = [:]
    let full = batch.count == Self.batchSize
    let clause = full ? Self.fullBatchClause : Self.clause(batch.count)
    let uuids: [(any DatabaseValueConvertible)?] = batch.map { $0.uuid }
    for record in try TodoRecord.fetchAll(db, where: clause, StatementArguments(uuids), cached: full) {
      existing[record.uuid] = record
    }
    for todo in batch where existing[todo.uuid] == nil {
      if let wanted = todo.number, wanted >= firstFreeID, numbered.insert(wanted) { held.insert(wanted) }
    }
    for todo in batch { try apply(todo, existing: existing[todo.uuid]) }
    held.removeAll(keepingCapacity: true)
    try recorder?.createAll(.todo, typed: creations)
    creations.removeAll(keepingCapacity: true)
    batch.removeAll(keepingCapacity: true)
    batchPlaces.removeAll(keepingCapacity: true)
    guard recorder != nil, deferred.isEmpty else { return }
    if defersIndexes(creating: result.added) || first && defersIndexes(creating: expectedCreations()) {
      try deferIndexes()
    }
  }

  /// The condition on the uuids of a batch of `count` todos.
  private static func clause(_ count: Int) -> String {
    "todo.uuid IN (" + Array(repeating: "?", count: count).joined(separator: ",") + ")"
  }

  private static let fullBatchClause = clause(batchSize)

  /// Whether an import that creates `created` todos leaves ``deferredIndexes`` out: from
  /// ``deferIndexesFrom`` on, and a quarter as many as the rows there before.
  private func defersIndexes(creating created: Int) -> Bool {
    created >= deferIndexesFrom && Int64(created) * 4 >= rowsBefore
  }

  /// How many todos the whole input will create, at the end of the first batch: the input's
  /// estimate of its items (``ImportSizeEstimate``) times the share of the items taken so far
  /// that created a todo (a file imported again creates none: its indexes stay); 0 without one.
  private func expectedCreations() -> Int {
    guard taken > 0, let items = size?(taken) else { return 0 }
    return Int((Double(items) * Double(result.added) / Double(taken)).rounded(.down))
  }

  /// The indexes a big import leaves out while it writes, and builds again at its end, in its
  /// transaction (``buildDeferredIndexes()``): the import reads none of them, and each is keyed
  /// in an order the file's todos do not come in (their days; the journal's rows by the todos'
  /// uuids), so that past a few hundred thousand todos each row written touched pages of them
  /// no cache under 64 MB holds, spilled to the WAL and read back. SQLite builds an index from
  /// a sort of its table, a few seconds a million rows (BENCHMARKS.md, import25e). Kept: the
  /// uuid indexes the import looks todos up by (unique), and the journal's by change (written
  /// in order). Nothing reads a row's operations in this change while they are out: without
  /// the journal's by row, that read every row the import wrote so far (a todo met again is
  /// counted at the end, ``countTodosMetAgain()``).
  static let deferredIndexes = [
    "todo_on_day_priority_done", "todo_on_project_day", "todo_open_on_day", "journalOperation_on_row",
  ]

  /// How many todos an import creates before it leaves ``deferredIndexes`` out (when it has
  /// created a quarter as many as the rows there before, too: building them again reads those).
  /// Below this the indexes fit in the import's page cache and cost little to keep. An input
  /// that tells its size (``ImportSizeEstimate``) and is expected to create as many leaves them
  /// out from its first batch on: the first 20,000 todos of a big import then pay no index
  /// either (BENCHMARKS.md, import25f).
  static let deferIndexesFrom = 20_000

  /// Drops ``deferredIndexes``, keeping the statements that make them (the schema's own).
  private mutating func deferIndexes() throws {
    let names = Self.deferredIndexes.map { "'\($0)'" }.joined(separator: ", ")
    let sql = "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND name IN (\(names))"
    for row in try Row.fetchAll(db, sql: sql) {
      deferred.append(row["sql"])
      try db.execute(sql: "DROP INDEX \(row["name"] as String)")
    }
  }

  /// Whether the import has left ``deferredIndexes`` out (until ``buildDeferredIndexes()``).
  var leavesIndexesOut: Bool { !deferred.isEmpty }

  /// Builds the indexes the import left out again, as they were: before the todos met again are
  /// counted (``countTodosMetAgain()``) and its change is finished, whose summary looks its
  /// todos up in the journal by row.
  mutating func buildDeferredIndexes() throws {
    guard !deferred.isEmpty else { return }
    // SQLite sorts an index's keys in memory up to the page cache's size, beside the cache:
    // with the import's 24 MiB the peak passed 64 MB at 1,000,000 todos (71 MB). The default
    // cache frees the import's pages for the sort, which spills to temporary files past it.
    try db.execute(sql: "PRAGMA cache_size = -2000")
    for sql in deferred { try db.execute(sql: sql) }
    deferred = []
  }

  private mutating func apply(_ file: ImportedTodo, existing found: TodoRecord?) throws {
    var todo = file
    // A todo this import created (a uuid met again past the batch of its first): replaced by
    // this one's fields as a new todo, counted once.
    var replacing: TodoRecord? = nil
    var record = found
    var counted = false
    if let found, found.id > lastIDBefore {
      replacing = found
      record = nil
      repeated(RepeatedUUID.laterKept)
    } else if recorder == nil, found == nil, let bits = RowID.bits(todo.uuid) {
      counted = !countedAsAdded.insert(bits).inserted
      if counted { repeated(RepeatedUUID.laterKept) }
    }
    // Done in the future or before its own day: as the commands would have left it, said in
    // words (unless the todo is so already).
    let storedDay: Day?? = todo.isDone ? record.map { $0.day.flatMap { Day(iso: $0) } } : nil
    let doneFixes = todo.keepDoneDay(today: today, now: now, stored: storedDay)
    func reportDoneFixes(_ result: inout ImportResult) {
      for fix in doneFixes { result.conflicts.append(fix(record?.ruleSubject ?? "'\(todo.title)'")) }
    }
    var projectUUID: String? = nil
    if let name = todo.project {
      if let known = projects[name.lowercased()] {
        projectUUID = known
      } else {
        let uuid = RowID.random()
        try recorder?.create(
          .project,
          ["name": .text(name), "tech": .text(""), "archived": .bool(false), "createdAt": .text(timestamp)],
          uuid: uuid)
        projects[name.lowercased()] = uuid
        projectUUID = uuid
        result.projects.append(name)
      }
    }
    if record == nil, replacing == nil, todo.block == nil, try create(todo, project: projectUUID, counted: counted) {
      reportDoneFixes(&result)
      return
    }
    // Room for every field a creation sets, so that the dictionary never grows.
    var fields = Fields(minimumCapacity: 16)
    fields["title"] = .text(todo.title)
    fields["priority"] = .integer(Int64(todo.priority.rank))
    fields["day"] = .optional(todo.day?.description)
    fields["done"] = .bool(todo.isDone)
    fields["project"] = .optional(projectUUID)
    fields["tags"] = .optional(Tag.text(todo.tags))
    if todo.block != nil { fields["block"] = .text(try block(of: todo, changing: record)) }
    // What the format does not carry (todo.txt: notes, annotations, attributes with a space)
    // stays as the todo has it: a round trip through it changes nothing.
    if todo.replacesNotes || todo.notes != nil { fields["notes"] = .optional(todo.notes) }
    if let annotations = todo.annotations { fields["annotations"] = .optional(Annotation.text(annotations)) }
    // ootd's own (its export's), when the file gives them: else a todo keeps its own.
    if let days = todo.carriedFrom { fields["carriedFrom"] = .optional(CarryRecord.text(days)) }
    if let doneBy = todo.doneBy { fields["doneBy"] = .text(doneBy.rawValue) }
    let stored = Attributes.attributes(record?.attributes)
    fields["attributes"] = .optional(
      Attributes.text(todo.attributeCarrier.merged(stored: stored, imported: todo.attributes)))
    if let record {
      if todo.dayIsDefault { fields["day"] = nil }
      fields["dropped"] = .bool(todo.isDropped)
      // Keep the recorded time of a todo that stays done; set or clear it when that changes.
      let storedDoneAt = record.doneAt.flatMap { Timestamp.date($0, .sqlite) }
      if todo.isDone != record.done {
        fields["doneAt"] = todo.isDone ? .text(Timestamp.string(todo.doneAt ?? now, .sqlite)) : .null
      } else if todo.isDone, let doneAt = todo.doneAt, !todo.agreesOnDoneTime(storedDoneAt) {
        fields["doneAt"] = .text(Timestamp.string(doneAt, .sqlite))
      }
    } else {
      fields["notes"] = .optional(todo.notes)
      for name in ["annotations", "attributes", "carriedFrom"] where fields[name] == .null { fields[name] = nil }
      if todo.isDropped { fields["dropped"] = .bool(true) }
    }
    keepRules(&fields, of: todo, existing: record)
    if let record {
      let current = record.fields
      let differs = fields.contains { current[$0.key] ?? .null != $0.value }
      if differs {
        try recorder?.update(.todo, row: record.uuid, current: current, to: fields)
        reportDoneFixes(&result)
      }
      count(record, differs: differs)
    } else {
      fields["doneAt"] = todo.isDone ? .text(Timestamp.string(todo.doneAt ?? now, .sqlite)) : .null
      fields["createdAt"] = .text(Timestamp.string(todo.createdAt ?? now, .sqlite))
      if let replacing {
        // Every field a creation sets, the defaults included.
        for name in ["notes", "annotations", "attributes", "carriedFrom", "doneBy"] where fields[name] == nil {
          fields[name] = .null
        }
        if fields["dropped"] == nil { fields["dropped"] = .bool(false) }
        try recorder?.update(.todo, row: replacing.uuid, current: replacing.fields, to: fields)
        return
      }
      if !counted { result.added += 1 }
      reportDoneFixes(&result)
      let id = counted ? 0 : number(for: todo)
      guard recorder != nil else { return }
      // Created at the end of the batch, under its file's number when free, else the number
      // AUTOINCREMENT would give it now (the journal records it, as for any creation).
      fields[todo: .id] = .integer(id)
      let names = fields.keys.sorted()
      creations.append(CreatedRow(row: todo.uuid, names: names, values: names.map { fields[$0]! }))
    }
  }

  /// The number a new todo takes: the file's (``ImportedTodo/number``) when it is free (past
  /// ``firstFreeID`` and not given by this import yet), else the next free one (counted in
  /// ``ImportResult/renumbered`` when the file gave one).
  private mutating func number(for todo: ImportedTodo) -> Int64 {
    if let wanted = todo.number {
      if held.remove(wanted) != nil || wanted >= firstFreeID && numbered.insert(wanted) { return wanted }
      result.renumbered += 1
    }
    while numbered.contains(nextID) { nextID += 1 }
    numbered.insert(nextID)
    nextID += 1
    return nextID - 1
  }

  /// The name of `todo`'s block (the database's spelling), created as a user block (the todo's
  /// title and priority, no routine) when the database has none of that name and the import
  /// gives `record` that block: a todo that keeps its block (a block removed since) creates
  /// none, so a file imported again changes nothing.
  private mutating func block(of todo: ImportedTodo, changing record: TodoRecord?) throws -> String {
    guard let name = todo.block else { return "" }
    if blocks == nil {
      blocks = [:]
      for row in try Row.fetchAll(db, sql: "SELECT name FROM block") {
        let known: String = row["name"]
        blocks?[known.lowercased()] = known
      }
    }
    if let known = blocks?[name.lowercased()] { return known }
    guard record?.block != name else { return name }
    try recorder?.create(
      .block, TaskBlock(name: name, title: todo.title, priority: todo.priority).userFields(createdAt: timestamp))
    blocks?[name.lowercased()] = name
    result.blocks.append(name)
    return name
  }

  /// The names of a new todo's fields, sorted, by which of the three it may leave out it sets
  /// (1: annotations, 2: attributes, 4: dropped, 8: carriedFrom, 16: doneBy): the same arrays
  /// for all the rows of an import.
  private static let creationNames: [[String]] = (0..<32).map { set in
    var names = ["createdAt", "day", "done", "doneAt", "id", "notes", "priority", "project", "tags", "title"]
    if set & 1 != 0 { names.append("annotations") }
    if set & 2 != 0 { names.append("attributes") }
    if set & 4 != 0 { names.append("dropped") }
    if set & 8 != 0 { names.append("carriedFrom") }
    if set & 16 != 0 { names.append("doneBy") }
    return names.sorted()
  }

  /// Takes `todo` as a new todo (no todo has its uuid) in `project`'s uuid, when it breaks no
  /// rule as the file gives it (else false: ``apply(_:existing:)`` mends it through its fields):
  /// counted, and for an import its row made straight from the todo's values, in the order of
  /// their sorted names, with no dictionary of fields (the same fields and values as
  /// ``apply(_:existing:)`` sets for a new todo; the journal of an import is the same either way).
  private mutating func create(_ todo: ImportedTodo, project: String?, counted: Bool) throws -> Bool {
    let dropped = todo.isDropped && !todo.isDone
    // Both dropped and done (a todo.txt `x … dropped:yes`) breaks a rule: mended and reported.
    let carriedFrom = todo.carriedFrom.flatMap(CarryRecord.text)
    let state = TodoRuleState(
      day: todo.day, isDone: todo.isDone, isDropped: todo.isDropped, carriedFrom: todo.carriedFrom ?? [])
    guard TodoRules.resolve(state, today: today, latest: latest).fixes.isEmpty else { return false }
    if !counted { result.added += 1 }
    let id = counted ? 0 : number(for: todo)
    guard recorder != nil else { return true }
    let annotations = todo.annotations.flatMap(Annotation.text)
    let attributes = Attributes.text(
      todo.attributeCarrier.merged(stored: Attributes.attributes(nil), imported: todo.attributes))
    let set = (annotations == nil ? 0 : 1) | (attributes == nil ? 0 : 2) | (dropped ? 4 : 0)
      | (carriedFrom == nil ? 0 : 8) | (todo.doneBy == nil ? 0 : 16)
    // In the order of the names sorted: annotations, attributes, carriedFrom, createdAt, day,
    // done, doneAt, doneBy, dropped, id, notes, priority, project, tags, title.
    var values: [FieldValue] = []
    values.reserveCapacity(15)
    if let annotations { values.append(.text(annotations)) }
    if let attributes { values.append(.text(attributes)) }
    if let carriedFrom { values.append(.text(carriedFrom)) }
    values.append(.text(Timestamp.string(todo.createdAt ?? now, .sqlite)))
    values.append(.optional(todo.day?.description))
    values.append(.bool(todo.isDone))
    values.append(todo.isDone ? .text(Timestamp.string(todo.doneAt ?? now, .sqlite)) : .null)
    if let doneBy = todo.doneBy { values.append(.text(doneBy.rawValue)) }
    if dropped { values.append(.bool(true)) }
    values.append(.integer(id))
    values.append(.optional(todo.notes))
    values.append(.integer(Int64(todo.priority.rank)))
    values.append(.optional(project))
    values.append(.optional(Tag.text(todo.tags)))
    values.append(.text(todo.title))
    creations.append(CreatedRow(row: todo.uuid, names: Self.creationNames[set], values: values))
    return true
  }

  /// Counts a todo that was there before the import as updated or unchanged by an object of the
  /// file (`differs`: it sets fields that differ from the todo's as they are now). A todo met
  /// again (an object of its uuid in an earlier batch) was counted then. Counted unchanged, it
  /// is still as it was before the import: that count is taken back and `differs` says. Counted
  /// updated, it keeps that count until the end of the import, when it is counted by what it
  /// is then beside what it was before (``countTodosMetAgain()``); a dry run wrote nothing, so
  /// there `differs` says too.
  private mutating func count(_ record: TodoRecord, differs: Bool) {
    if !met.insert(record.id) {
      repeated(RepeatedUUID.laterKept)
      if countedAsUpdated.contains(record.id) {
        guard recorder == nil else {
          metAgain.insert(record.id)
          return
        }
        result.updated -= 1
      } else {
        result.unchanged -= 1
      }
    }
    if differs {
      result.updated += 1
      countedAsUpdated.insert(record.id)
    } else {
      result.unchanged += 1
      countedAsUpdated.remove(record.id)
    }
  }

  /// Counts each todo there before the import that an object of the file updated and one of a
  /// later batch met again (``count(_:differs:)``) by its fields now beside its fields before
  /// the import (each as the change's first update of it found it,
  /// ``ChangeRecorder/fieldsBefore(_:row:current:)``): unchanged when they all agree. Asked
  /// once the deferred indexes are built again, when the journal's by row finds a todo's
  /// operations in this change: while it is out, that read every row the import wrote so far,
  /// a scan per todo met again (issue 25).
  mutating func countTodosMetAgain() throws {
    guard let recorder else { return }
    try metAgain.forEach { id in
      for record in try TodoRecord.fetchAll(db, where: "todo.id = ?", [id], cached: true) {
        let current = record.fields
        // Every field of `current` is in `before`: the two agree when `before`'s all do.
        let before = try recorder.fieldsBefore(.todo, row: record.uuid, current: current)
        if before.allSatisfy({ current[$0.key] ?? .null == $0.value }) {
          result.updated -= 1
          result.unchanged += 1
        }
      }
    }
  }

  /// Mends `fields`, what the import sets, when the todo would break a rule
  /// (``TodoRules/resolve(_:today:)``), and reports each fix.
  private mutating func keepRules(_ fields: inout Fields, of todo: ImportedTodo, existing record: TodoRecord?) {
    let stored = record?.ruleState
    let state = TodoRuleState(
      day: fields["day"].map { $0.text.flatMap(Day.init(iso:)) } ?? (record == nil ? todo.day : stored?.day),
      isDone: todo.isDone,
      isDropped: fields["dropped"].map { $0 == .bool(true) } ?? stored?.isDropped ?? false,
      carriedFrom: fields["carriedFrom"].map { CarryRecord.days($0.text) } ?? stored?.carriedFrom ?? [])
    let (resolved, fixes) = TodoRules.resolve(state, today: today, latest: latest)
    guard !fixes.isEmpty else { return }
    fields.merge(resolved.fields) { $1 }
    // A todo already as resolved (a file imported again) changes nothing: nothing to report.
    if let current = record?.fields, resolved.fields.allSatisfy({ current[$0.key] == $0.value }) { return }
    let subject = record?.ruleSubject ?? "'\(todo.title)'"
    result.conflicts += fixes.map { $0.sentence(subject) }
  }
}

/// A set of row ids, a bit each in words of 64 ids (a dense run of ids costs a bit an id; a
/// sparse one a word an id).
struct RowIDBits {
  private var words: [Int64: UInt64] = [:]

  func contains(_ id: Int64) -> Bool {
    (words[id >> 6] ?? 0) & (1 << UInt64(id & 63)) != 0
  }

  /// Adds `id`; false when it was in already.
  @discardableResult
  mutating func insert(_ id: Int64) -> Bool {
    let bit: UInt64 = 1 << UInt64(id & 63)
    let word = words[id >> 6, default: 0]
    guard word & bit == 0 else { return false }
    words[id >> 6] = word | bit
    return true
  }

  mutating func remove(_ id: Int64) {
    guard let word = words[id >> 6], word & (1 << UInt64(id & 63)) != 0 else { return }
    words[id >> 6] = word & ~(1 << UInt64(id & 63))
  }

  /// Calls `body` with each id of the set, in ascending order.
  func forEach(_ body: (Int64) throws -> Void) rethrows {
    for key in words.keys.sorted() {
      var word = words[key] ?? 0
      while word != 0 {
        try body(key << 6 | Int64(word.trailingZeroBitCount))
        word &= word - 1
      }
    }
  }
}
