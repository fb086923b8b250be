import Core
import Foundation
import Testing

@Suite("Journal operations")
struct JournalOperationTests {
  static let row = "5e550bb4-e29b-4699-9d56-043c0bf7dd9b"
  static let fields: Fields = ["title": .text("Solve BOJ 1753"), "done": .integer(0), "doneAt": .null]

  @Test(
    "the inverse of each action takes it back",
    arguments: [
      (JournalOperation.Action.create(fields), JournalOperation.Action.delete(fields)),
      (.delete(fields), .create(fields)),
      (.update(field: "done", old: .integer(0), new: .integer(1)), .update(field: "done", old: .integer(1), new: .integer(0))),
      (.update(field: "project", old: .null, new: .text(row)), .update(field: "project", old: .text(row), new: .null)),
    ])
  func inverse(action: JournalOperation.Action, expected: JournalOperation.Action) {
    let operation = JournalOperation(.todo, row: Self.row, action)
    #expect(operation.inverse == JournalOperation(.todo, row: Self.row, expected))
    #expect(operation.inverse.inverse == operation)
  }

  @Test("a change's inverse undoes its operations last first")
  func inverseOfAChange() {
    let project = "11111111-1111-4111-8111-111111111111"
    let change = [
      JournalOperation(.todo, row: Self.row, .update(field: "project", old: .text(project), new: .null)),
      JournalOperation(.project, row: project, .delete(["name": .text("ootd")])),
    ]
    #expect(JournalOperation.inverse(of: change) == [
      JournalOperation(.project, row: project, .create(["name": .text("ootd")])),
      JournalOperation(.todo, row: Self.row, .update(field: "project", old: .null, new: .text(project))),
    ])
  }

  @Test(
    "an operation fits the row only as it expects it",
    arguments: [
      (JournalOperation.Action.create(fields), nil as Fields?, nil as OperationConflict?),
      (.create(fields), fields, .rowExists),
      (.update(field: "done", old: .integer(0), new: .integer(1)), fields, nil),
      (.update(field: "done", old: .integer(1), new: .integer(0)), fields,
        .fieldChanged(field: "done", expected: .integer(1), found: .integer(0))),
      (.update(field: "done", old: .integer(0), new: .integer(1)), nil, .rowMissing),
      (.update(field: "memo", old: .null, new: .text("x")), fields, nil),
      (.delete(fields), fields, nil),
      (.delete(fields), nil, .rowMissing),
      (.delete(fields), ["title": .text("Retitled elsewhere"), "done": .integer(0), "doneAt": .null],
        .fieldChanged(field: "title", expected: .text("Solve BOJ 1753"), found: .text("Retitled elsewhere"))),
    ])
  func conflicts(action: JournalOperation.Action, current: Fields?, expected: OperationConflict?) {
    #expect(JournalOperation(.todo, row: Self.row, action).conflict(current: current) == expected)
  }
}

@Suite("Change summaries")
struct ChangeSummaryTests {
  static let a = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa"
  static let b = "bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb"
  static let p = "cccccccc-cccc-4ccc-8ccc-cccccccccccc"
  static let names = [a: "Solve BOJ 1753", b: "Write the README", p: "ootd"]

  static func done(_ row: String, _ value: Int64) -> [JournalOperation] {
    [
      JournalOperation(.todo, row: row, .update(field: "done", old: .integer(1 - value), new: .integer(value))),
      JournalOperation(.todo, row: row, .update(field: "doneAt", old: .null, new: .text("2026-11-23 10:00:00.000"))),
    ]
  }

