/// How a command line names a todo: by its number (`12`), or by a prefix of its uuid (`4fc7`),
/// as git takes a short hash.
///
/// The rule, written once: a word of digits only is always a number (`1234` is todo #1234, never
/// a uuid prefix); otherwise it is a uuid prefix when it has at least ``minimumPrefix`` hex
/// digits, at least one of them a letter a–f, in either case (dashes where the uuid has them
/// are allowed, so a whole uuid pasted works; a word with such a dash is no number, so it needs
/// no letter: `12345678-0000-4000-8000-000000000003` names the todo of that uuid). Anything else
/// names no todo.
public enum TodoReference: Hashable, Sendable, CustomStringConvertible {
  /// The todo's number, as `ootd list` shows it.
  case id(Int64)
  /// The start of the todo's uuid, lowercase, with the uuid's dashes (`4fc7664d-e2`).
  case uuidPrefix(String)

  /// The fewest hex digits a uuid prefix has.
  public static let minimumPrefix = 4

  /// What a word that names no todo is told (after `invalid id 'WORD': `).
  public static let expected =
    "use the number 'ootd list' shows, or 4 or more hex digits of the todo's uuid (one a-f at least)"

  /// The reference `text` spells, or nil when it names no todo (see ``TodoReference``).
  public init?(_ text: String) {
    // Numbers as argument-parser reads an Int64 (`+5` too); digits only that overflow are
    // still a number (a wrong one), never a uuid prefix.
    if let id = Int64(text) {
      self = .id(id)
      return
    }
    var digits: [UInt8] = []
    var hasLetter = false
    var hasDash = false
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(byte)
      case UInt8(ascii: "a")...UInt8(ascii: "f"):
        digits.append(byte)
        hasLetter = true
      case UInt8(ascii: "A")...UInt8(ascii: "F"):
        digits.append(byte + 32)
        hasLetter = true
      case UInt8(ascii: "-"):
        // Only where a uuid has its dashes: after 8, 12, 16 and 20 digits.
        guard [8, 12, 16, 20].contains(digits.count) else { return nil }
        hasDash = true
      default: return nil
      }
    }
    guard hasLetter || hasDash, digits.count >= Self.minimumPrefix, digits.count <= 32 else { return nil }
    var prefix: [UInt8] = []
    for (index, digit) in digits.enumerated() {
      if [8, 12, 16, 20].contains(index) { prefix.append(UInt8(ascii: "-")) }
      prefix.append(digit)
    }
    self = .uuidPrefix(String(decoding: prefix, as: UTF8.self))
  }

  /// Parses `text`, throwing ``CoreError/invalidTodoReference(_:)`` when it names no todo.
  public init(parsing text: String) throws(CoreError) {
    guard let reference = TodoReference(text) else { throw CoreError.invalidTodoReference(text) }
    self = reference
  }

  /// `12`, or the prefix as normalised (`4fc7`).
  public var description: String {
    switch self {
    case .id(let id): String(id)
    case .uuidPrefix(let prefix): prefix
    }
  }

  /// The short form of a uuid that `show` and `list --long` print: its first 8 hex digits, as
  /// git shortens a hash (unique among thousands of todos; any unique prefix of 4 or more
  /// digits is taken back).
  public static func shortUUID(_ uuid: String) -> String { String(uuid.prefix(8)) }
}
