import Foundation
import CLibPQShim

/// A libpq connection string (`postgres://alice@db.example.com/ootd` or
/// `host=db.example.com user=alice dbname=ootd`), checked by libpq's own parser.
public struct ConnectionURI: Sendable, Equatable, CustomStringConvertible {
  /// The text as given.
  public let text: String
  /// The options it sets, by libpq keyword (only those with a value).
  public let options: [String: String]

  /// Parses `text` with `PQconninfoParse` (loading libpq). Throws ``RemoteError/badURI(_:)``
  /// when libpq refuses it, or ``RemoteError/libraryUnavailable(_:)``.
  public init(_ text: String) throws(RemoteError) {
    guard !text.isEmpty else { throw .badURI("it is empty") }
    var error = [CChar](repeating: 0, count: 512)
    guard let parsed = ootd_pq_conninfo_parse(text, &error, error.count) else {
      let reason = Redaction.string(error)
      if ootd_pq_is_loaded() == 0 { throw .libraryUnavailable(reason) }
      throw .badURI(Redaction.oneLine(reason, secrets: []))
    }
    defer { ootd_pq_options_free(parsed) }
    var options: [String: String] = [:]
    var index: Int32 = 0
    while let keyword = ootd_pq_option_keyword(parsed, index) {
      if let value = ootd_pq_option_value(parsed, index) {
        options[String(cString: keyword)] = String(cString: value)
      }
      index += 1
    }
    self.text = text
    self.options = options
  }

  /// The options that hold secrets: the login password and the client key's passphrase.
  static let secretOptions = ["password", "sslpassword"]

  /// Whether the string itself holds a password (`postgres://u:secret@h`, `password=secret`,
  /// `sslpassword=secret`).
  public var hasPassword: Bool { Self.secretOptions.contains { !(options[$0] ?? "").isEmpty } }

  /// The secrets the string holds, to scrub from messages.
  var secrets: [String] { Self.secretOptions.compactMap { options[$0] }.filter { !$0.isEmpty } }

  /// The user the string names, if any (else libpq uses PGUSER or the login name).
  public var user: String? { options["user"] }

  /// The text without its password, to show.
  public var description: String { Redaction.uri(text, password: options["password"]) }
}

/// Removes passwords from text before it is shown.
enum Redaction {
  /// The NUL-terminated text in a C buffer.
  static func string(_ buffer: [CChar]) -> String {
    buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  }

  /// `uri` with its password (URI user info, `password=` parameter or conninfo keyword) replaced
  /// by `***`.
  static func uri(_ uri: String, password: String?) -> String {
    var text = uri
    // postgres://user:secret@host → postgres://user:***@host
    if let scheme = text.range(of: "://") {
      let rest = text[scheme.upperBound...]
      let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
      if let at = rest[..<authorityEnd].lastIndex(of: "@"),
        let colon = rest[..<at].firstIndex(of: ":")
      {
        text.replaceSubrange(text.index(after: colon)..<at, with: "***")
      }
    }
    // password=secret in a query string or a conninfo string (quoted or not).
    var result = ""
    var remaining = Substring(text)
    while let match = remaining.range(of: "password=") {
      let before = remaining[..<match.lowerBound]
      let isKeyword = before.last.map { $0 == "?" || $0 == "&" || $0 == " " || $0 == "\t" } ?? true
      result += remaining[..<match.upperBound]
      remaining = remaining[match.upperBound...]
      guard isKeyword else { continue }
      var end = remaining.startIndex
      if remaining.first == "'" {
        end = remaining.index(after: end)
        while end < remaining.endIndex && remaining[end] != "'" {
          if remaining[end] == "\\" { end = remaining.index(after: end) }
          if end < remaining.endIndex { end = remaining.index(after: end) }
        }
        if end < remaining.endIndex { end = remaining.index(after: end) }
      } else {
        while end < remaining.endIndex && !" \t&".contains(remaining[end]) {
          end = remaining.index(after: end)
        }
      }
      result += "***"
      remaining = remaining[end...]
    }
    result += remaining
    return scrub(result, secrets: [password].compactMap { $0 })
  }

  /// `text` with every occurrence of a secret replaced by `***`.
  static func scrub(_ text: String, secrets: [String]) -> String {
    var text = text
    for secret in secrets where !secret.isEmpty {
      text = text.replacingAll(secret, with: "***")
    }
    return text
  }

  /// A failed statement's message as one line without libpq's severity prefix: libpq writes
  /// `ERROR:  text` (two spaces), which would otherwise reach the user as `…:  text`.
  static func statementMessage(_ message: String, secrets: [String]) -> String {
    var line = Substring(oneLine(message, secrets: secrets))
    for prefix in ["ERROR:", "FATAL:"] where line.hasPrefix(prefix) {
      line = line.dropFirst(prefix.count).trimmingCharacters(in: " \t")
    }
    return String(line)
  }

  /// libpq's multi-line message as one line, scrubbed of `secrets`.
  static func oneLine(_ message: String, secrets: [String]) -> String {
    let line = message.split(whereSeparator: \.isNewline)
      .map { $0.trimmingCharacters(in: " \t") }
      .filter { !$0.isEmpty }
      .joined(separator: "; ")
    return scrub(line, secrets: secrets)
  }
}

extension String {
  fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
    guard !target.isEmpty else { return self }
    var result = ""
    var rest = Substring(self)
    while let range = rest.range(of: target) {
      result += rest[..<range.lowerBound]
      result += replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: String) -> Substring {
    var slice = self
    while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
    while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
    return slice
  }
}
