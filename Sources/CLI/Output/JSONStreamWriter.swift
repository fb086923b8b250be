import Core

/// A JSON shape ootd prints, written by its one `write(to:)`: the one list of its keys. Small
/// documents and unbounded listings are written the same way.
protocol JSONShape {
  func write(to writer: inout JSONStreamWriter)
}

/// An array of shapes is a shape.
extension Array: JSONShape where Element: JSONShape {
  func write(to writer: inout JSONStreamWriter) { writer.array(self) }
}

/// Writes one JSON document a value at a time, in the bytes ootd has always printed (those of
/// Foundation's `JSONEncoder` with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]`:
/// two-space indentation, `"key" : value`, an empty array or object as `[`, a blank line, `]`),
/// slashes unescaped, and DEL and the C1 controls escaped. Text goes to `output` in chunks of
/// about `chunkSize` bytes, so a document of any length is printed in constant memory. Keys are
/// written in the order given: callers write them sorted, as `.sortedKeys` did (checked in
/// debug builds).
struct JSONStreamWriter {
  private let output: (String) -> Void
  /// Where the bytes go when the output takes bytes (standard output does).
  private var outputBytes: ((UnsafeBufferPointer<UInt8>) -> Void)? = nil
  private let chunkSize: Int
  /// UTF-8 bytes not yet written out. Bytes, not a `String`: appending small pieces to a
  /// `String` costs a hundred instructions each, and a listing appends millions.
  private let buffer: ByteBuffer
  /// The number of values written so far in each open array or object but the innermost,
  /// outermost first; the innermost's is `count`, and `depth` is how many are open.
  private var outerCounts: [Int] = []
  private var count = 0
  private var depth = 0
  /// A key was just written: the next value follows it on the same line.
  private var afterKey = false
  #if DEBUG
    /// The last key of each open object, innermost last: keys must come sorted.
    private var lastKeys: [String] = []
  #endif

  init(chunkSize: Int = 65_536, output: @escaping (String) -> Void) {
    self.output = output
    self.chunkSize = chunkSize
    buffer = ByteBuffer(capacity: chunkSize + 4096)
  }

  /// A writer to `environment`'s standard output (as bytes when it takes them).
  init(_ environment: AppEnvironment, chunkSize: Int = 65_536) {
    self.init(chunkSize: chunkSize, output: environment.output)
    outputBytes = environment.outputBytes
  }

  /// A writer handing its chunks over as bytes.
  init(chunkSize: Int = 65_536, bytes: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
    self.init(chunkSize: chunkSize, output: { _ in })
    outputBytes = bytes
  }

  // MARK: - Containers

  mutating func beginArray() {
    open(UInt8(ascii: "["))
    #if DEBUG
      lastKeys.append("")
    #endif
  }
  mutating func endArray() {
    close(UInt8(ascii: "]"))
    #if DEBUG
      lastKeys.removeLast()
    #endif
  }
  mutating func beginObject() {
    open(UInt8(ascii: "{"))
    #if DEBUG
      lastKeys.append("")
    #endif
  }
  mutating func endObject() {
    close(UInt8(ascii: "}"))
    #if DEBUG
      lastKeys.removeLast()
    #endif
  }

  /// Starts the member `name` of the open object; its value comes next. `name` is one of the
  /// contract's field names: plain ASCII, copied without escaping.
  @inline(__always)
  mutating func key(_ name: StaticString) {
    #if DEBUG
      checkOrder(name.description)
    #endif
    separate()
    buffer.appendKey(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    afterKey = true
  }

  /// Starts a member whose name comes from data (a dictionary's key); escaped as any string.
  mutating func key(named name: String) {
    #if DEBUG
      checkOrder(name)
    #endif
    separate()
    appendString(name)
    append(" : ")
    afterKey = true
  }

  #if DEBUG
    /// Traps when `name` does not sort after the open object's previous key, as `.sortedKeys`
    /// sorted them (case-insensitively).
    private mutating func checkOrder(_ name: String) {
      guard let last = lastKeys.last else { return }
      precondition(
        last.isEmpty || last.lowercased() < name.lowercased(),
        "JSON key '\(name)' written after '\(last)': keys must be sorted")
      lastKeys[lastKeys.count - 1] = name
    }
  #endif

  /// `shapes` as one array.
  mutating func array(_ shapes: some Sequence<some JSONShape>) {
    beginArray()
    for shape in shapes { shape.write(to: &self) }
    endArray()
  }

  /// `values` as an array of strings, or `null` for nil.
  mutating func strings(_ values: (some Sequence<String>)?) {
    guard let values else { return null() }
    beginArray()
    for value in values { string(value) }
    endArray()
  }

  /// `members` as one object whose keys come from data, sorted as the writer wants every key
  /// (case-insensitively, as `.sortedKeys` sorted them), each value written by `value`.
  mutating func object<Value>(
    _ members: [String: Value], _ value: (inout JSONStreamWriter, Value) -> Void
  ) {
    beginObject()
    for (name, member) in members.sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) {
      key(named: name)
      value(&self, member)
    }
    endObject()
  }

  // MARK: - Values

  mutating func string(_ value: String?) {
    separate()
    if let value { appendString(value) } else { append("null") }
    flushIfFull()
  }

  mutating func integer(_ value: (some BinaryInteger)?) {
    separate()
    guard let value else { return append("null") }
    appendInteger(Int64(value))
  }

  mutating func bool(_ value: Bool) {
    separate()
    append(value ? "true" : "false")
  }

  mutating func null() {
    separate()
    append("null")
  }

  /// A finite number as `JSONEncoder` wrote it: Swift's shortest round-trip `description`,
  /// without a trailing `.0` (`1`, `0.5`, `1e-07`); nil as `null`.
  mutating func double(_ value: Double?) {
    separate()
    guard let value else { return append("null") }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    buffer.append(text)
  }

