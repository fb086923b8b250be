/// Tags: short words that group todos across projects (`+bug`, `--tag bug`).
///
/// A tag is 1–40 letters (any script), digits, `-`, `_` or `.`, starting with a letter, and is
/// kept lowercased: `+Bug` and `--tag bug` are the same tag. In an `add` title, a word `+name`
/// that is a valid tag becomes a tag and leaves the title, as Taskwarrior and todo.txt users
/// expect; `+3`, `+3d`, `C++` or a lone `+` are not tags and stay in the title.
public enum Tag {
  /// The longest tag accepted, in characters.
  public static let maximumLength = Caps.tagCharacters

  /// The tag `text` names (lowercased, a leading `+` allowed), or ``CoreError/invalidTag(_:)``.
  public static func validate(_ text: String) throws(CoreError) -> String {
    let name = text.hasPrefix("+") ? String(text.dropFirst()) : text
    guard let tag = parse(name) else { throw .invalidTag(text) }
    return tag
  }

  /// The lowercased tag, or nil when `name` (without `+`) is not one.
  static func parse(_ name: String) -> String? {
    // ASCII (most tags): the same rule on bytes, without Unicode properties or grapheme counts.
    if name.utf8.allSatisfy({ $0 < 0x80 }) {
      func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
      let bytes = name.utf8
      guard let first = bytes.first, isLetter(first), bytes.count <= maximumLength,
        bytes.allSatisfy({ isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E })
      else { return nil }
      // Already lowercase (most tags): the name itself, not a copy.
      guard bytes.contains(where: { (0x41...0x5A).contains($0) }) else { return name }
      return String(decoding: bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
    guard let first = name.unicodeScalars.first, first.properties.isAlphabetic,
      (1...maximumLength).contains(name.count),
      name.unicodeScalars.allSatisfy({
        $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)
      })
    else { return nil }
    return name.lowercased()
  }

  /// Whether the tags stored as `tags` (sorted, space-separated, as ``normalized(_:)`` keeps
  /// them) hold `wanted` (a tag as ``validate(_:)`` gives it), case taken out as search takes it
  /// (``TodoFilter/caseless(_:)``): `--tag σοφος` finds `+ΣΟΦΟΣ` (stored `σοφοσ`), `--tag izmir`
  /// finds `+İzmir`, `--tag strasse` finds `+Straße`. Tags stay stored lowercased, as typed.
  public static func tags(_ tags: String, contain wanted: String) -> Bool {
    let key = TodoFilter.caseless(wanted)
    return tags.split(separator: " ").contains { TodoFilter.caseless(String($0)) == key }
  }

  /// Splits an `add` title into its words and its `+tag` words. A title without tag words comes
  /// back exactly as given; otherwise the tag words leave it and the other words are joined by
  /// single spaces. Tags come back sorted and without repeats.
  public static func split(title: String) -> (title: String, tags: [String]) {
    let words = title.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
    var kept: [Substring] = []
    var tags: [String] = []
    for word in words {
      if word.hasPrefix("+"), let tag = parse(String(word.dropFirst())) {
        tags.append(tag)
      } else {
        kept.append(word)
      }
    }
    guard !tags.isEmpty else { return (title, []) }
    return (kept.joined(separator: " "), normalized(tags))
  }

  /// Tags sorted, without repeats.
  public static func normalized(_ tags: some Sequence<String>) -> [String] {
    let tags = Array(tags)
    // Already sorted without repeats (a todo's own tags, normalized before): kept, not rebuilt.
    if zip(tags, tags.dropFirst()).allSatisfy({ $0 < $1 }) { return tags }
    return Array(Set(tags)).sorted()
  }

  /// The stored form: tags sorted and separated by single spaces; nil when there are none.
  public static func text(_ tags: [String]) -> String? {
    tags.isEmpty ? nil : normalized(tags).joined(separator: " ")
  }

  /// The tags of the stored form (nil or empty: none).
  public static func tags(_ text: String?) -> [String] {
    guard let text else { return [] }
    return text.split(separator: " ").map(String.init)
  }
}
