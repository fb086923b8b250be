/// Control characters (C0, DEL, C1) and the visible symbols that stand for them: what a terminal
/// is shown (``TerminalText``, which shows more than these) and what the iCalendar export writes
/// in their place, so a title imported as `\e]0;pwn\a\e[2J` can drive neither a terminal nor a
/// file later `cat` (the todo.txt export escapes them instead, `TodoTxt.escapedTitle`).
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
}