  @Test(
    "each kind of change reads as one line",
    arguments: [
      (done(a, 1) + done(b, 1), "2 todos done ('Solve BOJ 1753', 'Write the README')"),
      (done(a, 0) + done(b, 0), "2 todos open again ('Solve BOJ 1753', 'Write the README')"),
      ([JournalOperation(.todo, row: a, .create(["title": .text("Solve BOJ 1753"), "done": .integer(0)]))],
        "added 1 todo ('Solve BOJ 1753')"),
      ([JournalOperation(.todo, row: a, .delete(["title": .text("Solve BOJ 1753")]))], "deleted 1 todo ('Solve BOJ 1753')"),
      ([JournalOperation(.todo, row: a, .update(field: "day", old: .text("2026-11-20"), new: .text("2026-11-23"))),
        JournalOperation(.todo, row: b, .update(field: "day", old: .text("2026-11-21"), new: .text("2026-11-23")))],
        "2 todos moved to 2026-11-23 ('Solve BOJ 1753', 'Write the README')"),
      ([JournalOperation(.todo, row: a, .update(field: "title", old: .text("Old"), new: .text("Solve BOJ 1753")))],
        "retitled 'Old' to 'Solve BOJ 1753'"),
      // The title the operation set, whatever the todo is called now (`log` of an earlier
      // retitle; a redo's line, whose names are read before it is applied).
      ([JournalOperation(.todo, row: a, .update(field: "title", old: .text("Old"), new: .text("Newer")))],
        "retitled 'Old' to 'Newer'"),
      ([JournalOperation(.todo, row: a, .update(field: "project", old: .text(p), new: .null)),
        JournalOperation(.project, row: p, .delete(["name": .text("ootd")]))],
        "1 todo unlinked from their project ('Solve BOJ 1753'); deleted project 'ootd'"),
      ([JournalOperation(.project, row: p, .update(field: "archived", old: .integer(0), new: .integer(1)))],
        "archived project 'ootd'"),
      ([JournalOperation(.block, row: p, .update(field: "routine", old: .integer(0), new: .integer(1)))],
        "block 'ootd' added to the routine"),
      // A sync's renumbering; a pulled todo's provisional number is never shown.
      ([JournalOperation(.todo, row: a, .update(field: "id", old: .integer(1), new: .integer(4)))],
        "renumbered 'Solve BOJ 1753' from #1 to #4"),
      ([JournalOperation(.todo, row: a, .update(field: "id", old: .integer(-1), new: .integer(1)))],
        "'Solve BOJ 1753' got number #1"),
      // `drop` and the `undone` that takes a dropped todo back up are told apart (both read
      // "changed dropped" before).
      ([JournalOperation(.todo, row: a, .update(field: "dropped", old: .integer(0), new: .integer(1)))],
        "1 todo dropped ('Solve BOJ 1753')"),
      ([JournalOperation(.todo, row: a, .update(field: "dropped", old: .integer(1), new: .integer(0))),
        JournalOperation(.todo, row: b, .update(field: "dropped", old: .integer(1), new: .integer(0)))],
        "2 todos taken back up ('Solve BOJ 1753', 'Write the README')"),
      ([], "no change"),
    ])
  func describes(operations: [JournalOperation], expected: String) {
    #expect(ChangeSummary.describe(operations, names: Self.names) == expected)
  }

