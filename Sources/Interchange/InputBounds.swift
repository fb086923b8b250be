/// The most an import reads: a whole input of at most 64 MiB, and a line (todo.txt) or one
/// JSON object (Taskwarrior) of at most 1 MiB. The input is checked chunk by chunk as it
/// arrives, so an oversize line or object stops the reading at once, at the first byte past the
/// cap: `/dev/zero` or a 1 GiB file fails after 1 MiB read, not after the machine's memory.
/// (Titles are capped by ``Title/maximumLength``, as everywhere else.) Pure: bytes in, an
/// ``InterchangeError`` out.
public struct InputBounds: Sendable {
  /// The most bytes an import reads.
  public static let maximumInput = 64 << 20
  /// The most bytes in one line (todo.txt) or one JSON object (Taskwarrior).
  public static let maximumItem = 1 << 20

  /// The error for an input larger than ``maximumInput``.
  public static var inputTooLarge: InterchangeError {
    InterchangeError("input", "larger than \(mebibytes(maximumInput)), the most an import reads")
  }

  static func mebibytes(_ count: Int) -> String { "\(count >> 20) MiB" }

  /// How the input is cut into items.
  public enum Shape: Sendable {
    /// One item a line: todo.txt.
    case lines
    /// One item a JSON value: the elements of an array that opens the input, else each
    /// top-level value (JSON Lines): Taskwarrior.
    case json
  }

  private let shape: Shape
  private let maximumItem: Int
  private let maximumInput: Int
  /// Bytes read so far.
  private var total = 0
  /// The 1-based line of the byte being read (LF, CR LF and a lone CR each end one).
  private var line = 1
  private var afterCR = false
  /// Bytes of the current line, or of the current JSON item.
  private var itemLength = 0
  /// JSON: the item being read (its 1-based index and the line it starts on), nil between items.
  private var item: (index: Int, line: Int)?
  private var items = 0
  /// JSON: whether the input opened with `[` (items are its elements), nil before its first byte.
  private var inArray: Bool?
  private var depth = 0
  private var inString = false
  private var escaped = false

  /// Bounds for an input of `shape` (the caps are only lowered by tests).
  public init(_ shape: Shape, maximumItem: Int = InputBounds.maximumItem, maximumInput: Int = InputBounds.maximumInput) {
    self.shape = shape
    self.maximumItem = maximumItem
    self.maximumInput = maximumInput
  }

  /// Checks the next bytes of the input; throws at the first line or object past the item cap,
  /// or when the input passes the input cap.
  public mutating func check(_ bytes: UnsafeRawBufferPointer) throws(InterchangeError) {
    for byte in bytes {
      switch shape {
      case .lines: try checkLine(byte)
      case .json: try checkJSON(byte)
      }
      countLine(byte)
    }
    total += bytes.count
    if total > maximumInput { throw Self.inputTooLarge }
  }

  private mutating func countLine(_ byte: UInt8) {
    if byte == 0x0A {
      if !afterCR { line += 1 }
      afterCR = false
    } else if byte == 0x0D {
      line += 1
      afterCR = true
    } else {
      afterCR = false
    }
  }

  private mutating func checkLine(_ byte: UInt8) throws(InterchangeError) {
    if byte == 0x0A || byte == 0x0D {
      itemLength = 0
      return
    }
    itemLength += 1
    if itemLength > maximumItem {
      throw InterchangeError("line \(line)", "longer than \(Self.mebibytes(maximumItem)), the most an import reads in one line")
    }
  }

  private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

  private mutating func checkJSON(_ byte: UInt8) throws(InterchangeError) {
    if inArray == nil {
      if Self.isSpace(byte) { return }
      inArray = byte == UInt8(ascii: "[")
      if inArray == true {
        depth = 1
        return
      }
    }
    // The depth at which items sit: inside the opening array, else the top level.
    let itemDepth = inArray == true ? 1 : 0
    if item == nil {
      if Self.isSpace(byte) || byte == UInt8(ascii: ",") { return }
      if byte == UInt8(ascii: "]"), inArray == true, depth == 1 {
        // The opening array ends: what follows is top-level values.
        inArray = false
        depth = 0
        return
      }
      items += 1
      item = (items, line)
      itemLength = 0
    }
    itemLength += 1
    if itemLength > maximumItem, let item {
      let location = inArray == true ? "object \(item.index)" : "line \(item.line)"
      throw InterchangeError(location, "larger than \(Self.mebibytes(maximumItem)), the most an import reads in one object")
    }
    if inString {
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        inString = false
      }
      return
    }
    switch byte {
    case UInt8(ascii: "\""): inString = true
    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      if depth > itemDepth { depth -= 1 }
      if depth == itemDepth { item = nil }
    default:
      // A scalar item (or stray bytes) ends at white space or a comma at the item's depth.
      if depth == itemDepth, Self.isSpace(byte) || byte == UInt8(ascii: ",") { item = nil }
    }
  }
}
