import Core
import Foundation
import Interchange
import Testing

/// A title todo.txt cannot carry as it is (a line end, ESC…) is escaped by the export and read
/// back by the import: what ootd exports it re-imports unchanged; other titles are written as
/// they are.
@Suite struct TodoTxtTitleEscapeTests {
  let utc = TimeZone(identifier: "UTC")!
  let today = Day(iso: "2026-03-10")!

  @Test(arguments: [
    ("line1\nline2", #"line1\u000Aline2"#),
    ("crlf\r\nend", #"crlf\u000D\u000Aend"#),
    ("esc \u{1B}[2J bel \u{07}", #"esc \u001B[2J bel \u0007"#),
    ("del \u{7F} csi \u{9B}31m nel \u{85}", #"del \u007F csi \u009B31m nel \u0085"#),
    ("ls\u{2028}ps\u{2029}end", #"ls\u2028ps\u2029end"#),
    ("vt\u{0B}ff\u{0C}x", #"vt\u000Bff\u000Cx"#),
    // The escape's own text in a title: its backslashes doubled.
    (#"typed \u001B here"#, #"typed \\u001B here"#),
    (#"two \\u000A"#, #"two \\\\u000A"#),
    // A backslash right before an escaped character: doubled, then the escape.
    ("back\\\u{1B}", #"back\\\u001B"#),
    ("\\\\\n", #"\\\\\u000A"#),
  ])
  func escapedTitle_writesWhatALineCannotCarry(title: String, written: String) {
    #expect(TodoTxt.escapedTitle(title) == written)
    #expect(TodoTxt.unescapedTitle(written) == title)
  }

  /// A title without an escaped character or the escape's text is written byte for byte: a
  /// backslash elsewhere, a `\u` of a character that is never escaped, lowercase hex, a tab.
  @Test(arguments: [
    "Buy milk", "회의 🚀 a+b", "C++ and a@b.c", "10:30 ratio 3:2 https://example.com/x", #"C\:Users\me\notes.txt"#, #"back\slash %s %d"#, #"a\\b"#,
    #"\n is not a newline"#, #"\u0041 is A"#, #"\u001b lowercase"#, #"\u001"#, #"\u00ZZ"#, #"\\"#, "tab\there",
    "\u{202E}bidi stays (exports are not the terminal)", #"\U001B"#, #"\u2027 \u202A"#,
  ])
  func plainTitles_areWrittenAsTheyAre(title: String) {
    #expect(TodoTxt.escapedTitle(title) == title)
    #expect(TodoTxt.unescapedTitle(title) == title)
  }

  /// A word the reader would take out of the title (a `+project`, an `@context`, a `key:value`
  /// it reads, a run of spaces it joins) is written with that character escaped, and read back
  /// whole; `C++`, `a@b`, `10:30` and URLs above are written as they are.
  @Test(arguments: [
    ("Email +1 it", #"Email \u002B1 it"#),
    ("@home first", #"\u0040home first"#),
    (#"Fix C:\Users path"#, #"Fix C\u003A\Users path"#),
    ("set due:2026-12-01 here", #"set due\u003A2026-12-01 here"#),
    ("impossible due:2026-02-30", #"impossible due\u003A2026-02-30"#),
    ("keys ootd:a3fe4b93-5181-4180-92d8-311fe1ab2cce dropped:yes pri:A", #"keys ootd\u003Aa3fe4b93-5181-4180-92d8-311fe1ab2cce dropped\u003Ayes pri\u003AA"#),
    ("two  spaces   three", #"two \u0020spaces \u0020\u0020three"#),
    // The same key twice: both escaped (the second was written as it was, and the reader, which
    // never saw the escaped first, took it out of the title).
    ("twice t:1 t:2 ootdblock:a ootdblock:b", #"twice t\u003A1 t\u003A2 ootdblock\u003Aa ootdblock\u003Ab"#),
    ("uuids ootd:a1b2c3d4-0000-4000-8000-000000000002 ootd:a1b2c3d4-0000-4000-8000-000000000003",
     #"uuids ootd\u003Aa1b2c3d4-0000-4000-8000-000000000002 ootd\u003Aa1b2c3d4-0000-4000-8000-000000000003"#),
    (#"typed \u002B text"#, #"typed \\u002B text"#),
  ])
  func wordsTheReaderWouldTake_areEscaped(title: String, written: String) throws {
    #expect(TodoTxt.escapedTitle(title) == written)
    #expect(TodoTxt.unescapedTitle(written) == title)
    let line = "(B) 2026-03-01 " + written + " +work ootd:a1b2c3d4-0000-4000-8000-000000000001"
    let back = try TodoTxt.plan(line, today: today, timeZone: utc).todos
    #expect(back.map(\.title) == [title])
    #expect(back.first?.project == "work")
    #expect(back.first?.attributes == [:])
  }

  /// Every sequence of up to five pieces among backslashes, the escape's text, escaped
  /// characters and a plain letter comes back exactly, and none of what is written holds a
  /// character a line cannot carry.
  @Test func everyMixOfBackslashesAndEscapes_roundTrips() {
    let pieces = ["\\", "u001B", "\u{1B}", "\u{2028}", "x", "+", " "]
    var titles = [""]
    var failures: [String] = []
    for _ in 1...5 {
      titles = titles.flatMap { title in pieces.map { title + $0 } }
      for title in titles {
        let written = TodoTxt.escapedTitle(title)
        if written.unicodeScalars.contains(where: { ControlCharacters.isControl($0) || $0 == "\u{2028}" })
          || TodoTxt.unescapedTitle(written) != title
        {
          failures.append("\(title.debugDescription) → \(written.debugDescription)")
        }
      }
    }
    #expect(failures.count == 0, "\(failures.prefix(10))")
  }

  /// Through whole lines: the export's line for each title, read back as one todo with that
  /// title, its project, tags and uuid intact.
  @Test func exportedLines_readBackTheSameTitles() throws {
    let titles = [
      "esc \u{1B}]0;pwn\u{07}", "tab\tkept", "line\nbreak", "cr\rhere", "ls\u{2028}x", #"back\slash \\u001B"#,
      #"the marker \u001B itself"#, "\\\u{1B}", "mixed \\\n\\u000A\n",
    ]
    let created = Date(timeIntervalSince1970: 1_709_000_000)
    var todos: [Todo] = []
    for (index, title) in titles.enumerated() {
      var todo = Todo(
        id: Int64(index + 1), title: title, priority: .mid, day: Day(iso: "2024-03-02")!, project: "work",
        createdAt: created, uuid: "a1b2c3d4-0000-4000-8000-0000000000\(10 + index)")
      todo.tags = ["t"]
      todos.append(todo)
    }
    let text = TodoTxt.export(todos, timeZone: utc)
    #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count == titles.count + 1)
    #expect(!text.unicodeScalars.contains { ControlCharacters.isControl($0) && $0 != "\n" && $0 != "\t" })
    let back = try TodoTxt.plan(text, today: today, timeZone: utc).todos
    #expect(back.map(\.title) == titles.map { try! Title.validate($0) })
    #expect(back.map(\.uuid) == todos.map(\.uuid))
    #expect(back.allSatisfy { $0.project == "work" && $0.tags == ["t"] })
  }
}
