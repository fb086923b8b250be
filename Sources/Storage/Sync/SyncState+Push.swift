import Core
import Formats
import Foundation
import GRDB

// The push side of a sync: the pages of records to push, and the push cursor moved past a page
// the server took.

extension SyncState {
  /// The next records to push (nil when everything is pushed): on the first sync the rows
  /// not pulled from the server (blocks, projects, then todos, each by uuid) as creations at
  /// the first sync's clock, ``snapshotPageOperations`` at a time from the snapshot cursor
  /// (``markPushed(_:)`` moves it); then this machine's journal entries not yet pushed, whole
  /// entries up to about `maxOperations` operations, in order. Record ids derive from the entry's uuid (or the first sync's
  /// clock), so pushing the same page again is deduplicated by the server.
  ///
  /// With `after` (a page this method returned, not marked pushed yet), the page after it: read
  /// from where ``markPushed(_:)`` of `after` would take the cursor (``PushCursor``).
  public func pushPage(maxOperations: Int, after: SyncPushPage? = nil) throws(StorageError) -> SyncPushPage? {
    try read { db in
      guard let floor = try SyncState.integer(db, "floor"),
        let floorDevice = try SyncState.text(db, "floorDevice")
      else { throw StorageError.sqlite("the database has not started syncing") }
      var position = try PushCursor(db, floor: floor)
      if let after { position.advance(past: after) }
      let pushed = position.operation
      let pushedClock = position.clock
      let links = LinkTranslation(db)
      // This machine's name travels in every record, sealed with it (issue 24 §3).
      let name = try KeyValueTable.remoteSettings.value(db, RemoteSetting.deviceName.rawValue, as: String.self)
      if position.snapshotPending {
        // The first sync's rows, a page of at most ``snapshotPageOperations`` at a time in
        // (entity, uuid) order from the snapshot cursor, so that a first push stopped part-way
        // keeps the pages the server took (issue 24).
        let stamp = Stamp(clock: floor, device: floorDevice)
        // All its records are one entry on the machines that pull them, as it is one change.
        let entry = SyncState.firstSyncEntry(device: floorDevice, floor: floor)
        let limit = max(1, min(maxOperations, Self.snapshotPageOperations))
        let cursor = position.snapshotThrough.flatMap(SnapshotCursor.init)
        var records: [SyncRecord] = []
        // The rows read (a page holds at most `limit`), and the operations they make.
        var count = 0
        var operations = 0
        var last = cursor
        func add(_ entity: Entity, _ rows: [(uuid: String, fields: Fields)]) throws {
          try add(entity, rows.map(\.uuid), rows.map { SyncOperation(entity, row: $0.uuid, .create($0.fields), stamp: stamp) })
        }
        // The rows `uuids`, in order, pushed as `pushed` (a row may make none, or several).
        func add(_ entity: Entity, _ uuids: [String], _ pushed: [SyncOperation]) throws {
          var chunker = SyncPayload.Chunker(command: SyncState.firstSyncCommand, from: name, entry: entry, always: true)
          for operation in pushed { chunker.add(try links.outgoing(operation)) }
          add(entity, uuids, chunker.finish(), named: pushed.map(\.row))
        }
        // The records of `chunks`, the operations of the rows `uuids` in order; `named`: the row
        // of each operation (nil: one creation a row).
        func add(
          _ entity: Entity, _ uuids: [String], _ chunks: [(payload: String, range: Range<Int>)], named: [String]? = nil
        ) {
          let named = named ?? uuids
          count += uuids.count
          operations += named.count
          if let lastUUID = uuids.last { last = SnapshotCursor(entity: entity, uuid: lastUUID) }
          for (chunk, (payload, range)) in chunks.enumerated() {
            records.append(
              SyncRecord(
                // Named by the rows it holds: a first sync stopped and run again after rows
                // changed makes new records for chunks that changed (their rows merge as one).
                opID: RowID.syncRecord(
                  "first sync \(floorDevice) \(floor) \(entity) \(chunk) \(named[range.lowerBound]) \(named[range.upperBound - 1]) \(range.count)"),
                device: floorDevice, clock: HybridClock.text(floor), payload: payload))
          }
        }
        // Rows pulled from the server (stamped) are there already: only this machine's own,
        // past the cursor.
        func own(_ table: String, _ entity: Entity) -> (String, StatementArguments) {
          let unstamped = "NOT EXISTS (SELECT 1 FROM syncStamp WHERE syncStamp.row = \(table).uuid AND syncStamp.field = '')"
          guard let cursor, cursor.entity == entity else { return (unstamped, []) }
          return (unstamped + " AND \(table).uuid > ?", [cursor.uuid])
        }
        for entity in SnapshotCursor.order where count < limit {
          if let cursor, SnapshotCursor.order.firstIndex(of: entity)! < SnapshotCursor.order.firstIndex(of: cursor.entity)! {
            continue
          }
          let (condition, arguments) = own(entity.rawValue, entity)
          switch entity {
          case .block:
            let blocks = try BlockRecord.fetchAll(
              db, sql: "SELECT * FROM block WHERE \(condition) ORDER BY uuid LIMIT \(limit - count)", arguments: arguments)
            try add(.block, blocks.map(\.uuid), try Self.firstSyncBlocks(db, blocks, first: cursor == nil, stamp: stamp))
          case .project:
            try add(.project, try ProjectRecord.fetchAll(
              db, sql: "SELECT * FROM project WHERE \(condition) ORDER BY uuid LIMIT \(limit - count)", arguments: arguments
            ).map { ($0.uuid, $0.fields) })
          case .todo:
            // Each todo's creation written straight from its row as it is read (issue 24: its
            // ``Fields``, their sort and their text were 0.7 G instructions of a first push of
            // 20,000): the same text, ``TodoRecord/appendFieldsText(to:)``.
            var chunker = SyncPayload.Chunker(command: SyncState.firstSyncCommand, from: name, entry: entry, always: true)
            var uuids: [String] = []
            try TodoRecord.forEach(db, where: condition, arguments, limit: limit - count, order: "todo.uuid") { record in
              // Each field as ``LinkTranslation/outgoing(_:_:)`` names it (its block by uuid).
              try chunker.addCreation(.todo, row: record.uuid, clock: floor) {
                try record.appendFieldsText(to: &$0, as: links.outgoing)
              }
              uuids.append(record.uuid)
              return true
            }
            add(.todo, uuids, chunker.finish())
          }
        }
        return SyncPushPage(
          records: records, operations: operations, throughOperation: pushed, throughClock: pushedClock,
          snapshot: true, snapshotThrough: last?.text, snapshotDone: count < limit,
          // The first sync's rows are one change, counted with its last page (none when a
          // first page is the last and has nothing to push: a fresh machine's).
          changes: count < limit && (cursor != nil || operations > 0) ? 1 : 0)
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
      var settled = (changes: 0, operations: 0)
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
        for (chunk, (payload, range)) in SyncPayload.chunks(command: command, from: name, entry: changeUUID, operations).enumerated() {
          records.append(
            SyncRecord(
              opID: RowID.syncRecord("\(changeUUID) \(chunk)"), device: device,
              clock: HybridClock.text(operations[range].map(\.stamp.clock).max() ?? 0), payload: payload))
        }
        count += operations.count
        if command == SyncState.resolutionCommand {
          settled.changes += 1
          settled.operations += operations.count
        }
      }
      var page = SyncPushPage(
        records: records, operations: count, throughOperation: through, throughClock: throughClock,
        snapshot: false, changes: entries)
      (page.settled, page.settledOperations) = settled
      return page
    }
  }

