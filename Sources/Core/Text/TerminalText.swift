/// Text from outside (titles, names, notes, server messages, paths) made safe for a terminal:
/// the one rule every human-readable view goes through (the CLI's lines and its errors, the
/// TUI's screen), so what a person reads is what the text holds.
///
/// Shown visibly, each as the same stand-in wherever it appears:
/// - control characters (C0, DEL, C1) as their symbols (``ControlCharacters/symbol(for:)``:
///   ␛ for ESC, ␊ for LF, ␡ for DEL, U+FFFD for a C1 control), so a title cannot drive the
///   terminal (`\e]0;pwn\a`) or break the layout;
/// - the invisible characters that reorder or break a line without being seen, as `<U+202E>`:
///   the bidirectional controls (U+061C ARABIC LETTER MARK, U+200E LRM, U+200F RLM,
///   U+202A–U+202E LRE RLE PDF LRO RLO, U+2066–U+2069 LRI RLI FSI PDI) and the line and
///   paragraph separators (U+2028, U+2029). A right-to-left override can make a title read
///   backwards and hide what follows it ("Trojan Source"); a separator can start a new line.
///
/// Everything else is kept: letters of every script (Arabic and Hebrew letters are
/// right-to-left by themselves and need no control), accents, CJK, Korean, emoji with their
/// zero-width joiners and variation selectors.
///
/// Exports and JSON do not go through this: a file or a pipe gets the exact text (an export's
/// own format decides what it escapes), JSON escapes through its encoder.
public enum TerminalText {
  /// Whether `scalar` is one of the invisible characters that reorder or break a line (a
  /// bidirectional control, U+2028 or U+2029), shown as `<U+XXXX>`.
  public static func isLayoutControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// `text` with every control character and every ``isLayoutControl(_:)`` character shown
  /// visibly (see the type's summary); other text as it is.
  public static func printable(_ text: String) -> String {
    guard mayHide(text, keepingLines: false) else { return text }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars { appendShown(scalar, to: &result) }
    return String(result)
  }

  /// `text` as ``printable(_:)`` shows it, except for line ends (LF, CR LF) and tabs: a whole
  /// document (an export) shown on a terminal keeps its lines.
  public static func printableLines(_ text: String) -> String {
    guard mayHide(text, keepingLines: true) else { return text }
    var result = String.UnicodeScalarView()
    var scalars = text.unicodeScalars.makeIterator()
    var next = scalars.next()
    while let scalar = next {
      next = scalars.next()
      if scalar == "\n" || scalar == "\t" || (scalar == "\r" && next == "\n") {
        result.append(scalar)
      } else {
        appendShown(scalar, to: &result)
      }
    }
    return String(result)
  }

  /// Appends `scalar` as a terminal is to show it.
  static func appendShown(_ scalar: Unicode.Scalar, to result: inout String.UnicodeScalarView) {
    if let symbol = ControlCharacters.symbol(for: scalar) {
      result.append(symbol)
    } else if isLayoutControl(scalar) {
      result.append(contentsOf: "<U+".unicodeScalars)
      let hex = String(scalar.value, radix: 16, uppercase: true)
      result.append(contentsOf: String(repeating: "0", count: max(0, 4 - hex.utf8.count)).unicodeScalars)
      result.append(contentsOf: hex.unicodeScalars)
      result.append(">")
    } else {
      result.append(scalar)
    }
  }

  /// Whether `text` holds a character ``printable(_:)`` changes, read from its UTF-8 in place
  /// (a title is shown on every `list`; most hold none and are not decoded scalar by scalar):
  /// a C0 byte or DEL (with `keepingLines`, other than LF, tab and the CR of a CR LF), a C1
  /// control (C2 80–9F), U+061C (D8 9C), U+200E/U+200F/U+2028–U+202E (E2 80 8E, 8F, A8–AE)
  /// or U+2066–U+2069 (E2 81 A6–A9). Exact: false means the text is shown as it is.
  static func mayHide(_ text: String, keepingLines: Bool) -> Bool {
    func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
      let count = bytes.count
      var index = 0
      while index < count {
        let byte = bytes[index]
        if byte < 0x20 || byte == 0x7F {
          guard keepingLines else { return true }
          let kept = byte == 0x0A || byte == 0x09 || (byte == 0x0D && index + 1 < count && bytes[index + 1] == 0x0A)
          if !kept { return true }
        } else if byte >= 0xC2, index + 1 < count {
          let second = bytes[index + 1]
          switch byte {
          case 0xC2: if second <= 0x9F { return true }
          case 0xD8: if second == 0x9C { return true }
          case 0xE2 where index + 2 < count:
            let third = bytes[index + 2]
            if second == 0x80, third == 0x8E || third == 0x8F || (0xA8...0xAE).contains(third) { return true }
            if second == 0x81, (0xA6...0xA9).contains(third) { return true }
          default: break
          }
        }
        index += 1
      }
      return false
    }
    var text = text
    return text.withUTF8(scan)
  }
}
