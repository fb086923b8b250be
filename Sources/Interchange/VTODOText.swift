import Core
import Foundation
import Zone

/// One iCalendar content line (RFC 5545 §3.1), unfolded: its name (upper-cased), its
/// parameters as written (`;VALUE=DATE`, empty when none) and its value as written (still
/// escaped). A line ootd does not change is written back exactly as it was read (then folded).
public struct ContentLine: Hashable, Sendable {
  public var name: String
  public var parameters: String
  public var value: String
  /// The unfolded line as read (or as built).
  public var raw: String

  public init(name: String, parameters: String = "", value: String) {
    self.name = name
    self.parameters = parameters
    self.value = value
    self.raw = name + parameters + ":" + value
  }

  init(raw: String, name: String, parameters: String, value: String) {
    self.raw = raw
    self.name = name
    self.parameters = parameters
    self.value = value
  }

  /// A parameter's value (`VALUE`, `TZID`), upper-cased name, quotes removed; nil when absent.
  public func parameter(_ wanted: String) -> String? {
    for part in Self.splitUnquoted(parameters, on: ";") where !part.isEmpty {
      guard let equals = part.firstIndex(of: "=") else { continue }
      guard part[..<equals].uppercased() == wanted else { continue }
      var value = String(part[part.index(after: equals)...])
      if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
      return value
    }
    return nil
  }

  /// `text` split on `separator` outside double quotes.
  static func splitUnquoted(_ text: String, on separator: Character) -> [Substring] {
    var parts: [Substring] = []
    var start = text.startIndex
    var quoted = false
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if character == "\"" { quoted.toggle() }
      if character == separator && !quoted {
        parts.append(text[start..<index])
        start = text.index(after: index)
      }
      index = text.index(after: index)
    }
    parts.append(text[start...])
    return parts
  }
}

/// iCalendar text as content lines: unfolding and folding, reading (bounded: the text is a
/// server's, so hostile) and TEXT unescaping. Escaping and folding are ``ICalendar``'s.
public enum VTODOText {
  /// The largest calendar object read, in bytes.
  public static let maximumBytes = 1 << 20
  /// The most content lines read from one object.
  public static let maximumLines = 10_000

