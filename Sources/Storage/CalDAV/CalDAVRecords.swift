import Core
import Foundation
import Formats
import GRDB

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

/// A `caldavLink` row.
struct CalDAVLinkRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "caldavLink"

  enum Columns {
    static let id = Column("id")
    static let url = Column("url")
    static let user = Column("user")
    static let displayName = Column("displayName")
    static let syncToken = Column("syncToken")
    static let ctag = Column("ctag")
    static let lastSync = Column("lastSync")
  }

  var id: Int64 = 1
  var url: String
  var user: String?
  var displayName: String?
  var syncToken: String?
  var ctag: String?
  var lastSync: String?

  init(_ link: CalDAVLink) {
    url = link.url
    user = link.user
    displayName = link.displayName
    syncToken = link.syncToken
    ctag = link.ctag
    lastSync = link.lastSync.map { Timestamp.string($0, .sqlite) }
  }

  var link: CalDAVLink {
    CalDAVLink(
      url: url, user: user, displayName: displayName, syncToken: syncToken, ctag: ctag,
      lastSync: lastSync.flatMap { Timestamp.date($0, .sqlite) })
  }
}

/// A `caldavTodo` row.
struct CalDAVTodoRecord: Codable, FetchableRecord, PersistableRecord {
  static let databaseTableName = "caldavTodo"

  enum Columns {
    static let uuid = Column("uuid")
    static let href = Column("href")
    static let etag = Column("etag")
    static let base = Column("base")
  }

  var uuid: String
  var href: String
  var etag: String
  /// ``JSONText/object(_:)`` of the base fields.
  var base: String

  init(_ state: CalDAVTodoState) {
    uuid = state.uuid
    href = state.href
    etag = state.etag
    base = JSONText.object(state.base)
  }

  /// The state, or nil when the base is unreadable (then the todo syncs as never synced).
  var state: CalDAVTodoState? {
    JSONText.fields(base).map { CalDAVTodoState(uuid: uuid, href: href, etag: etag, base: $0) }
  }
}
