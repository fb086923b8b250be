import Core
import Foundation
import GRDB

/// The one write path for todos, projects and blocks: each change is applied through here, one
/// row-level operation at a time, and recorded in the same transaction, so that the command's
/// journal entry records exactly what happened.
///
/// A change of a few operations (up to ``AppDatabase/batch``, what a command typed by hand makes)
/// is written whole by ``finish(summary:always:)``: one `journalChange` row with its summary,
/// then the operations. A bigger one (an import, a carry of years of todos) is written as it is
/// applied: the entry's row first, each operation as it comes, the summary last; nothing of its
/// operations stays in memory but the summary's few names and counts
/// (``ChangeSummary/Builder``), so a change of a million rows takes the memory of a thousand.
/// A change that applies nothing leaves no entry.
final class ChangeRecorder {
  let db: Database
  /// How many operations were applied so far.
  private(set) var count = 0
  /// The operation applied last, as applied (a creation with the local id the row got).
  private(set) var lastApplied: JournalOperation?
  /// For an entry from another machine: the clock value of the operations applied next (nil:
  /// consecutive values after this machine's clock, as for a local change).
  var remoteClock: Int64?
  /// For a first sync's record from another machine: the rows it brought, by entity; its
  /// summary then says so before what it changed here (``ChangeSummary/pulled(_:changes:)``).
  var brought: [Entity: Int]?
  /// The highest value the operations of another machine may take this machine's clock to
  /// (``HybridClock/ceiling(milliseconds:)``, set by a pull); nil: no cap.
  var clockCeiling: Int64?

  private let kind: JournalEntry.Kind
  private let command: String
  private let target: Int64?
  private let now: Date
  /// The other machine's device id, for an entry made there.
  private let remoteDevice: String?
  /// The uuid the entry's row takes (nil: a random one).
  private let uuid: String?
  /// Project uuid → local id, as looked up by the operations so far.
  private var projectIDs: [String: Int64] = [:]
  private var summary = ChangeSummary.Builder()
  /// The operations applied so far with their clock values from another machine, while there
  /// are at most ``AppDatabase/batch`` of them: the entry is then written whole at the end.
  private var held: [(operation: JournalOperation, clock: Int64?)]? = []
  /// The fields' text of each held operation (``createAll(_:_:fieldsTexts:ordered:)``), nil for most.
  private var heldTexts: [String?] = []
  /// The entry, once written.
  private var entry: Entry?

  /// The journal entry, once its row is written (at the end, or at the first operation past
  /// ``AppDatabase/batch``).
  private struct Entry {
    let id: Int64
    let device: String
    /// The clock value of the first local operation.
    let start: Int64
    /// The highest clock value written so far (this machine's clock, at first).
    var latest: Int64
    /// Whether each local operation stamps the fields it sets for sync merges.
    let stamps: Bool
  }

  /// A recorder for one journal entry of `kind`: `command` as typed; `target`, the change an
  /// undo or redo steps; `device`, the other machine's id for an entry made there; `uuid`, the
  /// entry's (nil: a random one).
  init(
    _ db: Database, kind: JournalEntry.Kind = .change, command: String, target: Int64? = nil,
    now: Date, device: String? = nil, uuid: String? = nil
  ) {
    self.uuid = uuid
    self.db = db
    self.kind = kind
    self.command = command
    self.target = target
    self.now = now
    self.remoteDevice = device
  }

  /// Creates a row with a new uuid (or `uuid`), returning the uuid.
  @discardableResult
  func create(_ entity: Entity, _ fields: Fields, uuid: String = RowID.random()) throws -> String {
    try apply(JournalOperation(entity, row: uuid, .create(fields)))
    return uuid
  }

  /// Sets one field of a row, recording nothing when it already holds `new`.
  func update(_ entity: Entity, row: String, _ field: String, from old: FieldValue, to new: FieldValue)
    throws
  {
    guard old != new else { return }
    try apply(JournalOperation(entity, row: row, .update(field: field, old: old, new: new)))
  }

  /// Sets several fields of a row whose fields are now `current`, with one statement; each
  /// field that changes is recorded as an operation of its own.
  func update(_ entity: Entity, row: String, current: Fields, to new: Fields) throws {
    let operations = new.sorted(by: { $0.key < $1.key }).compactMap { field, value in
      let old = current[field] ?? .null
      return old == value ? nil : JournalOperation(entity, row: row, .update(field: field, old: old, new: value))
    }
    try OperationExecutor.applyUpdates(db, operations, projectIDs: &projectIDs)
    for operation in operations { try record(operation) }
  }

