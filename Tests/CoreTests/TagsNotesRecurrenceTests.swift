import Core
import Testing

@Suite("Tags, notes and routine recurrence")
struct TagsNotesRecurrenceTests {
  @Test(
    "+name words of a title become tags; other words stay, exactly when there is no tag",
    arguments: [
      ("Fix login +bug", "Fix login", ["bug"]),
      ("+web Fix  login +Bug +bug", "Fix login", ["bug", "web"]),
      ("Fix  login", "Fix  login", []),
      ("C++ is hard", "C++ is hard", []),
      ("bump +1 and +3d later", "bump +1 and +3d later", []),
      ("a + b", "a + b", []),
      ("read +독서 today", "read today", ["독서"]),
      ("x +a.b-c_d", "x", ["a.b-c_d"]),
      ("x +bad!", "x +bad!", []),
      ("+only", "", ["only"]),
      ("x +" + String(repeating: "a", count: 41), "x +" + String(repeating: "a", count: 41), []),
    ])
  func splitTitle(title: String, expected: String, tags: [String]) {
    let split = Tag.split(title: title)
    #expect(split.title == expected)
    #expect(split.tags == tags)
  }

  @Test(
    "a tag is a short word starting with a letter, kept lowercased",
    arguments: [
      ("bug", "bug"), ("+Bug", "bug"), ("Ünïcode", "ünïcode"), ("v1.2", "v1.2"), ("a-b_c", "a-b_c"),
    ])
  func validTags(text: String, expected: String) throws {
    #expect(try Tag.validate(text) == expected)
  }

  @Test(
    "a tag asked for finds the stored tags without case, as search does",
    arguments: [
      ("bug web", "web", true), ("bug web", "we", false), ("σοφοσ", "σοφος", true), ("σοφοσ", "ΣΟΦΟΣ", true),
      ("i\u{307}zmir", "izmir", true), ("izmir", "İZMIR", true), ("straße", "strasse", true),
      ("독서 bug", "독서", true), ("café", "cafe", false), ("", "bug", false),
    ])
  func tagsContain(tags: String, wanted: String, found: Bool) throws {
    #expect(Tag.tags(tags, contain: try Tag.validate(wanted)) == found)
  }

  @Test("anything else is refused", arguments: ["", "+", "1x", "-x", "two words", "a/b", "x!", String(repeating: "a", count: 41)])
  func invalidTags(text: String) {
    #expect(throws: CoreError.invalidTag(text)) { try Tag.validate(text) }
  }

  @Test("tags are stored sorted, space-separated, nil when none, and read back")
  func storedForm() {
    #expect(Tag.text(["web", "bug", "web"]) == "bug web")
    #expect(Tag.text([]) == nil)
    #expect(Tag.tags("bug web") == ["bug", "web"])
    #expect(Tag.tags(nil) == [])
  }

