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
