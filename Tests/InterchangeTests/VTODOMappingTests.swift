import Core
import Foundation
import Interchange
import Testing
import Zone

/// CalDAV's VTODO mapping (issue 27): reading a server's VTODO (hostile input), writing a new
/// one with the export's rule, and patching a server's object keeping what ootd does not know.
@Suite struct VTODOMappingTests {
  static let now = Timestamp.date("20261122T120000Z", .compact)!
  static let today = Day(iso: "2026-11-22")!
  static let seoul = TimeZone(identifier: "Asia/Seoul")!
  static let uuid = "0f8fad5b-d9cb-469f-a165-70867728950e"

  static func object(_ properties: [String], inner: [String] = []) -> String {
    (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//phone//EN", "BEGIN:VTODO", "UID:\(uuid)"] + properties
      + inner + ["END:VTODO", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
  }

  static func parse(_ properties: [String], zone: any ZoneRules = seoul) throws -> VTODOMapping.ServerTodo {
    try VTODOMapping.parse(object(properties), timeZone: zone, today: today, now: now)
  }

  @Test(arguments: [
    ("PRIORITY:1", Priority.high), ("PRIORITY:4", .high), ("PRIORITY:5", .mid), ("PRIORITY:6", .low),
    ("PRIORITY:9", .low), ("PRIORITY:0", .mid), ("PRIORITY:x", .mid), ("X-NONE:1", .mid),
  ])
  func priority(line: String, expected: Priority) throws {
    let todo = try Self.parse(["SUMMARY:t", line])
    #expect(todo.fields[todo: .priority] == .integer(Int64(expected.rank)))
  }

  @Test(arguments: [
    // A DATE is the day; a UTC time is converted to the user's zone (Seoul, +9); a floating
    // time or one with a TZID is the wall clock's date; no DTSTART: the day before a DATE DUE.
    (["DTSTART;VALUE=DATE:20261120"], "2026-11-20"),
    (["DTSTART:20261120T200000Z"], "2026-11-21"),
    (["DTSTART:20261120T100000Z"], "2026-11-20"),
    (["DTSTART;TZID=Europe/Paris:20261120T233000"], "2026-11-20"),
    (["DTSTART:20261120T233000"], "2026-11-20"),
    (["DUE;VALUE=DATE:20261125"], "2026-11-24"),
    (["DUE:20261125T100000Z"], "2026-11-25"),
    ([], nil),
    (["DTSTART;VALUE=DATE:2026113"], nil),
  ] as [([String], String?)])
  func day(lines: [String], expected: String?) throws {
    let todo = try Self.parse(["SUMMARY:t"] + lines)
    #expect(todo.fields[todo: .day] == .optional(expected))
  }

  @Test(arguments: [
    (["STATUS:NEEDS-ACTION"], false, false, nil),
    (["STATUS:COMPLETED", "COMPLETED:20261121T083000Z"], true, false, "20261121T083000Z"),
    (["STATUS:COMPLETED"], true, false, "20261122T120000Z"),
    (["COMPLETED:20261121T083000Z"], true, false, "20261121T083000Z"),
    (["STATUS:CANCELLED"], false, true, nil),
    (["STATUS:IN-PROCESS"], false, false, nil),
  ] as [([String], Bool, Bool, String?)])
  func status(lines: [String], done: Bool, dropped: Bool, doneAt: String?) throws {
    let todo = try Self.parse(["SUMMARY:t"] + lines)
    #expect(todo.fields[todo: .done] == .bool(done))
    #expect(todo.fields[todo: .dropped] == .bool(dropped))
    #expect(todo.fields[todo: .doneAt] == .optional(doneAt))
  }

  @Test func unfoldsAndUnescapes() throws {
    let text = Self.object([
      "SUMMARY:Buy milk\\, eggs\\; and \\\\ bread", "DESCRIPTION:line one\\nline", "  two\\N三",
      "CATEGORIES:Errand,home\\,garden", "CATEGORIES:work",
    ])
    let todo = try VTODOMapping.parse(text.replacingOccurrences(of: "\r\n ", with: "\r\n "), timeZone: Self.seoul, today: Self.today, now: Self.now)
    #expect(todo.fields[todo: .title] == .text("Buy milk, eggs; and \\ bread"))
    #expect(todo.fields[todo: .notes] == .text("line one\nline two\n三"))
    #expect(todo.categories == ["Errand", "home,garden", "work"])
    // Categories that are tags become tags (lowercased); a project's name is the project, and
    // one that can be no tag is not read.
    let fields = todo.fields(reference: nil, names: CalDAVCategories.Names(projects: ["work"], blocks: []))
    #expect(fields[todo: .tags] == .text("errand"))
    #expect(fields[todo: .project] == .text("work"))
  }

  @Test func hostileInput() throws {
    // Over the size cap, no VTODO, no UID, a line without a colon: one error each.
    #expect(throws: InterchangeError.self) {
      try VTODOMapping.parse(String(repeating: "X", count: VTODOText.maximumBytes + 1), timeZone: Self.seoul, today: Self.today, now: Self.now)
    }
    #expect(throws: InterchangeError.self) {
      try VTODOMapping.parse("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", timeZone: Self.seoul, today: Self.today, now: Self.now)
    }
    #expect(throws: InterchangeError.self) {
      try VTODOMapping.parse("BEGIN:VTODO\r\nSUMMARY:x\r\nEND:VTODO\r\n", timeZone: Self.seoul, today: Self.today, now: Self.now)
    }
    #expect(throws: InterchangeError.self) { try Self.parse(["SUMMARY:x", "garbage line"]) }
    let lines = (0..<VTODOText.maximumLines).map { "X-L\($0):1" }
    #expect(throws: InterchangeError.self) { try Self.parse(lines) }
    // A title over the CLI's cap is cut to it; a blank one gets a title; NUL is replaced.
    let long = try Self.parse(["SUMMARY:" + String(repeating: "a", count: Title.maximumLength + 50)])
    #expect(long.fields[todo: .title]?.text?.count == Title.maximumLength)
    #expect(!long.adjustments.isEmpty)
    #expect(try Self.parse(["SUMMARY:   "]).fields[todo: .title] == .text("(no title)"))
    #expect(try Self.parse(["SUMMARY:a\u{0}b"]).fields[todo: .title] == .text("a\u{FFFD}b"))
  }

  @Test func repeatingTodoIsItsNextInstance() throws {
    let todo = try Self.parse(["SUMMARY:Water plants", "DTSTART;VALUE=DATE:20261101", "RRULE:FREQ=WEEKLY"])
    #expect(todo.fields[todo: .day] == .text("2026-11-22"))
    #expect(todo.repetition == .init(rule: "FREQ=WEEKLY", next: .instance(Day(iso: "2026-11-22")!)))
    // A rule ootd cannot follow: the todo stays on its DTSTART.
    let hourly = try Self.parse(["SUMMARY:Stretch", "DTSTART;VALUE=DATE:20261101", "RRULE:FREQ=HOURLY"])
    #expect(hourly.fields[todo: .day] == .text("2026-11-01"))
    #expect(hourly.repetition?.next == .unsupported("FREQ=HOURLY is not followed"))
  }

  static let fields: Fields = [
    "title": .text("Write, the report"), "priority": .integer(0), "day": .text("2026-11-22"), "done": .bool(false),
    "doneAt": .null, "dropped": .bool(false), "notes": .text("a\nb"), "tags": .text("bug work"),
    "project": .text("ootd"), "block": .null,
  ]

  @Test func renderedObjectReadsBack() throws {
    let text = VTODOMapping.render(Self.fields, uuid: Self.uuid, createdAt: Self.now, now: Self.now, productVersion: "0.1.0")
    #expect(text.contains("UID:\(Self.uuid)\r\n"))
    #expect(text.contains("DTSTART;VALUE=DATE:20261122\r\nDUE;VALUE=DATE:20261123\r\n"))
    #expect(text.contains("PRIORITY:1\r\n"))
    #expect(text.contains("CATEGORIES:ootd,bug,work\r\n"))
    let back = try VTODOMapping.parse(text, timeZone: Self.seoul, today: Self.today, now: Self.now)
    let read = back.fields(reference: nil, names: CalDAVCategories.Names(projects: ["ootd"], blocks: []))
    #expect(read == Self.fields)
    // Done: STATUS and COMPLETED; dropped: CANCELLED; the backlog: no DTSTART nor DUE.
    var done = Self.fields
    done["done"] = .bool(true)
    done["doneAt"] = .text("20261121T083000Z")
    done["day"] = .null
    let doneText = VTODOMapping.render(done, uuid: Self.uuid, createdAt: Self.now, now: Self.now, productVersion: "0.1.0")
    #expect(doneText.contains("STATUS:COMPLETED\r\n") && doneText.contains("COMPLETED:20261121T083000Z\r\n"))
    #expect(!doneText.contains("DTSTART") && !doneText.contains("DUE"))
  }

  @Test func patchKeepsWhatOotdDoesNotKnow() throws {
    let server = Self.object(
      [
        "SUMMARY:Old title", "DTSTART;TZID=Asia/Seoul:20261122T090000", "PRIORITY:1", "STATUS:NEEDS-ACTION",
        "X-APPLE-SORT-ORDER:12", "GEO:37.5;127.0", "RELATED-TO;RELTYPE=PARENT:abc",
        "X-LONG:" + String(repeating: "é", count: 60),
      ],
      inner: ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Alarm text", "TRIGGER:-PT15M", "END:VALARM"])
    let parsed = try VTODOMapping.parse(server, timeZone: Self.seoul, today: Self.today, now: Self.now)
    let old = parsed.fields(reference: nil, names: .none)
    var new = old
    new["title"] = .text("New title")
    new["done"] = .bool(true)
    new["doneAt"] = .text("20261122T110000Z")
    let patched = try VTODOMapping.patch(server, uuid: Self.uuid, old: old, new: new, now: Self.now)
    let unfolded = patched.replacingOccurrences(of: "\r\n ", with: "")
    for kept in [
      "X-APPLE-SORT-ORDER:12", "GEO:37.5;127.0", "RELATED-TO;RELTYPE=PARENT:abc", "X-LONG:" + String(repeating: "é", count: 60),
      "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Alarm text\r\nTRIGGER:-PT15M\r\nEND:VALARM",
      // The day did not change: its time and zone stay as the phone wrote them.
      "DTSTART;TZID=Asia/Seoul:20261122T090000", "PRIORITY:1", "UID:\(Self.uuid)",
    ] {
      #expect(unfolded.contains(kept), "\(kept)")
    }
    #expect(unfolded.contains("SUMMARY:New title\r\n"))
    #expect(unfolded.contains("STATUS:COMPLETED\r\n") && unfolded.contains("COMPLETED:20261122T110000Z\r\n"))
    #expect(!unfolded.contains("Old title") && !unfolded.contains("NEEDS-ACTION"))
    #expect(unfolded.contains("LAST-MODIFIED:20261122T120000Z"))
    // Every line is at most 75 octets.
    #expect(patched.components(separatedBy: "\r\n").allSatisfy { $0.utf8.count <= 75 })
    let reread = try VTODOMapping.parse(patched, timeZone: Self.seoul, today: Self.today, now: Self.now)
    #expect(reread.fields[todo: .title] == .text("New title"))
    // The VALARM's DESCRIPTION is not the todo's notes.
    #expect(reread.fields[todo: .notes] == .null)
  }

  /// A title and notes with what TEXT cannot hold (CR, ESC, BEL, DEL, a C1 control) come back
  /// exactly through `X-OOTD-SUMMARY` / `X-OOTD-DESCRIPTION` (they came back with LF and ␛); a
  /// third party's edit of SUMMARY or DESCRIPTION wins over the stale exact text; a patch of
  /// the title or notes replaces the exact text too, or drops it when no longer needed.
  @Test func exactText_bringsBackWhatTEXTCannotHold_unlessEditedElsewhere() throws {
    let title = "cr\rx crlf\r\ny esc\u{1B}[31m bel\u{07} del\u{7F} c1\u{85}; a,b \\n"
    let notes = "first\rsecond\r\nthird\u{1B}"
    var fields = Self.fields
    fields["title"] = .text(title)
    fields["notes"] = .text(notes)
    let text = VTODOMapping.render(fields, uuid: Self.uuid, createdAt: Self.now, now: Self.now, productVersion: "0.1.0")
    #expect(!text.unicodeScalars.contains { ControlCharacters.isControl($0) && $0 != "\r" && $0 != "\n" })
    let back = try VTODOMapping.parse(text, timeZone: Self.seoul, today: Self.today, now: Self.now)
    #expect(back.fields[todo: .title] == .text(title))
    #expect(back.fields[todo: .notes] == .text(notes))
    // A phone changed SUMMARY (and DESCRIPTION); the X- lines stay, stale: the edit wins.
    let edited = text.replacingOccurrences(of: "SUMMARY:cr\\nx", with: "SUMMARY:CR\\nx")
      .replacingOccurrences(of: "DESCRIPTION:first\\nsecond", with: "DESCRIPTION:first\\nSECOND")
    let theirs = try VTODOMapping.parse(edited, timeZone: Self.seoul, today: Self.today, now: Self.now)
    #expect(theirs.fields[todo: .title]?.text?.hasPrefix("CR\nx crlf\ny esc␛[31m") == true)
    #expect(theirs.fields[todo: .notes] == .text("first\nSECOND\nthird␛"))
    // Malformed exact text is passed over.
    let malformed = text.replacingOccurrences(of: "X-OOTD-SUMMARY:cr\\u000D", with: "X-OOTD-SUMMARY:cr\\u00")
    #expect(try VTODOMapping.parse(malformed, timeZone: Self.seoul, today: Self.today, now: Self.now)
      .fields[todo: .title]?.text?.hasPrefix("cr\nx") == true)
    // A patch to a plain title drops X-OOTD-SUMMARY; to another CR title, replaces it.
    let old = back.fields(reference: nil, names: CalDAVCategories.Names(projects: ["ootd"], blocks: []))
    var plain = old
    plain["title"] = .text("plain")
    let patched = try VTODOMapping.patch(text, uuid: Self.uuid, old: old, new: plain, now: Self.now)
    #expect(!patched.contains("X-OOTD-SUMMARY") && patched.contains("X-OOTD-DESCRIPTION"), "\(patched)")
    var other = old
    other["title"] = .text("new\rone")
    let again = try VTODOMapping.patch(text, uuid: Self.uuid, old: old, new: other, now: Self.now)
    #expect(try VTODOMapping.parse(again, timeZone: Self.seoul, today: Self.today, now: Self.now).fields[todo: .title] == .text("new\rone"))
    #expect(again.components(separatedBy: "X-OOTD-SUMMARY").count == 2)
  }

  /// Hostile titles (InterchangeRoundTripBinaryTests.hostileTitles' kinds: every C0 control
  /// but NUL, DEL and C1, bidi overrides, U+2028, emoji, combining marks, todo.txt's own words,
  /// the longest title) come back from the VTODO byte for byte, as notes too.
  @Test func hostileTitlesAndNotes_comeBackExactly() throws {
    let hostile = [
      "c0 " + String(String.UnicodeScalarView((1...31).map { Unicode.Scalar($0)! })) + " end",
      "del \u{7F} c1 \u{80}\u{85}\u{9B}\u{9F} end", "bidi \u{202E}txt.exe\u{202C} \u{2066}iso\u{2069}",
      "ls\u{2028}ps\u{2029}end", "emoji 🧑‍💻🇰🇷 👍🏽", "combining e\u{301} a\u{308}\u{323}",
      "x (A) +word @word key:value; a,b \\n \\u000A", "cr\rlf\ncrlf\r\nend",
      String(String(repeating: "long é🚀 ", count: 70).prefix(499)) + "!",
    ]
    for text in hostile {
      var fields = Self.fields
      fields["title"] = .text(text)
      fields["notes"] = .text(text)
      let object = VTODOMapping.render(fields, uuid: Self.uuid, createdAt: Self.now, now: Self.now, productVersion: "0.1.0")
      let back = try VTODOMapping.parse(object, timeZone: Self.seoul, today: Self.today, now: Self.now)
      #expect(back.fields[todo: .title]?.text.map { Array($0.utf8) } == Array(text.utf8), "\(text.debugDescription)")
      #expect(back.fields[todo: .notes]?.text.map { Array($0.utf8) } == Array(text.utf8), "\(text.debugDescription)")
    }
  }

  @Test func categoriesThatAreNoTagsStay() throws {
    let server = Self.object(["SUMMARY:t", "CATEGORIES:Work Stuff,errand"])
    let parsed = try VTODOMapping.parse(server, timeZone: Self.seoul, today: Self.today, now: Self.now)
    let old = parsed.fields(reference: nil, names: .none)
    #expect(old["tags"] == .text("errand"))
    var new = old
    new["tags"] = .text("errand home")
    let patched = try VTODOMapping.patch(server, uuid: Self.uuid, old: old, new: new, now: Self.now)
    #expect(patched.contains("CATEGORIES:errand,home,Work Stuff\r\n"))
    // A project ootd took away goes, even one that can be no tag; the others stay.
    let withProject = Self.object(["SUMMARY:t", "CATEGORIES:Side Project,errand,Work Stuff"])
    let read = try VTODOMapping.parse(withProject, timeZone: Self.seoul, today: Self.today, now: Self.now)
      .fields(reference: nil, names: CalDAVCategories.Names(projects: ["Side Project"], blocks: []))
    #expect(read["project"] == .text("Side Project"))
    var moved = read
    moved["project"] = .null
    let unlinked = try VTODOMapping.patch(withProject, uuid: Self.uuid, old: read, new: moved, now: Self.now)
    #expect(unlinked.contains("CATEGORIES:errand,Work Stuff\r\n"), "\(unlinked)")
  }

  @Test func patchOfTheDayReplacesDTSTARTAndDUE() throws {
    let server = Self.object(["SUMMARY:t", "DTSTART;VALUE=DATE:20261120", "DUE;VALUE=DATE:20261121", "RRULE:FREQ=DAILY", "X-KEEP:1"])
    let parsed = try VTODOMapping.parse(server, timeZone: Self.seoul, today: Day(iso: "2026-11-20")!, now: Self.now)
    let old = parsed.fields(reference: nil, names: .none)
    var new = old
    new["day"] = .text("2026-11-25")
    let patched = try VTODOMapping.patch(server, uuid: Self.uuid, old: old, new: new, now: Self.now)
    #expect(patched.contains("DTSTART;VALUE=DATE:20261125\r\nDUE;VALUE=DATE:20261126\r\n"))
    #expect(!patched.contains("20261120") && !patched.contains("RRULE") && patched.contains("X-KEEP:1"))
    // To the backlog: neither DTSTART nor DUE.
    new["day"] = .null
    let backlog = try VTODOMapping.patch(server, uuid: Self.uuid, old: old, new: new, now: Self.now)
    #expect(!backlog.contains("DTSTART") && !backlog.contains("DUE"))
  }
}
