/// Terminal column widths of text: East Asian wide characters and emoji take two columns,
/// combining marks none. Enough to align Korean, Japanese, Chinese and emoji titles.
public enum DisplayWidth {
  public static func of(_ text: String) -> Int {
    // Most text is printable ASCII: one column a byte, no Unicode tables needed.
    var printableASCII = true
    for byte in text.utf8 where byte < 0x20 || byte >= 0x7F {
      printableASCII = false
      break
    }
    if printableASCII { return text.utf8.count }
    return text.unicodeScalars.reduce(0) { $0 + width(of: $1) }
  }

  public static func width(of scalar: Unicode.Scalar) -> Int {
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
  public static func padRight(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - of(text)))
  }

  /// `text` padded with spaces on the left to `width` columns.
  public static func padLeft(_ text: String, to width: Int) -> String {
    String(repeating: " ", count: max(0, width - of(text))) + text
  }

  /// `text` cut to at most `width` columns, ending in `…` when cut.
  /// The columns `text` takes on a terminal, its colour codes (`ESC [ … m`) left out.
  public static func visible(_ text: String) -> Int {
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
  public static func wrapWords(_ text: String, to width: Int) -> [String] {
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

  public static func truncate(_ text: String, to width: Int) -> String {
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
