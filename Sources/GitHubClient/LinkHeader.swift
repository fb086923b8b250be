#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A parsed RFC 8288 `Link` header, as GitHub sends for paginated listings.
///
/// Tolerates what real headers contain: commas inside `<…>` URLs, quoted or bare parameter
/// values, extra parameters (`type="text/html"`), several space-separated rels, any spacing and
/// any case in `rel` values. Malformed entries are skipped rather than failing the whole header.
public struct LinkHeader: Hashable, Sendable {
  /// One `<target>; params` entry.
  public struct Link: Hashable, Sendable {
    /// The target exactly as written between `<` and `>`.
    public var target: String
    /// The relation types, lowercased (`rel="next last"` gives two).
    public var relations: [String]
    /// The other parameters, names lowercased, values unquoted.
    public var parameters: [String: String]
  }

  /// Every entry, in header order.
  public var links: [Link]

  /// Parses one or more `Link` header values (pass each field line; they are concatenated).
  public init(_ values: [String]) {
    links = values.flatMap(Self.parse)
  }

  /// Parses one `Link` header value.
  public init(_ value: String) { self.init([value]) }

  /// The target of the first link whose relations include `relation` (any case).
  public func target(for relation: String) -> String? {
    let wanted = relation.lowercased()
    return links.first { $0.relations.contains(wanted) }?.target
  }

  /// The `rel="next"` target as a URL, or nil when there is none (or it is not a URL).
  public var next: URL? { target(for: "next").flatMap { URL(string: $0) } }

  // MARK: - Parsing

  private static func parse(_ value: String) -> [Link] {
    var links: [Link] = []
    var scanner = Scanner(Array(value.unicodeScalars))
    while true {
      scanner.skip { $0 == " " || $0 == "\t" || $0 == "," }
      guard !scanner.isAtEnd else { break }
      guard scanner.peek == "<" else {
        scanner.skip { $0 != "," }  // garbage: resynchronise at the next entry
        continue
      }
      scanner.advance()
      let target = scanner.take { $0 != ">" }
      guard scanner.peek == ">" else { break }  // unterminated URL: nothing usable remains
      scanner.advance()
      var relations: [String] = []
      var parameters: [String: String] = [:]
      while true {
        scanner.skip { $0 == " " || $0 == "\t" }
        guard scanner.peek == ";" else { break }
        scanner.advance()
        scanner.skip { $0 == " " || $0 == "\t" }
        let name = scanner.take { $0 != "=" && $0 != ";" && $0 != "," && $0 != " " && $0 != "\t" }
          .lowercased()
        scanner.skip { $0 == " " || $0 == "\t" }
        var parameterValue = ""
        if scanner.peek == "=" {
          scanner.advance()
          scanner.skip { $0 == " " || $0 == "\t" }
          parameterValue =
            scanner.peek == "\""
            ? scanner.takeQuoted()
            : scanner.take {
              $0 != ";" && $0 != "," && $0 != " " && $0 != "\t"
            }
        }
        guard !name.isEmpty else { continue }
        if name == "rel" {
          if relations.isEmpty {  // RFC 8288: only the first rel parameter counts
            relations = parameterValue.lowercased().split(whereSeparator: \.isWhitespace).map(
              String.init)
          }
        } else if parameters[name] == nil {
          parameters[name] = parameterValue
        }
      }
      // Skip anything up to the entry separator.
      scanner.skip { $0 != "," }
      links.append(Link(target: target, relations: relations, parameters: parameters))
    }
    return links
  }

  private struct Scanner {
    let scalars: [Unicode.Scalar]
    var index = 0
    init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }
    var isAtEnd: Bool { index >= scalars.count }
    var peek: Unicode.Scalar? { isAtEnd ? nil : scalars[index] }
    mutating func advance() { index += 1 }
    mutating func skip(while predicate: (Unicode.Scalar) -> Bool) {
      while let scalar = peek, predicate(scalar) { index += 1 }
    }
    mutating func take(while predicate: (Unicode.Scalar) -> Bool) -> String {
      var text = String.UnicodeScalarView()
      while let scalar = peek, predicate(scalar) {
        text.append(scalar)
        index += 1
      }
      return String(text)
    }
    /// Reads a quoted-string starting at `"`, handling backslash escapes.
    mutating func takeQuoted() -> String {
      advance()
      var text = String.UnicodeScalarView()
      while let scalar = peek {
        index += 1
        if scalar == "\"" { break }
        if scalar == "\\", let escaped = peek {
          text.append(escaped)
          index += 1
        } else {
          text.append(scalar)
        }
      }
      return String(text)
    }
  }
}
