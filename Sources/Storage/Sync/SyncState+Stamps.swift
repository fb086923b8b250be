import Core
import Formats
import Foundation
import GRDB

// The stamps merges compare (`syncStamp`: one per row and field, the row's existence under the
// empty field), and the id aliases (`syncState`'s `alias:` keys) through which links to another
// machine's rows are translated.

extension SyncState {
  /// Stamps what a local operation sets.
  static func stampLocal(_ db: Database, _ operation: JournalOperation, _ stamp: Stamp) throws {
    switch operation.action {
    case .create: try upsert(db, operation.row, "", stamp, .integer(1))
    case .delete: try upsert(db, operation.row, "", stamp, .integer(0))
    case .update(let field, let old, let new):
      guard !SyncMerge.isLocal(operation.entity, field) else { return }
      guard SyncMerge.carriesOld(operation.entity, field) else { return try upsert(db, operation.row, field, stamp, new) }
      // Each tag it added or took away, marked (``SyncRow/tags``); the field keeps the stamp of
      // its whole value (``SyncMerge/mergeTags(old:new:stamp:into:isPending:)``).
      let (before, after) = (Set(Tag.tags(old.text)), Set(Tag.tags(new.text)))
      for tag in after.symmetricDifference(before) {
        try upsert(db, operation.row, tagMark(tag), stamp, .integer(after.contains(tag) ? 1 : 0))
      }
    }
  }

  /// The `syncStamp` field under which a todo's tag's mark is kept (``SyncRow/tags``): `+home`
  /// (no field name starts with `+`).
  static func tagMark(_ tag: String) -> String { "+" + tag }

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
  ///
  /// A built-in block unstamped here is every machine's seed (issue 24): it exists at
  /// ``Stamp/seed``, older than any change, and so do its fields that still hold the seed's
  /// values; a field changed before the first sync is at the first sync's stamp, and a built-in
  /// block removed before it is deleted at that stamp. So a new machine's untouched built-in
  /// blocks never override what other machines did to theirs.
  ///
  /// While the first sync's rows are still to push (`unpushed`), such a row of this machine's
  /// not pushed yet has its fields stamped by when this machine's journal last set them
  /// (``journalStamps(_:_:device:)``), not at the floor: the same todos made elsewhere too (the
  /// same todo.txt imported on both machines, name-based uuids) and edited there since keep
  /// those later edits (issue 24, session 20: the first sync's floor, later than them, undid a
  /// tick, a title, a note made on the other machine), and its existence by its last creation
  /// (a deletion made elsewhere since stands). The merge writes no existence stamp for it while
  /// it stays alive (``writeStamps(_:_:before:after:unpushed:)``): it is pushed with the first
  /// sync's rows, at the floor, as the merge left it, and every machine then holds it alike.
  static func row(
    _ db: Database, _ entity: Entity, _ uuid: String, floor: Stamp, unpushed: UnpushedSnapshot? = nil
  ) throws -> SyncRow? {
    var entries: [String: Stamped<FieldValue>] = [:]
    let rows = try Row.fetchCursor(
      db.cachedStatement(sql: "SELECT field, clock, device, value FROM syncStamp WHERE row = ?"),
      arguments: [uuid])
    var marks: [String: Stamped<Bool>] = [:]
    while let row = try rows.next() {
      let field: String = row[0]
      let stamp = Stamp(clock: row[1], device: row[2])
      if field.hasPrefix("@") { continue }
      if field.hasPrefix("+") {
        marks[String(field.dropFirst())] = Stamped(row[3] as Int64? == 1, stamp)
        continue
      }
      entries[field] = Stamped(FieldValue(row[3] as DatabaseValue), stamp)
    }
    // Most pulled rows are new here: a cached lookup answers before any row is read.
    let exists = try Bool.fetchOne(
      db.cachedStatement(sql: "SELECT 1 FROM \(OperationExecutor.table(entity)) WHERE uuid = ?"),
      arguments: [uuid]) == true
    let seed = entity == .block ? TaskBlock.builtInSeed(uuid: uuid) : nil
    if !exists && entries.isEmpty { return seed == nil ? nil : SyncRow(existence: Stamped(false, floor)) }
    let current = exists ? try OperationExecutor.currentFields(db, entity, row: uuid) : nil
    var state = SyncRow(tags: marks)
    let stampedExistence = entries.removeValue(forKey: "")
    let journal =
      stampedExistence == nil && seed == nil && current != nil && unpushed?.holds(entity, uuid) == true
      ? try journalStamps(db, uuid, device: floor.device) : nil
    if let existence = stampedExistence {
      state.existence = Stamped(existence.value == .integer(1), existence.stamp)
    } else if current != nil {
      state.existence = Stamped(true, seed != nil ? .seed : journal?.created ?? floor)
    }
    for (tag, mark) in journal?.tags ?? [:] where state.tags[tag].map({ $0.stamp < mark.stamp }) ?? true {
      state.tags[tag] = mark
    }
    if let current, let existence = state.existence, existence.value {
      let seeded = existence.stamp == .seed
      for (field, value) in current where !SyncMerge.isLocal(entity, field) {
        // (The time a machine made its built-in block is its own: never a change.)
        let changed = seeded && field != BlockField.createdAt.rawValue && (seed?[field] ?? .null) != value
        let unstamped = changed ? floor : existence.stamp
        // A todo's number given before a first sync (the row made here before this machine's,
        // or brought by another's), or as a renumbering set it since.
        let given = try SyncMerge.creationStamp(
          entity, field, value, existence.stamp,
          firstSync: entity == .todo && field == TodoField.id.rawValue
            && (stampedExistence == nil || isFirstSync(db, existence.stamp)))
        let stamp: Stamp
        if given != existence.stamp {
          stamp = entries[field]?.stamp ?? given
        } else if let journal, let set = journal.fields[field] ?? journal.created {
          stamp = max(entries[field]?.stamp ?? set, set)
        } else {
          stamp = max(entries[field]?.stamp ?? unstamped, existence.stamp)
        }
        state.fields[field] = Stamped(value, stamp)
      }
    } else {
      state.fields = entries
    }
    return state.existence == nil && state.fields.isEmpty && state.tags.isEmpty ? nil : state
  }