  /// The unfolded content lines of `text` (CR LF or LF line ends; a line starting with a space
  /// or a tab continues the one before). Throws when the text is over a cap or a line has no
  /// name or no `:`.
  public static func lines(_ text: String) throws(InterchangeError) -> [ContentLine] {
    guard text.utf8.count <= maximumBytes else {
      throw InterchangeError("calendar object", "larger than \(maximumBytes >> 10) KiB")
    }
    var physical: [Substring] = []
    for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
      if let first = line.first, first == " " || first == "\t", !physical.isEmpty {
        physical[physical.count - 1] = Substring(String(physical[physical.count - 1]) + line.dropFirst())
      } else {
        physical.append(line)
      }
      guard physical.count <= maximumLines else {
        throw InterchangeError("calendar object", "more than \(maximumLines) lines")
      }
    }
    var result: [ContentLine] = []
    result.reserveCapacity(physical.count)
    for (number, line) in physical.enumerated() {
      let text = String(line)
      guard let line = parse(text) else {
        throw InterchangeError("line \(number + 1)", "not an iCalendar content line")
      }
      result.append(line)
    }
    return result
  }

  /// One unfolded line: name, then parameters, then `:` and the value (a `:` inside a quoted
  /// parameter value does not end the parameters).
  static func parse(_ text: String) -> ContentLine? {
    var quoted = false
    var nameEnd: String.Index?
    var colon: String.Index?
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if character == "\"" { quoted.toggle() }
      if !quoted {
        if nameEnd == nil && (character == ";" || character == ":") { nameEnd = index }
        if character == ":" { colon = index; break }
      }
      index = text.index(after: index)
    }
    guard let nameEnd, let colon, nameEnd > text.startIndex else { return nil }
    let name = text[..<nameEnd]
    guard name.utf8.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D })
    else { return nil }
    return ContentLine(
      raw: text, name: name.uppercased(), parameters: String(text[nameEnd..<colon]),
      value: String(text[text.index(after: colon)...]))
  }

  /// The lines as text: each folded at 75 octets and ended by CR LF.
  public static func text(_ lines: [ContentLine]) -> String {
    var bytes: [UInt8] = []
    for line in lines { ICalendar.appendFolded(Array(line.raw.utf8), to: &bytes) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// TEXT unescaped (RFC 5545 §3.3.11): `\\`, `\;`, `\,`, `\n` and `\N`; a lone backslash
  /// before another character is kept.
  public static func unescape(_ value: some StringProtocol) -> String {
    guard value.contains("\\") else { return String(value) }
    var result = ""
    var escaping = false
    for character in value {
      if escaping {
        switch character {
        case "n", "N": result.append("\n")
        case "\\", ";", ",": result.append(character)
        default: result.append("\\"); result.append(character)
        }
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        result.append(character)
      }
    }
    if escaping { result.append("\\") }
    return result
  }

  /// The text an `X-OOTD-SUMMARY` or `X-OOTD-DESCRIPTION` line carries exactly
  /// (``ICalendar/exactText(_:)`` reversed), when it agrees with `shown`, the unescaped TEXT
  /// property beside it, up to what TEXT cannot hold (a CR read as LF, a control character
  /// as its symbol); nil when there is no such line, it is malformed, or it disagrees (a third
  /// party edited the TEXT property, and its edit wins).
  public static func exact(_ line: ContentLine?, agreeingWith shown: String) -> String? {
    guard let value = line?.value else { return nil }
    var result = String.UnicodeScalarView()
    var scalars = value.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      guard scalar == "\\" else {
        result.append(scalar)
        continue
      }
      switch scalars.next() {
      case "\\": result.append("\\")
      case ";": result.append(";")
      case ",": result.append(",")
      case "n", "N": result.append("\n")
      case "u":
        var code: UInt32 = 0
        for _ in 0..<4 {
          switch scalars.next() {
          case let digit? where ("0"..."9").contains(digit): code = code << 4 | (digit.value - 0x30)
          case let digit? where ("A"..."F").contains(digit): code = code << 4 | (digit.value - 0x41 + 10)
          default: return nil
          }
        }
        guard let control = Unicode.Scalar(code), ControlCharacters.isControl(control) else { return nil }
        result.append(control)
      default: return nil
      }
    }
    let text = String(result)
    return unescape(ICalendar.escape(text)) == shown ? text : nil
  }

  /// A TEXT list (`CATEGORIES`) split on the commas that are not escaped, each unescaped.
  public static func unescapeList(_ value: String) -> [String] {
    var items: [String] = []
    var current = ""
    var escaping = false
    for character in value {
      if escaping {
        current.append("\\")
        current.append(character)
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else if character == "," {
        items.append(unescape(current))
        current = ""
      } else {
        current.append(character)
      }
    }
    items.append(unescape(current))
    return items
  }

  /// The range of the first VTODO component in `lines`: from its `BEGIN:VTODO` to its
  /// `END:VTODO`, both included; nil when there is none (or it never ends).
  public static func vtodoRange(_ lines: [ContentLine]) -> ClosedRange<Int>? {
    guard let begin = lines.firstIndex(where: { $0.name == "BEGIN" && $0.value.uppercased() == "VTODO" }) else {
      return nil
    }
    var depth = 0
    for index in begin..<lines.count {
      let line = lines[index]
      if line.name == "BEGIN" { depth += 1 }
      if line.name == "END" {
        depth -= 1
        if depth == 0 { return line.value.uppercased() == "VTODO" ? begin...index : nil }
      }
    }
    return nil
  }

  /// The indexes of the VTODO's own properties in `range` (not those of a VALARM or another
  /// component inside it).
  public static func ownProperties(_ lines: [ContentLine], in range: ClosedRange<Int>) -> [Int] {
    var depth = 0
    var indexes: [Int] = []
    for index in range {
      let line = lines[index]
      if line.name == "BEGIN" { depth += 1; continue }
      if line.name == "END" { depth -= 1; continue }
      if depth == 1 { indexes.append(index) }
    }
    return indexes
  }

  /// A DATE (`20261127`) or DATE-TIME (`20261127T093000`, `…Z`) value read: the day it names
  /// for the user, in `timeZone` when it is UTC, as written when it is floating or has a TZID
  /// (the wall clock's date where it was set, which is the day its owner sees). Nil when
  /// unreadable.
  public static func day(_ value: String, timeZone: any ZoneRules) -> Day? {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    let utf8 = Array(trimmed.utf8)
    guard utf8.count >= 8, utf8.prefix(8).allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    func number(_ range: Range<Int>) -> Int { utf8[range].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
    if utf8.count > 8 {
      guard utf8.count >= 15, utf8[8] == UInt8(ascii: "T") else { return nil }
      if utf8.last == UInt8(ascii: "Z") || utf8.last == UInt8(ascii: "z") {
        guard let instant = Timestamp.date(trimmed, .compact) else { return nil }
        return Day(instant, in: timeZone)
      }
    }
    return Day(year: number(0..<4), month: number(4..<6), day: number(6..<8))
  }
}
