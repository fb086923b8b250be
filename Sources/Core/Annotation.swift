import Formats
import Foundation

/// A dated remark on a todo, as Taskwarrior keeps them (`task 12 annotate …`): each has its own
/// time, is shown by `ootd show` and goes back to Taskwarrior as an annotation.
public struct Annotation: Hashable, Sendable {
  /// When it was written.
  public var entry: Date
  /// What it says.
  public var text: String

  /// Creates an annotation (NUL replaced, see ``StoredText``).
  public init(entry: Date, text: String) {
    self.entry = entry
    self.text = StoredText.replacingNUL(text)
  }

  /// `annotations` as the journal and the `annotations` column hold them: a JSON array of
  /// `{"entry","text"}` (the time as SQLite text, UTC, milliseconds), in their order; nil when
  /// there are none.
  public static func text(_ annotations: [Annotation]) -> String? {
    guard !annotations.isEmpty else { return nil }
    var bytes: [UInt8] = [UInt8(ascii: "[")]
    for (index, annotation) in annotations.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes.append(contentsOf: #"{"entry":"#.utf8)
      JSONText.appendQuoted(Timestamp.string(annotation.entry, .sqlite), to: &bytes)
      bytes.append(contentsOf: #","text":"#.utf8)
      JSONText.appendQuoted(annotation.text, to: &bytes)
      bytes.append(UInt8(ascii: "}"))
    }
    bytes.append(UInt8(ascii: "]"))
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The annotations of a column ``text(_:)`` wrote; none for nil or text of another shape
  /// (an element without a readable time or text is left out).
  public static func annotations(_ text: String?) -> [Annotation] {
    guard let text, case .array(let values)? = try? JSONReader.document(text.utf8) else { return [] }
    return values.compactMap { value in
      guard let object = value.object, let entry = object["entry"]?.string.flatMap({ Timestamp.date($0, .sqlite) }),
        let text = object["text"]?.string
      else { return nil }
      return Annotation(entry: entry, text: text)
    }
  }
}

/// What another tracker holds that no field of ootd does: Taskwarrior's user-defined attributes
/// and unknown fields, todo.txt's `key:value`s. Kept as they came (text by key), written back by
/// export, never turned into prose in the notes.
public enum Attributes {
  /// The longest key, in characters.
  public static let keyCharacters = Caps.nameCharacters

  /// Whether `key` can name an attribute: 1–40 ASCII letters, digits, `_`, `-` or `.`, starting
  /// with a letter (what Taskwarrior's UDA names and todo.txt's keys have in common).
  public static func isKey(_ key: Substring) -> Bool {
    guard let first = key.utf8.first, key.utf8.count <= keyCharacters,
      (65...90).contains(first) || (97...122).contains(first)
    else { return false }
    return key.utf8.allSatisfy { byte in
      (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }
  }

  /// Whether `value` can be written as the value of a `key:value` word: not empty, without
  /// white space, control characters or a colon (todo.txt's rule for keys and values), and not
  /// starting with `//` (`https://example.com` is a link in a title, not a key and a value).
  public static func isWord(_ value: Substring) -> Bool {
    !value.isEmpty && !value.hasPrefix("//")
      && value.unicodeScalars.allSatisfy {
        !$0.properties.isWhitespace && !ControlCharacters.isControl($0) && $0 != ":"
      }
  }

  /// Adds `key` with `value` unless a key that differs from it only in case is there (keys are
  /// unique regardless of case, as JSON writers sort them so); returns whether it was added.
  public static func add(_ key: String, _ value: String, to attributes: inout [String: String]) -> Bool {
    let lowered = key.lowercased()
    guard !attributes.keys.contains(where: { $0.lowercased() == lowered }) else { return false }
    attributes[key] = value
    return true
  }

  /// `attributes` as the journal and the `attributes` column hold them: a JSON object sorted
  /// by key; nil when there are none.
  public static func text(_ attributes: [String: String]) -> String? {
    guard !attributes.isEmpty else { return nil }
    return JSONText.object(attributes.mapValues { FieldValue.text($0) })
  }

  /// The attributes of a column ``text(_:)`` wrote; none for nil or text of another shape.
  public static func attributes(_ text: String?) -> [String: String] {
    guard let text, let object = (try? JSONReader.document(text.utf8))?.object else { return [:] }
    var attributes: [String: String] = [:]
    for (key, value) in object.members { if let value = value.string { _ = add(key, value, to: &attributes) } }
    return attributes
  }
}

/// Which attributes a format can carry: those it can spell, and whose keys are not its own
/// fields. An import replaces these and keeps the others (a todo.txt line cannot hold a value
/// with a space, so a trip through todo.txt must not lose it); an export writes these.
public struct AttributeCarrier: Hashable, Sendable {
  /// Keys the format uses for its own fields (`due`, `ootd`… in todo.txt; `uuid`, `status`…
  /// in Taskwarrior).
  public var reserved: Set<String>
  /// Whether values must be one word (``Attributes/isWord(_:)``): todo.txt.
  public var wordsOnly: Bool

  /// A carrier.
  public init(reserved: Set<String>, wordsOnly: Bool) {
    self.reserved = reserved
    self.wordsOnly = wordsOnly
  }

  /// Whether the format carries the attribute `key` with `value`.
  public func carries(_ key: String, _ value: String) -> Bool {
    !reserved.contains(key) && (!wordsOnly || (Attributes.isKey(Substring(key)) && Attributes.isWord(Substring(value))))
  }

  /// The attributes a todo has after an import that read `imported` in this format: the stored
  /// ones the format cannot carry, then the imported ones.
  public func merged(stored: [String: String], imported: [String: String]) -> [String: String] {
    var merged = imported
    for (key, value) in stored where !carries(key, value) { _ = Attributes.add(key, value, to: &merged) }
    return merged
  }
}
