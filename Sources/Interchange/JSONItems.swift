import Formats

/// Cuts a JSON import (a Taskwarrior export) into its items as its bytes arrive, a chunk at a
/// time, holding only the item being read: the elements of an array that opens the input, or
/// each top-level value (JSON Lines). Each item is handed on whole, as bytes, to be parsed by
/// ``JSONReader``; the syntax between items (commas, the closing `]`, nothing after it) is
/// checked here. The per-record caps of ``InputBounds`` are checked byte by byte: an item past
/// ``InputBounds/maximumItem``, a string past ``InputBounds/maximumField`` or nesting past
/// ``InputBounds/maximumDepth`` stops the reading at that byte. Pure: bytes in, items out.
public struct JSONItems {
  /// One item: its bytes (valid only during the call that hands it on) and where it is.
  public struct Item {
    /// The 1-based index of an element of the opening array, or nil for a top-level value.
    public let element: Int?
    /// The 1-based index of a top-level value (JSON Lines), or nil for an element.
    public let value: Int?
    /// The line and column (1-based, in bytes) of its first byte.
    public let line: Int
    public let column: Int
    /// The item's bytes, exactly one JSON value.
    public let bytes: UnsafeBufferPointer<UInt8>
  }

  /// Where the reading is between items.
  private enum Place { case start, arrayOpened, afterComma, afterElement, afterArray, lines }
  /// What kind of value the item being read is.
  private enum Kind { case container, string, scalar }

  private let maximumItem: Int
  private let maximumField: Int
  private let maximumDepth: Int
  private var place = Place.start
  /// Whether the input opened with `[` (an array is one document: its syntax errors are the
  /// input's, not a line's).
  public private(set) var isDocument = false
  private var arrayLine = 1
  // The item being read.
  private var kind: Kind?
  private var depth = 0
  /// The open brackets of the item, innermost in the lowest bit: 1 for `{`, 0 for `[`.
  private var openers: UInt64 = 0
  private var inString = false
  private var escaped = false
  private var itemLength = 0
  private var fieldLength = 0
  private var itemLine = 0
  private var itemColumn = 0
  private var elements = 0
  private var values = 0
  /// The bytes of an item that began in an earlier chunk.
  private var pending: [UInt8] = []
  // Where the reading is: the offset of the chunk's first byte, the line and its first offset.
  private var offset = 0
  private var line = 1
  private var lineStart = 0
  private var afterCR = false
  /// Bytes of a byte order mark matched at the start.
  private var markBytes = 0

  /// A cutter with the caps of ``InputBounds`` (lowered only by tests).
  public init(
    maximumItem: Int = InputBounds.maximumItem, maximumField: Int = InputBounds.maximumField,
    maximumDepth: Int = InputBounds.maximumDepth
  ) {
    self.maximumItem = maximumItem
    self.maximumField = maximumField
    self.maximumDepth = maximumDepth
  }

  private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

