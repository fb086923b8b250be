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
// `CurlTransport()` (system CAs); the CLI hands in `LiveTransport.curl(environment,
// timeoutVariable: "OOTD_CALDAV_TIMEOUT")` (Sources/CLI/Environment/LiveTransport.swift:
// OOTD_LIBCURL and CURL_CA_BUNDLE honoured, libcurl loaded only then).
//
// Also public: `collectionPath` (the collection's path as every returned href spells it),
// `memberPath(_:)` (an href's one spelling, or nil when it is not a member of the collection),
// `multigetBatch` (hrefs per calendar-multiget, 100). Errors are `CalendarCollectionError`;
// none holds the password (server text in `.refused` is not sanitised yet).

import Core
import Formats
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
  /// The collection's path, percent-encoded as ``resolvedPath(_:)`` spells every href, ending
  /// in `/` (e.g. `/alice/tasks/`).
  public let collectionPath: String
  let user: String?
  let password: String?
  let transport: any HTTPTransport

  public init(
    collectionURL: URL, user: String?, password: String?,
    transport: (any HTTPTransport)? = nil
  ) throws(CalDAVURLError) {
    self.collectionURL = try Self.checked(collectionURL)
    guard let path = URLComponents(url: self.collectionURL, resolvingAgainstBaseURL: false)?.percentEncodedPath,
      path.hasPrefix("/"), let canonical = Self.canonicalPath(path)
    else { throw .invalid(collectionURL.absoluteString) }
    collectionPath = canonical
    self.user = user
    self.password = password
    self.transport = transport ?? CurlTransport()
  }

  /// How many hrefs one `calendar-multiget` REPORT asks for.
  public var multigetBatch = 100
  /// How many truncated `sync-collection` answers (507 on the collection) are followed.
  static let maxSyncRounds = 50
  /// How many same-origin redirects a read follows.
  static let maxRedirects = 5

  // MARK: - CalendarCollection

  public func describe() async throws -> CollectionInfo {
    let body = propfind([
      "<D:displayname/>", "<D:resourcetype/>", "<CS:getctag/>", "<D:sync-token/>",
      "<C:supported-calendar-component-set/>",
    ])
    let response = try await send("PROPFIND", collectionURL, depth: "0", body: body)
    let multistatus = try expectMultistatus(response, href: collectionPath)
    guard
      let own = multistatus.responses.first(where: { isCollection($0.href) })
        ?? multistatus.responses.first
    else { throw CalendarCollectionError.invalidResponse("the PROPFIND answer names no resource") }
    guard let type = own.property(Namespace.dav, "resourcetype"),
      type.child(Namespace.caldav, "calendar") != nil
    else {
      throw CalendarCollectionError.invalidResponse("\(collectionPath) is not a calendar collection")
    }
    let components = own.property(Namespace.caldav, "supported-calendar-component-set")
      .map { $0.children(Namespace.caldav, "comp").compactMap { $0.attributes["name"]?.uppercased() } }
    return CollectionInfo(
      displayName: own.property(Namespace.dav, "displayname").map(\.trimmedText).flatMap(nonEmpty),
      ctag: own.property(Namespace.calendarServer, "getctag").map(\.trimmedText).flatMap(nonEmpty),
      syncToken: own.property(Namespace.dav, "sync-token").map(\.trimmedText).flatMap(nonEmpty),
      supportsTodos: components.map { $0.contains("VTODO") } ?? true)
  }

  public func changes(since token: String?) async throws -> CollectionChanges {
    var current = token
    var changed: [String: String] = [:]
    var order: [String] = []
    var removed: Set<String> = []
    for _ in 0..<Self.maxSyncRounds {
      let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <D:sync-collection xmlns:D="DAV:"><D:sync-token>\(XMLText.escaped(current ?? ""))</D:sync-token>\
        <D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>
        """
      let response = try await send("REPORT", collectionURL, depth: "0", body: body)
      if Self.refusesSyncCollection(response.status, withToken: current != nil) {
        // 501/405: no RFC 6578 here; 403/409/400 (valid-sync-token) or a 500 on a token the
        // server cannot read: the token is refused. Either way, a whole listing.
        return try await fullListing(keepToken: !(response.status == 501 || response.status == 405))
      }
      let multistatus = try expectMultistatus(response, href: collectionPath)
      var truncated = false
      for entry in multistatus.responses {
        if isCollection(entry.href) {
          truncated = truncated || entry.status == 507
          continue
        }
        guard let path = memberPath(entry.href) else { continue }
        if entry.status == 404 {
          removed.insert(path)
          changed[path] = nil
        } else if let etag = entry.property(Namespace.dav, "getetag")?.trimmedText, !etag.isEmpty {
          if changed[path] == nil { order.append(path) }
          changed[path] = etag
          removed.remove(path)
        }
      }
      guard truncated, let next = multistatus.syncToken, next != current else {
        let listed = order.compactMap { path in changed[path].map { CalendarResource(href: path, etag: $0) } }
        return CollectionChanges(
          syncToken: multistatus.syncToken, changed: listed, removed: token == nil ? [] : removed.sorted(),
          isFullListing: token == nil)
      }
      current = next
    }
    throw CalendarCollectionError.invalidResponse("the sync-collection answer stayed truncated")
  }

  public func fetch(_ hrefs: [String]) async throws -> [CalendarObject] {
    let paths = try hrefs.map { href throws -> String in
      guard let path = memberPath(href) else {
        throw CalendarCollectionError.invalidResponse("\(href) is not a resource of the collection")
      }
      return path
    }
    var objects: [CalendarObject] = []
    var start = 0
    while start < paths.count {
      let batch = paths[start..<min(start + max(1, multigetBatch), paths.count)]
      start += batch.count
      let body = """
        <?xml version="1.0" encoding="utf-8"?>
        <C:calendar-multiget xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">\
        <D:prop><D:getetag/><C:calendar-data/></D:prop>\
        \(batch.map { "<D:href>\(XMLText.escaped($0))</D:href>" }.joined())</C:calendar-multiget>
        """
      let response = try await send("REPORT", collectionURL, depth: "1", body: body)
      let multistatus = try expectMultistatus(response, href: collectionPath)
      for entry in multistatus.responses {
        guard let path = memberPath(entry.href), entry.status == nil || entry.status == 200,
          let data = entry.property(Namespace.caldav, "calendar-data")
        else { continue }
        guard let etag = entry.property(Namespace.dav, "getetag")?.trimmedText, !etag.isEmpty else {
          throw CalendarCollectionError.invalidResponse("\(path) came without DAV:getetag")
        }
        objects.append(CalendarObject(href: path, etag: etag, ics: data.text))
      }
    }
    return objects
  }

  public func create(name: String, ics: String) async throws -> CalendarResource {
    guard let encoded = Self.encodedName(name) else {
      throw CalendarCollectionError.invalidResponse("not a usable resource name: \(name)")
    }
    return try await put(href: collectionPath + encoded, condition: ("If-None-Match", "*"), ics: ics)
  }

  public func update(href: String, ifMatch etag: String, ics: String) async throws -> CalendarResource {
    guard let path = memberPath(href) else {
      throw CalendarCollectionError.invalidResponse("\(href) is not a resource of the collection")
    }
    return try await put(href: path, condition: ("If-Match", etag), ics: ics)
  }

  public func delete(href: String, ifMatch etag: String) async throws {
    guard let path = memberPath(href), let url = url(ofPath: path) else {
      throw CalendarCollectionError.invalidResponse("\(href) is not a resource of the collection")
    }
    let response = try await send("DELETE", url, headers: [("If-Match", etag)])
    switch response.status {
    case 200, 202, 204, 404: return
    default: throw failure(response, href: path)
    }
  }

  // MARK: - Requests

  func put(href: String, condition: (String, String), ics: String) async throws -> CalendarResource {
    guard let url = url(ofPath: href) else {
      throw CalendarCollectionError.invalidResponse("\(href) is not a resource of the collection")
    }
    let response = try await send(
      "PUT", url, headers: [condition, ("Content-Type", "text/calendar; charset=utf-8")], body: ics)
    guard (200..<300).contains(response.status) else { throw failure(response, href: href) }
    if let etag = response.headers["etag"], !etag.isEmpty, !etag.hasPrefix("W/") {
      return CalendarResource(href: href, etag: etag)
    }
    // No (strong) ETag: the server may have changed the text; ask for the resource's etag.
    let answer = try await send("PROPFIND", url, depth: "0", body: propfind(["<D:getetag/>"]))
    let multistatus = try expectMultistatus(answer, href: href)
    guard let etag = multistatus.responses.first?.property(Namespace.dav, "getetag")?.trimmedText, !etag.isEmpty
    else { throw CalendarCollectionError.invalidResponse("no etag for \(href) after its PUT") }
    return CalendarResource(href: href, etag: etag)
  }

  /// Sends one request to `url` (which must be on the collection's origin), with Basic auth,
  /// following same-origin redirects for reads (never for writes, never to another origin).
  func send(
    _ method: String, _ url: URL, depth: String? = nil, headers extra: [(String, String)] = [],
    body: String? = nil
  ) async throws -> HTTPResponse {
    var current = url
    for _ in 0...Self.maxRedirects {
      guard Origin.isAllowedTarget(current), Origin.isSameOrigin(current, collectionURL) else {
        throw CalendarCollectionError.transport(
          "refusing to send the password to \(current.host ?? "?") (not the collection's host)")
      }
      var headers = HTTPHeaders()
      headers.add(name: "User-Agent", value: "ootd")
      if let authorization { headers.add(name: "Authorization", value: authorization) }
      if let depth { headers.add(name: "Depth", value: depth) }
      if body != nil, !extra.contains(where: { $0.0.lowercased() == "content-type" }) {
        headers.add(name: "Content-Type", value: "application/xml; charset=utf-8")
      }
      for (name, value) in extra { headers.add(name: name, value: value) }
      let response: HTTPResponse
      do {
        response = try await transport.send(
          HTTPRequest(method: method, url: current, headers: headers, body: body.map { Data($0.utf8) }))
      } catch let error as HTTPTransportError {
        switch error {
        case .tooLarge: throw CalendarCollectionError.tooLarge
        case .network(let reason), .unavailable(let reason), .unsupported(let reason):
          throw CalendarCollectionError.transport(reason)
        }
      }
      if response.status == 401 { throw CalendarCollectionError.unauthorized }
      guard [301, 302, 307, 308].contains(response.status) else { return response }
      guard ["PROPFIND", "REPORT", "GET"].contains(method) else {
        throw CalendarCollectionError.transport("the server answered \(method) with a redirect (\(response.status))")
      }
      guard let location = response.headers["location"],
        let target = URL(string: location, relativeTo: current)?.absoluteURL
      else { throw CalendarCollectionError.invalidResponse("a redirect without a usable Location") }
      guard Origin.isSameOrigin(target, collectionURL) else {
        throw CalendarCollectionError.transport(
          "the server redirected to another host (\(target.host ?? "?")); not following it with the password")
      }
      current = target
    }
    throw CalendarCollectionError.transport("more than \(Self.maxRedirects) redirects")
  }

  /// The `Authorization` value, or nil without a user.
  var authorization: String? {
    guard let user else { return nil }
    return "Basic " + Data("\(user):\(password ?? "")".utf8).base64EncodedString()
  }

  func propfind(_ properties: [String]) -> String {
    """
    <?xml version="1.0" encoding="utf-8"?>
    <D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav" \
    xmlns:CS="http://calendarserver.org/ns/"><D:prop>\(properties.joined())</D:prop></D:propfind>
    """
  }

  /// The multistatus of a 207 answer, or the error its status means.
  func expectMultistatus(_ response: HTTPResponse, href: String) throws -> Multistatus {
    guard response.status == 207 else { throw failure(response, href: href) }
    do {
      return try Multistatus(XMLReader().parse(response.body))
    } catch let error as XMLError {
      throw CalendarCollectionError.invalidResponse(error.description)
    } catch let error as CalendarCollectionErrorText {
      throw CalendarCollectionError.invalidResponse(error.text)
    }
  }

  /// The error a non-success status means for the resource `href`.
  func failure(_ response: HTTPResponse, href: String) -> CalendarCollectionError {
    switch response.status {
    case 401: return .unauthorized
    case 412: return .preconditionFailed(href: href)
    case 404, 410: return .notFound(href: href)
    default:
      let text = String(decoding: response.body.prefix(300), as: UTF8.self)
      let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
      return .refused(status: response.status, reason: line.isEmpty ? "HTTP status \(response.status)" : line)
    }
  }

  /// Statuses by which a server says no to `sync-collection` or to its token (RFC 6578 §3.2:
  /// 403/409 with DAV:valid-sync-token; 400, 405, 501 from servers without the REPORT; a 500 on
  /// a token the server cannot read, as Xandikos answers).
  static func refusesSyncCollection(_ status: Int, withToken: Bool) -> Bool {
    [400, 403, 405, 409, 415, 501].contains(status) || (withToken && status == 500)
  }

  /// PROPFIND Depth 1: every member's etag, and the collection's sync token.
  func fullListing(keepToken: Bool) async throws -> CollectionChanges {
    let body = propfind(["<D:getetag/>", "<D:resourcetype/>", "<D:sync-token/>"])
    let response = try await send("PROPFIND", collectionURL, depth: "1", body: body)
    let multistatus = try expectMultistatus(response, href: collectionPath)
    var token: String?
    var listed: [CalendarResource] = []
    for entry in multistatus.responses {
      if isCollection(entry.href) {
        token = entry.property(Namespace.dav, "sync-token").map(\.trimmedText).flatMap(nonEmpty)
        continue
      }
      guard let path = memberPath(entry.href),
        entry.property(Namespace.dav, "resourcetype")?.child(Namespace.dav, "collection") == nil,
        let etag = entry.property(Namespace.dav, "getetag")?.trimmedText, !etag.isEmpty
      else { continue }
      listed.append(CalendarResource(href: path, etag: etag))
    }
    return CollectionChanges(syncToken: keepToken ? token : nil, changed: listed, removed: [], isFullListing: true)
  }

  // MARK: - Hrefs



  /// `href` (relative, absolute-path or absolute URL) resolved against the collection URL: its
  /// path with one spelling of percent-encoding (each segment decoded, then encoded as
  /// ``encodedName(_:)`` does), so that `a%20b+c.ics` and `a%20b%2Bc.ics` from two answers are
  /// the same resource; nil when it is on another origin or has a `.`/`..` segment.
  func resolvedPath(_ href: String) -> String? {
    guard let url = URL(string: href, relativeTo: collectionURL)?.absoluteURL,
      Origin.isSameOrigin(url, collectionURL),
      let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath,
      path.hasPrefix("/")
    else { return nil }
    return Self.canonicalPath(path)
  }

  /// `path` (percent-encoded) with each segment decoded and encoded again as
  /// ``encodedName(_:)`` does; nil for a `.` or `..` segment or one holding an encoded `/`.
  static func canonicalPath(_ path: String) -> String? {
    var segments: [String] = []
    for segment in path.split(separator: "/", omittingEmptySubsequences: false) {
      guard let decoded = segment.removingPercentEncoding, decoded != ".", decoded != ".." else { return nil }
      guard !decoded.isEmpty else {
        segments.append("")
        continue
      }
      // A decoded `/` would change the path's shape: such a segment is no member of ours.
      guard let encoded = Self.encodedName(decoded) else { return nil }
      segments.append(encoded)
    }
    return segments.joined(separator: "/")
  }

  /// The path of `href` when it names a direct member of the collection (not the collection, not
  /// something deeper, not elsewhere), else nil.
  public func memberPath(_ href: String) -> String? {
    guard let path = resolvedPath(href), path.hasPrefix(collectionPath) else { return nil }
    let rest = path.dropFirst(collectionPath.count)
    guard !rest.isEmpty, !rest.contains("/") else { return nil }
    return path
  }

  /// True when `href` names the collection itself (with or without its trailing `/`).
  func isCollection(_ href: String) -> Bool {
    guard let path = resolvedPath(href) else { return false }
    return path == collectionPath || path + "/" == collectionPath
  }

  func url(ofPath path: String) -> URL? {
    guard var components = URLComponents(url: collectionURL, resolvingAgainstBaseURL: false) else { return nil }
    components.percentEncodedPath = path
    return components.url
  }

  /// A resource name percent-encoded for a path segment (unreserved characters kept), or nil
  /// for an empty name, `.`, `..` or one holding `/`.
  static func encodedName(_ name: String) -> String? {
    guard !name.isEmpty, name != ".", name != "..", !name.contains("/") else { return nil }
    var out = ""
    for byte in name.utf8 {
      let scalar = Unicode.Scalar(byte)
      if ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        || ("0"..."9").contains(scalar) || "-._~@".unicodeScalars.contains(scalar)
      {
        out.unicodeScalars.append(scalar)
      } else {
        out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
      }
    }
    return out
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

private func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}

// MARK: - Printing without the password

extension CalDAVClient: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// The collection and the user; the password is never shown (only whether there is one).
  public var description: String {
    "CalDAVClient(\(collectionURL.absoluteString), user: \(user ?? "none"), password: \(password == nil ? "none" : "[redacted]"))"
  }

  public var debugDescription: String { description }

  public var customMirror: Mirror {
    Mirror(self, children: ["collectionURL": collectionURL, "user": user as Any, "password": password == nil ? "none" : "[redacted]"])
  }
}
