import Core
import Testing

@Suite("Search rule and nearest name")
struct SearchRuleTests {
  @Test(
    "a title contains the text ignoring case, in any script",
    arguments: [
      ("Enable WAL mode", "wal", true), ("enable wal", "WAL", true), ("Σίσυφος", "ΣΊΣ", true),
      ("Ärger mit ÖL", "äRGER", true), ("알고리즘 공부", "알고", true), ("알고리즘", "\u{110B}\u{1161}\u{11AF}", true),
      ("Ship it 🚀 today", "🚀", true), ("👍🏽 review", "👍🏽", true), ("👍🏽 review", "👍🏿", false),
      ("Enable WAL mode", "wall", false), ("abc", "", true), ("", "a", false),
      ("100% done", "100%", true), ("a_b", "a_b", true), ("axb", "a_b", false), ("a%b", "%", true),
    ])
  func contains(title: String, text: String, expected: Bool) {
    #expect(TodoFilter.title(title, contains: text) == expected)
  }

  @Test("a filter without text matches every title; with text, as the rule")
  func filter() {
    #expect(TodoFilter(days: .all).matches(title: "anything"))
    #expect(TodoFilter(days: .all, text: "WAL").matches(title: "wal"))
    #expect(!TodoFilter(days: .all, text: "WAL").matches(title: "log"))
  }

  static let commands = ["today", "add", "list", "ls", "search", "done", "undone", "rm", "report"]

  @Test(
    "a typo suggests the nearest name; a far word suggests none",
    arguments: [
      ("serach", "search"), ("seach", "search"), ("lsit", "list"), ("ad", "add"), ("dnoe", "done"),
      ("REPORT", "report"), ("rpeort", "report"), ("delete", nil), ("xyz", nil), ("undonee", "undone"),
      ("tody", "today"), ("qq", nil),
    ] as [(String, String?)])
  func nearest(word: String, expected: String?) {
    #expect(NearestName.nearest(to: word, among: Self.commands) == expected)
  }

  @Test("distance counts edits, a swap of neighbours as one", arguments: [
    ("", "", 0), ("a", "", 1), ("abc", "abc", 0), ("abc", "acb", 1), ("kitten", "sitting", 3),
    ("알고", "알구", 1),
  ])
  func distance(a: String, b: String, expected: Int) {
    #expect(NearestName.distance(a, b) == expected)
  }
}
