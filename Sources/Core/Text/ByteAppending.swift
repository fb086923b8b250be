/// Appending text to bytes without going through `String.UTF8View`'s generic sequence path
/// (an exporter appends a dozen texts a todo, a million todos at a time).
extension Array where Element == UInt8 {
  /// Appends the UTF-8 bytes of `text`, copied in one piece.
  @inlinable
  public mutating func appendUTF8(_ text: String) {
    var text = text
    text.withUTF8 { append(contentsOf: $0) }
  }

  /// Appends the bytes of a constant (`" due:"`).
  @inlinable
  public mutating func appendUTF8(_ text: StaticString) {
    append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }
}