  /// The fields of `row` as they were before this change, given them as they are now
  /// (`current`): each field an update of the change set, as the change's first update of it
  /// found it. (Creations and deletions of the row are not looked at.)
  func fieldsBefore(_ entity: Entity, row: String, current: Fields) throws -> Fields {
    var before = current
    var seen: Set<String> = []
    func take(_ operation: JournalOperation) {
      guard operation.entity == entity, operation.row == row, case .update(let field, let old, _) = operation.action,
        seen.insert(field).inserted
      else { return }
      before[field] = old
    }
    if let held {
      for (operation, _) in held { take(operation) }
    } else if let entry {
      let statement = try db.cachedStatement(
        sql: "SELECT \(JournalOperationRecord.selection) FROM journalOperation WHERE row = ? AND changeId = ? ORDER BY id")
      for found in try Row.fetchAll(statement, arguments: [row, entry.id]) {
        take(try JournalOperationRecord(row: found).operation)
      }
    }
    return before
  }

  /// Deletes a row whose fields are now `fields` (recorded, so that undo can bring it back).
  func delete(_ entity: Entity, row: String, fields: Fields) throws {
    try apply(JournalOperation(entity, row: row, .delete(fields)))
  }

  /// Applies an operation and records it. With `checked`, a row that is not as the operation
  /// expects throws ``JournalConflictError`` instead.
  func apply(_ operation: JournalOperation, checked: Bool = false) throws {
    try record(try OperationExecutor.apply(db, operation, checked: checked, projectIDs: &projectIDs))
  }

  /// Creates rows of `entity` new here, each carrying its local id (a todo its number, free
  /// here), with their clock values from another machine (nil: this machine's), and records
  /// them as ``apply(_:checked:)`` records each: the rows with one statement
  /// (``OperationExecutor/createAll(_:_:_:texts:ordered:projectIDs:)``) and, past the few a command makes,
  /// their journal rows with one more (``JournalOperationRecord/insertAll(_:_:changeID:device:fieldsTexts:)``).
  /// `fieldsTexts`, when given, has for each row its fields' text as ``FieldsText/encode(_:)``
  /// writes it, or nil: the journal row takes that text rather than writing it again.
  /// `ordered`, when given, has for each row its fields in name order or nil
  /// (``OperationExecutor/createAll(_:_:_:texts:ordered:projectIDs:)``).
  func createAll(
    _ entity: Entity, _ rows: [(row: String, fields: Fields, clock: Int64?)], fieldsTexts: [String?] = [],
    ordered: [OrderedFields?] = []
  ) throws {
    guard !rows.isEmpty else { return }
    // The text given (a pulled payload's own), else the one written from the values bound.
    let texts = try OperationExecutor.createAll(
      db, entity, rows.map { ($0.row, $0.fields) }, texts: fieldsTexts, ordered: ordered, projectIDs: &projectIDs)
    try recordCreated(
      rows.count,
      texts: { texts[$0] },
      operation: { index, _ in JournalOperation(entity, row: rows[index].row, .create(rows[index].fields)) },
      clock: { rows[$0].clock },
      summarize: { index in summary.add(JournalOperation(entity, row: rows[index].row, .create(rows[index].fields))) })
  }

  /// ``createAll(_:_:fieldsTexts:ordered:)`` of typed rows (``CreatedRow``): the same rows, journal rows
  /// and summary, without a dictionary of each row's fields; one is built only for what keeps the
  /// operation itself (the first ``AppDatabase/batch`` operations of a change, held until it ends;
  /// the stamps of a syncing machine; the last operation applied).
  func createAll(_ entity: Entity, typed rows: [CreatedRow]) throws {
    guard !rows.isEmpty else { return }
    let built = try OperationExecutor.createAll(db, entity, typed: rows, projectIDs: &projectIDs)
    let doneIndex = entity == .todo ? rows[0].names.firstIndex(of: "done") : nil
    try recordCreated(
      rows.count,
      texts: { built[$0] },
      operation: { index, whole in
        JournalOperation(
          entity, row: rows[index].row,
          .create(whole ? Fields(uniqueKeysWithValues: zip(rows[index].names, rows[index].values)) : [:]))
      },
      clock: { rows[$0].clock },
      summarize: { index in
        let row = rows[index]
        if entity == .todo {
          let done = (row.names == rows[0].names ? doneIndex : row.names.firstIndex(of: "done")).map { row.values[$0] }
          summary.addTodoCreation(row: row.row, done: done == .integer(1))
        } else {
          summary.add(JournalOperation(entity, row: row.row, .create(Fields(uniqueKeysWithValues: zip(row.names, row.values)))))
        }
      })
  }