  /// When this machine's journal last set each field of row `uuid`: an edit's clock, as a stamp
  /// of `device` (this machine's: a change of its own no other machine has seen, which a remote
  /// change that overrides it reports), or, for a field not edited since, the row's last
  /// creation's (`created`), stamped with the device id the journal recorded then (the one this
  /// machine had before its first sync: not a change to report, only the day the row was
  /// made). A todo's tags keep the creation's stamp, and each tag an edit added or took away
  /// since is marked by that edit (`tags`), so that they merge tag by tag. Empty when the
  /// journal holds nothing of the row (pruned, or made before the journal was): such a row
  /// stays at the first sync's floor.
  static func journalStamps(_ db: Database, _ uuid: String, device: String) throws
    -> (created: Stamp?, fields: [String: Stamp], tags: [String: Stamped<Bool>])
  {
    // This machine's own entries only: the pull's entries (another machine's changes, applied
    // here) are stamped as that machine's. (SQLite gives a bare column of the row max() picks:
    // the creation's device.)
    let rows = try Row.fetchAll(
      db.cachedStatement(
        sql: """
          SELECT action, field, max(clock), journalOperation.device FROM journalOperation
          JOIN journalChange ON journalChange.id = journalOperation.changeId
          WHERE row = ? AND journalChange.remote = 0 GROUP BY action, field
          """),
      arguments: [uuid])
    var created: Stamp?
    var updated: [String: Int64] = [:]
    for row in rows {
      switch row[0] as String {
      case "create": created = Stamp(clock: row[2], device: row[3])
      case "update": if let field = row[1] as String? { updated[field] = row[2] }
      default: break
      }
    }
    var fields: [String: Stamp] = [:]
    for (field, clock) in updated where clock > created?.clock ?? .min { fields[field] = Stamp(clock: clock, device: device) }
    // A todo's tags merge tag by tag: each tag an edit since the creation added or took away is
    // marked, as ``stampLocal(_:_:_:)`` marks them, the field keeping its creation's stamp.
    var marks: [String: Stamped<Bool>] = [:]
    if let clock = updated[TodoField.tags.rawValue], clock > created?.clock ?? .min {
      fields[TodoField.tags.rawValue] = nil
      let edits = try Row.fetchCursor(
        db.cachedStatement(
          sql: """
            SELECT oldValue, newValue, clock FROM journalOperation
            JOIN journalChange ON journalChange.id = journalOperation.changeId
            WHERE row = ? AND field = 'tags' AND clock > ? AND journalChange.remote = 0 ORDER BY journalOperation.id
            """),
        arguments: [uuid, created?.clock ?? .min])
      while let edit = try edits.next() {
        let (before, after) = (
          Set(Tag.tags(FieldValue(edit[0] as DatabaseValue).text)), Set(Tag.tags(FieldValue(edit[1] as DatabaseValue).text))
        )
        for tag in after.symmetricDifference(before) {
          marks[tag] = Stamped(after.contains(tag), Stamp(clock: edit[2], device: device))
        }
      }
    }
    return (created, fields, marks)
  }

