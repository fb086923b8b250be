import Core
import Formats
import Testing

/// The text of a sync payload, written as bytes by ``SyncPayload/Chunker`` (issue 24): the
/// records other machines read and the journal keeps (``SyncOperation/fieldsText``), so it
/// must not change.
@Suite("SyncPayload: the payload's text")
struct SyncPayloadTextTests {
  static let stamp = Stamp(clock: 1_764_000_000_123_456, device: "d")
  static let fields: Fields = [
    "title": .text("say \"hi\"\n\ttab \\ back 🧹 \u{1}"), "id": .integer(-3), "day": .null,
    "project": .text("5e55c0de-0000-4000-8000-000000000001"), "done": .integer(0),
  ]

  @Test("a creation, an update and a deletion: the text as ootd has always written it")
  func golden() {
    let payload = SyncPayload.encode(
      command: "edit \"1\"", from: "desk",
      [
        SyncOperation(.todo, row: "r1", .create(Self.fields), stamp: Self.stamp),
        SyncOperation(.project, row: "r2", .update(field: "name", value: .text("a\"b")), stamp: Self.stamp),
        SyncOperation(.todo, row: "r3", .update(field: "day", value: .null), stamp: Self.stamp),
        SyncOperation(.todo, row: "r4", .update(field: "done", value: .integer(1)), stamp: Self.stamp),
        SyncOperation(.block, row: "r5", .delete, stamp: Self.stamp),
      ])
    let expected =
      #"{"v":1,"command":"edit \"1\"","from":"desk","ops":["#
      + #"{"entity":"todo","row":"r1","action":"create","fields":{"day":null,"done":0,"id":-3,"#
      + #""project":"5e55c0de-0000-4000-8000-000000000001","title":"say \"hi\"\n\ttab \\ back 🧹 \u0001"},"#
      + #""clock":1764000000123456},"#
      + #"{"entity":"project","row":"r2","action":"update","field":"name","value":"a\"b","clock":1764000000123456},"#
      + #"{"entity":"todo","row":"r3","action":"update","field":"day","value":null,"clock":1764000000123456},"#
      + #"{"entity":"todo","row":"r4","action":"update","field":"done","value":1,"clock":1764000000123456},"#
      + #"{"entity":"block","row":"r5","action":"delete","clock":1764000000123456}]}"#
    #expect(payload == expected)
    #expect(SyncPayload.chunks(command: "edit \"1\"", from: "desk", []).isEmpty)
  }

  @Test("creations handed over as their fields' text: the payloads and ranges of chunks(_:)")
  func creationsAsText() throws {
    // Past ``Caps/operationsPerRecord`` twice, so that the split is the one `chunks` makes.
    var operations: [SyncOperation] = []
    for index in 0..<(2 * Caps.operationsPerRecord + 7) {
      var fields = Self.fields
      fields["id"] = .integer(Int64(index))
      fields["title"] = .text(String(repeating: "x", count: index % 13) + "\"\(index)")
      let number = String(index)
      let row = "5e55c0de-0000-4000-8000-" + String(repeating: "0", count: 12 - number.count) + number
      operations.append(SyncOperation(.todo, row: row, .create(fields), stamp: Self.stamp))
    }
    var chunker = SyncPayload.Chunker(command: "(first sync)", from: "desk")
    for operation in operations {
      guard case .create(let fields) = operation.kind else { continue }
      chunker.addCreation(.todo, row: operation.row, clock: operation.stamp.clock) {
        JSONText.appendObject(fields, to: &$0)
      }
    }
    let byText = chunker.finish()
    let byOperations = SyncPayload.chunks(command: "(first sync)", from: "desk", operations)
    #expect(byText.map(\.range) == [0..<1000, 1000..<2000, 2000..<2007])
    #expect(byText.map(\.range) == byOperations.map(\.range))
    #expect(byText.map(\.payload) == byOperations.map(\.payload))
    // And each reads back as the operations it holds.
    let decoded = try SyncPayload.decode(byText[2].payload, device: "d").operations
    #expect(decoded == Array(operations[2000..<2007]))
  }

  @Test("a payload holds every operation the byte cap lets in, and a finished chunker starts again")
  func byteCap() throws {
    // Operations of one length (same digits, same title), each ~20 KB: the byte cap, not the
    // count, splits them.
    let title = String(repeating: "y", count: 20_000)
    func operation(_ index: Int) -> SyncOperation {
      var fields = Self.fields
      fields["id"] = .integer(Int64(10_000 + index))
      fields["title"] = .text(title)
      let number = String(10_000 + index)
      let row = "5e55c0de-0000-4000-8000-" + String(repeating: "0", count: 12 - number.count) + number
      return SyncOperation(.todo, row: row, .create(fields), stamp: Self.stamp)
    }
    // One operation's text with its comma: what a second one adds to a payload.
    let one = try #require(SyncPayload.chunks(command: "c", [operation(0)]).first).payload.utf8.count
    let two = try #require(SyncPayload.chunks(command: "c", [operation(0), operation(1)]).first).payload.utf8.count
    let each = two - one
    let operations = (0..<700).map(operation)
    var chunker = SyncPayload.Chunker(command: "c")
    for operation in operations { chunker.add(operation) }
    let chunks = chunker.finish()
    #expect(chunks.count == 3)
    #expect(chunks.map(\.range.lowerBound) == [0] + chunks.dropLast().map(\.range.upperBound))
    #expect(chunks.last?.range.upperBound == operations.count)
    for (index, chunk) in chunks.enumerated() {
      #expect(chunk.payload.utf8.count <= Caps.plainPayloadBytes)
      // Greedy: the next operation would not have fitted.
      if index < chunks.count - 1 { #expect(chunk.payload.utf8.count + each > Caps.plainPayloadBytes) }
    }
    // Used again after finish(): as new.
    for operation in operations.prefix(3) { chunker.add(operation) }
    let again = chunker.finish()
    #expect(again.map(\.range) == [0..<3])
    #expect(again.map(\.payload) == SyncPayload.chunks(command: "c", Array(operations.prefix(3))).map(\.payload))
    #expect(try SyncPayload.decode(again[0].payload, device: "d").operations == Array(operations.prefix(3)))
  }

  @Test("appendObject(sortedNames:) writes what object(_:) writes")
  func sortedNames() {
    let names = Self.fields.keys.sorted()
    var bytes: [UInt8] = [UInt8(ascii: "x")]
    JSONText.appendObject(sortedNames: names, to: &bytes) { Self.fields[names[$0]]! }
    #expect(String(decoding: bytes, as: UTF8.self) == "x" + JSONText.object(Self.fields))
    #expect(JSONText.object(sortedNames: names, values: names.map { Self.fields[$0]! }) == JSONText.object(Self.fields))
  }
}

@Suite("JSONText.appendInteger")
struct AppendIntegerTests {
  @Test(
    "every integer as String(_:) writes it",
    arguments: [
      0, 1, -1, 9, 10, -10, 99, 100, 123_456_789, -987_654_321, 1_764_000_000_123_456,
      Int64.max, Int64.min, Int64.max - 1, Int64.min + 1,
    ] as [Int64])
  func integer(value: Int64) {
    var bytes: [UInt8] = [UInt8(ascii: ":")]
    JSONText.appendInteger(value, to: &bytes)
    #expect(String(decoding: bytes, as: UTF8.self) == ":" + String(value))
  }
}