  /// The entry a first sync's records name (``SyncPayload``): one for all of them, made of the
  /// device and the clock the first sync pushed its rows at.
  static func firstSyncEntry(device: String, floor: Int64) -> String {
    RowID.syncRecord("first sync entry \(device) \(floor)")
  }

  /// What a first sync pushes of `blocks` (this machine's, not pulled): a block's creation;
  /// of a built-in block, which every machine has, only its fields changed here before the
  /// first sync (an untouched one pushes nothing: its seed is older than any change, issue 24);
  /// on the `first` page, the deletion of each built-in block removed here before it.
  static func firstSyncBlocks(_ db: Database, _ blocks: [BlockRecord], first: Bool, stamp: Stamp) throws
    -> [SyncOperation]
  {
    var operations: [SyncOperation] = []
    if first {
      for uuid in TaskBlock.builtInUUIDs.sorted()
      where try !Bool.fetchOne(
        db,
        sql: "SELECT EXISTS (SELECT 1 FROM block WHERE uuid = ?1) OR EXISTS (SELECT 1 FROM syncStamp WHERE row = ?1)",
        arguments: [uuid])!
      {
        operations.append(SyncOperation(.block, row: uuid, .delete, stamp: stamp))
      }
    }
    for block in blocks {
      guard block.builtIn, let seed = TaskBlock.builtInSeed(uuid: block.uuid) else {
        operations.append(SyncOperation(.block, row: block.uuid, .create(block.fields), stamp: stamp))
        continue
      }
      // Fields stamped here travel with the changes that set them (pushed or pulled).
      let stamped = Set(try String.fetchAll(db, sql: "SELECT field FROM syncStamp WHERE row = ?", arguments: [block.uuid]))
      for (field, value) in block.fields.sorted(by: { $0.key < $1.key })
      where field != BlockField.createdAt.rawValue && !SyncMerge.isLocal(.block, field) && !stamped.contains(field)
        && (seed[field] ?? .null) != value
      {
        operations.append(SyncOperation(.block, row: block.uuid, .update(field: field, value: value), stamp: stamp))
      }
    }
    return operations
  }

