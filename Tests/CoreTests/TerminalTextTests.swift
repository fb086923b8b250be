import Core
import Testing

/// What a terminal is shown of text from outside (``TerminalText``): controls as their symbols,
/// the invisible characters that reorder or break a line as `<U+XXXX>`, all else as it is.
@Suite struct TerminalTextTests {
  @Test(arguments: [
    // C0, DEL and C1 as before: their symbols.
    ("esc \u{1B}[2J bel \u{07}", "esc ␛[2J bel ␇"),
    ("line\nbreak\r\ttab", "line␊break␍␉tab"),
    ("del \u{7F} csi \u{9B}31m nel \u{85}", "del ␡ csi \u{FFFD}31m nel \u{FFFD}"),
    // Bidirectional controls: an override that would show "invoice_exe.pdf" for a file named
    // "invoice_fdp.exe", the embeddings, marks and isolates.
    ("invoice_\u{202E}fdp.exe", "invoice_<U+202E>fdp.exe"),
    ("\u{202A}lre \u{202B}rle \u{202C}pdf \u{202D}lro", "<U+202A>lre <U+202B>rle <U+202C>pdf <U+202D>lro"),
    ("\u{2066}lri\u{2069} \u{2067}rli \u{2068}fsi", "<U+2066>lri<U+2069> <U+2067>rli <U+2068>fsi"),
    ("lrm\u{200E} rlm\u{200F} alm\u{061C}", "lrm<U+200E> rlm<U+200F> alm<U+061C>"),
    // Line and paragraph separators.
    ("one\u{2028}two\u{2029}three", "one<U+2028>two<U+2029>three"),
    // Mixed with a control, at either end, twice in a row.
    ("\u{202E}\u{1B}x\u{2028}\u{2028}", "<U+202E>␛x<U+2028><U+2028>"),
  ])
  func printable_showsControlsAndLayoutControls(text: String, shown: String) {
    #expect(TerminalText.printable(text) == shown)
    // What is shown is shown again as it is: no double marking when text passes twice.
    #expect(TerminalText.printable(shown) == shown)
  }

  @Test(arguments: [
    "plain ASCII, \"quotes\" and 'single' % \\ ~",
    "Café crème, naïve, Ångström",
    "최단경로 알고리즘 공부하기 · 日本語のテキスト · 中文标题",
    // ZWJ sequences and variation selectors: one emoji each.
    "👩‍💻 ship it 👨‍👩‍👧‍👦 ❤️ ☺︎ 🏳️‍🌈",
    // Right-to-left letters are right-to-left by themselves: no control involved.
    "مرحبا بالعالم · שלום עולם · mixed عربي and English",
    // ZWNJ (Persian), soft hyphen, no-break and zero-width spaces, word joiner: not reordering.
    "می‌خواهم · co\u{AD}operate · a\u{A0}b · a\u{200B}b · a\u{2060}b",
    // Neighbours of the shown characters: en dash, quotes, ellipsis, per mille, Arabic comma.
    "– — ‘’ “” … ‰ ‹› ، ؛",
  ])
  func printable_leavesOtherTextAsItIs(text: String) {
    #expect(TerminalText.printable(text) == text)
    #expect(TerminalText.printableLines(text) == text)
  }

  @Test(arguments: [
    ("plain\nlines\r\nand\ttabs", "plain\nlines\r\nand\ttabs"),
    ("lone\rcr \u{1B}[31m", "lone␍cr ␛[31m"),
    ("row \u{202E}1\nrow\u{2028}2\n", "row <U+202E>1\nrow<U+2028>2\n"),
  ])
  func printableLines_keepsLineEndsAndTabsOnly(text: String, shown: String) {
    #expect(TerminalText.printableLines(text) == shown)
  }

  /// The quick scan of the UTF-8 that lets most text through unchanged agrees, scalar by
  /// scalar, with the rule: every scalar of the Basic Multilingual Plane below U+3000 (C0, C1,
  /// every script's letters, the punctuation block of the bidi controls) and a few beyond.
  @Test func theQuickScanAgreesWithTheRule_forEveryScalar() {
    let values = Array(0..<0x3000) + [0xD7FF, 0xE000, 0xFE0F, 0xFEFF, 0xFFFD, 0x1F600, 0x1F9D1, 0xE0001, 0x10FFFF]
    for value in values {
      guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
      let shown = ControlCharacters.isControl(scalar) || TerminalText.isLayoutControl(scalar)
      let text = "a" + String(Character(scalar)) + "b"
      #expect((TerminalText.printable(text) != text) == shown, "U+\(String(value, radix: 16))")
    }
  }
}
