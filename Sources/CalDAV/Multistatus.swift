import Core
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The namespaces CalDAV speaks.
enum Namespace {
  static let dav = "DAV:"
  static let caldav = "urn:ietf:params:xml:ns:caldav"
  static let calendarServer = "http://calendarserver.org/ns/"
}

/// A DAV:multistatus answer (RFC 4918 §13), read from its XML: one entry per `DAV:response`,
/// with the properties found (status 200) and the response's own status when it has one, plus
/// the `DAV:sync-token` of a `sync-collection` answer (RFC 6578).
struct Multistatus {
  struct Response {
    /// `DAV:href` as the server wrote it (entities decoded).
    var href: String
    /// The response-level `DAV:status` (e.g. 404 for a removed member), or nil.
    var status: Int?
    /// The properties of the `propstat` whose status is 2xx, by `{namespace}name`.
    var found: [XMLElement]

    func property(_ namespace: String, _ name: String) -> XMLElement? {
      found.first { $0.is(namespace, name) }
    }
  }

  var responses: [Response]
  var syncToken: String?

  init(_ root: XMLElement) throws(CalendarCollectionErrorText) {
    guard root.is(Namespace.dav, "multistatus") else {
      throw CalendarCollectionErrorText("expected a DAV:multistatus, not {\(root.namespace)}\(root.name)")
    }
    syncToken = root.child(Namespace.dav, "sync-token").map(\.trimmedText).flatMap { $0.isEmpty ? nil : $0 }
    responses = []
    for response in root.children(Namespace.dav, "response") {
      // A response may name several hrefs (with one status); each is an entry of its own.
      let hrefs = response.children(Namespace.dav, "href").map(\.trimmedText)
      guard !hrefs.isEmpty else { throw CalendarCollectionErrorText("a DAV:response without DAV:href") }
      let status = response.child(Namespace.dav, "status").flatMap { Self.statusCode($0.trimmedText) }
      var found: [XMLElement] = []
      for propstat in response.children(Namespace.dav, "propstat") {
        guard let code = propstat.child(Namespace.dav, "status").flatMap({ Self.statusCode($0.trimmedText) }),
          (200..<300).contains(code)
        else { continue }
        for prop in propstat.children(Namespace.dav, "prop") { found += prop.children }
      }
      for href in hrefs { responses.append(Response(href: href, status: status, found: found)) }
    }
  }

  /// The code of a status line such as `HTTP/1.1 404 Not Found`.
  static func statusCode(_ line: String) -> Int? {
    let parts = line.split(separator: " ")
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let code = Int(parts[1]) else { return nil }
    return code
  }
}

/// A reason for `CalendarCollectionError.invalidResponse`, typed so the reader's throws stay typed.
struct CalendarCollectionErrorText: Error {
  let text: String
  init(_ text: String) { self.text = text }
}