  /// A byte that ends a number or a literal.
  private static func endsScalar(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "["),
      UInt8(ascii: "{"), UInt8(ascii: "\""), UInt8(ascii: ":"):
      true
    default: false
    }
  }

  /// A byte that can start a JSON value.
  private static func startsValue(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
      true
    default: false
    }
  }

  /// Reads the next bytes of the input, handing each item that ends in them to `body`.
  public mutating func read(_ chunk: UnsafeBufferPointer<UInt8>, _ body: (Item) throws -> Void) throws {
    var index = 0
    /// Where the item being read starts in this chunk (0 when it began in an earlier one).
    var start = 0
    let count = chunk.count
    defer { offset += count }
    while index < count {
      if inString, !escaped {
        // The bytes of a string up to its next quote or backslash, at once (no line end can be
        // among them in valid JSON; the parser refuses one).
        var next = index
        while next < count, chunk[next] != UInt8(ascii: "\""), chunk[next] != UInt8(ascii: "\\") { next += 1 }
        let run = next - index
        if run > 0 {
          itemLength += run
          fieldLength += run
          if itemLength > maximumItem { throw tooLarge() }
          if fieldLength > maximumField { throw fieldTooLarge() }
          afterCR = false
          index = next
          continue
        }
      }
      let byte = chunk[index]
      if kind != nil {
        itemLength += 1
        if itemLength > maximumItem { throw tooLarge() }
        if inString {
          if escaped {
            escaped = false
          } else if byte == UInt8(ascii: "\\") {
            escaped = true
          } else if byte == UInt8(ascii: "\"") {
            inString = false
            if kind == .string {
              try end(chunk, from: start, through: index, body)
              countLine(byte, at: index)
              index += 1
              continue
            }
          }
          if inString {
            fieldLength += 1
            if fieldLength > maximumField { throw fieldTooLarge() }
          }
        } else if kind == .container {
          switch byte {
          case UInt8(ascii: "\""):
            inString = true
            fieldLength = 0
          case UInt8(ascii: "{"), UInt8(ascii: "["):
            depth += 1
            if depth > maximumDepth {
              throw InterchangeError(location, "nested more than \(maximumDepth) levels deep, the most an import reads")
            }
            openers = openers << 1 | (byte == UInt8(ascii: "{") ? 1 : 0)
          case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
            // A bracket that closes another kind ends the item here: the parser says where.
            let matches = (openers & 1 == 1) == (byte == UInt8(ascii: "}"))
            openers >>= 1
            if depth == 0 || !matches {
              try end(chunk, from: start, through: index, body)
              countLine(byte, at: index)
              index += 1
              continue
            }
          default: break
          }
        } else if Self.endsScalar(byte) {
          // A number or a literal ends before this byte, which is read again between items.
          itemLength -= 1
          try end(chunk, from: start, through: index - 1, body)
          continue
        }
      } else if !Self.isSpace(byte) {
        if try between(byte, at: index) { start = index }
      }
      countLine(byte, at: index)
      index += 1
    }
    if kind != nil, start < count {
      pending.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<count]))
    }
  }

  /// The end of the input: an unfinished item or array is an error; a number or a literal at the
  /// very end is handed on.
  public mutating func finish(_ body: (Item) throws -> Void) throws {
    if kind == .scalar {
      let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
      try end(empty, from: 0, through: -1, body)
      return
    }
    if kind != nil {
      // The parser finds the first error in what was read of the item (the end, when none).
      try pending.withUnsafeBufferPointer { bytes in
        let item = Item(
          element: isDocument ? elements : nil, value: isDocument ? nil : values, line: itemLine, column: itemColumn,
          bytes: bytes)
        do {
          _ = try JSONReader.document(bytes)
        } catch let error as JSONSyntaxError {
          throw Self.syntaxError(error, in: item)
        }
      }
      throw syntax("unexpected end of input")
    }
    if markBytes > 0 && markBytes < 3 && place == .start { throw syntax("unexpected end of input") }
    switch place {
    case .arrayOpened, .afterComma, .afterElement: throw syntax("unexpected end of input")
    case .start, .afterArray, .lines: break
    }
  }

  /// A byte between items (not white space): a separator, or the first byte of an item (then
  /// true).
  private mutating func between(_ byte: UInt8, at index: Int) throws -> Bool {
    switch place {
    case .start:
      // A byte order mark only at the very start.
      let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
      let at = offset + index
      if at < 3, at == markBytes, byte == mark[at] {
        markBytes += 1
        return false
      }
      if markBytes > 0, markBytes < 3 { throw syntax("unexpected byte 0xef", column: 1) }
      if byte == UInt8(ascii: "[") {
        place = .arrayOpened
        isDocument = true
        arrayLine = line
        return false
      }
      place = .lines
      return try begin(byte, at: index)
    case .arrayOpened:
      if byte == UInt8(ascii: "]") {
        place = .afterArray
        return false
      }
      return try begin(byte, at: index)
    case .afterComma:
      return try begin(byte, at: index)
    case .afterElement:
      if byte == UInt8(ascii: ",") {
        place = .afterComma
      } else if byte == UInt8(ascii: "]") {
        place = .afterArray
      } else {
        throw syntax("expected ',' or ']'", at: index)
      }
      return false
    case .afterArray:
      if Self.startsValue(byte) {
        throw InterchangeError("line \(arrayLine)", "expected one JSON object per line, or a single array")
      }
      throw syntax(Self.unexpected(byte), at: index)
    case .lines:
      return try begin(byte, at: index)
    }
  }

  /// Starts an item at `byte`, or throws when no value starts with it.
  private mutating func begin(_ byte: UInt8, at index: Int) throws -> Bool {
    guard Self.startsValue(byte) || !Self.endsScalar(byte) else { throw syntax(Self.unexpected(byte), at: index) }
    switch byte {
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      kind = .container
      depth = 1
      openers = byte == UInt8(ascii: "{") ? 1 : 0
    case UInt8(ascii: "\""):
      kind = .string
      inString = true
      fieldLength = 0
    default:
      kind = .scalar
    }
    itemLength = 1
    itemLine = line
    itemColumn = offset + index - lineStart + 1
    if isDocument { elements += 1 } else { values += 1 }
    return true
  }

  /// Hands on the item that ends at `last` (inclusive) of `chunk`.
  private mutating func end(
    _ chunk: UnsafeBufferPointer<UInt8>, from start: Int, through last: Int, _ body: (Item) throws -> Void
  ) throws {
    let element = isDocument ? elements : nil
    let value = isDocument ? nil : values
    let (line, column) = (itemLine, itemColumn)
    kind = nil
    inString = false
    escaped = false
    depth = 0
    if place == .arrayOpened || place == .afterComma { place = .afterElement }
    if pending.isEmpty {
      let bytes = UnsafeBufferPointer(rebasing: chunk[start..<(last + 1)])
      try body(Item(element: element, value: value, line: line, column: column, bytes: bytes))
    } else {
      if last >= start { pending.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<(last + 1)])) }
      defer { pending.removeAll(keepingCapacity: pending.capacity <= 1 << 16) }
      try pending.withUnsafeBufferPointer { bytes in
        try body(Item(element: element, value: value, line: line, column: column, bytes: bytes))
      }
    }
  }

  private mutating func countLine(_ byte: UInt8, at index: Int) {
    if byte == 0x0A {
      if !afterCR { line += 1 }
      afterCR = false
      lineStart = offset + index + 1
    } else if byte == 0x0D {
      line += 1
      afterCR = true
      lineStart = offset + index + 1
    } else {
      afterCR = false
    }
  }

  /// The place of the item being read: `object N` in an array, `line N` in JSON Lines.
  private var location: String { isDocument ? "object \(elements)" : "line \(itemLine)" }

  private func tooLarge() -> InterchangeError {
    InterchangeError(location, "larger than \(InputBounds.size(maximumItem)), the most an import reads in one object")
  }

  private func fieldTooLarge() -> InterchangeError {
    InterchangeError(location, "a string longer than \(InputBounds.size(maximumField)), the most an import reads in one field")
  }

  private static func unexpected(_ byte: UInt8) -> String {
    byte >= 0x21 && byte < 0x7F ? "unexpected '\(Character(Unicode.Scalar(byte)))'" : "unexpected byte 0x\(String(byte, radix: 16))"
  }

  /// A syntax error at byte `index` of the chunk being read (at the end of the input when nil).
  private func syntax(_ problem: String, at index: Int? = nil, column: Int? = nil) -> InterchangeError {
    // The end of the input: the offset after the last chunk.
    let at = index.map { offset + $0 } ?? offset
    return invalid(problem, line: line, column: column ?? (at - lineStart + 1))
  }

  /// `error`, found in `item` by ``JSONReader`` (its line and column within the item), as the
  /// error of the input.
  public static func syntaxError(_ error: JSONSyntaxError, in item: Item) -> InterchangeError {
    let line = item.line + error.line - 1
    let column = error.line == 1 ? item.column + error.column - 1 : error.column
    return invalid(error.problem, line: line, column: column, document: item.element != nil)
  }

  private func invalid(_ problem: String, line: Int, column: Int) -> InterchangeError {
    Self.invalid(problem, line: line, column: column, document: isDocument)
  }

  /// A syntax error as one line: the input's for an array, the line's in JSON Lines.
  private static func invalid(_ problem: String, line: Int, column: Int, document: Bool) -> InterchangeError {
    InterchangeError(document ? "input" : "line \(line)", "invalid JSON (\(problem) at line \(line), column \(column))")
  }
}
