import Core
import Formats
import Foundation
import GRDB

// The bulk side of a pull (issue 24): a record whose every operation creates a todo this
// database has never seen (a first sync of an empty machine brings nothing else) is applied
// without reading, operation by operation, what the merge would find here: that it knows
// nothing of the rows is asked once for the whole record, the links and numbers of its todos
// are looked up once each, and the todos are written set-wise by the same write path (the
// executor's insert, the journal's operations, the stamps, each with one statement for the
// record) as in ``SyncState/applyPulled(_:today:now:clocks:settling:)``, whose per-row path it must equal
// row for row (`SyncBulkPullTests`).

/// The operations of one pulled record when each creates a todo unknown here (no row, no stamp)
/// and no row comes twice; nil otherwise (the record then takes the per-row path).
struct FreshTodos {
  let operations: [SyncOperation]

  /// The record's operations as fresh todos, or nil.
  static func of(_ db: Database, _ operations: [SyncOperation]) throws -> FreshTodos? {
    guard !operations.isEmpty else { return nil }
    var rows = Set<String>()
    rows.reserveCapacity(operations.count)
    // The rows' uuids as a JSON array for `json_each`, written as bytes (a `String` a uuid, then
    // joined, was a quarter of this check: issue 24).
    var uuids: [UInt8] = [UInt8(ascii: "[")]
    uuids.reserveCapacity(operations.count * 39 + 2)
    for operation in operations {
      // Each with its number: the rows are written with the numbers given here.
      guard operation.entity == .todo, case .create(let fields) = operation.kind, fields[todo: .id]?.integer != nil,
        rows.insert(operation.row).inserted
      else {
        return nil
      }
      if uuids.count > 1 { uuids.append(UInt8(ascii: ",")) }
      JSONText.appendQuoted(operation.row, to: &uuids)
    }
    uuids.append(UInt8(ascii: "]"))
    // Each uuid looked up as `json_each` gives it (a join): `IN (SELECT value FROM json_each(…))`
    // first built a temporary index of the record's uuids for each table, twice the lookups'
    // own cost (issue 24).
    let known = try Bool.fetchOne(
      db.cachedStatement(
        sql: """
          SELECT EXISTS (SELECT 1 FROM json_each(?1) AS given JOIN syncStamp ON syncStamp.row = given.value)
            OR EXISTS (SELECT 1 FROM json_each(?1) AS given JOIN todo ON todo.uuid = given.value)
          """), arguments: [String(decoding: uuids, as: UTF8.self)]) ?? true
    return known ? nil : FreshTodos(operations: operations)
  }

  /// What applying the record leaves for the page: its operations with the clock, the todos
  /// the rules must look at and the numbers claimed, as the per-row path leaves them.
  struct Applied {
    var clock: Int64
    var touched = Set<String>()
    var numbers = TodoNumbers()
  }

