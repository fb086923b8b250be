#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Repairs the text of a JSON document that a strict decoder refuses although its structure is
/// sound: bytes that are not UTF-8, and `\uXXXX` escapes of UTF-16 surrogates that do not form
/// a pair. Each becomes U+FFFD, the way `String(decoding:as:)` treats bad text.
enum LenientJSON {
  /// `json` with invalid text replaced by U+FFFD, or nil when there was nothing to repair.
  static func repaired(_ json: Data) -> Data? {
    let text = String(decoding: json, as: UTF8.self)
    var changed = !text.utf8.elementsEqual(json)
    let bytes = Array(text.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    let replacement = Array(#"\uFFFD"#.utf8)
    var index = 0
    var inString = false
    while index < bytes.count {
      let byte = bytes[index]
      guard inString else {
        if byte == UInt8(ascii: "\"") { inString = true }
        output.append(byte)
        index += 1
        continue
      }
      if byte == UInt8(ascii: "\"") {
        inString = false
      } else if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
        guard let unit = unicodeEscape(bytes, at: index) else {
          output += bytes[index...index + 1]  // \n, \", \\ ...: copied as they are
          index += 2
          continue
        }
        if (0xD800...0xDBFF).contains(unit), let low = unicodeEscape(bytes, at: index + 6),
          (0xDC00...0xDFFF).contains(low)
        {
          output += bytes[index..<index + 12]  // a proper surrogate pair
          index += 12
        } else if (0xD800...0xDFFF).contains(unit) {
          output += replacement
          changed = true
          index += 6
        } else {
          output += bytes[index..<index + 6]
          index += 6
        }
        continue
      }
      output.append(byte)
      index += 1
    }
    return changed ? Data(output) : nil
  }

  /// The code unit of a `\uXXXX` escape starting at `index`, or nil when there is none.
  private static func unicodeEscape(_ bytes: [UInt8], at index: Int) -> UInt16? {
    guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"),
      bytes[index + 1] == UInt8(ascii: "u")
    else { return nil }
    var value: UInt16 = 0
    for byte in bytes[index + 2..<index + 6] {
      guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
      value = value << 4 | UInt16(digit)
    }
    return value
  }
}
