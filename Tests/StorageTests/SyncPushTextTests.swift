import Core
import Formats
import Foundation
import GRDB
import Testing

@testable import Storage

/// A first push writes each todo's creation straight from its row
/// (``TodoRecord/appendFieldsText(to:)``, issue 24): the text must be, byte for byte, what
/// ``JSONText/object(_:)`` writes for the row's ``TodoRecord/fields`` (the journal keeps it as
/// it arrives, ``SyncOperation/fieldsText``), and the records those of the operations.
@Suite("Sync: a first push's todos written from their rows")
struct SyncPushTextTests {
  static let uuid = "5e55c0de-0000-4000-8000-0000000000aa"

  /// Rows holding every kind of value of every field: nulls, integers (negative, zero, large),
  /// texts needing escapes, a title with quotes, new lines and an emoji, links.
  static let rows: [Fields] = [
    .todo([.id: .integer(1), .title: .text("plain"), .priority: .integer(1), .createdAt: .text("2026-11-18 10:00:00")]),
    .todo([
      .id: .integer(-42), .title: .text("say \"hi\"\nthen\r\n\tleave \\ 🧹🏳️‍🌈 최단경로 \u{1}\u{7F}\u{85}"),
      .priority: .integer(0), .day: .text("2026-11-22"), .done: .integer(1), .doneAt: .text("2026-11-19 08:00:00"),
      .project: .text("5e55c0de-0000-4000-8000-000000000001"), .block: .text("gym \"x\""),
      .createdAt: .text("2026-11-18 10:00:00"), .dropped: .integer(1), .carriedFrom: .text("2026-11-20,2026-11-21"),
      .notes: .text("line 1\nline 2 \u{2028}"), .githubUrl: .text("https://github.com/o/r/issues/1"),
      .githubState: .text("closed"), .doneBy: .text("github"), .keepOpen: .integer(1), .tags: .text("a b\u{0}c"),
      .annotations: .text(#"[{"entry":"2026-11-18 10:00:00","description":"a \"note\""}]"#),
      .attributes: .text(#"{"k":"v"}"#),
    ]),
    .todo([
      .id: .integer(9_007_199_254_740_993), .title: .text("x"), .priority: .integer(2), .day: .null,
      .createdAt: .text("2026-11-18 10:00:00"), .tags: .text(""), .notes: .text("\u{8}\u{C}"),
    ]),
  ]

  @Test("the row's fields as object(_:) writes them", arguments: rows)
  func fieldsText(fields: Fields) throws {
    let record = try TodoRecord(uuid: Self.uuid, created: fields, projectName: "p")
    var bytes: [UInt8] = []
    record.appendFieldsText(to: &bytes)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text == JSONText.object(record.fields))
    #expect(JSONText.fields(text) == record.fields)
  }

  @Test("a first push's records: the payloads of the rows' operations, links named as records name them")
  func firstPush() throws {
    let a = try AppDatabase.inMemory(command: "test")
    try a.addProject(try Project(name: "ootd"), now: fixedNow)
    _ = try a.addBlock(try TaskBlock(name: "gym", title: "Gym", priority: .low), now: fixedNow)
    for index in 0..<1_203 {
      _ = try a.addTodo(
        try draft(
          "todo \(index)", index % 3 == 0 ? .high : .mid, project: index % 4 == 0 ? "ootd" : nil,
          block: index % 5 == 0 ? "gym" : nil), now: fixedNow)
    }
    // Every column set on some rows, as no command sets them all: the written values of `rows`.
    try a.writer.write { db in
      for (index, fields) in Self.rows.dropFirst().enumerated() {
        try db.execute(
          sql: """
            UPDATE todo SET title = ?, day = ?, done = ?, doneAt = ?, block = ?, dropped = ?, carriedFrom = ?,
              notes = ?, githubUrl = ?, githubState = ?, doneBy = ?, keepOpen = ?, tags = ?, annotations = ?,
              attributes = ?
            WHERE id = ?
            """,
          arguments: [
            fields["title"]?.text, fields["day"]?.text, fields["done"]?.integer ?? 0, fields["doneAt"]?.text,
            index == 0 ? "a block no longer here" : nil, fields["dropped"]?.integer ?? 0, fields["carriedFrom"]?.text,
            fields["notes"]?.text, fields["githubUrl"]?.text, fields["githubState"]?.text, fields["doneBy"]?.text,
            fields["keepOpen"]?.integer ?? 0, fields["tags"]?.text, fields["annotations"]?.text,
            fields["attributes"]?.text, index + 2,
          ])
      }
    }
    try a.sync.beginSync(fileIdentity: nil, now: fixedNow)
    let page = try #require(try a.sync.pushPage())
    // The records as they were made before: each todo's ``Fields``, its link translated, as
    // operations chunked by ``SyncPayload/chunks(command:from:entry:always:_:)``.
    let expected = try a.writer.read { db in
      let floor = try #require(try SyncState.integer(db, "floor"))
      let device = try #require(try SyncState.text(db, "floorDevice"))
      let name = try KeyValueTable.remoteSettings.value(db, RemoteSetting.deviceName.rawValue, as: String.self)
      let links = LinkTranslation(db)
      let operations = try TodoRecord.fetchAll(db, where: "1", order: "todo.uuid").map { record in
        try links.outgoing(
          SyncOperation(.todo, row: record.uuid, .create(record.fields), stamp: Stamp(clock: floor, device: device)))
      }
      // (All naming the first sync's one entry.)
      let entry = SyncState.firstSyncEntry(device: device, floor: floor)
      return SyncPayload.chunks(command: SyncState.firstSyncCommand, from: name, entry: entry, always: true, operations).map(\.payload)
    }
    let todoPayloads = page.records.map(\.payload).filter { $0.contains("\"entity\":\"todo\"") }
    #expect(todoPayloads.count == 2)
    #expect(todoPayloads == expected)
    #expect(expected.joined().contains("a block no longer here"))
    let gym = try a.writer.read { db in try String.fetchOne(db, sql: "SELECT uuid FROM block WHERE name = 'gym'") }
    #expect(expected.joined().contains("\"block\":\"\(try #require(gym))\""))
    // Every creation's text is one the pull keeps as it is, but for the two rows whose texts
    // need escapes (``SyncPayload/decode(_:device:)`` leaves those to be written again).
    let operations = try todoPayloads.flatMap { try SyncPayload.decode($0, device: "d").operations }
    #expect(operations.count == 1_203)
    #expect(operations.filter { $0.fieldsText == nil }.count == 2)
  }
}
