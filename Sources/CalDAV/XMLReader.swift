#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A small, bounded XML reader for what WebDAV servers answer (RFC 4918 multistatus). Written by
/// hand rather than with FoundationXML, which would link libxml2 into every start of `ootd`.
///
/// What it reads: elements, attributes, namespaces (resolved to URIs: `D:href` and
/// `ns0:href` are the same `{DAV:}href`), text, CDATA, comments, processing instructions, the
/// five predefined entities and numeric character references. What it refuses: a DOCTYPE (so no
/// entity is ever declared, external or not), any other entity, undeclared prefixes, mismatched
/// tags, invalid UTF-8, and input past its caps (bytes, depth, elements).
public struct XMLReader: Sendable {
  /// The longest document read, in bytes.
  public var maxBytes: Int
  /// The deepest nesting of elements.
  public var maxDepth: Int
  /// The most elements in one document.
  public var maxElements: Int

  public init(maxBytes: Int = 32 << 20, maxDepth: Int = 64, maxElements: Int = 2_000_000) {
    self.maxBytes = maxBytes
    self.maxDepth = maxDepth
    self.maxElements = maxElements
  }

  /// Parses `data` into its root element, or throws `XMLError`.
  public func parse(_ data: Data) throws(XMLError) -> XMLElement {
    guard data.count <= maxBytes else { throw XMLError("the document is larger than \(maxBytes) bytes", at: 0) }
    var parser = Parser(bytes: [UInt8](data), limits: self)
    return try parser.document()
  }

  public func parse(_ text: String) throws(XMLError) -> XMLElement { try parse(Data(text.utf8)) }
}

/// One element: its namespace URI and local name, its attributes (by local name; `xmlns`
/// declarations are not attributes), its children and its text (CDATA included, entities
/// decoded, the text between child elements joined).
public struct XMLElement: Hashable, Sendable {
  public var namespace: String
  public var name: String
  public var attributes: [String: String]
  public var children: [XMLElement]
  public var text: String

  public init(namespace: String, name: String, attributes: [String: String] = [:], children: [XMLElement] = [], text: String = "") {
    self.namespace = namespace
    self.name = name
    self.attributes = attributes
    self.children = children
    self.text = text
  }

  /// True when this element is `{namespace}name`.
  public func `is`(_ namespace: String, _ name: String) -> Bool {
    self.namespace == namespace && self.name == name
  }

  /// The first child `{namespace}name`, or nil.
  public func child(_ namespace: String, _ name: String) -> XMLElement? {
    children.first { $0.is(namespace, name) }
  }

  /// Every child `{namespace}name`, in order.
  public func children(_ namespace: String, _ name: String) -> [XMLElement] {
    children.filter { $0.is(namespace, name) }
  }

  /// The text without surrounding whitespace.
  public var trimmedText: String {
    var scalars = Substring(text)
    while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
    while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
    return String(scalars)
  }
}

/// Why a document was refused: a short reason and the byte offset where it was found.
public struct XMLError: Error, Hashable, Sendable, CustomStringConvertible {
  public let reason: String
  public let offset: Int
  init(_ reason: String, at offset: Int) {
    self.reason = reason
    self.offset = offset
  }
  public var description: String { "invalid XML at byte \(offset): \(reason)" }
}

private struct Parser {
  let bytes: [UInt8]
  let limits: XMLReader
  var position = 0
  var elements = 0

  init(bytes: [UInt8], limits: XMLReader) {
    self.bytes = bytes
    self.limits = limits
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
  }

  func fail(_ reason: String) -> XMLError { XMLError(reason, at: position) }

  func peek(_ literal: String) -> Bool {
    let utf8 = Array(literal.utf8)
    return position + utf8.count <= bytes.count && bytes[position..<position + utf8.count].elementsEqual(utf8)
  }

  mutating func expect(_ literal: String) throws(XMLError) {
    guard peek(literal) else { throw fail("expected \(literal)") }
    position += literal.utf8.count
  }

  static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

  mutating func skipSpace() {
    while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
  }

  /// Skips to just past `terminator`, or fails.
  mutating func skip(past terminator: String, what: String) throws(XMLError) {
    let end = Array(terminator.utf8)
    while position + end.count <= bytes.count {
      if bytes[position..<position + end.count].elementsEqual(end) {
        position += end.count
        return
      }
      position += 1
    }
    throw fail("unterminated \(what)")
  }

  /// Comments, processing instructions and whitespace outside the root; a DOCTYPE is refused.
  mutating func misc() throws(XMLError) {
    while true {
      skipSpace()
      if peek("<?") {
        try skip(past: "?>", what: "processing instruction")
      } else if peek("<!--") {
        try skip(past: "-->", what: "comment")
      } else if peek("<!") {
        throw fail("a DOCTYPE or other declaration is not accepted")
      } else {
        return
      }
    }
  }

  mutating func document() throws(XMLError) -> XMLElement {
    try misc()
    guard peek("<") else { throw fail("no root element") }
    let root = try element(scopes: [["xml": "http://www.w3.org/XML/1998/namespace"]], depth: 1)
    try misc()
    guard position == bytes.count else { throw fail("content after the root element") }
    return root
  }