  /// Whether row `uuid` of `entity` is one of this machine's the first sync has still to push
  /// (`unpushed`): past its cursor, and never stamped (not pulled, not merged into a deletion).
  static func isUnpushedOwn(_ db: Database, _ entity: Entity, _ uuid: String, _ unpushed: UnpushedSnapshot?) throws
    -> Bool
  {
    guard let unpushed, unpushed.holds(entity, uuid) else { return false }
    return try Bool.fetchOne(
      db.cachedStatement(sql: "SELECT NOT EXISTS (SELECT 1 FROM syncStamp WHERE row = ? AND field = '')"),
      arguments: [uuid]) == true
  }

  /// The `syncStamp` field that marks a row another machine made too (no field name starts
  /// with `@`): its stamp is that machine's creation, its value the last journal entry here
  /// when the creation arrived.
  static let madeMark = "@made"

  /// Notes that another machine's creation at `stamp` met row `uuid` alive here: the same row
  /// made on two machines (name-based uuids: the same todo.txt imported on both, a routine
  /// planned on both). Undoing here the change that made it would delete the other machine's.
  /// `entry`: the latest journal entry when the pull began (every change made here before it is
  /// at most that; read once a pull, not once a row).
  static func markMadeElsewhere(_ db: Database, _ uuid: String, _ stamp: Stamp, entry: Int64) throws {
    try upsert(db, uuid, madeMark, stamp, .integer(entry))
  }

  /// The latest journal entry (0 for none): ``markMadeElsewhere(_:_:_:entry:)``'s `entry`.
  static func latestEntry(_ db: Database) throws -> Int64 {
    try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(id) FROM journalChange")) ?? 0
  }

  /// Forgets that another machine made row `uuid` too (a deletion of it was pulled).
  static func forgetMadeElsewhere(_ db: Database, _ uuid: String) throws {
    try db.cachedStatement(sql: "DELETE FROM syncStamp WHERE row = ? AND field = ?").execute(arguments: [uuid, madeMark])
  }

  /// The machine (device id) that made row `uuid` too, as ``markMadeElsewhere(_:_:_:entry:)`` noted,
  /// when that creation arrived after this machine's journal entry `since` (the change that
  /// made it here): nil when none did (or it met an earlier life of the row).
  static func madeElsewhere(_ db: Database, _ uuid: String, since entry: Int64) throws -> String? {
    try String.fetchOne(
      db.cachedStatement(sql: "SELECT device FROM syncStamp WHERE row = ? AND field = ? AND value >= ?"),
      arguments: [uuid, madeMark, entry])
  }

  /// Whether `stamp` is a first sync's: the clock another machine's first sync pushed its rows
  /// at (``recordFirstSync(_:_:)``), or this machine's own (its rows not stamped since).
  static func isFirstSync(_ db: Database, _ stamp: Stamp) throws -> Bool {
    if try text(db, "floorDevice") == stamp.device { return try integer(db, "floor") == stamp.clock }
    return try integer(db, "floor:" + stamp.device) == stamp.clock
  }

  /// Remembers that `device`'s first sync pushed its rows at `clock` (a record of its first
  /// sync was pulled): the numbers its todos had then rank as ``Stamp/number(_:)`` ranks them.
  static func recordFirstSync(_ db: Database, _ device: String, _ clock: Int64) throws {
    try set(db, "floor:" + device, clock)
  }

