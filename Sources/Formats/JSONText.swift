/// Compact JSON text written by hand (fast for 100,000 rows, stable order): string literals
/// here, and Core's field objects (`JSONText.object(_:)`) built on them. The one encoder of the
/// journal's field text and of sync payloads.
public enum JSONText {
  /// `text` as a JSON string literal.
  public static func quoted(_ text: String) -> String {
    var bytes: [UInt8] = []
    appendQuoted(text, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The bytes that start an escape: `"`, `\\` and the C0 controls; and, with DEL and C1,
  /// DEL and 0xC2 (the lead byte of U+0080...U+00BF, checked on the slow path).
  private static let special: [Bool] = (0...255).map { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
  private static let specialWithDelAndC1: [Bool] = (0...255).map {
    $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xC2
  }

  /// The digits of a `\u` escape (built once: a title with a quote took an array a call).
  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  /// `text` as a JSON string literal, appended to `bytes`; copied whole when nothing needs an
  /// escape. `shortEscapes` writes backspace and form feed as `\b` and `\f` (as Foundation's
  /// `JSONEncoder` does, which other trackers' files were once written with), else as `\u0008`
  /// and `\u000c` (the journal's text, which must not change). `escapingDelAndC1` also writes
  /// DEL and the C1 controls (U+0080...U+009F) as `\u007f`...`\u009f`, as ootd's exports do.
  public static func appendQuoted(
    _ text: String, to bytes: inout [UInt8], shortEscapes: Bool = false, escapingDelAndC1: Bool = false
  ) {
    var text = text
    text.withUTF8 { utf8 in
      bytes.append(UInt8(ascii: "\""))
      // C1 controls are U+0080...U+009F: 0xC2 then 0x80...0x9F in UTF-8. (A table lookup a
      // byte: the five comparisons were a tenth of a Taskwarrior export.)
      let plain = (escapingDelAndC1 ? specialWithDelAndC1 : special).withUnsafeBufferPointer { table in
        for byte in utf8 where table[Int(byte)] { return false }
        return true
      }
      guard !plain else {
        bytes.append(contentsOf: utf8)
        return
      }
      let hex = hexDigits
      func unicode(_ value: UInt8) {
        bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(value >> 4)], hex[Int(value & 0xF)]])
      }
      var index = 0
      while index < utf8.count {
        let byte = utf8[index]
        index += 1
        switch byte {
        case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
        case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case 0x08 where shortEscapes: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
        case 0x0C where shortEscapes: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
        case ..<0x20: unicode(byte)
        case 0x7F where escapingDelAndC1: unicode(byte)
        case 0xC2 where escapingDelAndC1 && index < utf8.count && (0x80...0x9F).contains(utf8[index]):
          unicode(utf8[index])
          index += 1
        default: bytes.append(byte)
        }
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