  @Test("an edit adds and takes away tags; a tag named in both (in any case) is refused")
  func editTags() throws {
    let changes = try TodoChanges(addTags: ["UI", "x"], removeTags: ["later"])
    #expect(changes.tags(after: ["bug", "later"]) == ["bug", "ui", "x"])
    #expect(!changes.isEmpty)
    #expect(throws: CoreError.invalidTag("no way")) { try TodoChanges(addTags: ["no way"]) }
    #expect(throws: CoreError.tagAddedAndRemoved("x")) {
      try TodoChanges(addTags: ["UI", "x"], removeTags: ["later", "+X"])
    }
    #expect(
      CoreError.tagAddedAndRemoved("x").description
        == "--tag and --untag both name 'x': a change either adds a tag or takes it away")
  }

  @Test("notes: empty clears, text is trimmed, a note adds a line")
  func notes() throws {
    #expect(try TodoChanges(notes: .some("  ")).notes == .some(nil))
    #expect(try TodoChanges(notes: .some(" a ")).notes == .some("a"))
    #expect(try TodoChanges().notes == nil)
    #expect(Notes.appending("b", to: "a") == "a\nb")
    #expect(Notes.appending(" b ", to: nil) == "b")
    #expect(Notes.appending("  ", to: "a") == "a")
  }

  static let monday = Day(iso: "2026-11-23")!

  @Test(
    "--on and --every give a recurrence counted from today",
    arguments: [
      (nil, nil, Recurrence.daily),
      ("mon,wed,fri", nil, .weekdays([.monday, .wednesday, .friday])),
      ("Friday, mon", nil, .weekdays([.monday, .friday])),
      ("weekdays", nil, .weekdays([.monday, .tuesday, .wednesday, .thursday, .friday])),
      ("weekends,weekdays", nil, .daily),
      (nil, "2d", .every(days: 2, from: monday)),
      (nil, "+3d", .every(days: 3, from: monday)),
      (nil, "1w", .every(days: 7, from: monday)),
      (nil, "1d", .daily),
    ] as [(String?, String?, Recurrence)])
  func parse(on: String?, every: String?, expected: Recurrence) throws {
    let recurrence = try Recurrence.parse(on: on, every: every, today: Self.monday)
    #expect(recurrence == expected)
    // The stored form reads back as the same recurrence.
    #expect(Recurrence(text: recurrence.text) == recurrence)
  }

  @Test(
    "bad days and intervals are refused in one line",
    arguments: [("mon,funday", nil), ("", nil), (nil, "0d"), (nil, "2"), (nil, "-2d"), (nil, "2m"), (nil, "53w"), ("mon", "2d")]
      as [(String?, String?)])
  func refused(on: String?, every: String?) {
    #expect(throws: CoreError.self) { try Recurrence.parse(on: on, every: every, today: Self.monday) }
  }

  @Test(
    "which days a routine is due",
    arguments: [
      (Recurrence.daily, "2026-11-24", true),
      (.weekdays([.monday, .wednesday]), "2026-11-25", true),
      (.weekdays([.monday, .wednesday]), "2026-11-26", false),
      (.every(days: 2, from: monday), "2026-11-23", true),
      (.every(days: 2, from: monday), "2026-11-24", false),
      (.every(days: 2, from: monday), "2026-11-25", true),
      (.every(days: 2, from: monday), "2026-11-21", false),
      (.every(days: 7, from: monday), "2026-11-30", true),
    ])
  func occurs(recurrence: Recurrence, day: String, expected: Bool) {
    #expect(recurrence.occurs(on: Day(iso: day)!) == expected)
  }

  @Test("stored forms: nil and daily are every day; text no ootd writes is nil")
  func storedRecurrence() {
    #expect(Recurrence(text: nil) == .daily)
    #expect(Recurrence(text: "mon,fri") == .weekdays([.monday, .friday]))
    #expect(Recurrence(text: "every 2d from 2026-11-23") == .every(days: 2, from: Self.monday))
    #expect(Recurrence(text: "every 1d from 2026-11-23") == nil)
    #expect(Recurrence(text: "sometimes") == nil)
    #expect(Recurrence.weekdays([.friday, .monday]).text == "mon,fri")
    #expect(Recurrence.every(days: 14, from: Self.monday).description == "every 2 weeks from 2026-11-23")
  }

  @Test("a routine todo's uuid is a v5 uuid of (block uuid, day): Python's uuid5 agrees")
  func routineTodoUUID() {
    // python3: uuid.uuid5(uuid.UUID('6f6f7464-2d72-4f75-9a74-696e652e7631'),
    //   'c9e2c4c6-892a-5e91-932a-5de2d8376193 2026-11-23')
    let block = RowID.builtInBlock("algorithm")
    #expect(block == "c9e2c4c6-892a-5e91-932a-5de2d8376193")
    #expect(RowID.routineTodo(block: block, day: Self.monday) == "1690e368-1296-5c90-8e3b-20fd004c32b1")
    #expect(RowID.routineTodo(block: block, day: Self.monday.adding(days: 1)) != RowID.routineTodo(block: block, day: Self.monday))
    #expect(RowID.isValid(RowID.routineTodo(block: block, day: Self.monday)))
  }
}