  /// Ends the document with a newline and writes out what is left.
  mutating func finish() {
    buffer.append(0x0A)
    flush()
  }

  mutating func flush() {
    guard buffer.count > 0 else { return }
    if let outputBytes {
      outputBytes(buffer.bytes)
    } else {
      // Chunks end between values, so they are whole UTF-8.
      output(String(decoding: buffer.bytes, as: UTF8.self))
    }
    buffer.count = 0
  }

  // MARK: - Layout

  @inline(__always)
  private mutating func append(_ text: StaticString) {
    buffer.append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  private mutating func appendInteger(_ value: Int64) {
    if value < 0 {
      buffer.append(UInt8(ascii: "-"))
      if value == .min { return append("9223372036854775808") }
    }
    var magnitude = value.magnitude
    var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes: room for 20 digits
    var count = 0
    withUnsafeMutableBytes(of: &digits) { raw in
      repeat {
        raw[31 - count] = UInt8(48 + magnitude % 10)
        magnitude /= 10
        count += 1
      } while magnitude > 0
      buffer.append(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[(32 - count)...]))
    }
  }

  private mutating func open(_ bracket: UInt8) {
    separate()
    buffer.append(bracket)
    if depth > 0 { outerCounts.append(count) }
    count = 0
    depth += 1
  }

  private mutating func close(_ bracket: UInt8) {
    if count == 0 { buffer.append(0x0A) }
    depth -= 1
    count = depth > 0 ? outerCounts.removeLast() : 0
    newline(indent: depth)
    buffer.append(bracket)
    flushIfFull()
  }

  /// What goes before a value or a key: nothing after a key, else the comma of the previous
  /// element, a newline and the indentation of the open container.
  @inline(__always)
  private mutating func separate() {
    if afterKey {
      afterKey = false
      return
    }
    guard depth > 0 else { return }
    if count > 0 { buffer.append(UInt8(ascii: ",")) }
    count += 1
    newline(indent: depth)
  }

  @inline(__always)
  private mutating func newline(indent depth: Int) {
    buffer.appendNewline(indent: 2 * depth)
  }

  private mutating func flushIfFull() {
    if buffer.count >= chunkSize { flush() }
  }

  /// Bytes that end the plain copy of a string: `"`, `\`, C0 controls, DEL, and 0xC2 (the
  /// lead byte of the C1 controls U+0080…U+009F, checked on the slow path).
  private static let special: [Bool] = (0...255).map { byte in
    byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xC2
  }

  /// `value` quoted, with `"`, `\`, the C0 controls, DEL and the C1 controls escaped.
  private mutating func appendString(_ value: String) {
    buffer.append(UInt8(ascii: "\""))
    var value = value
    let plain = value.withUTF8 { bytes in
      Self.special.withUnsafeBufferPointer { special in
        for byte in bytes where special[Int(byte)] { return false }
        buffer.append(bytes)
        return true
      }
    }
    if !plain {
      for scalar in value.unicodeScalars {
        switch scalar {
        case "\"": append("\\\"")
        case "\\": append("\\\\")
        case "\u{08}": append("\\b")
        case "\t": append("\\t")
        case "\n": append("\\n")
        case "\u{0C}": append("\\f")
        case "\r": append("\\r")
        case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}":
          let hex = Array("0123456789abcdef".utf8)
          append("\\u00")
          buffer.append(hex[Int(scalar.value >> 4)])
          buffer.append(hex[Int(scalar.value & 0xF)])
        default: for byte in UTF8.encode(scalar)! { buffer.append(byte) }
        }
      }
    }
    buffer.append(UInt8(ascii: "\""))
  }
}

/// The writer's bytes: memory it owns, appended to through a pointer (a few instructions a byte,
/// where `Array.append` checks uniqueness and capacity on every call: a third of a large
/// listing's time).
private final class ByteBuffer {
  private(set) var start: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  var count = 0

  init(capacity: Int) {
    self.capacity = max(capacity, 16)
    start = .allocate(capacity: self.capacity)
  }

  deinit { start.deallocate() }

  var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

  @inline(__always) private func reserve(_ more: Int) {
    if count + more > capacity { grow(to: count + more) }
  }

  private func grow(to needed: Int) {
    let larger = max(capacity * 2, needed)
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
    moved.update(from: start, count: count)
    start.deallocate()
    start = moved
    capacity = larger
  }

  /// `"name" : `, reserved once.
  @inline(__always) func appendKey(_ name: UnsafeBufferPointer<UInt8>) {
    reserve(name.count + 5)
    var at = start + count
    at.pointee = UInt8(ascii: "\"")
    at += 1
    if let base = name.baseAddress { at.update(from: base, count: name.count) }
    at += name.count
    at[0] = UInt8(ascii: "\"")
    at[1] = UInt8(ascii: " ")
    at[2] = UInt8(ascii: ":")
    at[3] = UInt8(ascii: " ")
    count += name.count + 5
  }

  @inline(__always) func append(_ byte: UInt8) {
    reserve(1)
    start[count] = byte
    count += 1
  }

  @inline(__always) func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
    reserve(bytes.count)
    (start + count).update(from: base, count: bytes.count)
    count += bytes.count
  }

  /// A line feed and `spaces` spaces, reserved once.
  @inline(__always) func appendNewline(indent spaces: Int) {
    reserve(spaces + 1)
    start[count] = 0x0A
    (start + count + 1).update(repeating: 0x20, count: spaces)
    count += spaces + 1
  }

  func append(_ text: String) {
    var text = text
    text.withUTF8 { append($0) }
  }
}
