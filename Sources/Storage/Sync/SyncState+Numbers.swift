import Core
import Foundation
import GRDB

// A todo's number (`id`) travels with it, so that it is the same on every machine (issue 24):
// a todo pulled from another machine keeps its number when it is free here. When two machines
// gave one number to two todos, the smaller uuid keeps it on every machine and the other todo
// gets the next free number; what changed here is reported (``SyncRenumbering``).

/// The numbers a pull could not give at once, resolved after every record of the page is
/// applied, and the renumberings so far.
struct TodoNumbers {
  /// The numbers pulled todos have on the machine they come from (the last one of a todo
  /// counts), in the order they came, with the device of the record that said so.
  private var claims: [(uuid: String, number: Int64, device: String)] = []
  /// Todos whose number changed here: uuid, the number before and after.
  private var changes: [(uuid: String, from: Int64, to: Int64)] = []
  /// Todos this pull created here (``arriving(_:_:device:holder:waiting:)``): their number
  /// never changed on this machine, whatever the records did to it since (issue 24 §1, W2).
  private(set) var arrived = Set<String>()

  mutating func claim(_ uuid: String, _ number: Int64, device: String) { claims.append((uuid, number, device)) }

  /// Records the claim a pulled operation leaves on its todo once merged (``claimed(by:merged:)``),
  /// if any: it stands over every earlier claim of the todo in this pull.
  mutating func merged(_ operation: SyncOperation, into row: SyncRow) {
    guard let claimed = Self.claimed(by: operation, merged: row) else { return }
    claim(operation.row, claimed.number, device: claimed.device)
  }

  /// The number a todo claims after `operation` merged into it (`row`, the merge's state), with
  /// the device of the change that set that number: the number the merge holds, whenever the
  /// operation made the todo appear or set its number, whether or not the number shown here
  /// changes. A todo's latest claim is the number its merge holds, never one the merge has put
  /// aside since: an update of the number that loses claims nothing, and one that wins claims
  /// even when the todo already shows that number here (it still showed it, an earlier claim of
  /// the same pull not being given yet; left standing, that claim, which lost, moved the todo
  /// here alone: seed 1072). Nil when the operation is not a todo's, leaves it deleted, or
  /// decided neither its existence nor its number.
  static func claimed(by operation: SyncOperation, merged row: SyncRow) -> (number: Int64, device: String)? {
    guard operation.entity == .todo, row.isAlive, let number = row.fields[TodoField.id.rawValue],
      let value = number.value.integer
    else { return nil }
    // A creation whose number won as creations' numbers do (the smaller, ``Stamp/number(_:)``),
    // even where its existence lost (the todo was here already: issue 24).
    var numbered = false
    if case .create(let fields) = operation.kind {
      numbered = fields[TodoField.id.rawValue] == number.value && number.stamp == .number(value)
    }
    guard row.existence?.stamp == operation.stamp || number.stamp == operation.stamp || numbered else { return nil }
    return (value, number.stamp.device.isEmpty ? operation.stamp.device : number.stamp.device)
  }

  mutating func changed(_ uuid: String, from: Int64, to: Int64) { changes.append((uuid, from, to)) }

  mutating func formUnion(_ other: TodoNumbers) {
    claims += other.claims
    changes += other.changes
    arrived.formUnion(other.arrived)
  }

  /// The uuid of the todo holding `number` here, if any.
  static func holder(_ db: Database, _ number: Int64) throws -> String? {
    try String.fetchOne(db.cachedStatement(sql: "SELECT uuid FROM todo WHERE id = ?"), arguments: [number])
  }

  /// A number below zero no todo holds: where a pulled todo waits for its number (never seen:
  /// ``resolve(_:now:)`` moves it in the same transaction).
  static func waiting(_ db: Database) throws -> Int64 {
    try lowest(db) - 1
  }

  /// The lowest number a todo holds here, or 0 when none is below zero: every number under it
  /// is free to wait under (``waiting(_:)``).
  static func lowest(_ db: Database) throws -> Int64 {
    try Int64.fetchOne(db.cachedStatement(sql: "SELECT min(0, coalesce(min(id), 0)) FROM todo")) ?? 0
  }

