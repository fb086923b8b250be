import Core
import Formats
import Testing

/// ``SyncOperation/fieldsText``: the text a pulled payload gives a todo's fields is kept for its
/// journal row only when it is byte for byte what ``JSONText/object(_:)`` writes (issue 24),
/// which ``SyncPayload/decode(_:device:)`` decides as it reads the fields.
@Suite("SyncPayload: a creation's fields text kept")
struct FieldsObjectTextTests {
  static let row = "5e55c0de-0000-4000-8000-0000000000aa"

  /// Whether the creation whose fields are `text` keeps it; nil when the payload is refused.
  static func check(_ text: String) -> Bool? {
    let payload = "{\"v\":1,\"command\":\"add\",\"ops\":[{\"entity\":\"todo\",\"row\":\"\(row)\","
      + "\"action\":\"create\",\"fields\":\(text),\"clock\":42}]}"
    guard let operations = try? SyncPayload.decode(payload, device: "d").operations else { return nil }
    return operations[0].fieldsText.map { $0 == text } ?? false
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
    #expect(Self.check(text) == true, "\(text)")
    #expect(JSONText.fields(text) == fields)
  }

  @Test(
    "any other text is not (the journal writes it again)",
    arguments: [
      "{ }", "{\"a\":1 }", "{\"a\": 1}", "{\"a\" :1}", "{ \"a\":1}", "{\"a\":1, \"b\":2}",
      "{\"b\":1,\"a\":2}",  // not sorted
      "{\"a\":1,\"a\":2}",  // a name twice
      "{\"a\":\"x\\\"y\"}",  // an escape (object(_:) writes this one, but it is not kept)
      "{\"a\":\"\\u0041\"}", "{\"\\u0061\":1}", "{\"a\":\"\\/\"}",
      "{\"a\":-0}",
      "{\"a\":1234567890123456789}",  // 19 digits: left to the writer
      "{\"é\":1}",  // a name outside ASCII
    ])
  func other(text: String) {
    #expect(Self.check(text) == false, "\(text)")
  }

  @Test(
    "a creation whose fields are not an object of field values is refused",
    arguments: [
      "{\"a\":01}", "{\"a\":1.0}", "{\"a\":1e3}", "{\"a\":-}", "{\"a\":true}", "{\"a\":nul}",
      "{\"a\":{}}", "{\"a\":[]}", "{\"a\":1,}", "{,\"a\":1}", "{\"a\"1}", "{\"a\":1\"b\":2}",
      "{", "}", "[]", "1", "null", "\"{}\"",
    ])
  func refused(text: String) {
    #expect(Self.check(text) == nil, "\(text)")
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

  /// What a payload's reading refuses, and why, as a tree of it read whole decided (the reading
  /// makes none now): the whole text read first, a key given twice meaning its last value, the
  /// payload's own keys looked at before its operations, the operations in order.
  @Test(
    "a payload is refused as a tree's reading refused it",
    arguments: [
      ("{\"v\":1,\"ops\":[],\"v\":2}", "version 2; update ootd"),
      ("{\"v\":1,\"ops\":[{\"entity\":\"todo\",\"row\":\"\(row)\",\"clock\":1,\"action\":\"delete\"}],\"ops\":5}",
       "no operations"),
      ("{\"v\":1,\"ops\":[1]}", "an operation without entity, row or clock"),
      ("{\"v\":1,\"ops\":[{\"entity\":\"todo\",\"row\":\"\(row)\",\"clock\":1.5,\"action\":\"delete\"}]}",
       "an operation without entity, row or clock"),
      ("{\"v\":1,\"ops\":[{\"entity\":\"todo\",\"row\":\"\(row)\",\"clock\":1,\"action\":\"drop\"}]}",
       "unknown action"),
      // An operation refused, then a syntax error: the text is what is refused.
      ("{\"v\":1,\"ops\":[1,]}", "not JSON"),
      ("{\"v\":1,\"ops\":[1]} x", "not JSON"),
      // The version is looked at before the operations, wherever it is written.
      ("{\"ops\":[1],\"v\":\"1\"}", "not JSON"),
      ("{\"ops\":[1],\"v\":3}", "version 3; update ootd"),
      // The first operation refused is the one named.
      ("{\"v\":1,\"ops\":[{\"entity\":\"todo\",\"row\":\"\(row)\",\"clock\":1,\"action\":\"create\",\"fields\":[]},"
       + "{\"entity\":\"todo\",\"row\":\"\(row)\",\"clock\":1,\"action\":\"update\"}]}", "a creation without fields"),
      ("{\"v\":1,\"ops\":[{\"entity\":\"todo\",\"row\":\"\(row)\",\"clock\":1,\"action\":\"create\","
       + "\"fields\":{\"a\":1},\"fields\":{\"a\":true}}]}", "a creation without fields"),
      ("[1]", "not JSON"), ("", "not JSON"),
      ("{\"v\":1,\"ops\":[" + Array(repeating: "1", count: 1001).joined(separator: ",") + "]}", "more than 1000 operations"),
    ])
  func refusedAsATree(payload: String, why: String) {
    #expect(throws: CoreError.invalidSyncRecord(why)) { try SyncPayload.decode(payload, device: "d") }
  }

  @Test("a key given twice means its last value, in a payload, an operation and its fields")
  func lastValue() throws {
    let payload = """
      \u{FEFF} {"v":1,"command":"a","ops":[{"entity":"todo"}],"command":"b","ops":[{"entity":"todo","row":"\(Self.row)",
      "clock":1,"action":"create","fields":{"title":"x"},"clock":2,"fields":{"title":"y","done":0,"title":"z"}}]}
      """
    let batch = try SyncPayload.decode(payload, device: "d")
    #expect(batch.command == "b")
    #expect(batch.operations == [
      SyncOperation(.todo, row: Self.row, .create(["title": .text("z"), "done": .integer(0)]), stamp: Stamp(clock: 2, device: "d"))
    ])
    // A name twice: neither the text nor the names in order are kept.
    #expect(batch.operations[0].fieldsText == nil)
    #expect(batch.operations[0].ordered == nil)
  }

  @Test("creations with the same names share one array of them, in order")
  func sharedNames() throws {
    let stamp = Stamp(clock: 42, device: "d")
    let rows = (0..<3).map { _ in RowID.random() }
    let payload = SyncPayload.encode(
      command: "add",
      [
        SyncOperation(.todo, row: rows[0], .create(["title": .text("a"), "done": .integer(0)]), stamp: stamp),
        SyncOperation(.todo, row: rows[1], .create(["title": .text("b"), "done": .integer(1)]), stamp: stamp),
        SyncOperation(.todo, row: rows[2], .create(["title": .text("c")]), stamp: stamp),
      ])
    let operations = try SyncPayload.decode(payload, device: "d").operations
    // (The second takes the first's dictionary layout and sets its own values in it.)
    #expect(operations.map(\.kind) == [
      .create(["title": .text("a"), "done": .integer(0)]), .create(["title": .text("b"), "done": .integer(1)]),
      .create(["title": .text("c")]),
    ])
    #expect(operations[0].kind != operations[1].kind)
    let ordered = operations.compactMap(\.ordered)
    #expect(ordered.map(\.names) == [["done", "title"], ["done", "title"], ["title"]])
    #expect(ordered.map(\.values) == [[.integer(0), .text("a")], [.integer(1), .text("b")], [.text("c")]])
    ordered[0].names.withUnsafeBufferPointer { first in
      ordered[1].names.withUnsafeBufferPointer { second in #expect(first.baseAddress == second.baseAddress) }
    }
  }
}
