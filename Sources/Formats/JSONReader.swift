/// A JSON value as ootd reads it (imports, the journal's fields, sync payloads). Numbers keep the text they were written with (a
/// user-defined attribute `"estimate": 3` goes to the notes as `3`, not `3.0`); an object keeps
/// its members in file order.
public enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  case number(String)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  /// The text, when this is a string.
  public var string: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The strings, when this is an array of strings only.
  public var strings: [String]? {
    guard case .array(let values) = self else { return nil }
    var strings: [String] = []
    for value in values {
      guard let text = value.string else { return nil }
      strings.append(text)
    }
    return strings
  }

  /// Whether this is an array.
  public var isArray: Bool {
    if case .array = self { return true }
    return false
  }

  /// The object, when this is one.
  public var object: JSONObject? {
    if case .object(let object) = self { return object }
    return nil
  }

  /// Compact JSON text with object keys sorted (the notes' form of a value that is not a
  /// string): `["a","b"]`, `{"k":1}`.
  public var compactText: String {
    var text = ""
    write(to: &text)
    return text
  }

  private func write(to text: inout String) {
    switch self {
    case .null: text += "null"
    case .bool(let value): text += value ? "true" : "false"
    case .number(let number): text += number
    case .string(let string): JSONValue.quote(string, into: &text)
    case .array(let values):
      text += "["
      for (index, value) in values.enumerated() {
        if index > 0 { text += "," }
        value.write(to: &text)
      }
      text += "]"
    case .object(let object):
      text += "{"
      for (index, member) in object.uniqueMembersSortedByKey.enumerated() {
        if index > 0 { text += "," }
        JSONValue.quote(member.key, into: &text)
        text += ":"
        member.value.write(to: &text)
      }
      text += "}"
    }
  }

  private static func quote(_ string: String, into text: inout String) {
    text += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }
}

/// A JSON object's members in file order. A key written twice means its last value, as in
/// most JSON readers.
public struct JSONObject: Hashable, Sendable {
  public var members: [(key: String, value: JSONValue)]
  /// Where the object's text lies in the input it was read from (``sourceRange``), packed as
  /// two 32-bit offsets (0 when unknown): no bigger a ``JSONValue`` for it.
  private var span: UInt64 = 0

  /// An object with these members, in this order.
  public init(members: [(key: String, value: JSONValue)]) { self.members = members }

  /// An object read from `start..<end` of the input.
  init(members: [(key: String, value: JSONValue)], start: Int, end: Int) {
    self.members = members
    if end <= Int(UInt32.max) { span = UInt64(start) << 32 | UInt64(end) }
  }

  /// The bytes of the input ``JSONReader`` read this object from, `{` to `}`, as offsets in
  /// that input (a caller may then take the object's own text, as a sync payload's fields are
  /// taken for the journal, issue 24); nil for an object made otherwise, or past 4 GiB of input.
  /// Not part of the object's value (``==`` compares the members alone).
  public var sourceRange: Range<Int>? {
    span == 0 ? nil : Int(span >> 32)..<Int(span & 0xFFFF_FFFF)
  }

  /// The value of `key` (its last occurrence), or nil when absent.
  public subscript(key: String) -> JSONValue? {
    for member in members.reversed() where member.key == key { return member.value }
    return nil
  }

  /// Each key once (with its last value), sorted.
  public var uniqueMembersSortedByKey: [(key: String, value: JSONValue)] {
    var seen: Set<String> = []
    var unique: [(key: String, value: JSONValue)] = []
    for member in members.reversed() where seen.insert(member.key).inserted { unique.append(member) }
    return unique.sorted { $0.key < $1.key }
  }

  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    lhs.members.count == rhs.members.count
      && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
  }

  public func hash(into hasher: inout Hasher) {
    for member in members {
      hasher.combine(member.key)
      hasher.combine(member.value)
    }
  }
}

/// A JSON syntax error: what was wrong, and where (1-based line and column, in bytes).
public struct JSONSyntaxError: Error, Equatable {
  public let problem: String
  public let line: Int
  public let column: Int

  public var description: String { "\(problem) at line \(line), column \(column)" }
}

/// Reads JSON (RFC 8259) from UTF-8 bytes: one pass, no Foundation. A document is read as a
/// sequence of top-level values separated by white space, which covers a JSON array, one
/// object, and one object per line (JSON Lines) alike; each value comes with the line it
/// starts on. Nesting is limited (``maximumDepth``), so hostile input cannot exhaust the stack.
public struct JSONReader {
  static let maximumDepth = 512