  @Test("a first sync's record from another machine says what it brought, then what it changed")
  func pulled() {
    #expect(
      ChangeSummary.pulled([.todo: 20, .project: 3], changes: "added 20 todos ('a', 'b', 'c' and 17 more)")
        == "pulled 20 todos, 3 projects; added 20 todos ('a', 'b', 'c' and 17 more)")
    #expect(ChangeSummary.pulled([.block: 1], changes: nil) == "pulled 1 block; all already here")
  }

  @Test("more than three names end in 'and N more'")
  func longLists() {
    let rows = (0..<5).map { "0000000\($0)-0000-4000-8000-000000000000" }
    let operations = rows.flatMap { Self.done($0, 1) }
    let names = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1, "t\($0)") })
    #expect(ChangeSummary.describe(operations, names: names) == "5 todos done ('t0', 't1', 't2' and 2 more)")
  }

  @Test("a row is counted once per clause, however its operations interleave with others'")
  func rowsCountedOnce() {
    let rows = (0..<3).map { "0000000\($0)-0000-4000-8000-000000000000" }
    let names = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1, "p\($0)") })
    // Project edits of rows 0, 1, 0, 2, 1: three projects edited; the text key "x" counts too.
    let edits = [0, 1, 0, 2, 1].map {
      JournalOperation(.project, row: rows[$0], .update(field: "memo", old: .null, new: .text("m\($0)")))
    }
    #expect(ChangeSummary.describe(edits, names: names) == "edited 3 projects ('p0', 'p1', 'p2')")
    let textRows = ["x", "x", "y"].map { JournalOperation(.block, row: $0, .update(field: "title", old: .null, new: .text("t"))) }
    #expect(ChangeSummary.describe(textRows, names: ["x": "a", "y": "b"]) == "edited 2 blocks ('a', 'b')")
  }

  @Test("uuids that differ only in where their dashes are are different rows")
  func dashPlacement() {
    let a = "00000000-0000-4000-8000-000000000001"
    let b = "0000000-00000-4000-8000-000000000001"
    let operations = [a, b].map { JournalOperation(.project, row: $0, .update(field: "memo", old: .null, new: .text("m"))) }
    #expect(ChangeSummary.describe(operations, names: [a: "a", b: "b"]) == "edited 2 projects ('a', 'b')")
  }

  @Test("past twelve clauses the line says how many more changes there are")
  func manyClauses() {
    let days = (1...15).map { String(format: "2026-11-%02d", $0) }
    let operations = days.enumerated().map { index, day in
      JournalOperation(.todo, row: "0000000\(index % 10)-0000-4000-8000-00000000000\(index / 10)",
        .update(field: "day", old: .text("2026-12-01"), new: .text(day)))
    }
    let text = ChangeSummary.describe(operations, names: [:])
    #expect(text.hasPrefix("1 todo moved to 2026-11-01 ('?'); 1 todo moved to 2026-11-02 ('?')"))
    #expect(text.hasSuffix("1 todo moved to 2026-11-12 ('?'); and 3 more changes"))
    #expect(text.components(separatedBy: "; ").count == ChangeSummary.listedClauses + 1)
  }

  @Test("the builder names only the rows its line shows")
  func namedRows() {
    let rows = (0..<5).map { "0000000\($0)-0000-4000-8000-000000000000" }
    let project = "cccccccc-cccc-4ccc-8ccc-cccccccccccc"
    var builder = ChangeSummary.Builder()
    for row in rows {
      builder.add(JournalOperation(.todo, row: row, .update(field: "project", old: .null, new: .text(project))))
    }
    #expect(builder.namedRows == Array(rows.prefix(3)) + [project])
    let names = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1, "t\($0)") })
    #expect(builder.text(names: names.merging([project: "ootd"]) { $1 })
      == "5 todos linked to project ootd ('t0', 't1', 't2' and 2 more)")
  }

  @Test("undo and redo lines name the command")
  func undoLine() {
    #expect(ChangeSummary.undid("done 12 13", effect: "2 todos open again ('a', 'b')")
      == "Undid 'done 12 13': 2 todos open again ('a', 'b')")
    #expect(ChangeSummary.redid("add x", effect: "added 1 todo ('x')") == "Redid 'add x': added 1 todo ('x')")
  }
}

@Suite("Row ids")
struct RowIDTests {
  @Test("random uuids are lowercase RFC 4122 text and differ")
  func random() {
    let ids = (0..<100).map { _ in RowID.random() }
    #expect(ids.allSatisfy(RowID.isValid))
    #expect(Set(ids).count == 100)
  }

  @Test(
    "name-based uuids follow RFC 4122 version 5 (SHA-1)",
    arguments: [
      // The RFC's DNS namespace and Python's uuid.uuid5(uuid.NAMESPACE_DNS, name).
      ("www.example.com", "2ed6657d-e927-568b-95e1-2665a8aea6a2"),
      ("python.org", "886313e1-3b8a-5372-9b90-0c9aee199e5d"),
    ])
  func nameBased(name: String, expected: String) {
    let dns: [UInt8] = [
      0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8,
    ]
    #expect(RowID.nameBased(name, namespace: dns) == expected)
  }

