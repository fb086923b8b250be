import ArgumentParser
import Core
import Foundation
import Remote
import Storage
import UseCases

/// `remote sync --json`.
struct SyncJSON: Encodable {
  let summary: RemoteSyncRun.Summary
  init(_ summary: RemoteSyncRun.Summary) { self.summary = summary }

  struct Conflict: Encodable {
    let report: SyncConflictReport
    enum Keys: String, CodingKey { case kind, entity, uuid, name, field, kept, lost }
    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: Keys.self)
      let conflict = report.conflict
      try c.encode(conflict.kind.rawValue, forKey: .kind)
      try c.encode(conflict.entity.rawValue, forKey: .entity)
      try c.encode(conflict.row, forKey: .uuid)
      try c.encode(report.name, forKey: .name)
      try c.encode(conflict.field, forKey: .field)
      try c.encode(conflict.kept.map(Self.json), forKey: .kept)
      try c.encode(conflict.lost.map(Self.json), forKey: .lost)
    }
    static func json(_ value: FieldValue) -> String? {
      switch value {
      case .null: return nil
      case .integer(let integer): return String(integer)
      case .text(let text): return text
      }
    }
  }

  enum Keys: String, CodingKey {
    case pushed, pulled, conflicts, changed, conflictList, device, ruleConflicts, setAside
  }
  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(summary.pushed, forKey: .pushed)
    try c.encode(summary.pulled, forKey: .pulled)
    try c.encode(summary.conflicts.count, forKey: .conflicts)
    try c.encode(summary.changed, forKey: .changed)
    try c.encode(summary.conflicts.map(Conflict.init), forKey: .conflictList)
    try c.encode(summary.device, forKey: .device)
    try c.encode(summary.ruleConflicts, forKey: .ruleConflicts)
    try c.encode(summary.setAside.map(SetAsideJSON.init), forKey: .setAside)
  }
}

/// `remote status --json`.
struct StatusJSON: Encodable {
  let server: String?
  let device: String?
  let lastSync: String?
  let waitingChanges: Int
  let waitingOperations: Int
  let firstSync: Bool
  let setAside: [SetAsideRow]
  enum Keys: String, CodingKey {
    case server, device, lastSync, waitingChanges, waitingOperations, firstSync, setAside
  }
  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(server, forKey: .server)
    try c.encode(device, forKey: .device)
    try c.encode(lastSync, forKey: .lastSync)
    try c.encode(waitingChanges, forKey: .waitingChanges)
    try c.encode(waitingOperations, forKey: .waitingOperations)
    try c.encode(firstSync, forKey: .firstSync)
    try c.encode(setAside.map(SetAsideJSON.init), forKey: .setAside)
  }
}

/// A server row set aside, in `remote sync --json` and `remote status --json`: its server
/// position, device and reason.
struct SetAsideJSON: Encodable {
  let row: SetAsideRow
  enum Keys: String, CodingKey { case id, device, reason }
  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(row.seq, forKey: .id)
    try c.encode(row.device, forKey: .device)
    try c.encode(row.reason, forKey: .reason)
  }
}
