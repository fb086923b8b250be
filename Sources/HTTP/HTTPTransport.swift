#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: - Requests and responses

// These values stay hand-written rather than apple/swift-http-types' `HTTPRequest`/`HTTPResponse`
// (evaluated, 1.8.0): see the commit that added this note.

/// One HTTP request as a client (GitHubClient, CalDAV) sends it: a method, an absolute URL, headers and a body.
public struct HTTPRequest: Hashable, Sendable {
  /// The HTTP method, e.g. `GET`, `PATCH` (GitHub), `PROPFIND`, `REPORT`, `PUT` (CalDAV).
  public var method: String
  /// The absolute URL, query included.
  public var url: URL
  /// The request headers, in the order they are sent.
  public var headers: HTTPHeaders
  /// The body sent with a write (`PATCH`, `POST`), or nil.
  public var body: Data?

  /// Creates a request.
  public init(
    method: String = "GET", url: URL, headers: HTTPHeaders = HTTPHeaders(), body: Data? = nil
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }

  /// Whether sending this request twice has the effect of sending it once (RFC 9110 §9.2.2):
  /// only such a request may be resent after a timeout or a lost connection.
  public var isIdempotent: Bool {
    ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "PROPFIND", "REPORT"].contains(method)
  }
}

/// One HTTP response: status code, headers and the raw body.
public struct HTTPResponse: Hashable, Sendable {
  /// The HTTP status code, e.g. 200.
  public var status: Int
  /// The response headers (look-ups ignore case).
  public var headers: HTTPHeaders
  /// The body bytes, already decompressed.
  public var body: Data

  /// Creates a response.
  public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }
}

/// An ordered list of HTTP header fields whose names are compared case-insensitively.
public struct HTTPHeaders: Hashable, Sendable, ExpressibleByDictionaryLiteral, Sequence {
  /// The fields in order, with names as they were given.
  public private(set) var fields: [(name: String, value: String)]

  /// Creates an empty header list.
  public init() { fields = [] }

  /// Creates a header list from name/value pairs, keeping their order.
  public init(_ fields: [(name: String, value: String)]) { self.fields = fields }

  /// Creates a header list from a literal such as `["ETag": "\"abc\""]`.
  public init(dictionaryLiteral elements: (String, String)...) {
    fields = elements.map { (name: $0.0, value: $0.1) }
  }

  /// The first value of the field called `name` (any case), or nil.
  public subscript(name: String) -> String? {
    let wanted = name.lowercased()
    return fields.first { $0.name.lowercased() == wanted }?.value
  }

  /// Every value of the field called `name` (any case), in order.
  public func values(for name: String) -> [String] {
    let wanted = name.lowercased()
    return fields.filter { $0.name.lowercased() == wanted }.map(\.value)
  }

  /// Appends a field, keeping any existing field with the same name.
  public mutating func add(name: String, value: String) {
    fields.append((name: name, value: value))
  }

  /// Replaces every field called `name` (any case) with one field, or removes them when nil.
  public mutating func set(name: String, value: String?) {
    remove(name: name)
    if let value { fields.append((name: name, value: value)) }
  }

  /// Removes every field called `name` (any case).
  public mutating func remove(name: String) {
    let wanted = name.lowercased()
    fields.removeAll { $0.name.lowercased() == wanted }
  }

  /// Iterates over the fields in order.
  public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
    fields.makeIterator()
  }

  /// Parses a raw HTTP/1.x header block (status lines and `Name: value` lines, CRLF or LF).
  ///
  /// When the block holds several responses (a `100 Continue`, a proxy's `CONNECT` reply), only
  /// the fields of the last one are kept. Folded continuation lines are joined to their field.
  public init(parsingRawBlock text: String) {
    var fields: [(name: String, value: String)] = []
    for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
      let line = String(rawLine)
      if line.hasPrefix("HTTP/") {
        fields = []
      } else if let first = line.first, first == " " || first == "\t", !fields.isEmpty {
        fields[fields.count - 1].value += " " + line.trimmingASCIIWhitespace()
      } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].trimmingASCIIWhitespace()
        let value = line[line.index(after: colon)...].trimmingASCIIWhitespace()
        if !name.isEmpty { fields.append((name: name, value: value)) }
      }
    }
    self.fields = fields
  }

  public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
    lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
  }

  public func hash(into hasher: inout Hasher) {
    for field in fields {
      hasher.combine(field.name)
      hasher.combine(field.value)
    }
  }
}

extension StringProtocol {
  /// Without leading and trailing whitespace and line breaks (any Unicode whitespace).
  package func trimmingWhitespace() -> String {
    guard let first = firstIndex(where: { !$0.isWhitespace }),
      let last = lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(self[first...last])
  }

  package func trimmingASCIIWhitespace() -> String {
    var slice = Substring(self)
    while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
    while let last = slice.last, last == " " || last == "\t" || last == "\r" { slice.removeLast() }
    return String(slice)
  }
}

// MARK: - Transport seam

/// Sends one HTTP request and returns the response, without following redirects.
///
/// The clients' only way to reach the network (GitHubClient, CalDAV); tests hand it a stub. Implementations must
/// return 3xx responses as they are (the client follows redirects itself) and throw
/// `HTTPTransportError` for failures where no response arrived.
public protocol HTTPTransport: Sendable {
  /// Performs `request` and returns the server's response, whatever its status.
  func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// Why a transport could not produce a response.
public enum HTTPTransportError: Error, Hashable, Sendable {
  /// No response arrived (DNS, connect, TLS, timeout, reset); worth retrying for an idempotent
  /// request only: a write may have been applied although its answer was lost.
  case network(String)
  /// The HTTP library itself could not be loaded; retrying cannot help.
  case unavailable(String)
  /// The transport cannot send this request (e.g. a method it does not support).
  case unsupported(String)
  /// The response was larger than the transport accepts; it was not read to its end.
  case tooLarge(String)
}

// MARK: - Printing without credentials

extension HTTPHeaders: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
  /// `Name: value` lines, with the `Authorization` value replaced by `[redacted]`.
  public var description: String {
    fields.map { "\($0.name): \(Self.printable($0))" }.joined(separator: "\n")
  }

  /// Same as `description`.
  public var debugDescription: String { description }

  /// A mirror whose `Authorization` value is redacted.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: fields.map { "\($0.name): \(Self.printable($0))" })
  }

  private static func printable(_ field: (name: String, value: String)) -> String {
    field.name.lowercased() == "authorization" ? "[redacted]" : field.value
  }
}
