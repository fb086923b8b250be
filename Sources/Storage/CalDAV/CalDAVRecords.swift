import Core
import Foundation
import Formats
import GRDB

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
