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

  mutating func claim(_ uuid: String, _ number: Int64, device: String) { claims.append((uuid, number, device)) }

  mutating func changed(_ uuid: String, from: Int64, to: Int64) { changes.append((uuid, from, to)) }

  mutating func formUnion(_ other: TodoNumbers) {
    claims += other.claims
    changes += other.changes
  }

  /// The uuid of the todo holding `number` here, if any.
  static func holder(_ db: Database, _ number: Int64) throws -> String? {
    try String.fetchOne(db.cachedStatement(sql: "SELECT uuid FROM todo WHERE id = ?"), arguments: [number])
  }

  /// A number below zero no todo holds: where a pulled todo waits for its number (never seen:
  /// ``resolve(_:now:)`` moves it in the same transaction).
  static func waiting(_ db: Database) throws -> Int64 {
    try Int64.fetchOne(db, sql: "SELECT min(0, coalesce(min(id), 0)) - 1 FROM todo") ?? -1
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

  /// Gives each claiming todo its number when it is free, or held by a todo with a larger uuid
  /// (which moves to the next free number: a change of this machine, `recorder`, pushed like
  /// any other, so the machines that have the moved todo learn its new number); else the
  /// claiming todo gets the next free number. A claiming todo's own move is its machine's
  /// (recorded as an entry of that device, never pushed back). Returns the renumberings, one
  /// per todo.
  mutating func resolve(_ recorder: ChangeRecorder, now: Date) throws -> [SyncRenumbering] {
    let db = recorder.db
    var last: [String: (number: Int64, device: String)] = [:]
    for claim in claims { last[claim.uuid] = (claim.number, claim.device) }
    var settling: [String: ChangeRecorder] = [:]
    func settle(_ uuid: String, _ device: String, from current: Int64, to number: Int64) throws {
      let settler = settling[device] ?? ChangeRecorder(db, command: "remote sync", now: now, device: device)
      settling[device] = settler
      try settler.update(.todo, row: uuid, TodoField.id.rawValue, from: .integer(current), to: .integer(number))
    }
    var seen = Set<String>()
    for claim in claims where seen.insert(claim.uuid).inserted {
      let uuid = claim.uuid
      guard let (number, device) = last[uuid],
        let current = try Int64.fetchOne(
          db.cachedStatement(sql: "SELECT id FROM todo WHERE uuid = ?"), arguments: [uuid]),
        current != number
      else { continue }
      if let holder = try Self.holder(db, number) {
        // The same choice on every machine: the smaller uuid keeps the number.
        if uuid < holder {
          let next = try Self.nextFree(db)
          try recorder.update(.todo, row: holder, TodoField.id.rawValue, from: .integer(number), to: .integer(next))
          changed(holder, from: number, to: next)
        } else {
          var to = current
          if current < 0 {
            to = try Self.nextFree(db)
            try settle(uuid, device, from: current, to: to)
          }
          changed(uuid, from: number, to: to)
          continue
        }
      }
      try settle(uuid, device, from: current, to: number)
    }
    for settler in settling.values { try settler.finish() }
    claims = []
    return try report(db)
  }

  /// One renumbering per todo still here (its first number and its last), in the order they
  /// happened; a todo back at its first number is left out.
  private func report(_ db: Database) throws -> [SyncRenumbering] {
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
      guard let span = spans[uuid], span.from != span.to,
        let title = try OperationExecutor.currentName(db, .todo, row: uuid)
      else { return nil }
      return SyncRenumbering(uuid: uuid, title: title, from: span.from, to: span.to)
    }
  }
}
