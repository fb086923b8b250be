import Core
import Formats
import Testing

/// ``JSONText/isObjectText(_:)``: the text a pulled payload gives a todo's fields is kept for its
/// journal row only when it is byte for byte what ``JSONText/object(_:)`` writes (issue 24).
@Suite("JSONText.isObjectText")
struct FieldsObjectTextTests {
  static func check(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { JSONText.isObjectText($0) }
  }

  @Test(
    "what object(_:) writes is recognised",
    arguments: [
      Fields(),
      ["done": .integer(0)],
      ["id": .integer(-7), "title": .text("plain")],
      [
        "carriedFrom": .null, "day": .text("2026-11-28"), "done": .integer(1), "id": .integer(123_456_789_012_345_678),
        "priority": .integer(2), "tags": .text("a b"),
        "title": .text("Tidy 🧹 최단경로 \u{7F}"),
      ],
    ] as [Fields])
  func written(fields: Fields) {
    let text = JSONText.object(fields)
    #expect(Self.check(text), "\(text)")
    #expect(JSONText.fields(text) == fields)
  }

  @Test(
    "any other text is not (the journal writes it again)",
    arguments: [
      "", "{", "}", "[]", "{ }", "{\"a\":1 }", "{\"a\": 1}", " {\"a\":1}", "{\"a\":1} ",
      "{\"b\":1,\"a\":2}",  // not sorted
      "{\"a\":1,\"a\":2}",  // a name twice
      "{\"a\":\"x\\\"y\"}",  // an escape (object(_:) writes this one, but it is not kept)
      "{\"a\":\"\\u0041\"}", "{\"\\u0061\":1}",
      "{\"a\":-0}", "{\"a\":01}", "{\"a\":1.0}", "{\"a\":1e3}", "{\"a\":-}",
      "{\"a\":1234567890123456789}",  // 19 digits: left to the writer
      "{\"a\":true}", "{\"a\":nul}", "{\"a\":{}}", "{\"a\":[]}",
      "{\"é\":1}",  // a name outside ASCII
      "{\"a\":1,}", "{,\"a\":1}", "{\"a\"1}", "{\"a\":1\"b\":2}",
    ])
  func other(text: String) {
    #expect(!Self.check(text), "\(text)")
  }

  @Test("a payload's creation keeps its fields' text only when it is object(_:)'s")
  func payload() throws {
    let stamp = Stamp(clock: 42, device: "d")
    let plain: Fields = ["done": .integer(0), "id": .integer(3), "title": .text("x")]
    let escaped: Fields = ["done": .integer(0), "id": .integer(4), "title": .text("say \"hi\"")]
    let payload = SyncPayload.encode(
      command: "add",
      [
        SyncOperation(.todo, row: RowID.random(), .create(plain), stamp: stamp),
        SyncOperation(.todo, row: RowID.random(), .create(escaped), stamp: stamp),
        SyncOperation(.todo, row: RowID.random(), .update(field: "done", value: .integer(1)), stamp: stamp),
      ])
    let operations = try SyncPayload.decode(payload, device: "d").operations
    #expect(operations.map(\.fieldsText) == [JSONText.object(plain), nil, nil])
    // Written by another writer (spaces, another order): the same fields, no text kept.
    let other = payload.replacingOccurrences(
      of: JSONText.object(plain), with: "{\"title\": \"x\", \"id\": 3, \"done\": 0}")
    let decoded = try SyncPayload.decode(other, device: "d").operations
    #expect(decoded == operations)
    #expect(decoded.map(\.fieldsText) == [nil, nil, nil])
    // A new kind drops the text.
    var changed = operations[0]
    changed.kind = .create(["done": .integer(1), "id": .integer(3), "title": .text("x")])
    #expect(changed.fieldsText == nil)
  }
}