  private let bytes: UnsafeBufferPointer<UInt8>
  private var position = 0
  private var depth = 0
  /// Whether a string may hold a raw control character other than NUL and the line ends (LF,
  /// CR), as Taskwarrior writes ESC, BEL or VT (it escapes only `\n`, `\r`, `\t`, `\b`, `\f`):
  /// off by default, where RFC 8259 refuses every raw U+0000–U+001F
  /// (``value(_:at:rawControlsInStrings:)``).
  private var rawControlsInStrings = false
  /// Line counting for ``values(_:)``: the line of `lineCountedTo`.
  private var line = 1
  private var lineCountedTo = 0

  private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// Every top-level value of `data`, with the 1-based line each starts on.
  public static func values(_ data: some Collection<UInt8>) throws(JSONSyntaxError) -> [(line: Int, value: JSONValue)] {
    try read(data) { reader throws(JSONSyntaxError) in try reader.readAll() }
  }

  /// The one value of a JSON text as RFC 8259 defines it: white space (and a byte order mark)
  /// around exactly one value. Empty input, or anything after the value, is an error.
  public static func document(_ data: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
    try read(data) { reader throws(JSONSyntaxError) in try reader.readOne() }
  }

  /// `body` run on a reader of `data`'s bytes (copied only when they are not contiguous).
  private static func read<T>(
    _ data: some Collection<UInt8>, _ body: (inout JSONReader) throws(JSONSyntaxError) -> T
  ) throws(JSONSyntaxError) -> T {
    let result: Result<T, JSONSyntaxError>? = data.withContiguousStorageIfAvailable { buffer in
      var reader = JSONReader(buffer)
      return Result { () throws(JSONSyntaxError) in try body(&reader) }
    }
    if let result { return try result.get() }
    let copy = Array(data)
    return try copy.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
      var reader = JSONReader(buffer)
      return try body(&reader)
    }
  }

  /// One item of an input read by ``forEachItem(_:_:)``.
  public struct Item {
    /// The 1-based index of an element of a top-level array, or nil for a top-level value.
    public let element: Int?
    /// The line the value starts on (for an element, the line its array starts on).
    public let line: Int
    /// The value.
    public let value: JSONValue
    /// Where the value starts in the input (for ``value(_:at:)``).
    public let offset: Int
  }

  /// Reads `bytes` one item at a time, holding only that item: the elements of an array that
  /// opens the input, then every top-level value after it (all of them, when the input does not
  /// open with an array). A syntax error anywhere is thrown when the reading gets there.
  public static func forEachItem(
    _ bytes: UnsafeBufferPointer<UInt8>, _ body: (Item) throws -> Void
  ) throws {
    var reader = JSONReader(bytes)
    try reader.skipByteOrderMark()
    if reader.position < bytes.count, bytes[reader.position] == UInt8(ascii: "[") {
      let line = reader.lineOf(reader.position)
      var container = try reader.openArray()
      var index = 0
      while true {
        reader.skipSpace()
        let offset = reader.position
        guard let value = try reader.element(&container) else { break }
        index += 1
        try body(Item(element: index, line: line, value: value, offset: offset))
      }
      reader.skipSpace()
    }
    while reader.position < bytes.count {
      let offset = reader.position
      let line = reader.lineOf(offset)
      try body(Item(element: nil, line: line, value: try reader.value(), offset: offset))
      reader.skipSpace()
    }
  }

  /// The value that starts at `offset` of `bytes` (an ``Item/offset``).
  public static func value(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws(JSONSyntaxError) -> JSONValue {
    var reader = JSONReader(bytes)
    reader.position = offset
    return try reader.value()
  }

  /// ``value(_:at:)``, its strings allowed to hold raw control characters (U+0001–U+001F but
  /// LF and CR, which end lines) when `rawControlsInStrings`: for input that is not strict JSON
  /// (a Taskwarrior export, whose `task` writes ESC or BEL in a description as it is). The rest
  /// is as strict as ever.
  public static func value(
    _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, rawControlsInStrings: Bool
  ) throws(JSONSyntaxError) -> JSONValue {
    var reader = JSONReader(bytes)
    reader.position = offset
    reader.rawControlsInStrings = rawControlsInStrings
    return try reader.value()
  }

  /// Skips white space and a byte order mark that opens the input.
  private mutating func skipByteOrderMark() throws(JSONSyntaxError) {
    skipSpace()
    if position + 3 <= bytes.count, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF, position == 0 {
      position = 3
      skipSpace()
    }
  }

  private mutating func readAll() throws(JSONSyntaxError) -> [(line: Int, value: JSONValue)] {
    var values: [(line: Int, value: JSONValue)] = []
    try skipByteOrderMark()
    while position < bytes.count {
      let start = lineOf(position)
      values.append((start, try value()))
      skipSpace()
    }
    return values
  }

  private mutating func readOne() throws(JSONSyntaxError) -> JSONValue {
    try beginDocument()
    let value = try value()
    try endDocument()
    return value
  }

  /// The line of `offset`, counting forward from the last offset asked about (offsets only grow).
  private mutating func lineOf(_ offset: Int) -> Int {
    var index = lineCountedTo
    while index < offset {
      let byte = bytes[index]
      if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
        line += 1
      }
      index += 1
    }
    lineCountedTo = offset
    return line
  }

  private func error(_ problem: String, at offset: Int? = nil) -> JSONSyntaxError {
    let offset = min(offset ?? position, bytes.count)
    var line = 1
    var lineStart = 0
    var index = 0
    while index < offset {
      let byte = bytes[index]
      if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
        line += 1
        lineStart = index + 1
      }
      index += 1
    }
    return JSONSyntaxError(problem: problem, line: line, column: offset - lineStart + 1)
  }

  /// JSON's white space: space, tab, line feed, carriage return.
  public static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

  private mutating func skipSpace() {
    while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
  }

  private func unexpected() -> JSONSyntaxError {
    guard position < bytes.count else { return error("unexpected end of input") }
    let byte = bytes[position]
    if byte >= 0x21 && byte < 0x7F {
      return error("unexpected '\(Character(Unicode.Scalar(byte)))'")
    }
    return error("unexpected byte 0x\(String(byte, radix: 16))")
  }

  private mutating func value() throws(JSONSyntaxError) -> JSONValue {
    guard position < bytes.count else { throw unexpected() }
    switch bytes[position] {
    case UInt8(ascii: "{"): return .object(try object())
    case UInt8(ascii: "["): return .array(try array())
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): try literal("true"); return .bool(true)
    case UInt8(ascii: "f"): try literal("false"); return .bool(false)
    case UInt8(ascii: "n"): try literal("null"); return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
    default: throw unexpected()
    }
  }

  private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
    let count = word.utf8CodeUnitCount
    guard position + count <= bytes.count else { throw error("unexpected end of input") }
    for index in 0..<count where bytes[position + index] != word.utf8Start[index] {
      throw error("unexpected '\(Character(Unicode.Scalar(bytes[position])))'")
    }
    position += count
  }

  private mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    if depth > Self.maximumDepth { throw error("nested more than \(Self.maximumDepth) levels deep") }
  }

  private mutating func object() throws(JSONSyntaxError) -> JSONObject {
    var container = try openObject()
    var members: [(key: String, value: JSONValue)] = []
    while let key = try nextMember(&container) { members.append((key, try value())) }
    return JSONObject(members: members, start: container.start, end: position)
  }

  /// Reads `closer` (`}` or `]`) when it comes next, leaving the object or array: whether it did.
  private mutating func leave(_ closer: UInt8) -> Bool {
    guard position < bytes.count, bytes[position] == closer else { return false }
    position += 1
    depth -= 1
    return true
  }

  /// After a member or an element: a `,` (more follow: false) or the container's `closer` (it
  /// ends, and is left: true).
  private mutating func endsAfterItem(_ closer: UInt8) throws(JSONSyntaxError) -> Bool {
    skipSpace()
    guard position < bytes.count else { throw unexpected() }
    if bytes[position] == UInt8(ascii: ",") {
      position += 1
      return false
    }
    if leave(closer) { return true }
    throw error("expected ',' or '\(Character(Unicode.Scalar(closer)))'")
  }

  private mutating func array() throws(JSONSyntaxError) -> [JSONValue] {
    var container = try openArray()
    var values: [JSONValue] = []
    while let value = try element(&container) { values.append(value) }
    return values
  }

  /// The next element of the array being read (``openArray()``), or nil once its `]` is read,
  /// the `,` or `]` after it read too: one element at a time, for ``array()`` and
  /// ``forEachItem(_:_:)``.
  private mutating func element(_ container: inout Container) throws(JSONSyntaxError) -> JSONValue? {
    guard try nextElement(&container) else { return nil }
    let element = try value()
    container.state = try endsAfterItem(UInt8(ascii: "]")) ? .closed : .separated
    return element
  }

  // MARK: - Piece by piece

  /// A reader of `bytes` read piece by piece, without a tree of the values (a sync payload's
  /// operations, read straight into what they are: issue 24): ``beginDocument()``, then the
  /// value at the cursor (``next``) read by ``openObject()`` and ``nextMember(_:)``,
  /// ``openArray()`` and ``nextElement(_:)``, or ``readValue()``, then ``endDocument()``. The
  /// same rules as ``document(_:)`` (which is read by the same steps): what one refuses, so does
  /// the other. `bytes` must outlive the reader.
  public init(reading bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// An object or array being read: where its text starts (its `{` or `[`) and where its
  /// reading is.
  public struct Container {
    /// The offset of its `{` or `[`.
    public let start: Int
    fileprivate var state: State

    fileprivate enum State {
      /// Just after its `{` or `[`.
      case opened
      /// After a member or element (a `,` or the closer comes next).
      case inside
      /// After a `,` (a member or element comes next).
      case separated
      /// Past its closer.
      case closed
    }
  }

  /// The byte at the cursor (the first of the value to read next), or nil at the end.
  public var next: UInt8? { position < bytes.count ? bytes[position] : nil }

  /// The cursor's offset in the input: after a value is read, the offset just past its text.
  public var offset: Int { position }

  /// Opens the input: a byte order mark and white space skipped, a value must follow.
  public mutating func beginDocument() throws(JSONSyntaxError) {
    try skipByteOrderMark()
    guard position < bytes.count else { throw error("no JSON value") }
  }

  /// Closes the input: nothing but white space may follow the value read.
  public mutating func endDocument() throws(JSONSyntaxError) {
    skipSpace()
    guard position == bytes.count else { throw error("more text after the JSON value") }
  }

  /// The value at the cursor, whole.
  public mutating func readValue() throws(JSONSyntaxError) -> JSONValue { try value() }

  /// Opens the object at the cursor (``next`` is `{`); its members follow by ``nextMember(_:)``.
  public mutating func openObject() throws(JSONSyntaxError) -> Container {
    guard next == UInt8(ascii: "{") else { throw unexpected() }
    try enter()
    position += 1
    return Container(start: position - 1, state: .opened)
  }

  /// Opens the array at the cursor (``next`` is `[`); its elements follow by ``nextElement(_:)``.
  public mutating func openArray() throws(JSONSyntaxError) -> Container {
    guard next == UInt8(ascii: "[") else { throw unexpected() }
    try enter()
    position += 1
    return Container(start: position - 1, state: .opened)
  }

  /// The key of the object's next member, the cursor then on its value (which the caller reads
  /// before asking for the next member), or nil once the object's `}` is read. A key written as
  /// `expected` is (its bytes as they are, no escape) is given as `expected` itself, not made
  /// again (the same names in every creation of a sync payload, issue 24).
  public mutating func nextMember(
    _ container: inout Container, expecting expected: String? = nil
  ) throws(JSONSyntaxError) -> String? {
    switch container.state {
    case .closed: return nil
    case .opened:
      skipSpace()
      if leave(UInt8(ascii: "}")) {
        container.state = .closed
        return nil
      }
    case .inside:
      if try endsAfterItem(UInt8(ascii: "}")) {
        container.state = .closed
        return nil
      }
    case .separated: break
    }
    container.state = .inside
    skipSpace()
    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
      if position < bytes.count { throw error("expected a quoted key") }
      throw unexpected()
    }
    let key: String
    if let expected, let plain = plainString(expected) {
      key = plain
    } else {
      key = try string()
    }
    skipSpace()
    guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
      if position < bytes.count { throw error("expected ':' after the key '\(key)'") }
      throw unexpected()
    }
    position += 1
    skipSpace()
    return key
  }

  /// `text` when the string literal at the cursor (on its opening quote) is its bytes as they
  /// are, the cursor then past its closing quote; else nil, the cursor where it was. Only a text
  /// with no quote, backslash or control character can be written so (valid UTF-8, as a
  /// `String`'s bytes are).
  private mutating func plainString(_ text: String) -> String? {
    var text = text
    let end = text.withUTF8 { expected -> Int? in
      let start = position + 1
      guard start + expected.count < bytes.count, bytes[start + expected.count] == UInt8(ascii: "\"") else {
        return nil
      }
      for index in expected.indices {
        let byte = expected[index]
        guard byte == bytes[start + index], byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\")
        else { return nil }
      }
      return start + expected.count + 1
    }
    guard let end else { return nil }
    position = end
    return text
  }

  /// Whether the array has a next element, the cursor then on it (which the caller reads before
  /// asking again); false once the array's `]` is read.
  public mutating func nextElement(_ container: inout Container) throws(JSONSyntaxError) -> Bool {
    switch container.state {
    case .closed: return false
    case .opened:
      skipSpace()
      if leave(UInt8(ascii: "]")) {
        container.state = .closed
        return false
      }
    case .inside:
      if try endsAfterItem(UInt8(ascii: "]")) {
        container.state = .closed
        return false
      }
      skipSpace()
    case .separated: skipSpace()
    }
    container.state = .inside
    return true
  }

  /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, as written.
  private mutating func number() throws(JSONSyntaxError) -> String {
    let start = position
    func digits(_ reader: inout JSONReader) -> Int {
      let first = reader.position
      while reader.position < reader.bytes.count, (48...57).contains(reader.bytes[reader.position]) {
        reader.position += 1
      }
      return reader.position - first
    }
    if bytes[position] == UInt8(ascii: "-") { position += 1 }
    let integerStart = position
    let integerDigits = digits(&self)
    guard integerDigits > 0 else { throw error("invalid number", at: start) }
    if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
      throw error("invalid number (leading zero)", at: start)
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      guard digits(&self) > 0 else { throw error("invalid number", at: start) }
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
      position += 1
      if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
        position += 1
      }
      guard digits(&self) > 0 else { throw error("invalid number", at: start) }
    }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
  }

  /// A string literal (the cursor on its opening quote): escapes decoded, a lone surrogate
  /// replaced by U+FFFD, control characters and invalid UTF-8 refused.
  private mutating func string() throws(JSONSyntaxError) -> String {
    position += 1
    let start = position
    // The common case: no escape, so the bytes are the text.
    var high: UInt8 = 0
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
        position += 1
        // ASCII only (keys, uuids, most titles) is valid UTF-8 as it is: made into a String
        // without `String(validating:as:)`, whose generic validation looked up two types'
        // metadata for every string (a third of reading a first pull's payloads, issue 24).
        if high < 0x80 { return String(decoding: slice, as: UTF8.self) }
        return try validated(slice, at: start)
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
      high |= byte
      position += 1
    }
    var decoded: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
    while position < bytes.count {
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "\""):
        position += 1
        return try decoded.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
          try validated(buffer, at: start)
        }
      case UInt8(ascii: "\\"):
        position += 1
        guard position < bytes.count else { throw error("unexpected end of input") }
        let escape = bytes[position]
        position += 1
        switch escape {
        case UInt8(ascii: "\""): decoded.append(0x22)
        case UInt8(ascii: "\\"): decoded.append(0x5C)
        case UInt8(ascii: "/"): decoded.append(0x2F)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = try hex4()
          if (0xD800...0xDBFF).contains(scalar) {
            // A high surrogate: a low one must follow to make one scalar.
            if position + 6 <= bytes.count, bytes[position] == UInt8(ascii: "\\"),
              bytes[position + 1] == UInt8(ascii: "u")
            {
              let saved = position
              position += 2
              let low = try hex4()
              if (0xDC00...0xDFFF).contains(low) {
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
              } else {
                position = saved
                scalar = 0xFFFD
              }
            } else {
              scalar = 0xFFFD
            }
          } else if (0xDC00...0xDFFF).contains(scalar) {
            scalar = 0xFFFD
          }
          decoded.append(contentsOf: String(Unicode.Scalar(scalar)!).utf8)
        default:
          throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))'", at: position - 2)
        }
      default:
        if byte < 0x20, !(rawControlsInStrings && byte != 0 && byte != 0x0A && byte != 0x0D) {
          throw error("a control character inside a string (escape it)")
        }
        decoded.append(byte)
        position += 1
      }
    }
    throw error("unexpected end of input")
  }

  private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    guard position + 4 <= bytes.count else { throw error("unexpected end of input") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[position]
      let digit: UInt8
      switch byte {
      case 48...57: digit = byte - 48
      case 65...70: digit = byte - 55
      case 97...102: digit = byte - 87
      default: throw error("invalid \\u escape")
      }
      value = value * 16 + UInt32(digit)
      position += 1
    }
    return value
  }

  private func validated(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) throws(JSONSyntaxError) -> String {
    // `String(decoding:as:)` puts U+FFFD where the bytes are not UTF-8 and nowhere else: the text
    // holds exactly these bytes when, and only when, they are valid. (`String(validating:as:)`,
    // generic and unspecialised, cost ~1,600 instructions a string: a seventh of an import.)
    var text = String(decoding: bytes, as: UTF8.self)
    guard text.withUTF8({ $0.elementsEqual(bytes) }) else {
      throw error("invalid UTF-8 in a string", at: start)
    }
    return text
  }
}