  /// Writes the stamps that changed between two states of a row (a field stamped as the row's
  /// creation needs no stamp of its own). `unpushed`: the row is one of the first sync's still
  /// to push (``isUnpushedOwn(_:_:_:_:)``): while it stays alive its existence is not written
  /// (the row stays among them), and each field that changed is, even one stamped as the
  /// existence the merge gave it.
  static func writeStamps(_ db: Database, _ uuid: String, before: SyncRow?, after: SyncRow, unpushed: Bool = false)
    throws
  {
    let keepsUnstamped = unpushed && after.isAlive
    if let existence = after.existence, existence != before?.existence, !keepsUnstamped {
      try upsert(db, uuid, "", existence.stamp, .integer(existence.value ? 1 : 0))
    }
    for (field, value) in after.fields where before?.fields[field] != value {
      // (Nor a todo's number given before a first sync: a row alive holds one only as its
      // first sync's creation gave it, which ``row(_:_:_:floor:)`` tells from its existence.)
      if after.isAlive,
        (value.stamp == after.existence?.stamp && !keepsUnstamped) || value.value.integer.map(Stamp.number) == value.stamp
      {
        continue
      }
      try upsert(db, uuid, field, value.stamp, value.value)
    }
    for (tag, mark) in after.tags where before?.tags[tag] != mark {
      try upsert(db, uuid, tagMark(tag), mark.stamp, .integer(mark.value ? 1 : 0))
    }
  }

  /// Writes the stamps of rows new here whose merge left every field stamped as the row's
  /// creation (a first sync's rows): their existence stamps alone, as ``writeStamps(_:_:before:after:)``
  /// writes them for such a row, with one prepared statement.
  static func writeCreationStamps(_ db: Database, _ rows: [(row: String, stamp: Stamp)]) throws {
    guard !rows.isEmpty else { return }
    // One prepared statement, each row's values bound straight (``RowStatement``): the same
    // upsert as ``upsert(_:_:_:_:_:)``.
    var statement = try RowStatement(
      db,
      sql: """
        INSERT INTO syncStamp (row, field, clock, device, value) VALUES (?, '', ?, ?, 1)
        ON CONFLICT (row, field) DO UPDATE SET clock = excluded.clock, device = excluded.device,
          value = excluded.value
        """)
    for (row, stamp) in rows {
      statement.bind(row)
      statement.bind(stamp.clock)
      statement.bind(stamp.device)
      try statement.run()
    }
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
    try map(operation, outgoing)
  }

  /// A todo's field `field` as records name it: its block (by name here) by the block's uuid, or
  /// the name when no block has it; any other field as it is. (The one rule out: a first push's
  /// todos, written from their rows, ask it of each field too.)
  func outgoing(_ field: String, _ value: FieldValue) throws -> FieldValue {
    guard field == "block", let name = value.text else { return value }
    return .text(
      try String.fetchOne(
        db.cachedStatement(sql: "SELECT uuid FROM block WHERE name = ? COLLATE NOCASE"), arguments: [name])
        ?? name)
  }

  func incoming(_ operation: SyncOperation) throws -> SyncOperation {
    try map(operation, incoming)
  }

  /// A todo's link `field` (its block or project, as records name them) as it is here.
  func incoming(_ field: String, _ value: FieldValue) throws -> FieldValue {
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

  /// `operation` with `transform` applied to a todo's links.
  func map(_ operation: SyncOperation, _ transform: (String, FieldValue) throws -> FieldValue)
    throws -> SyncOperation
  {
    guard operation.entity == .todo else { return operation }
    var result = operation
    switch operation.kind {
    case .create(let fields):
      // The fields copied (and the operation's kind set) only when a link reads otherwise: a
      // first pull's 20,000 todos each copied a dictionary of 19 fields for nothing (issue 24).
      var changed = fields
      var same = true
      for field in ["block", "project"] {
        guard let value = fields[field] else { continue }
        let local = try transform(field, value)
        if local != value {
          changed[field] = local
          same = false
        }
      }
      if !same { result.kind = .create(changed) }
    case .update(let field, let value):
      result.kind = .update(field: field, value: try transform(field, value))
    case .delete: break
    }
    return result
  }
}