  /// The number a todo pulled with `number` (its number on the machine it comes from) is
  /// created under here: `number` itself when no other todo holds it here (`holder`); else the
  /// number `waiting` gives (one below zero no todo holds, ``waiting(_:)``), and its claim on
  /// `number` is kept for ``resolve(_:now:)``. Both pull paths, the per-row one and the bulk one
  /// (``FreshTodos``), give a pulled creation its number here.
  mutating func arriving(
    _ uuid: String, _ number: Int64, device: String, holder: String?, waiting: () throws -> Int64
  ) rethrows -> Int64 {
    arrived.insert(uuid)
    guard let holder, holder != uuid else { return number }
    claim(uuid, number, device: device)
    return try waiting()
  }

  /// The number an added todo would get: past every number held or ever given (AUTOINCREMENT).
  static func nextFree(_ db: Database) throws -> Int64 {
    try Int64.fetchOne(
      db,
      sql: """
        SELECT max(coalesce((SELECT max(id) FROM todo), 0),
          coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'todo'), 0)) + 1
        """) ?? 1
  }

  /// Gives each claiming todo its number, the same choice whatever order the claims came in:
  /// of the todos claiming one number and the todo holding it here (unless that one moves to a
  /// number of its own claim), the smallest uuid keeps it. A holder that loses moves to the
  /// next free number; a claiming todo that loses keeps the number it shows here when no claim
  /// wants it, else gets the next free one. Every todo whose number here is not the one its
  /// machine's record said (a losing holder, a losing claim) has it set as a change of this
  /// machine, `recorder`, stamped after every record pulled and pushed like any other: so the
  /// number each machine shows is always the one its merge holds, and once every machine has
  /// pulled every change all merges agree, so all numbers do (issue 24; a number kept only
  /// here, under the pulled record's stamp, was never corrected elsewhere). A claiming todo's
  /// own move is its machine's (recorded as an entry of that device, never pushed back).
  /// Returns the renumberings, one per todo.
  mutating func resolve(_ recorder: ChangeRecorder, now: Date) throws -> [SyncRenumbering] {
    let db = recorder.db
    defer { claims = [] }
    let wanting = try unmet(db)
    guard !wanting.isEmpty else { return try report(db) }
    let claimed = Set(wanting.map(\.number))
    let moving = Set(wanting.map(\.uuid))
    // Past every number held, ever given, or claimed.
    var next = max(try Self.nextFree(db), (claimed.max() ?? 0) + 1)
    // Who keeps each claimed number: the smallest uuid among its claimants and its holder
    // (a holder that is itself claiming moves away in any case).
    var keeper: [Int64: String] = [:]
    for want in wanting where keeper[want.number].map({ want.uuid < $0 }) ?? true { keeper[want.number] = want.uuid }
    for number in claimed.sorted() {
      guard let holder = try Self.holder(db, number), !moving.contains(holder) else { continue }
      if holder < keeper[number]! {
        keeper[number] = holder
      } else {
        try recorder.update(.todo, row: holder, TodoField.id.rawValue, from: .integer(number), to: .integer(next))
        changed(holder, from: number, to: next)
        next += 1
      }
    }
    // Each claiming todo's number here; then the moves, a number taken only once it is free.
    var targets: [(uuid: String, device: String, current: Int64, to: Int64, confirm: Bool)] = []
    for want in wanting {
      if keeper[want.number] == want.uuid {
        targets.append((want.uuid, want.device, want.current, want.number, false))
        if want.current > 0 { changed(want.uuid, from: want.current, to: want.number) }
      } else {
        var to = want.current
        if to < 0 || claimed.contains(to) {
          to = next
          next += 1
        }
        targets.append((want.uuid, want.device, want.current, to, true))
        // Its number here was the one it shows, not the one it claimed (which it never had here).
        if want.current > 0 { changed(want.uuid, from: want.current, to: to) }
      }
    }
    var settling: [String: ChangeRecorder] = [:]
    func settle(_ uuid: String, _ device: String, from current: Int64, to number: Int64) throws {
      let settler = settling[device] ?? ChangeRecorder(db, command: SyncState.resolutionCommand, now: now, device: device)
      settling[device] = settler
      try settler.update(.todo, row: uuid, TodoField.id.rawValue, from: .integer(current), to: .integer(number))
    }
    var pending = targets.filter { $0.current != $0.to }
    var at = Dictionary(uniqueKeysWithValues: pending.map { ($0.uuid, $0.current) })
    while !pending.isEmpty {
      var stuck: [(uuid: String, device: String, current: Int64, to: Int64, confirm: Bool)] = []
      for move in pending {
        if try Self.holder(db, move.to) == nil {
          try settle(move.uuid, move.device, from: at[move.uuid]!, to: move.to)
        } else {
          stuck.append(move)
        }
      }
      if stuck.count == pending.count, let first = stuck.first {
        // A cycle (two todos trading numbers): one waits below zero meanwhile. (A number held
        // by a todo that does not move is never a target: the loop cannot go on for ever.)
        guard try stuck.contains(where: { try Self.holder(db, $0.to).map { at[$0] != nil } ?? false }) else {
          throw StorageError.sqlite("todo numbers: a number wanted is held by a todo that stays")
        }
        let waiting = try Self.waiting(db)
        try settle(first.uuid, first.device, from: at[first.uuid]!, to: waiting)
        at[first.uuid] = waiting
      }
      pending = stuck
    }
    for settler in settling.values { try settler.finish() }
    // A losing claim's number, set by this machine: its merge now holds the number shown here.
    for target in targets where target.confirm {
      let id = FieldValue.integer(target.to)
      try recorder.apply(
        JournalOperation(.todo, row: target.uuid, .update(field: TodoField.id.rawValue, old: id, new: id)))
    }
    return try report(db)
  }

