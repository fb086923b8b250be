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

  /// `text` as a JSON string literal, appended to `bytes`; copied whole when nothing needs an
  /// escape. `shortEscapes` writes backspace and form feed as `\b` and `\f` (as Foundation's
  /// `JSONEncoder` does, which other trackers' files were once written with), else as `\u0008`
  /// and `\u000c` (the journal's text, which must not change).
  public static func appendQuoted(_ text: String, to bytes: inout [UInt8], shortEscapes: Bool = false) {
    var text = text
    let plain = text.withUTF8 { utf8 in
      guard !utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) else { return false }
      bytes.append(UInt8(ascii: "\""))
      bytes.append(contentsOf: utf8)
      bytes.append(UInt8(ascii: "\""))
      return true
    }
    guard !plain else { return }
    bytes.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
      case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0x08 where shortEscapes: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
      case 0x0C where shortEscapes: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
      case ..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