  /// Records `count` rows just created (``createAll(_:_:fieldsTexts:ordered:)``) as ``apply(_:checked:)``
  /// records each: held while the change is a few operations, else written with one statement.
  /// `operation(index, whole)`: the `index`-th row's creation, its fields whole when `whole`
  /// (otherwise only its journal text, `texts(index)`, is read from it).
  private func recordCreated(
    _ created: Int, texts: (Int) -> String, operation: (Int, Bool) -> JournalOperation, clock: (Int) -> Int64?,
    summarize: (Int) -> Void
  ) throws {
    var written: [(operation: JournalOperation, clock: Int64?)] = []
    var writtenTexts: [String?] = []
    var first = count
    for index in 0..<created {
      if kind == .change { summarize(index) }
      count += 1
      if held != nil, count <= AppDatabase.batch {
        held?.append((operation(index, true), clock(index)))
        heldTexts.append(texts(index))
        first = count
        continue
      }
      if let waiting = held {
        held = nil
        _ = try begin(summary: "")
        written = waiting
        writtenTexts = heldTexts
        heldTexts = []
        first = 0
      }
      // The journal row takes `texts(index)` (set-wise or row by row); the fields whole only
      // where the syncing machine's stamps need them.
      written.append((operation(index, entry?.stamps ?? true), clock(index)))
      writtenTexts.append(texts(index))
    }
    lastApplied = operation(created - 1, true)
    guard let entry, !written.isEmpty else { return }
    try write(written, entry, first: first, fieldsTexts: writtenTexts)
  }

  /// Records an operation as applied.
  private func record(_ applied: JournalOperation) throws {
    lastApplied = applied
    if kind == .change { summary.add(applied) }
    count += 1
    if held != nil, count <= AppDatabase.batch {
      held?.append((applied, remoteClock))
      heldTexts.append(nil)
      return
    }
    if let waiting = held {
      // Past the few a command makes: the entry is written now, and the operations as they come.
      held = nil
      try write(waiting, try begin(summary: ""), fieldsTexts: heldTexts)
      heldTexts = []
    }
    guard let entry else { return }
    try write(applied, index: count - 1, clock: remoteClock, entry)
  }

  /// Completes the journal entry: its summary (`summary`, or the line describing the
  /// operations), this machine's clock, the end of what could be redone, and the pruning of
  /// old entries. Writes nothing when nothing was applied, unless `always` (an undo of a change
  /// without operations is still an entry). Returns the entry's id.
  @discardableResult
  func finish(summary given: String? = nil, always: Bool = false) throws -> Int64? {
    guard count > 0 || always else { return nil }
    let entry: Entry
    if let waiting = held {
      // A change of a few operations: one row with its summary, then the operations.
      let text = try given ?? described(summary.text(names: names(summary.namedRows) { row in
        Self.knownName(of: row, in: waiting.lazy.map(\.operation))
      }))
      entry = try begin(summary: text)
      try write(waiting, entry, fieldsTexts: heldTexts)
    } else {
      entry = try self.entry ?? begin(summary: "")
      let text = try given ?? described(summary.text(names: names(summary.namedRows, change: entry.id, inverted: false)))
      try db.cachedStatement(sql: "UPDATE journalChange SET summary = ? WHERE id = ?")
        .execute(arguments: [text, entry.id])
    }
    if count > 0 {
      var clock = (self.entry ?? entry).latest
      if let clockCeiling {
        // Another machine's clock values move this machine's clock, up to the ceiling (issue 24).
        let last = try Int64.fetchOne(
          db.cachedStatement(sql: "SELECT value FROM journalSetting WHERE key = 'clock'")) ?? 0
        clock = HybridClock.receive(last: last, remote: clock, ceiling: clockCeiling)
      }
      try db.cachedStatement(sql: "UPDATE journalSetting SET value = ? WHERE key = 'clock'")
        .execute(arguments: [clock])
    }
    if kind == .change, remoteDevice == nil {
      // A new change ends what could be redone, as in every editor. Cached: the first command
      // of a day records the routine's entry and then its own, in one transaction.
      try db.cachedStatement(sql: "UPDATE journalChange SET redoable = 0 WHERE redoable = 1").execute()
    }
    try Self.prune(db, after: entry.id)
    return entry.id
  }

