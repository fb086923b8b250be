#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The fields a CalDAV sync compares (issue 27), with the values it compares: the journal's
/// names and values, but `doneAt` in iCalendar's whole-second form (`20261127T183000Z`) and
/// `project` as the project's name.
public enum CalDAVFields {
  /// Every synced field.
  public static let names: [String] = [
    TodoField.title, .priority, .day, .done, .doneAt, .dropped, .notes, .tags, .project, .block,
  ].map(\.rawValue)
}

/// What a CalDAV sync does with one todo: the three-way merge of the values both sides agreed
/// on at the last sync (the base), the todo in ootd now and the VTODO on the server now. Pure
/// and table-tested; the run (UseCases' `CalDAVSyncRun`) does the writing.
///
/// The merge is the remote sync's (``SyncMerge``): a field changed on one side only takes that
/// side's value; a field changed on both to different values keeps the later change (ootd's by
/// the time of its last journaled change of the todo, the server's by its `LAST-MODIFIED`),
/// reported as a conflict; a todo deleted on one side and edited on the other stays deleted,
/// reported too. Never synced before (no base), a todo on both sides (a create whose answer
/// was lost) merges field by field, the later side winning, without a conflict.
public enum CalDAVPlan {
  /// One todo's three versions.
  public struct Input: Hashable, Sendable {
    public var uuid: String
    /// The fields both sides had after the last sync, or nil when never synced.
    public var base: Fields?
    /// The todo in ootd now (nil: not there, deleted since the last sync).
    public var local: Fields?
    /// When ootd last changed it (its latest journal entry), for a conflict.
    public var localChanged: Date
    /// The VTODO on the server now (nil: not there), its project, block and tags read from its
    /// `CATEGORIES` (``CalDAVCategories``).
    public var server: Fields?
    /// Its `LAST-MODIFIED`, for a conflict.
    public var serverChanged: Date

    public init(uuid: String, base: Fields?, local: Fields?, localChanged: Date, server: Fields?, serverChanged: Date) {
      self.uuid = uuid
      self.base = base
      self.local = local
      self.localChanged = localChanged
      self.server = server
      self.serverChanged = serverChanged
    }
  }

  /// What to do on one side.
  public enum Action: Hashable, Sendable {
    case keep
    case create(Fields)
    /// Set these fields (the whole merged todo).
    case update(Fields)
    case delete
  }

  /// The plan for one todo.
  public struct Decision: Hashable, Sendable {
    public var uuid: String
    /// What to do in ootd (a pull).
    public var local: Action
    /// What to do on the server (a push).
    public var server: Action
    /// The fields both sides have afterwards (the next base); nil when the todo is gone from
    /// both (its link is forgotten).
    public var merged: Fields?
    /// The conflicts the merge resolved.
    public var conflicts: [SyncConflict]

    public init(uuid: String, local: Action, server: Action, merged: Fields?, conflicts: [SyncConflict]) {
      self.uuid = uuid
      self.local = local
      self.server = server
      self.merged = merged
      self.conflicts = conflicts
    }
  }

  /// The stamp devices of the two sides: the server wins a tie (the same millisecond).
  static let localDevice = "ootd"
  static let serverDevice = "server"

  /// Decides what to do with one todo.
  public static func decide(_ input: Input) -> Decision {
    let local = input.local.map(normalized)
    let server = input.server.map(normalized)
    let base = input.base.map(normalized)
    let localStamp = Stamp(clock: SyncClocks.milliseconds(input.localChanged), device: localDevice)
    let serverStamp = Stamp(clock: SyncClocks.milliseconds(input.serverChanged), device: serverDevice)
    var row: SyncRow?
    var conflicts: [SyncConflict] = []
    func apply(_ kind: SyncOperation.Kind, _ stamp: Stamp) {
      let outcome = SyncMerge.merge(
        SyncOperation(.todo, row: input.uuid, kind, stamp: stamp), into: row,
        isPending: { $0.device == localDevice })
      row = outcome.row
      conflicts += outcome.conflicts
    }
    if let base {
      let baseStamp = Stamp(clock: 0, device: "")
      row = SyncRow(existence: Stamped(true, baseStamp), fields: base.mapValues { Stamped($0, baseStamp) })
      for (side, stamp) in [(local, localStamp), (server, serverStamp)] {
        guard let side else {
          apply(.delete, stamp)
          continue
        }
        for field in CalDAVFields.names where side[field] != base[field] {
          apply(.update(field: field, value: side[field]!), stamp)
        }
      }
    } else {
      if let local { apply(.create(local), localStamp) }
      if let server { apply(.create(server), serverStamp) }
    }
    let merged = row?.visibleFields
    return Decision(
      uuid: input.uuid, local: action(from: local, to: merged), server: action(from: server, to: merged),
      merged: merged, conflicts: conflicts)
  }

  /// Every field of ``CalDAVFields/names`` present (null when missing), no other.
  public static func normalized(_ fields: Fields) -> Fields {
    var result = Fields(minimumCapacity: CalDAVFields.names.count)
    for name in CalDAVFields.names { result[name] = fields[name] ?? .null }
    return result
  }

  /// What takes a side from `current` to `target`.
  static func action(from current: Fields?, to target: Fields?) -> Action {
    switch (current, target) {
    case (nil, nil): return .keep
    case (nil, let target?): return .create(target)
    case (.some, nil): return .delete
    case (let current?, let target?): return current == target ? .keep : .update(target)
    }
  }
}