  static func isNameByte(_ byte: UInt8) -> Bool {
    !(isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "=")
      || byte == UInt8(ascii: "<") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
      || byte == UInt8(ascii: "&"))
  }

  mutating func name() throws(XMLError) -> String {
    let start = position
    while position < bytes.count, Self.isNameByte(bytes[position]) { position += 1 }
    guard position > start, let text = String(validating: bytes[start..<position], as: UTF8.self) else {
      throw fail("expected a name")
    }
    return text
  }

  static func split(_ qualified: String) -> (prefix: String?, local: String) {
    guard let colon = qualified.firstIndex(of: ":") else { return (nil, qualified) }
    return (String(qualified[..<colon]), String(qualified[qualified.index(after: colon)...]))
  }

  mutating func element(scopes: [[String: String]], depth: Int) throws(XMLError) -> XMLElement {
    guard depth <= limits.maxDepth else { throw fail("elements nested deeper than \(limits.maxDepth)") }
    elements += 1
    guard elements <= limits.maxElements else { throw fail("more than \(limits.maxElements) elements") }
    try expect("<")
    let qualified = try name()
    var raw: [(String, String)] = []
    var declared: [String: String] = [:]
    var selfClosing = false
    while true {
      let before = position
      skipSpace()
      if peek("/>") {
        position += 2
        selfClosing = true
        break
      }
      if peek(">") {
        position += 1
        break
      }
      guard position > before else { throw fail("expected whitespace before an attribute") }
      let attribute = try name()
      skipSpace()
      try expect("=")
      skipSpace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
        throw fail("expected a quoted attribute value")
      }
      let quote = bytes[position]
      position += 1
      let value = try characterData(until: quote, inAttribute: true)
      position += 1
      if attribute == "xmlns" {
        declared[""] = value
      } else if attribute.hasPrefix("xmlns:") {
        let prefix = String(attribute.dropFirst(6))
        guard !value.isEmpty else { throw fail("the prefix \(prefix) is bound to an empty namespace") }
        declared[prefix] = value
      } else {
        raw.append((attribute, value))
      }
    }
    let scopes = declared.isEmpty ? scopes : scopes + [declared]
    func resolve(_ prefix: String?) -> String? {
      for scope in scopes.reversed() {
        if let uri = scope[prefix ?? ""] { return uri }
      }
      return prefix == nil ? "" : nil
    }
    let (prefix, local) = Self.split(qualified)
    guard let namespace = resolve(prefix) else { throw fail("undeclared namespace prefix \(prefix ?? "")") }
    var attributes: [String: String] = [:]
    for (attribute, value) in raw {
      let (attributePrefix, attributeLocal) = Self.split(attribute)
      if let attributePrefix, resolve(attributePrefix) == nil {
        throw fail("undeclared namespace prefix \(attributePrefix)")
      }
      attributes[attributeLocal] = value
    }
    var result = XMLElement(namespace: namespace, name: local, attributes: attributes)
    if selfClosing { return result }
    var text = ""
    while true {
      guard position < bytes.count else { throw fail("unterminated element \(qualified)") }
      if peek("</") {
        position += 2
        let closing = try name()
        guard closing == qualified else { throw fail("</\(closing)> closes <\(qualified)>") }
        skipSpace()
        try expect(">")
        result.text = text
        return result
      } else if peek("<![CDATA[") {
        position += 9
        let start = position
        try skip(past: "]]>", what: "CDATA section")
        guard let chunk = String(validating: bytes[start..<position - 3], as: UTF8.self) else {
          throw fail("invalid UTF-8")
        }
        text += chunk
      } else if peek("<!--") {
        try skip(past: "-->", what: "comment")
      } else if peek("<?") {
        try skip(past: "?>", what: "processing instruction")
      } else if peek("<!") {
        throw fail("a DOCTYPE or other declaration is not accepted")
      } else if peek("<") {
        result.children.append(try element(scopes: scopes, depth: depth + 1))
      } else {
        text += try characterData(until: UInt8(ascii: "<"), inAttribute: false)
      }
    }
  }

  /// Text up to (not including) `terminator`, with references decoded.
  mutating func characterData(until terminator: UInt8, inAttribute: Bool) throws(XMLError) -> String {
    var out: [UInt8] = []
    while true {
      guard position < bytes.count else {
        if inAttribute { throw fail("unterminated attribute value") }
        break
      }
      let byte = bytes[position]
      if byte == terminator { break }
      if inAttribute && byte == UInt8(ascii: "<") { throw fail("< in an attribute value") }
      if byte == UInt8(ascii: "&") {
        let start = position
        guard let semicolon = bytes[position...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
          throw fail("an unterminated reference")
        }
        let reference = String(decoding: bytes[start + 1..<semicolon], as: UTF8.self)
        position = semicolon + 1
        switch reference {
        case "lt": out.append(UInt8(ascii: "<"))
        case "gt": out.append(UInt8(ascii: ">"))
        case "amp": out.append(UInt8(ascii: "&"))
        case "quot": out.append(UInt8(ascii: "\""))
        case "apos": out.append(UInt8(ascii: "'"))
        default:
          var value: UInt32?
          if reference.hasPrefix("#x") || reference.hasPrefix("#X") {
            let digits = reference.dropFirst(2)
            value = digits.isEmpty || !digits.allSatisfy(\.isHexDigit) ? nil : UInt32(digits, radix: 16)
          } else if reference.hasPrefix("#") {
            let digits = reference.dropFirst()
            value = digits.isEmpty || !digits.allSatisfy({ $0.isASCII && $0.isNumber }) ? nil : UInt32(digits)
          } else {
            position = start
            throw fail("the entity &\(reference); is not accepted (only the five predefined ones)")
          }
          guard let value, value != 0, let scalar = Unicode.Scalar(value) else {
            position = start
            throw fail("an invalid character reference &\(reference);")
          }
          out.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
      } else {
        out.append(byte)
        position += 1
      }
    }
    guard let text = String(validating: out, as: UTF8.self) else { throw fail("invalid UTF-8") }
    return text
  }
}
