// The entry point (exact signature, for the CLI):
//
//     public init(
//       collectionURL: URL, user: String?, password: String?,
//       transport: (any HTTPTransport)? = nil
//     ) throws(CalDAVURLError)
//
// `collectionURL` is the calendar collection (a task list), e.g.
// `https://dav.example.com/alice/tasks/`; `https://` for any host, plain `http://` only for
// loopback hosts; no user-info, query or fragment. `user`/`password`: HTTP Basic, sent only to
// the collection's scheme+host+port (both nil: no Authorization header). `transport`: nil for
// `CurlTransport()` (system CAs); the CLI hands in a `CurlTransport(caBundle: CURL_CA_BUNDLE)`.

import Core
import HTTP

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a collection URL cannot be used. Its text never holds a password.
public enum CalDAVURLError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Not an absolute http(s) URL with a host, or with user-info, a query or a fragment.
  case invalid(String)
  /// Plain `http://` to a host that is not loopback: the password would travel in clear.
  case insecure(String)

  public var description: String {
    switch self {
    case .invalid(let url): return "not a usable CalDAV collection URL: \(url)"
    case .insecure(let url): return "refusing plain http:// for \(url); use https:// (http is only for loopback hosts)"
    }
  }
}

/// A CalDAV calendar collection reached over HTTP (`Core.CalendarCollection`).
public struct CalDAVClient: CalendarCollection {
  /// The collection's URL, always ending in `/`.
  public let collectionURL: URL
  let user: String?
  let password: String?
  let transport: any HTTPTransport

  public init(
    collectionURL: URL, user: String?, password: String?,
    transport: (any HTTPTransport)? = nil
  ) throws(CalDAVURLError) {
    self.collectionURL = try Self.checked(collectionURL)
    self.user = user
    self.password = password
    self.transport = transport ?? CurlTransport()
  }

  public func describe() async throws -> CollectionInfo {
    throw CalendarCollectionError.transport("not implemented yet")
  }

  public func changes(since token: String?) async throws -> CollectionChanges {
    throw CalendarCollectionError.transport("not implemented yet")
  }

  public func fetch(_ hrefs: [String]) async throws -> [CalendarObject] {
    throw CalendarCollectionError.transport("not implemented yet")
  }

  public func create(name: String, ics: String) async throws -> CalendarResource {
    throw CalendarCollectionError.transport("not implemented yet")
  }

  public func update(href: String, ifMatch etag: String, ics: String) async throws -> CalendarResource {
    throw CalendarCollectionError.transport("not implemented yet")
  }

  public func delete(href: String, ifMatch etag: String) async throws {
    throw CalendarCollectionError.transport("not implemented yet")
  }

  /// The URL made canonical (a trailing `/`), or why it cannot be used.
  static func checked(_ url: URL) throws(CalDAVURLError) -> URL {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
      let host = components.host, !host.isEmpty
    else { throw .invalid(url.absoluteString) }
    guard components.user == nil, components.password == nil else {
      // Never echo this URL: its user-info part may hold the password.
      throw .invalid("a URL with user-info (give the user with --user, the password apart)")
    }
    guard components.query == nil, components.fragment == nil else { throw .invalid(url.absoluteString) }
    guard Origin.isAllowedTarget(url) else { throw .insecure(url.absoluteString) }
    var text = url.absoluteString
    if !text.hasSuffix("/") { text += "/" }
    guard let canonical = URL(string: text) else { throw .invalid(url.absoluteString) }
    return canonical
  }
}