  /// Keeps the claims not met here yet (a todo not showing the number it claims) in
  /// `syncState` (`claim:` and the todo's uuid), for the pull's last page to resolve
  /// (``takeKept(_:)``), in the same transaction as the todos waiting for them.
  mutating func keep(_ db: Database) throws {
    defer { claims = [] }
    for want in try unmet(db) { try SyncState.set(db, Self.keptKey + want.uuid, "\(want.number) \(want.device)") }
  }

  /// The todos still waiting for their number, by uuid: each one's last claim (the number and
  /// the device that gave it) when the todo does not show that number here, with the one it has.
  private func unmet(_ db: Database) throws -> [(uuid: String, number: Int64, device: String, current: Int64)] {
    var last: [String: (number: Int64, device: String)] = [:]
    for claim in claims { last[claim.uuid] = (claim.number, claim.device) }
    var wanting: [(uuid: String, number: Int64, device: String, current: Int64)] = []
    for uuid in last.keys.sorted() {
      let (number, device) = last[uuid]!
      guard
        let current = try Int64.fetchOne(
          db.cachedStatement(sql: "SELECT id FROM todo WHERE uuid = ?"), arguments: [uuid]),
        current != number
      else { continue }
      wanting.append((uuid, number, device, current))
    }
    return wanting
  }

  /// Takes back the claims ``keep(_:)`` kept, as made before this page's.
  mutating func takeKept(_ db: Database) throws {
    let rows = try Row.fetchAll(
      db, sql: "SELECT key, value FROM syncState WHERE key >= ? AND key < ? ORDER BY key",
      arguments: [Self.keptKey, "claim;"])
    guard !rows.isEmpty else { return }
    var kept: [(uuid: String, number: Int64, device: String)] = []
    for row in rows {
      let key: String = row[0]
      let parts = (row[1] as String? ?? "").split(separator: " ", maxSplits: 1).map(String.init)
      guard parts.count == 2, let number = Int64(parts[0]) else { continue }
      kept.append((String(key.dropFirst(Self.keptKey.count)), number, parts[1]))
    }
    claims = kept + claims
    try db.execute(sql: "DELETE FROM syncState WHERE key >= ? AND key < ?", arguments: [Self.keptKey, "claim;"])
  }

  private static let keptKey = "claim:"

  /// Whether claims are kept (``keep(_:)``), waiting for a pull's last page.
  static func hasKept(_ db: Database) throws -> Bool {
    try Bool.fetchOne(
      db, sql: "SELECT EXISTS (SELECT 1 FROM syncState WHERE key >= ? AND key < ?)", arguments: [keptKey, "claim;"]
    ) ?? false
  }

  /// One renumbering per todo still here (its first number and its last), in the order they
  /// happened; a todo back at its first number is left out, and so is a todo this pull
  /// brought (``arrived``): it had no number here before.
  func report(_ db: Database) throws -> [SyncRenumbering] {
    var order: [String] = []
    var spans: [String: (from: Int64, to: Int64)] = [:]
    for (uuid, from, to) in changes {
      if let span = spans[uuid] {
        spans[uuid] = (span.from, to)
      } else {
        order.append(uuid)
        spans[uuid] = (from, to)
      }
    }
    return try order.compactMap { uuid in
      guard !arrived.contains(uuid), let span = spans[uuid], span.from != span.to,
        let title = try OperationExecutor.currentName(db, .todo, row: uuid)
      else { return nil }
      return SyncRenumbering(uuid: uuid, title: title, from: span.from, to: span.to)
    }
  }
}
