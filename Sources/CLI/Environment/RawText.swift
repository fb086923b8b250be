#if canImport(Glibc)
import Glibc
#endif

/// What the process was handed as bytes, its arguments and its environment, when they are not
/// UTF-8. Swift's `String` replaces each byte it cannot decode with U+FFFD, so `--db $'\xff.db'`
/// would open another file and `add $'caf\xe9'` would store another title: ootd refuses such text
/// with one line (exit 64) instead of taking it changed.
enum RawText {
  /// One argument or variable that is not UTF-8: where it came from and how it is shown.
  struct NotUTF8: Equatable {
    /// `argument 3` or `HOME`.
    var source: String
    /// Its text with each byte that is not part of UTF-8 written `\xHH`.
    var shown: String

    /// The line ootd refuses it with (after `ootd: error: `).
    var message: String {
      "\(source) is not UTF-8 text ('\(shown)'): ootd reads paths, titles and names as UTF-8"
    }
  }

  /// The variables whose values ootd takes as paths: a value that is not UTF-8 would name
  /// another file, so a command refuses it (the others are read as they decode).
  static let pathVariables = ["OOTD_DB", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "HOME"]

  /// `bytes` as a `String` when they are UTF-8, else nil.
  static func decoded(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    String(validating: bytes, as: UTF8.self)
  }

  /// `bytes` with each byte that is not part of UTF-8 written `\xHH` (the rest as it decodes).
  static func shown(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var result = ""
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        result.unicodeScalars.append(Unicode.UTF8.decode(encoded))
        offset += encoded.count
      case .error(let length):
        for byte in bytes[offset..<offset + length] {
          result += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }
        offset += length
      case .emptyInput:
        return result
      }
    }
  }

  /// The first of this process's arguments (after the program's name) that is not UTF-8.
  static func firstArgumentNotUTF8() -> NotUTF8? {
    let arguments = CommandLine.unsafeArgv
    for index in 1..<Int(CommandLine.argc) {
      guard let argument = arguments[index] else { continue }
      let bytes = UnsafeBufferPointer(
        start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument))
      if decoded(bytes) == nil { return NotUTF8(source: "argument \(index)", shown: shown(bytes)) }
    }
    return nil
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