  /// Records that `page` reached the server: the push cursor moves past it (a page pushed
  /// again after a crash before this is deduplicated by the server). With `pullCursor` (the
  /// server found the page's records alone past the pull cursor), the pull cursor moves past
  /// them too, in the same transaction (``skipOwn(_:_:_:)``).
  public func markPushed(_ page: SyncPushPage, pullCursor: SyncCursorMove?) throws(StorageError) {
    try write { db in
      var position = try PushCursor(db, floor: nil)
      position.advance(past: page)
      try position.write(db)
      if let pullCursor { try SyncState.skipOwn(db, page, pullCursor) }
    }
  }

  /// Moves the pull cursor past `page`'s records, which the server stored right after it (issue
  /// 24, session 18: the sync after a push of 20,000 todos downloaded all of them again, only
  /// to skip them as this machine's own). What a pull reading them back would do, and nothing
  /// more: the cursor moves to their last position and the clock of this machine's changes read
  /// back (`echoedClock`, see ``applyPulled(_:today:now:clocks:settling:)``) past theirs. Only when the
  /// cursor is still where the push found it, and every record is this device's: a record a
  /// pull would apply is never skipped.
  ///
  /// Nothing is skipped but records this database has just pushed itself: a database restored
  /// from an older copy (its cursor behind records pushed since) or one sharing a device id with
  /// another (their records between) finds others' records in between, and pulls them as before.
  static func skipOwn(_ db: Database, _ page: SyncPushPage, _ move: SyncCursorMove) throws {
    guard move.to > move.from, try integer(db, "pulledThrough") ?? 0 == move.from else { return }
    let device = try AppDatabase.device(db)
    guard page.records.allSatisfy({ $0.device == device }) else { return }
    let pushedClock = try integer(db, "pushedClock") ?? integer(db, "floor") ?? 0
    var echoed = try integer(db, "echoedClock") ?? pushedClock
    for record in page.records {
      if let clock = HybridClock.parse(record.clock) { echoed = max(echoed, clock) }
    }
    try set(db, "pulledThrough", move.to)
    try set(db, "echoedClock", echoed)
  }
}

/// Where pushing stands (the `syncState` keys ``SyncState/markPushed(_:)`` moves): the last
/// journal operation pushed and its clock, and of a first sync's rows whether some are still to
/// push and the last one pushed. One rule for the cursor a page moves, whether it is written
/// (``SyncState/markPushed(_:)``) or only read on (``SyncState/pushPage(maxOperations:after:)``).
struct PushCursor {
  var operation: Int64
  var clock: Int64
  var snapshotPending: Bool
  var snapshotThrough: String?

  /// The cursor as stored; the clock is `floor` when none was stored (nil: 0).
  init(_ db: Database, floor: Int64?) throws {
    operation = try SyncState.integer(db, "pushedOperation") ?? 0
    clock = try SyncState.integer(db, "pushedClock") ?? floor ?? 0
    snapshotPending = try SyncState.integer(db, "snapshotPending") == 1
    snapshotThrough = try SyncState.text(db, "snapshotThrough")
  }

