import Core
import Testing

/// ``TodoFilter/fold(_:)``, the search key stored beside each title: wherever the rule
/// (``TodoFilter/title(_:contains:)``) matches, the needle's fold is in the title's fold, so the
/// stored fold never hides a match; for ASCII folds, the converse holds too.
@Suite struct SearchFoldTests {
  static func foldContains(_ title: String, _ needle: String) -> Bool {
    let title = Array(TodoFilter.fold(title).utf8), needle = Array(TodoFilter.fold(needle).utf8)
    guard !needle.isEmpty else { return true }
    guard needle.count <= title.count else { return false }
    return (0...(title.count - needle.count)).contains { Array(title[$0..<($0 + needle.count)]) == needle }
  }

  @Test(
    "every match of the rule is a match of the folds",
    arguments: [
      ("Enable WAL mode", "wal"), ("Σίσυφος", "ΣΊΣ"), ("ΣΊΣΥΦΟΣ", "σίσυφος"), ("Привет мир", "ПРИВЕТ"),
      ("Ärger mit ÖL", "äRGER"), ("A\u{308}rger", "ärger"), ("알고리즘 공부", "알고"),
      ("알고리즘", "\u{110B}\u{1161}\u{11AF}"), ("\u{110B}\u{1161}\u{11AF}\u{1100}\u{1169}", "알고"),
      ("Ship it 🚀 today", "🚀"), ("👍🏽 review", "👍🏽"), ("café", "CAFÉ"), ("cafe\u{301}", "café"),
      ("İstanbul", "i̇stanbul"), ("ǅungla", "ǆ"), ("Straße", "STRASSE"), ("Kelvin \u{212A}", "k"),
    ])
  func ruleImpliesFold(title: String, needle: String) {
    if TodoFilter.title(title, contains: needle) { #expect(Self.foldContains(title, needle), "\(title) / \(needle)") }
  }

  @Test(
    "the folds find more than the rule only where the rule looks at whole characters",
    arguments: [("알고리즘", "\u{110B}\u{1161}"), ("👍🏽 review", "👍"), ("cafe\u{301}", "cafe")])
  func foldIsACandidateOnly(title: String, needle: String) {
    #expect(Self.foldContains(title, needle))
    #expect(!TodoFilter.title(title, contains: needle))
  }

  @Test(
    "case is taken out as a search should: sharp s, final sigma, dotted and dotless i, ligatures",
    arguments: [
      ("Straße fegen", "STRASSE", true), ("STRASSE", "straße", true), ("GROẞ", "groß", true), ("ẞ", "ss", true),
      ("ΦΟΣ", "φος", true), ("φος", "ΦΟΣ", true), ("İSTANBUL", "istanbul", true), ("istanbul", "İSTANBUL", true),
      ("ıstanbul", "ISTANBUL", true), ("ﬁle", "FILE", true), ("Ꭰ", "ꭰ", true),
      // What the rule never took as the same still is not.
      ("café", "cafe", false), ("👍🏽 review", "👍", false), ("Straße", "strasze", false), ("İSTANBUL", "istanbull", false),
    ])
  func caseless(title: String, needle: String, matches: Bool) {
    #expect(TodoFilter.title(title, contains: needle) == matches, "\(title) / \(needle)")
    if matches { #expect(Self.foldContains(title, needle), "\(title) / \(needle)") }
  }

  @Test func caseless_ofScriptsWithoutCase_lowersOnlyASCII() {
    #expect(TodoFilter.caseless("최단경로 BFS 🚀 テスト") == "최단경로 bfs 🚀 テスト")
    #expect(TodoFilter.caseless("I\u{307}STANBUL 최단") == "istanbul 최단")
    #expect(TodoFilter.caseless("i\u{307}zmir 최단") == "izmir 최단")
    #expect(TodoFilter.caseless("STRASSE 최단 ẞ") == "strasse 최단 ss")
  }

  @Test func composedAndDecomposedHangul_foldToTheSameBytes() {
    #expect(TodoFilter.fold("알고리즘") == TodoFilter.fold("\u{110B}\u{1161}\u{11AF}\u{1100}\u{1169}\u{1105}\u{1175}\u{110C}\u{1173}\u{11B7}"))
    #expect(TodoFilter.fold("Enable WAL") == "enable wal")
  }

  /// ``TodoFilter/Folder``, the fold of many titles scalar by scalar, gives the bytes of
  /// ``TodoFilter/fold(_:)`` for every title: Hangul (composed and not), accents composed and
  /// combining, final and capital sigma, dotted I, Kelvin, ligatures, emoji with modifiers,
  /// Greek, Cyrillic, CJK, control characters, and every scalar of the BMP's letter blocks.
  @Test func folderFoldsAsFoldDoes() {
    var titles = [
      "Enable WAL mode", "Σίσυφος", "ΣΊΣΥΦΟΣ", "ΑΣ ΣΑ Σ", "Привет мир", "Ärger mit ÖL", "A\u{308}rger",
      "알고리즘 공부", "\u{110B}\u{1161}\u{11AF}\u{1100}\u{1169}", "Ship it 🚀 today", "👍🏽 review",
      "café", "cafe\u{301}", "İstanbul", "ǅungla", "Straße", "Kelvin \u{212A}", "커밋 정리 0 — \"커밋 정리\"",
      "テスト 1684 — \"ドキュメント\"", "🚀 ship 6796 — \"Plan\"", "ﬁle ﬂow", "a\u{0}b\tc\u{7F}", "",
      "\u{301}leading mark", "e\u{301}\u{327} marks out of order", "ΐ ΰ ǰ ẖ", "Å Å Ω Ω",
      "ẞ GROẞ", "ΦΟΣ φος", "İSTANBUL ıi", "İ\u{301} i\u{307}\u{323} i\u{323}\u{307}", "ſ ꭰ Ꭰ",
    ]
    var scalars: [Unicode.Scalar] = []
    for range in [0x80...0x24F, 0x370...0x52F, 0x1E00...0x1FFF, 0x2000...0x214F, 0x3040...0x30FF, 0xAC00...0xAC40, 0xFB00...0xFB4F] {
      for value in range { if let scalar = Unicode.Scalar(value) { scalars.append(scalar) } }
    }
    for (index, scalar) in scalars.enumerated() {
      titles.append("x\(scalar)Y")
      titles.append(String(scalar) + String(scalars[(index * 7 + 3) % scalars.count]) + "Q")
    }
    var folder = TodoFilter.Folder()
    for title in titles + titles {
      #expect(Array(folder.fold(title).utf8) == Array(TodoFilter.fold(title).utf8), "\(title.unicodeScalars.map { String($0.value, radix: 16) })")
    }
  }
}
