/// Control characters (C0, DEL, C1) shown as visible symbols: the one rule behind what reaches a
/// terminal (the CLI's `TerminalText`) and what an export writes (todo.txt, iCalendar), so a
/// title imported as `\e]0;pwn\a\e[2J` can drive neither a terminal nor a file later `cat`.
public enum ControlCharacters {
  /// Whether `scalar` is a control character: C0 (U+0000–U+001F), DEL or C1 (U+0080–U+009F).
  public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  /// The visible stand-in of a control character (␛ for ESC, ␊ for LF, ␡ for DEL, U+FFFD for a
  /// C1 control); nil for any other scalar.
  public static func symbol(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
    switch scalar.value {
    case 0x00...0x1F: Unicode.Scalar(0x2400 + scalar.value)
    case 0x7F: "\u{2421}"
    case 0x80...0x9F: "\u{FFFD}"
    default: nil
    }
  }

  /// `text` with each control character replaced by its ``symbol(for:)`` (tabs kept when
  /// `keepingTabs`).
  public static func visible(_ text: String, keepingTabs: Bool = false) -> String {
    func replaced(_ scalar: Unicode.Scalar) -> Bool { isControl(scalar) && !(keepingTabs && scalar == "\t") }
    // Bytes first: a text without a control byte (most) is not decoded scalar by scalar.
    guard mayContainControl(text), text.unicodeScalars.contains(where: replaced)
    else { return text }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      result.append(replaced(scalar) ? symbol(for: scalar) ?? scalar : scalar)
    }
    return String(result)
  }
}
