#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The seam between the CalDAV client (module CalDAV: HTTP, WebDAV XML) and the CalDAV sync
// (which maps todos to VTODOs and merges): a calendar collection as the sync sees it. Pure
// values and one protocol, as `CommitStore` is for GitHub; tests of the sync use an in-memory
// collection, and the client is tested against real servers.

/// One resource of a collection as a listing names it: its path and its entity tag.
public struct CalendarResource: Hashable, Sendable {
  /// The resource's path on the server, as the server wrote it in `DAV:href` (percent-encoded,
  /// absolute path, e.g. `/alice/tasks/4fc7664d-….ics`).
  public var href: String
  /// Its current entity tag, quotes included as the server sent them (`"abc"`, `W/"abc"`).
  public var etag: String

  public init(href: String, etag: String) {
    self.href = href
    self.etag = etag
  }
}

/// One resource with its body: an iCalendar object (`BEGIN:VCALENDAR` … with one VTODO).
public struct CalendarObject: Hashable, Sendable {
  public var href: String
  public var etag: String
  /// The iCalendar text as the server sent it (capped by the client).
  public var ics: String

  public init(href: String, etag: String, ics: String) {
    self.href = href
    self.etag = etag
    self.ics = ics
  }
}

/// What discovery found at the configured URL.
public struct CollectionInfo: Hashable, Sendable {
  /// `DAV:displayname`, as sent (sanitise before showing), or nil.
  public var displayName: String?
  /// `CS:getctag`, or nil when the server has none.
  public var ctag: String?
  /// `DAV:sync-token`, or nil when the server does not support `sync-collection`.
  public var syncToken: String?
  /// True when `supported-calendar-component-set` allows VTODO (or the server does not say).
  public var supportsTodos: Bool

  public init(displayName: String?, ctag: String?, syncToken: String?, supportsTodos: Bool) {
    self.displayName = displayName
    self.ctag = ctag
    self.syncToken = syncToken
    self.supportsTodos = supportsTodos
  }
}

/// The changes of a collection since a sync token, or every resource in it.
public struct CollectionChanges: Hashable, Sendable {
  /// The token to give next time, or nil when the server has none.
  public var syncToken: String?
  /// Resources added or changed since the token; every resource when `isFullListing`.
  public var changed: [CalendarResource]
  /// Paths removed since the token (always empty when `isFullListing`: the caller compares the
  /// listing with what it knows).
  public var removed: [String]
  /// True when this is a whole listing: no token was given, the server refused the token
  /// (403/409 `valid-sync-token`) or does not support `sync-collection`.
  public var isFullListing: Bool

  public init(syncToken: String?, changed: [CalendarResource], removed: [String], isFullListing: Bool) {
    self.syncToken = syncToken
    self.changed = changed
    self.removed = removed
    self.isFullListing = isFullListing
  }
}

/// Why a collection call failed.
public enum CalendarCollectionError: Error, Hashable, Sendable {
  /// 412: the `If-Match` etag is stale, or `If-None-Match: *` met an existing resource.
  case preconditionFailed(href: String)
  /// 404 on a resource (e.g. deleted on the server meanwhile).
  case notFound(href: String)
  /// 401: the user name or password was refused.
  case unauthorized
  /// 403 or another refusal, with a short reason (server text, not yet sanitised).
  case refused(status: Int, reason: String)
  /// A response was larger than the client's cap.
  case tooLarge
  /// A response that is not what CalDAV says it should be.
  case invalidResponse(String)
  /// Connection, TLS, timeout, or a refused redirect.
  case transport(String)
}

/// A CalDAV calendar collection holding VTODOs.
public protocol CalendarCollection: Sendable {
  /// PROPFIND Depth 0 on the collection: its name, ctag and sync token.
  func describe() async throws -> CollectionInfo
  /// `sync-collection` REPORT from `token` (nil: initial), falling back to a full listing
  /// (PROPFIND Depth 1 `getetag`) when the server refuses the REPORT or the token.
  func changes(since token: String?) async throws -> CollectionChanges
  /// `calendar-multiget` REPORT of these paths (batched by the client); a path that is gone is
  /// left out of the answer.
  func fetch(_ hrefs: [String]) async throws -> [CalendarObject]
  /// PUT of a new resource named `name` (e.g. `UUID.ics`) in the collection, with
  /// `If-None-Match: *`. Returns its path and etag (the client fetches the etag when the PUT's
  /// answer lacks one). Throws `.preconditionFailed` when it exists already.
  func create(name: String, ics: String) async throws -> CalendarResource
  /// PUT with `If-Match: etag`. Returns the new etag. Throws `.preconditionFailed` when stale.
  func update(href: String, ifMatch etag: String, ics: String) async throws -> CalendarResource
  /// DELETE with `If-Match: etag`. A 404 counts as done.
  func delete(href: String, ifMatch etag: String) async throws
}
