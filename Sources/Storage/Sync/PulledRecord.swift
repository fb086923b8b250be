import Core
import Foundation
import GRDB

/// The door a record pulled from the sync server passes before it is applied, and the table of
/// the records set aside there (`syncSetAside`, see ``AppDatabase/setAsideMigration(_:)``).
///
/// Anything any member may write into their own server rows (with `psql`) is checked here: the
/// payload's size (``Caps/payloadBytes``), the device id, the clock (``Caps/clocks``), the
/// payload itself (``SyncPayload/decode(_:device:)``), each operation's fields (a closed list)
/// and values (``Caps/violation(_:)``).
enum PulledRecord {
  /// Why a record is set aside.
  struct Refused: Error {
    let reason: String
  }

  /// The operations of `record`, or ``Refused``.
  static func check(_ record: SyncRecord) throws -> SyncPayload.Batch {
    if let why = record.unopened { throw Refused(reason: why) }
    if let bytes = record.withheldBytes {
      throw Refused(reason: "its payload of \(bytes) bytes is larger than the cap of \(Caps.payloadBytes) bytes")
    }
    guard RowID.isValid(record.device) else { throw Refused(reason: "its device id is not one ootd makes") }
    guard let clock = HybridClock.parse(record.clock), Caps.clocks.contains(clock) else {
      throw Refused(reason: "its clock '\(record.clock.prefix(40))' is out of range")
    }
    let batch: SyncPayload.Batch
    do {
      batch = try SyncPayload.decode(record.payload, device: record.device)
    } catch CoreError.invalidSyncRecord(let why) {
      throw Refused(reason: why)
    }
    // The names of the last creation whose fields were all found allowed, and its entity: the
    // creations of a payload with the same names share one array of them
    // (``SyncOperation/ordered``), which is then looked at once.
    var allowedNames: (entity: Entity, names: [String])?
    for operation in batch.operations {
      // Named only for a refusal (made for every operation, it was a tenth of checking a page).
      func subject() -> String { "\(operation.entity) \(operation.row.prefix(8))" }
      if let why = Caps.violation(operation) { throw Refused(reason: "\(subject()): \(why)") }
      let allowed = OperationExecutor.allowedFields(operation.entity)
      let unknown: String?
      switch operation.kind {
      case .create where operation.ordered.map({ $0.names == allowedNames?.names }) == true
        && allowedNames?.entity == operation.entity:
        unknown = nil
      // Sorted (the first unknown by name is named) only when there is one.
      case .create(let values):
        unknown = values.keys.contains { !allowed.contains($0) }
          ? values.keys.sorted().first { !allowed.contains($0) } : nil
        if unknown == nil, let names = operation.ordered?.names { allowedNames = (operation.entity, names) }
      case .update(let field, _): unknown = allowed.contains(field) ? nil : field
      case .delete: unknown = nil
      }
      if let unknown { throw Refused(reason: "\(subject()): unknown field '\(unknown.prefix(40))'") }
    }
    return batch
  }

  /// The reason to set a record aside for `error`, thrown while checking or applying it; nil
  /// when the error is this database's own (a full disk, a busy file), which must stop the pull.
  static func reason(_ error: any Error) -> String? {
    switch error {
    case let refused as Refused: return refused.reason
    case let error as CoreError: return error.description
    case StorageError.invalidValue(let error): return error.description
    case let error as DatabaseError:
      switch error.resultCode {
      case .SQLITE_CONSTRAINT, .SQLITE_MISMATCH, .SQLITE_TOOBIG, .SQLITE_RANGE:
        return "refused here: " + (error.message ?? "\(error.resultCode)")
      default: return nil
      }
    default: return nil
    }
  }

  /// Records `row` as set aside (once: a row pulled again keeps its first entry).
  static func setAside(_ db: Database, _ row: SetAsideRow, opID: String, now: Date) throws {
    try db.execute(
      sql: "INSERT OR IGNORE INTO syncSetAside (seq, opId, device, reason, at) VALUES (?, ?, ?, ?, ?)",
      arguments: [row.seq, String(opID.prefix(64)), String(row.device.prefix(64)), row.reason, Timestamp.string(now, .sqlite)])
  }

  /// Forgets the rows set aside at `seqs`.
  static func forget(_ db: Database, _ seqs: [Int64]) throws {
    for seq in seqs { try db.execute(sql: "DELETE FROM syncSetAside WHERE seq = ?", arguments: [seq]) }
  }

  /// The rows set aside, oldest first.
  static func all(_ db: Database) throws -> [SetAsideRow] {
    try Row.fetchAll(db, sql: "SELECT seq, device, reason FROM syncSetAside ORDER BY seq").map {
      SetAsideRow(seq: $0["seq"], device: $0["device"], reason: $0["reason"])
    }
  }
}
