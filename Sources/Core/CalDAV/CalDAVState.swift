#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// What a CalDAV sync keeps and reads on this machine (issue 27), as values, and the protocol
// storage implements for the sync's run (UseCases' `CalDAVSyncRun`).

/// The CalDAV collection a database syncs with (`ootd caldav set`). Never a password.
public struct CalDAVLink: Hashable, Sendable {
  public var url: String
  public var user: String?
  public var displayName: String?
  /// The server's sync token and ctag as of the last sync (nil before the first).
  public var syncToken: String?
  public var ctag: String?
  /// When the last sync finished.
  public var lastSync: Date?

  public init(url: String, user: String?, displayName: String? = nil, syncToken: String? = nil, ctag: String? = nil, lastSync: Date? = nil) {
    self.url = url
    self.user = user
    self.displayName = displayName
    self.syncToken = syncToken
    self.ctag = ctag
    self.lastSync = lastSync
  }
}

/// What the last sync left of one todo on both sides.
public struct CalDAVTodoState: Hashable, Sendable {
  public var uuid: String
  /// The resource's path on the server.
  public var href: String
  /// Its entity tag after the last sync.
  public var etag: String
  /// The synced fields (``CalDAVFields``) both sides had.
  public var base: Fields

  public init(uuid: String, href: String, etag: String, base: Fields) {
    self.uuid = uuid
    self.href = href
    self.etag = etag
    self.base = base
  }
}

/// A todo as a CalDAV sync compares it (``CalDAVFields``).
public struct CalDAVLocalTodo: Hashable, Sendable {
  public var uuid: String
  public var id: Int64
  public var fields: Fields
  public var createdAt: Date

  public init(uuid: String, id: Int64, fields: Fields, createdAt: Date) {
    self.uuid = uuid
    self.id = id
    self.fields = fields
    self.createdAt = createdAt
  }
}

/// A change a CalDAV sync makes in ootd, in ``CalDAVFields``.
public enum CalDAVLocalWrite: Hashable, Sendable {
  case create(uuid: String, Fields)
  case update(uuid: String, Fields)
  case delete(uuid: String)
}

/// What ``CalDAVStore/applyCalDAVPull(_:states:forget:syncToken:joining:today:now:)`` did.
public struct CalDAVPullResult: Hashable, Sendable {
  public var created = 0
  public var updated = 0
  public var deleted = 0
  /// Todos the pull left breaking a rule, mended by the fixed resolution: one sentence each.
  public var ruleConflicts: [String] = []
  /// The journal entry, when anything changed.
  public var change: Int64?

  public init() {}
}

/// A todo's state after a push: recorded, or (nil) forgotten, the todo gone from both sides.
public struct CalDAVStateChange: Hashable, Sendable {
  public var uuid: String
  public var state: CalDAVTodoState?

  public init(uuid: String, state: CalDAVTodoState?) {
    self.uuid = uuid
    self.state = state
  }
}

/// The local side of a CalDAV sync: the link, the per-todo states and the todos (Storage's
/// `AppDatabase`).
public protocol CalDAVStore: Sendable {
  func calDAVLink() throws -> CalDAVLink?
  func calDAVStates() throws -> [String: CalDAVTodoState]
  func calDAVTodos(window: DayRange) throws -> [CalDAVLocalTodo]
  func calDAVTodos(uuids: [String]) throws -> [CalDAVLocalTodo]
  func calDAVLastChanges(uuids: [String]) throws -> [String: Date]
  /// The project and task block names a VTODO's `CATEGORIES` may name.
  func calDAVCategoryNames() throws -> CalDAVCategories.Names
  /// Applies a pull as one journal change, joining the change `joining` (the one an earlier
  /// pull of the same sync made) when it is still the latest: one sync, one change to undo.
  func applyCalDAVPull(
    _ writes: [CalDAVLocalWrite], states: [CalDAVTodoState], forget: [String], syncToken: String?,
    joining change: Int64?, today: Day, now: Date
  ) throws -> CalDAVPullResult
  func recordCalDAVStates(_ changes: [CalDAVStateChange]) throws
  func finishCalDAVSync(syncToken: String?, ctag: String?, now: Date) throws
}