  @Test("built-in blocks get the same uuid from the same name, whatever its case, and distinct ones per name")
  func builtIns() {
    #expect(RowID.builtInBlock("algorithm") == RowID.builtInBlock("Algorithm"))
    let all = TaskBlock.builtIns.map { RowID.builtInBlock($0.name) }
    #expect(Set(all).count == all.count)
    #expect(all.allSatisfy(RowID.isValid))
  }

  @Test("validation accepts only lowercase 8-4-4-4-12 hex", arguments: [
    ("5e550bb4-e29b-4699-9d56-043c0bf7dd9b", true), ("5E550BB4-E29B-4699-9D56-043C0BF7DD9B", false),
    ("5e550bb4e29b46999d56043c0bf7dd9b", false), ("", false), ("5e550bb4-e29b-4699-9d56-043c0bf7dd9g", false),
  ])
  func validation(text: String, valid: Bool) {
    #expect(RowID.isValid(text) == valid)
  }

  @Test("the bits of a uuid: the 128 its lowercase hex spells, nil for any other text", arguments: [
    ("5e550bb4-e29b-4699-9d56-043c0bf7dd9b", 0x5e55_0bb4_e29b_4699_9d56_043c_0bf7_dd9b as UInt128?),
    ("01234567-89ab-cdef-0123-456789abcdef", 0x0123_4567_89ab_cdef_0123_4567_89ab_cdef),
    ("00000000-0000-0000-0000-000000000000", 0), ("ffffffff-ffff-ffff-ffff-ffffffffffff", .max),
    // Upper case, whole or one letter.
    ("5E550BB4-E29B-4699-9D56-043C0BF7DD9B", nil), ("5e550bb4-e29b-4699-9d56-043c0bf7dd9B", nil),
    // Lengths: no hyphens, one short, one long, a hyphen more, space or newline around, empty.
    ("5e550bb4e29b46999d56043c0bf7dd9b", nil), ("5e550bb4-e29b-4699-9d56-043c0bf7dd9", nil),
    ("5e550bb4-e29b-4699-9d56-043c0bf7dd9b0", nil), ("5e550bb4-e29b-4699-9d56-043c0bf7dd9b-", nil),
    (" 5e550bb4-e29b-4699-9d56-043c0bf7dd9b", nil), ("5e550bb4-e29b-4699-9d56-043c0bf7dd9b\n", nil),
    ("{5e550bb4-e29b-4699-9d56-043c0bf7dd9b}", nil), ("", nil),
    // Hyphens misplaced, one length: a place early, a digit in a hyphen's place, one in a digit's.
    ("5e550bb-4e29b-4699-9d56-043c0bf7dd9b", nil), ("5e550bb40e29b-4699-9d56-043c0bf7dd9b", nil),
    ("5e550bb4-e29b-4699-9d56-043c0bf7dd-b", nil), ("5e550bb4-e29b-4699-9d56043c-0bf7dd9b", nil),
    // Not hex: a letter past f, other ASCII, and text past ASCII (of 37 bytes, of 36, a full-width digit).
    ("5e550bb4-e29b-4699-9d56-043c0bf7dd9g", nil), ("5e550bb4-e29b-4699-9d56-043c0bf7dd9:", nil),
    ("5e550bb4-e29b-4699-9d56-043c0bf7dd9é", nil), ("5e550bb4-e29b-4699-9d56-043c0bf7ddé", nil),
    ("5e550bb4-e29b-4699-9d56-043c0bf7d\u{FF19}", nil),
  ])
  func bits(text: String, expected: UInt128?) {
    #expect(RowID.bits(text) == expected)
    #expect(RowID.isValid(text) == (expected != nil))
  }

  /// The bits of uuids made here (name-based, of 200 names) are Foundation's bytes of them.
  @Test func bitsAreTheUUIDsBytes() throws {
    for index in 0..<200 {
      let text = RowID.syncRecord("record \(index)")
      let uuid = try #require(UUID(uuidString: text)).uuid
      let bytes = withUnsafeBytes(of: uuid) { Array($0) }
      #expect(RowID.bits(text) == bytes.reduce(0) { $0 << 8 | UInt128($1) })
    }
  }
}
