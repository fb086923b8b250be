import Core

/// How text is decorated: ANSI colours on a terminal, nothing when piped or with `NO_COLOR`.
struct Style: Sendable {
  /// Whether ANSI escape codes are written.
  let colored: Bool

  static let plain = Style(colored: false)

  private func wrap(_ text: String, _ code: String) -> String {
    colored ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  func bold(_ text: String) -> String { wrap(text, "1") }
  func dim(_ text: String) -> String { wrap(text, "2") }
  func red(_ text: String) -> String { wrap(text, "31") }
  func green(_ text: String) -> String { wrap(text, "32") }
  func yellow(_ text: String) -> String { wrap(text, "33") }
  func blue(_ text: String) -> String { wrap(text, "34") }
  func magenta(_ text: String) -> String { wrap(text, "35") }
  func cyan(_ text: String) -> String { wrap(text, "36") }
  func strike(_ text: String) -> String { wrap(text, "2;9") }

  /// The ANSI codes of heatmap levels 0…4: dim for nothing, then four greens (256 colours),
  /// darkest to brightest, like a GitHub contribution graph on a dark terminal.
  static let heatCodes = ["2", "38;5;22", "38;5;28", "38;5;34", "38;5;46"]

  /// `text` shaded as heatmap level `level` (0…4).
  func heat(_ level: Int, _ text: String) -> String {
    wrap(text, Self.heatCodes[min(4, max(0, level))])
  }
}

/// Terminal column widths of text: East Asian wide characters and emoji take two columns,
/// combining marks none. Enough to align Korean, Japanese, Chinese and emoji titles.
enum DisplayWidth {
  static func of(_ text: String) -> Int {
    // Most text is printable ASCII: one column a byte, no Unicode tables needed.
    var printableASCII = true
    for byte in text.utf8 where byte < 0x20 || byte >= 0x7F {
      printableASCII = false
      break
    }
    if printableASCII { return text.utf8.count }
    return text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
  }

  static func width(of scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if v < 0x7F { return v >= 0x20 ? 1 : 0 }
    if v == 0x200D || (0xFE00...0xFE0F).contains(v) { return 0 }  // ZWJ, variation selectors
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control: return 0
    default: break
    }
    if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v)
      || (0xAC00...0xD7A3).contains(v) || (0xF900...0xFAFF).contains(v)
      || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
      || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1FAFF).contains(v)
      || (0x20000...0x3FFFD).contains(v)
    {
      return 2
    }
    return 1
  }

  /// `text` padded with spaces on the right to `width` columns.
  static func padRight(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - of(text)))
  }

  /// `text` padded with spaces on the left to `width` columns.
  static func padLeft(_ text: String, to width: Int) -> String {
    String(repeating: " ", count: max(0, width - of(text))) + text
  }

  /// `text` cut to at most `width` columns, ending in `…` when cut.
  /// The columns `text` takes on a terminal, its colour codes (`ESC [ … m`) left out.
  static func visible(_ text: String) -> Int {
    guard text.utf8.contains(0x1B) else { return of(text) }
    var plain = ""
    var inEscape = false
    for scalar in text.unicodeScalars {
      if scalar == "\u{1B}" {
        inEscape = true
        continue
      }
      if inEscape {
        if scalar == "m" { inEscape = false }
        continue
      }
      plain.unicodeScalars.append(scalar)
    }
    return of(plain)
  }

  /// `text` wrapped between words so that no line is wider than `width` (by visible width;
  /// a word wider than that stays whole on its own line). Continuation lines start with the
  /// text's own indentation.
  static func wrapWords(_ text: String, to width: Int) -> [String] {
    guard visible(text) > width else { return [text] }
    let indent = String(text.prefix { $0 == " " })
    var lines: [String] = []
    var line = ""
    var used = 0
    for word in text.dropFirst(indent.count).split(separator: " ", omittingEmptySubsequences: false) {
      let word = String(word)
      let columns = visible(word)
      if used == 0 {
        line = indent + word
        used = indent.count + columns
      } else if used + 1 + columns > width {
        lines.append(line)
        line = indent + word
        used = indent.count + columns
      } else {
        line += " " + word
        used += 1 + columns
      }
    }
    lines.append(line)
    return lines
  }

  static func truncate(_ text: String, to width: Int) -> String {
    guard of(text) > width, width > 0 else { return text }
    var result = ""
    var used = 0
    for character in text {
      let w = of(String(character))
      if used + w > width - 1 { break }
      result.append(character)
      used += w
    }
    return result + "…"
  }
}

/// Text from users or servers made safe for a terminal.
enum TerminalText {
  /// `text` with control characters (a newline, an escape sequence…) shown as visible symbols
  /// (␊, ␛), so a title can never break the layout or drive the terminal.
  static func printable(_ text: String) -> String { ControlCharacters.visible(text) }

  /// `text` as ``printable(_:)`` makes it, except for line ends (LF, CR LF) and tabs: a whole
  /// document (an export) shown on a terminal keeps its lines.
  static func printableLines(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { ControlCharacters.isControl($0) && $0 != "\n" && $0 != "\t" }) else {
      return text
    }
    var result = String.UnicodeScalarView()
    var scalars = text.unicodeScalars.makeIterator()
    var next = scalars.next()
    while let scalar = next {
      next = scalars.next()
      if scalar == "\n" || scalar == "\t" || (scalar == "\r" && next == "\n") {
        result.append(scalar)
      } else {
        result.append(ControlCharacters.symbol(for: scalar) ?? scalar)
      }
    }
    return String(result)
  }
}
