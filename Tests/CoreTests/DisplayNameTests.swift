import Core
import Testing

/// A display name (`ootd remote set --name`) is held to what the server keeps: 1 to 100
/// characters, and a key (`ootd.name_key`: NFKC, lowercase, white space folded) of 1 to 400,
/// so that a name the server refuses is one line before anything is sent.
@Suite("Display names the server keeps")
struct DisplayNameTests {
  struct Example: Sendable, CustomTestStringConvertible {
    let name: String
    let given: String
    /// The key the server derives, or nil where the name is refused before its key matters.
    let key: String?
    /// Whether it is refused.
    let refused: Bool
    var testDescription: String { name }
  }

  /// U+FDFA, one character that NFKC writes out as 18 (`صلى الله عليه وسلم`).
  static let ligature = "\u{FDFA}"

  static let examples: [Example] = [
    Example(name: "a plain name: lowercased", given: "Alice K.", key: "alice k.", refused: false),
    Example(name: "full-width letters: their plain forms", given: "ＡＬＩＣＥ", key: "alice", refused: false),
    Example(name: "runs of white space: one space, ends trimmed", given: " Ana\t \u{3000}B\u{2028}", key: "ana b", refused: false),
    Example(name: "100 characters: kept", given: String(repeating: "a", count: 100), key: String(repeating: "a", count: 100), refused: false),
    Example(name: "101 characters: refused", given: String(repeating: "a", count: 101), key: nil, refused: true),
    Example(name: "blank: refused", given: "  ", key: nil, refused: true),
    Example(
      name: "100 characters as the user sees them, but more as the server counts (combining marks): refused",
      given: String(repeating: "e\u{301}", count: 60), key: nil, refused: true),
    Example(
      name: "22 ligatures: 396 characters once compared, kept", given: String(repeating: ligature, count: 22),
      key: nil, refused: false),
    Example(
      name: "23 ligatures: 414 characters once compared, refused", given: String(repeating: ligature, count: 23),
      key: nil, refused: true),
    Example(name: "nothing but a next-line character: an empty key, refused", given: "\u{85}", key: "", refused: true),
  ]

  @Test("the server's limits, after its own fold", arguments: examples)
  func check(_ example: Example) {
    if let key = example.key { #expect(DisplayName.key(example.given) == key) }
    #expect((DisplayName.problem(example.given) != nil) == example.refused)
  }

  @Test("a ligature's key is the 18 characters NFKC writes, and the refusal says the count")
  func ligatureKey() {
    #expect(DisplayName.key(Self.ligature).unicodeScalars.count == 18)
    #expect(
      DisplayName.problem(String(repeating: Self.ligature, count: 23))
        == "is 414 characters once compared as the server compares names (NFKC writes some characters out in full), more than 400: choose a shorter one"
    )
    #expect(DisplayName.problem("Ana") == nil)
  }
}
