import Formats

/// The journal's field values as JSON text (``JSONText`` writes the string literals): the
/// encoding of a journal entry's fields and of a sync payload's operations.
extension JSONText {
  /// `fields` as an object sorted by name: `{"done":1,"title":"x"}`.
  public static func object(_ fields: Fields) -> String {
    // Built as bytes: an import encodes thousands of rows, and small String appends are slow.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(256)
    appendObject(fields, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// ``object(_:)``, appended to `bytes`.
  public static func appendObject(_ fields: Fields, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "{"))
    for (index, (name, value)) in fields.sorted(by: { $0.key < $1.key }).enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      appendQuoted(name, to: &bytes)
      bytes.append(UInt8(ascii: ":"))
      append(value, to: &bytes)
    }
    bytes.append(UInt8(ascii: "}"))
  }

  /// A field's value as JSON: null, an integer or a string.
  public static func append(_ value: FieldValue, to bytes: inout [UInt8]) {
    switch value {
    case .null:
      bytes.append(UInt8(ascii: "n"))
      bytes.append(UInt8(ascii: "u"))
      bytes.append(UInt8(ascii: "l"))
      bytes.append(UInt8(ascii: "l"))
    case .integer(let integer): appendInteger(integer, to: &bytes)
    case .text(let string): appendQuoted(string, to: &bytes)
    }
  }

  /// `integer` in decimal as `String(_:)` writes it (a `-` when negative, no leading zero),
  /// appended to `bytes` without a `String` on the way (a first push writes 140,000 of them
  /// for 20,000 todos, issue 24).
  public static func appendInteger(_ integer: Int64, to bytes: inout [UInt8]) {
    // A digit (most of a todo's: its flags and priority) as it is.
    if (0...9).contains(integer) {
      bytes.append(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: integer))
      return
    }
    // The digits written from the last, into 20 bytes (Int64.min has 19 and its sign).
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
      var magnitude = integer.magnitude
      var start = buffer.count
      repeat {
        start -= 1
        buffer[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      if integer < 0 {
        start -= 1
        buffer[start] = UInt8(ascii: "-")
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
    }
  }

  /// ``object(_:)`` of fields given as `names`, sorted, with their `values` in the same order
  /// (the names are plain ASCII, as every field's): the text of many rows of the same fields,
  /// without sorting each row's dictionary again.
  public static func object(sortedNames names: [String], values: [FieldValue]) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(256)
    appendObject(sortedNames: names, to: &bytes) { values[$0] }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// ``object(sortedNames:values:)`` appended to `bytes`, the value of the field named
  /// `names[index]` asked of `value` in that order: a row's fields written straight from its
  /// columns (a first push's todos, issue 24), no dictionary or array of them made.
  @inline(__always)
  public static func appendObject(
    sortedNames names: [String], to bytes: inout [UInt8], value: (Int) throws -> FieldValue
  ) rethrows {
    bytes.append(UInt8(ascii: "{"))
    for index in names.indices {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes.append(UInt8(ascii: "\""))
      // (Through its contiguous bytes: `append(contentsOf: name.utf8)` cost 160 instructions.)
      var name = names[index]
      name.withUTF8 { bytes.append(contentsOf: $0) }
      bytes.append(UInt8(ascii: "\""))
      bytes.append(UInt8(ascii: ":"))
      append(try value(index), to: &bytes)
    }
    bytes.append(UInt8(ascii: "}"))
  }

  /// Whether `bytes`, the text of an object ``JSONReader`` read (so its strings are valid
  /// UTF-8) whose members ``fields(_:)`` takes, are exactly what ``object(_:)`` writes for
  /// those fields: no white space, names in increasing order (each once, ASCII), integers as
  /// `String(_:)` writes them, strings without escapes. Such text can be kept as it is where
  /// ``object(_:)`` would write it again (a pulled todo's journal row, issue 24); any other
  /// (an older writer's, a hostile one's) is written again. One pass over the bytes.
  public static func isObjectText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = bytes.count
    guard count >= 2, bytes[0] == UInt8(ascii: "{"), bytes[count - 1] == UInt8(ascii: "}") else { return false }
    if count == 2 { return true }
    var index = 1
    // The body of a string literal from `index` (on its opening quote) when it has no escape:
    // its range, `index` then past its closing quote.
    func plainString(ascii: Bool) -> Range<Int>? {
      guard index < count, bytes[index] == UInt8(ascii: "\"") else { return nil }
      let start = index + 1
      var end = start
      while end < count {
        let byte = bytes[end]
        if byte == UInt8(ascii: "\"") {
          index = end + 1
          return start..<end
        }
        if byte == UInt8(ascii: "\\") || byte < 0x20 || (ascii && byte >= 0x80) { return nil }
        end += 1
      }
      return nil
    }
    var previous: Range<Int>?
    while true {
      guard let name = plainString(ascii: true), index < count, bytes[index] == UInt8(ascii: ":") else { return false }
      if let previous {
        // Strictly after the previous name, byte by byte (String's order, for ASCII).
        let before = UnsafeBufferPointer(rebasing: bytes[previous])
        let this = UnsafeBufferPointer(rebasing: bytes[name])
        guard before.lexicographicallyPrecedes(this) else { return false }
      }
      previous = name
      index += 1
      guard index < count else { return false }
      switch bytes[index] {
      case UInt8(ascii: "\""):
        guard plainString(ascii: false) != nil else { return false }
      case UInt8(ascii: "n"):
        guard index + 4 <= count, bytes[index + 1] == UInt8(ascii: "u"), bytes[index + 2] == UInt8(ascii: "l"),
          bytes[index + 3] == UInt8(ascii: "l")
        else { return false }
        index += 4
      default:
        // `-?(0|[1-9][0-9]*)`, not `-0`, at most 18 digits (so within Int64 as written).
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let start = index
        while index < count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        let digits = index - start
        guard digits >= 1, digits <= 18 else { return false }
        if bytes[start] == UInt8(ascii: "0"), digits > 1 || negative { return false }
      }
      guard index < count else { return false }
      if bytes[index] == UInt8(ascii: "}") { return index == count - 1 }
      guard bytes[index] == UInt8(ascii: ",") else { return false }
      index += 1
    }
  }

  /// The fields of an object ``object(_:)`` wrote, or nil when it is not one (a member that is
  /// not null, an integer or a string: booleans and reals never appear in ootd's fields, so
  /// they are refused rather than guessed at).
  ///
  /// Read with Formats' reader rather than `JSONDecoder`, which costs more than it should here
  /// and reads `1.0` and `1e3` as integers (docs/decisions/json-reader.md has the figures).
  public static func fields(_ text: String) -> Fields? {
    guard let object = (try? JSONReader.document(text.utf8))?.object else { return nil }
    return fields(object)
  }

  /// The fields of a parsed object, or nil when a member is not a field value.
  public static func fields(_ object: JSONObject) -> Fields? {
    var fields = Fields(minimumCapacity: object.members.count)
    for (name, value) in object.members {
      guard let value = fieldValue(value) else { return nil }
      fields[name] = value
    }
    return fields
  }

  /// A parsed value as a field value: null, an integer (written without fraction or exponent)
  /// or a string; nil for anything else.
  public static func fieldValue(_ value: JSONValue) -> FieldValue? {
    switch value {
    case .null: return .null
    case .string(let text): return .text(text)
    case .number(let text): return Int64(text).map(FieldValue.integer)
    default: return nil
    }
  }

  /// One value: `null`, an integer or a string.
  public static func value(_ value: FieldValue) -> String {
    switch value {
    case .null: return "null"
    case .integer(let integer): return String(integer)
    case .text(let string): return quoted(string)
    }
  }
}
