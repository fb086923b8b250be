/// Cuts a line-based import (todo.txt) into its lines as its bytes arrive, a chunk at a time,
/// holding only the line being read (LF, CR LF and a lone CR each end one; a CR LF split between
/// two chunks is one line end). A line past ``InputBounds/maximumItem`` stops the reading at its
/// first byte past the cap. Pure: bytes in, lines out.
public struct LineItems {
  private let maximumItem: Int
  /// The bytes of a line that began in an earlier chunk.
  private var pending: [UInt8] = []
  /// The 1-based number of the line being read.
  public private(set) var line = 1
  private var afterCR = false
  /// Whether the input ended with a line end (no last line to hand on).
  private var atLineStart = true

  /// A cutter with the line cap of ``InputBounds`` (lowered only by tests).
  public init(maximumItem: Int = InputBounds.maximumItem) {
    self.maximumItem = maximumItem
  }

  /// Reads the next bytes, handing each line that ends in them to `body` with its number
  /// (without its line end; the bytes are valid only during the call).
  public mutating func read(_ chunk: UnsafeBufferPointer<UInt8>, _ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void) throws {
    var start = 0
    var index = 0
    let count = chunk.count
    while index < count {
      let byte = chunk[index]
      if byte == 0x0A || byte == 0x0D {
        if byte == 0x0A, afterCR, index == start, pending.isEmpty, atLineStart {
          // The LF of a CR LF.
          afterCR = false
          index += 1
          start = index
          continue
        }
        try check(index - start)
        try emit(chunk, start, index, body)
        afterCR = byte == 0x0D
        atLineStart = true
        index += 1
        start = index
        continue
      }
      afterCR = false
      atLineStart = false
      index += 1
    }
    if start < count {
      try check(count - start)
      pending.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<count]))
    }
  }

  /// The end of the input: hands on a last line without a line end.
  public mutating func finish(_ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void) throws {
    if !atLineStart {
      let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
      try emit(empty, 0, 0, body)
    }
  }

  private func check(_ more: Int) throws(InterchangeError) {
    if pending.count + more > maximumItem {
      throw InterchangeError(
        "line \(line)", "longer than \(InputBounds.size(maximumItem)), the most an import reads in one line")
    }
  }

  private mutating func emit(
    _ chunk: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void
  ) throws {
    let number = line
    line += 1
    if pending.isEmpty {
      try body(number, UnsafeBufferPointer(rebasing: chunk[start..<end]))
    } else {
      pending.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[start..<end]))
      defer { pending.removeAll(keepingCapacity: pending.capacity <= 1 << 16) }
      try pending.withUnsafeBufferPointer { try body(number, $0) }
    }
  }
}