  /// Moves past `page`, which the server took (a page of journal entries comes only once the
  /// first sync's rows are all pushed).
  mutating func advance(past page: SyncPushPage) {
    operation = max(operation, page.throughOperation)
    clock = max(clock, page.throughClock)
    if !page.snapshot || page.snapshotDone {
      snapshotPending = false
      snapshotThrough = nil
    } else if page.snapshot, let through = page.snapshotThrough {
      snapshotThrough = through
    }
  }

  /// Stores the cursor.
  func write(_ db: Database) throws {
    try SyncState.set(db, "pushedOperation", operation)
    try SyncState.set(db, "pushedClock", clock)
    if !snapshotPending, try SyncState.integer(db, "snapshotPending") == 1 {
      try SyncState.set(db, "snapshotPending", 0)
    }
    if let snapshotThrough {
      try SyncState.set(db, "snapshotThrough", snapshotThrough)
    } else {
      try db.execute(sql: "DELETE FROM syncState WHERE key = 'snapshotThrough'")
    }
  }
}

/// Where the first sync's push of this machine's rows stands: the last row the server took, in
/// (entity, uuid) order (blocks, projects, then todos).
struct SnapshotCursor {
  static let order: [Entity] = [.block, .project, .todo]
  let entity: Entity
  let uuid: String

  init(entity: Entity, uuid: String) {
    self.entity = entity
    self.uuid = uuid
  }

  /// The cursor of `text` (`todo 5e55…`), nil when it is not one.
  init?(_ text: String) {
    let parts = text.split(separator: " ")
    guard parts.count == 2, let entity = Entity(rawValue: String(parts[0])), Self.order.contains(entity) else { return nil }
    self.init(entity: entity, uuid: String(parts[1]))
  }

  var text: String { "\(entity.rawValue) \(uuid)" }
}

/// The rows the first sync's push has still to push (all of this machine's own rows not
/// stamped, past ``SnapshotCursor``), while it has some: nil once they are all pushed.
struct UnpushedSnapshot {
  let cursor: SnapshotCursor?

  init?(_ db: Database) throws {
    guard try SyncState.integer(db, "snapshotPending") == 1 else { return nil }
    cursor = try SyncState.text(db, "snapshotThrough").flatMap(SnapshotCursor.init)
  }

  /// Whether row `uuid` of `entity`, when it is one of the first sync's rows, is still to push.
  func holds(_ entity: Entity, _ uuid: String) -> Bool {
    guard let cursor else { return true }
    guard let at = SnapshotCursor.order.firstIndex(of: entity), let through = SnapshotCursor.order.firstIndex(of: cursor.entity)
    else { return false }
    return at > through || (at == through && uuid > cursor.uuid)
  }
}

extension SyncState {
  /// The row-level operations of one page of the first sync's push (a few records of 1,000).
  static let snapshotPageOperations = 5_000
}

extension TodoRecord {
  /// The names of ``TodoField``, sorted as ``JSONText/object(_:)`` sorts a row's fields.
  private static let sortedFields = TodoField.allCases.sorted { $0.rawValue < $1.rawValue }
  private static let sortedNames = sortedFields.map(\.rawValue)

  /// ``fields`` as ``JSONText/object(_:)`` writes them, byte for byte, appended to `bytes`:
  /// written from the row's columns (``value(_:)``) in the order of their names, with no
  /// dictionary of them made and sorted (a first push's todos, issue 24).
  func appendFieldsText(to bytes: inout [UInt8]) {
    appendFieldsText(to: &bytes) { _, value in value }
  }

  /// ``appendFieldsText(to:)`` of each field's value as `named` gives it for the field's name
  /// (a first push's: ``LinkTranslation/outgoing(_:_:)``).
  func appendFieldsText(to bytes: inout [UInt8], as named: (String, FieldValue) throws -> FieldValue) rethrows {
    let fields = Self.sortedFields
    let names = Self.sortedNames
    try JSONText.appendObject(sortedNames: names, to: &bytes) { try named(names[$0], value(fields[$0])) }
  }
}