  /// Applies every operation through `recorder` (a journal entry of the record's device), as
  /// the per-row path does with a row it has never seen: ``SyncMerge`` merges it into nothing,
  /// its links are translated (``LinkTranslation``), its number kept when free here (else it
  /// waits below zero and claims it, ``TodoNumbers/arriving(_:_:device:holder:waiting:)``), the
  /// row created and its stamps written. Set-wise (issue 24: a first pull of 20,000 todos was
  /// 30-50 times `psql \copy` of the same rows): the numbers are given here first, then the
  /// rows, their journal rows and their stamps are written with a statement each
  /// (``ChangeRecorder/createAll(_:_:)``, ``SyncState/writeCreationStamps(_:_:)``).
  func apply(
    _ recorder: ChangeRecorder, links: LinkTranslation, clock: Int64, ceiling: Int64
  ) throws -> Applied {
    let db = recorder.db
    var applied = Applied(clock: clock)
    var holders = try Self.holders(db, of: operations)
    // The lowest number held (``TodoNumbers/lowest(_:)``), kept here as the rows are given
    // theirs: a todo whose number is taken waits under the one below it.
    var lowest = try TodoNumbers.lowest(db)
    // Each link's value here, by field (a record's todos name a few blocks and projects).
    var translated: [String: [FieldValue: FieldValue]] = ["block": [:], "project": [:]]
    var rows: [(row: String, fields: Fields, clock: Int64?)] = []
    // Each row's fields as the payload wrote them, when the journal would write the same text.
    var texts: [String?] = []
    texts.reserveCapacity(operations.count)
    // And in name order, on the same condition (``SyncOperation/ordered``).
    var ordered: [OrderedFields?] = []
    ordered.reserveCapacity(operations.count)
    var stamps: [(row: String, stamp: Stamp)] = []
    rows.reserveCapacity(operations.count)
    stamps.reserveCapacity(operations.count)
    for remote in operations {
      applied.clock = HybridClock.receive(last: applied.clock, remote: remote.stamp.clock, ceiling: ceiling)
      // A record of todos only changes no project or block: each link is looked up once.
      var linkChanged = false
      let operation = try links.map(remote) { field, value in
        let local: FieldValue
        if let known = translated[field]?[value] {
          local = known
        } else {
          local = try links.incoming(field, value)
          translated[field, default: [:]][value] = local
        }
        if local != value { linkChanged = true }
        return local
      }
      // What the merge makes of a creation into no row (``SyncMerge/created(_:)``): these
      // fields, each stamped as the creation, as is the row's existence.
      guard var fields = SyncMerge.created(operation), let number = fields[todo: .id]?.integer else {
        throw StorageError.sqlite("a pulled creation of a new todo merged into no creation")
      }
      let id = applied.numbers.arriving(
        operation.row, number, device: operation.stamp.device, holder: holders[number], waiting: { lowest - 1 })
      // (Set only when it differs: the fields are the merge's too, and a write copied them.)
      if id != number { fields[todo: .id] = .integer(id) }
      holders[id] = operation.row
      lowest = min(lowest, id)
      rows.append((operation.row, fields, remote.stamp.clock))
      // The payload's text of the fields is the journal's when they arrive as they came: no
      // link named otherwise here, the number kept (a todo's fields all travel).
      // (The merge keeps every field of a todo: the count says so.)
      let asSent = !linkChanged && id == number && remote.ordered?.names.count == fields.count
      texts.append(asSent ? remote.fieldsText : nil)
      ordered.append(asSent ? remote.ordered : nil)
      // Only a done todo can break a rule (``AppDatabase/keepTodoRules(_:uuids:today:)`` reads
      // those alone): one created not done is not looked at again (a first pull's 20,000 were
      // read back in 40 statements, 6% of it). A later operation of the page that marks it
      // done sets a field the rules look at, and touches it then.
      if TodoRules.mayBreak(creating: fields) { applied.touched.insert(operation.row) }
      stamps.append((operation.row, operation.stamp))
    }
    try recorder.createAll(.todo, rows, fieldsTexts: texts, ordered: ordered)
    try SyncState.writeCreationStamps(db, stamps)
    return applied
  }

  /// The todos here holding the numbers `operations` bring, by number.
  private static func holders(_ db: Database, of operations: [SyncOperation]) throws -> [Int64: String] {
    // The numbers as a JSON array for `json_each`, written as bytes.
    var numbers: [UInt8] = [UInt8(ascii: "[")]
    numbers.reserveCapacity(operations.count * 8 + 2)
    for operation in operations {
      guard case .create(let fields) = operation.kind, let number = fields[todo: .id]?.integer else { continue }
      if numbers.count > 1 { numbers.append(UInt8(ascii: ",")) }
      JSONText.appendInteger(number, to: &numbers)
    }
    numbers.append(UInt8(ascii: "]"))
    var holders: [Int64: String] = [:]
    // (A join, as in ``of(_:_:)``: no temporary index of the numbers.)
    let rows = try Row.fetchCursor(
      db.cachedStatement(
        sql: "SELECT todo.id, todo.uuid FROM json_each(?) AS given JOIN todo ON todo.id = given.value"),
      arguments: [String(decoding: numbers, as: UTF8.self)])
    while let row = try rows.next() { holders[row[0]] = row[1] }
    return holders
  }
}
