extension StringProtocol {
  /// Whether a byte of the text's UTF-8 passes `test`, scanned in place: iterating `utf8`
  /// through `Sequence` cost about 30 instructions a byte, a fifth of a 100,000-todo export
  /// spent asking each line whether it held a control character.
  @inlinable
  public func containsUTF8(where test: (UInt8) -> Bool) -> Bool {
    if let found = utf8.withContiguousStorageIfAvailable({ bytes in bytes.contains(where: test) }) {
      return found
    }
    return utf8.contains(where: test)
  }
}

extension ControlCharacters {
  /// Whether `text` may hold a control character (``isControl(_:)``): a byte under 0x20, DEL,
  /// or 0xC2, the lead byte of the C1 controls (and of U+00A0…U+00BF, which the caller's slower
  /// check then tells apart). False means none, for certain.
  @inlinable
  public static func mayContainControl(_ text: some StringProtocol) -> Bool {
    text.containsUTF8 { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }
  }
}