  /// The summary line `text` of the operations, or for a first sync's record what it brought
  /// and then `text` (unless it shows nothing).
  private func described(_ text: String) -> String {
    guard let brought else { return text }
    return ChangeSummary.pulled(brought, changes: summary.isEmpty ? nil : text)
  }

  /// Writes operations applied from the `first`-th on (the held ones: the first of the change)
  /// as rows of the entry: one statement each for the few a command makes, one statement for
  /// them all past ``setWiseRows`` (a pulled record's hundreds: a statement a row and its
  /// bound arguments cost more than SQLite's inserts, issue 24).
  /// `fieldsTexts`: as ``createAll(_:_:fieldsTexts:ordered:)`` takes them, for `operations`.
  private func write(
    _ operations: [(operation: JournalOperation, clock: Int64?)], _ entry: Entry, first: Int = 0,
    fieldsTexts: [String?] = []
  ) throws {
    guard operations.count >= Self.setWiseRows else {
      for (offset, (operation, clock)) in operations.enumerated() {
        let text = offset < fieldsTexts.count ? fieldsTexts[offset] : nil
        try write(operation, index: first + offset, clock: clock, entry, fieldsText: text)
      }
      return
    }
    var journal: [(operation: JournalOperation, clock: Int64)] = []
    journal.reserveCapacity(operations.count)
    for (offset, (operation, remote)) in operations.enumerated() {
      let clock = clockValue(index: first + offset, remote: remote, entry)
      let latest = max(self.entry?.latest ?? clock, clock)
      self.entry?.latest = latest
      journal.append((operation, clock))
    }
    try JournalOperationRecord.insertAll(
      db, journal, changeID: entry.id, device: entry.device, fieldsTexts: fieldsTexts)
    if entry.stamps {
      for (operation, clock) in journal { try SyncState.stampLocal(db, operation, Stamp(clock: clock, device: entry.device)) }
    }
  }

  /// How many operations written at once take one statement (fewer: one each, as a command's).
  static let setWiseRows = 64

  /// Writes the operation applied `index`-th as a row of the entry, with its clock value (a
  /// creation with `fieldsText` stores that text of its fields).
  private func write(
    _ operation: JournalOperation, index: Int, clock remote: Int64?, _ entry: Entry, fieldsText: String? = nil
  ) throws {
    let clock = clockValue(index: index, remote: remote, entry)
    let latest = max(self.entry?.latest ?? clock, clock)
    self.entry?.latest = latest
    try JournalOperationRecord.insert(
      db, operation, changeID: entry.id, clock: clock, device: entry.device, fieldsText: fieldsText)
    if entry.stamps { try SyncState.stampLocal(db, operation, Stamp(clock: clock, device: entry.device)) }
  }

  /// The clock value of the operation applied `index`-th: its own from another machine
  /// (`remote`), else this machine's, consecutive from the entry's start.
  private func clockValue(index: Int, remote: Int64?, _ entry: Entry) -> Int64 {
    remote ?? HybridClock.advanced(entry.start, by: Int64(index))
  }

  /// Continues this machine's change `id` (its latest) instead of beginning an entry: the
  /// operations applied next are added after the change's own, with clock values past this
  /// machine's clock, and the summary line ``finish(summary:always:)`` writes describes them all.
  /// For a command that writes in steps but is one change to undo: a CalDAV sync's pull and the
  /// pulls of its retried pushes (issue 27).
  /// Also for an entry of another machine that arrives in several records (a pull's,
  /// ``SyncState/applyPulled(_:today:now:clocks:settling:)``): `summary`, when given, is what
  /// ``summarySoFar`` said of the entry when it was last finished (its operations are then not
  /// read back). Returns how many operations were read back.
  @discardableResult
  func resume(_ id: Int64, summary known: ChangeSummary.Builder? = nil) throws -> Int {
    let (device, last, stamps) = try settings()
    entry = Entry(id: id, device: device, start: tick(last), latest: last, stamps: stamps)
    held = nil
    heldTexts = []
    if let known {
      summary = known
      return 0
    }
    var read = 0
    try AppDatabase.forEachOperation(db, of: id, backwards: false) { _, operation in
      summary.add(operation)
      read += 1
    }
    return read
  }

