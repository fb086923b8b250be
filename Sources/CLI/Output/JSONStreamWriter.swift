import Core

/// Writes one JSON document a value at a time, in the exact bytes ``JSONOutput/encode(_:)``
/// gives the same values: Foundation's pretty printing (two-space indentation, `"key" : value`,
/// an empty array or object as `[`, a blank line, `]`), slashes unescaped, and DEL and the C1
/// controls escaped. Text goes to `output` in chunks of about `chunkSize` bytes, so a document
/// of any length is printed in constant memory. Keys are written in the order given: callers
/// write them sorted, as `.sortedKeys` does (the tests compare both writers).
struct JSONStreamWriter {
  private let output: (String) -> Void
  private let chunkSize: Int
  private var buffer = ""
  /// The number of values written so far in each open array or object, outermost first.
  private var counts: [Int] = []
  /// A key was just written: the next value follows it on the same line.
  private var afterKey = false

  init(chunkSize: Int = 65_536, output: @escaping (String) -> Void) {
    self.output = output
    self.chunkSize = chunkSize
    buffer.reserveCapacity(chunkSize + 4096)
  }

  // MARK: - Containers

  mutating func beginArray() { open("[") }
  mutating func endArray() { close("]") }
  mutating func beginObject() { open("{") }
  mutating func endObject() { close("}") }

  /// Starts the member `name` of the open object; its value comes next.
  mutating func key(_ name: String) {
    separate()
    appendString(name)
    buffer += " : "
    afterKey = true
  }

  // MARK: - Values

  mutating func string(_ value: String?) {
    separate()
    if let value { appendString(value) } else { buffer += "null" }
    flushIfFull()
  }

  mutating func integer(_ value: (some BinaryInteger)?) {
    separate()
    buffer += value.map { String($0) } ?? "null"
  }

  mutating func bool(_ value: Bool) {
    separate()
    buffer += value ? "true" : "false"
  }

  /// A number (or another single value, never an array or object) as `JSONOutput.encode`
  /// writes it alone: Foundation's number formatting is not reimplemented here.
  mutating func fragment(_ value: some Encodable) throws {
    separate()
    buffer += try JSONOutput.encode(value)
  }

  /// Ends the document with a newline and writes out what is left.
  mutating func finish() {
    buffer += "\n"
    flush()
  }

  mutating func flush() {
    guard !buffer.isEmpty else { return }
    output(buffer)
    buffer.removeAll(keepingCapacity: true)
  }

  // MARK: - Layout

  private mutating func open(_ bracket: String) {
    separate()
    buffer += bracket
    counts.append(0)
  }

  private mutating func close(_ bracket: String) {
    let count = counts.removeLast()
    if count == 0 { buffer += "\n" }
    buffer += "\n"
    indent(counts.count)
    buffer += bracket
    flushIfFull()
  }

  /// What goes before a value or a key: nothing after a key, else the comma of the previous
  /// element, a newline and the indentation of the open container.
  private mutating func separate() {
    if afterKey {
      afterKey = false
      return
    }
    guard !counts.isEmpty else { return }
    buffer += counts[counts.count - 1] == 0 ? "\n" : ",\n"
    counts[counts.count - 1] += 1
    indent(counts.count)
  }

  private mutating func indent(_ depth: Int) {
    for _ in 0..<depth { buffer += "  " }
  }

  private mutating func flushIfFull() {
    if buffer.utf8.count >= chunkSize { flush() }
  }

  /// `value` quoted, with `"`, `\`, the C0 controls, DEL and the C1 controls escaped.
  private mutating func appendString(_ value: String) {
    buffer += "\""
    let plain = !value.utf8.contains { byte in
      byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x7F || byte == 0xC2
    }
    if plain {
      buffer += value
    } else {
      for scalar in value.unicodeScalars {
        switch scalar {
        case "\"": buffer += "\\\""
        case "\\": buffer += "\\\\"
        case "\u{08}": buffer += "\\b"
        case "\t": buffer += "\\t"
        case "\n": buffer += "\\n"
        case "\u{0C}": buffer += "\\f"
        case "\r": buffer += "\\r"
        case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}":
          let hex = String(scalar.value, radix: 16)
          buffer += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: buffer.unicodeScalars.append(scalar)
        }
      }
    }
    buffer += "\""
  }
}

extension JSONOutput.TodoJSON {
  /// Writes the todo as ``encode(to:)`` does, keys sorted.
  func write(to writer: inout JSONStreamWriter) {
    writer.beginObject()
    writer.key("block")
    writer.string(todo.block)
    writer.key("carriedFrom")
    writer.beginArray()
    for day in todo.carriedFrom { writer.string(day.description) }
    writer.endArray()
    writer.key("date")
    writer.string(todo.day.description)
    writer.key("done")
    writer.bool(todo.isDone)
    writer.key("doneBy")
    writer.string(todo.doneBy?.rawValue)
    writer.key("doneOn")
    writer.string(todo.doneAt.map { Day($0, in: timeZone).description })
    writer.key("dropped")
    writer.bool(todo.isDropped)
    writer.key("github")
    if let github = todo.github {
      writer.beginObject()
      writer.key("state")
      writer.string(github.state)
      writer.key("url")
      writer.string(github.url)
      writer.endObject()
    } else {
      writer.string(nil)
    }
    writer.key("id")
    writer.integer(todo.id)
    writer.key("notes")
    writer.string(todo.notes)
    writer.key("overdue")
    writer.bool(todo.isOverdue(today: today))
    writer.key("priority")
    writer.string(todo.priority.rawValue)
    writer.key("project")
    writer.string(todo.project)
    writer.key("tags")
    writer.beginArray()
    for tag in todo.tags { writer.string(tag) }
    writer.endArray()
    writer.key("title")
    writer.string(todo.title)
    writer.key("uuid")
    writer.string(todo.uuid)
    writer.endObject()
  }
}