  /// What the summary line holds so far, for ``resume(_:summary:)``.
  var summarySoFar: ChangeSummary.Builder { summary }

  /// This machine's device id, its clock, and whether its operations are stamped (syncing).
  private func settings() throws -> (device: String, clock: Int64, stamps: Bool) {
    // One statement reads all the entry needs: this machine's device id, the clock, and whether
    // syncing (three statements before: two more for every write to prepare).
    let settings = try Row.fetchOne(
      db.cachedStatement(
        sql: """
          SELECT (\(AppDatabase.deviceQuery)), (SELECT value FROM journalSetting WHERE key = 'clock'),
            \(SyncState.syncingCondition)
          """))
    guard let device = remoteDevice ?? settings?[0] as String? else { throw AppDatabase.noDevice }
    return (device, settings?[1] as Int64? ?? 0, remoteDevice == nil && (settings?[2] as Bool?) == true)
  }

  /// The clock value of an entry's first operation, after `last`.
  private func tick(_ last: Int64) -> Int64 {
    HybridClock.tick(last: last, milliseconds: Int64((now.timeIntervalSince1970 * 1000).rounded(.down)))
  }

  /// Writes the entry's `journalChange` row and reads the clock.
  private func begin(summary: String) throws -> Entry {
    let (device, last, stamps) = try settings()
    try db.cachedStatement(
      sql: """
        INSERT INTO journalChange (uuid, at, device, kind, command, summary, target, remote)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """
    ).execute(arguments: [
      uuid ?? RowID.random(), Timestamp.string(now, .sqlite), device, kind.rawValue, command, summary, target, remoteDevice != nil,
    ])
    let id = db.lastInsertedRowID
    let entry = Entry(id: id, device: device, start: tick(last), latest: last, stamps: stamps)
    self.entry = entry
    return entry
  }

  /// The names of `rows` as the operations of change `change` (taken back, when `inverted`)
  /// first name them, else as the rows are now.
  func names(_ rows: [String], change: Int64, inverted: Bool) throws -> [String: String] {
    // Rows, then records: `JournalOperationRecord.fetchAll` would instantiate a cursor type
    // whose first use scans the binary's conformance records.
    let statement = try db.cachedStatement(
      sql: "SELECT \(JournalOperationRecord.selection) FROM journalOperation WHERE row = ? AND changeId = ? ORDER BY id")
    return try names(rows) { row in
      for found in try Row.fetchAll(statement, arguments: [row, change]) {
        let operation = try JournalOperationRecord(row: found).operation
        if let name = (inverted ? operation.inverse : operation).knownName { return name }
      }
      return nil
    }
  }

  /// The fields `row` had when this machine's journal last recorded its deletion (a todo's title
  /// and number among them): how a line names a row deleted here. Nil when the journal holds no
  /// deletion of it (never deleted, or pruned).
  static func fieldsWhenDeleted(_ db: Database, row: String) throws -> Fields? {
    let statement = try db.cachedStatement(
      sql: """
        SELECT \(JournalOperationRecord.selection) FROM journalOperation
        WHERE row = ? AND action = 'delete' ORDER BY id DESC LIMIT 1
        """)
    guard let found = try Row.fetchOne(statement, arguments: [row]),
      case .delete(let fields) = try JournalOperationRecord(row: found).operation.action
    else { return nil }
    return fields
  }

  /// The name (title or name) the first of `operations` that names `row` gives it.
  static func knownName(of row: String, in operations: some Sequence<JournalOperation>) -> String? {
    operations.lazy.filter { $0.row == row }.compactMap(\.knownName).first
  }

  /// The names (todo titles, project and block names) of `rows`: the one `known` gives (the
  /// first an operation of the change gives the row), else the row's as it is now.
  func names(_ rows: [String], known: (String) throws -> String?) throws -> [String: String] {
    var names: [String: String] = [:]
    for row in rows {
      names[row] = try known(row)
      guard names[row] == nil else { continue }
      for entity in Entity.allCases {
        if let name = try OperationExecutor.currentName(db, entity, row: row) {
          names[row] = name
          break
        }
      }
    }
    return names
  }

  /// Every hundredth entry, deletes the entries older than the journal's depth
  /// (``AppDatabase/journalDepth``), keeping those not yet pushed to the sync server.
  private static func prune(_ db: Database, after changeID: Int64) throws {
    guard changeID % 100 == 0, changeID > AppDatabase.journalDepth else { return }
    var cut = changeID - AppDatabase.journalDepth
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
}
