import Core
import Foundation
import Interchange
import Testing

/// iCalendar VTODO output: fields, priorities, escaping, CR LF and folding.
@Suite struct ICalendarTests {
  @Test func vtodoFields() {
    var todo = Todo(
      id: 1, title: "Write, test; ship\\done", priority: .high, day: Day(iso: "2024-03-02")!, isDone: true,
      doneAt: Date(timeIntervalSince1970: 1_709_400_000), project: "work.client", block: "commit",
      createdAt: Date(timeIntervalSince1970: 1_709_000_000), uuid: "a1b2c3d4-0000-4000-8000-000000000001")
    todo.notes = "line one\nline two"
    todo.tags = ["bug", "회의"]
    let low = Todo(id: 2, title: "low", priority: .low, day: Day(iso: "2024-03-03")!,
                   createdAt: Date(timeIntervalSince1970: 0), uuid: "u2")
    let mid = Todo(id: 3, title: "mid", priority: .mid, day: Day(iso: "2024-03-03")!,
                   createdAt: Date(timeIntervalSince1970: 0), uuid: "u3")
    let text = ICalendar.export([todo, low, mid], now: Date(timeIntervalSince1970: 1_709_500_000), productVersion: "0.1.0")
    #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:"))
    #expect(text.hasSuffix("END:VCALENDAR\r\n"))
    #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    let lines = text.components(separatedBy: "\r\n")
    for expected in [
      "UID:a1b2c3d4-0000-4000-8000-000000000001", "DTSTAMP:20240303T210640Z",
      "SUMMARY:Write\\, test\\; ship\\\\done", "STATUS:COMPLETED", "PRIORITY:1", "DTSTART;VALUE=DATE:20240302", "DUE;VALUE=DATE:20240303",
      "COMPLETED:20240302T172000Z", "CATEGORIES:work.client,commit,bug,회의", "DESCRIPTION:line one\\nline two",
      "PRIORITY:9", "PRIORITY:5", "STATUS:NEEDS-ACTION",
    ] {
      #expect(lines.contains(expected), "\(expected)")
    }
    #expect(lines.filter { $0 == "BEGIN:VTODO" }.count == 3)
    // A todo with neither project, block nor tags has no CATEGORIES line.
    #expect(lines.filter { $0.hasPrefix("CATEGORIES") }.count == 1)
  }

  @Test func theLastDayOfTheCalendar_hasNoDueDayPastIt() {
    let last = Todo(id: 1, title: "far", priority: .mid, day: Day(iso: "9999-12-31")!,
                    createdAt: Date(timeIntervalSince1970: 0), uuid: "u1")
    let lines = ICalendar.export([last], now: Date(timeIntervalSince1970: 0), productVersion: "0.1.0")
      .components(separatedBy: "\r\n")
    #expect(lines.contains("DTSTART;VALUE=DATE:99991231"))
    // Not `DUE;VALUE=DATE:100000101`, which no calendar reads.
    #expect(!lines.contains { $0.hasPrefix("DUE") })
  }

  @Test func foldingKeepsUTF8WholeAndLinesShort() {
    let long = "SUMMARY:" + String(repeating: "한글🚀", count: 30)
    let folded = ICalendar.fold(long)
    let parts = folded.components(separatedBy: "\r\n")
    #expect(parts.count > 1)
    #expect(parts.allSatisfy { $0.utf8.count <= 75 })
    #expect(parts.dropFirst().allSatisfy { $0.hasPrefix(" ") })
    // Unfolding (remove CR LF and one space) gives the line back.
    #expect(folded.replacingOccurrences(of: "\r\n ", with: "") == long)
    #expect(ICalendar.fold("SHORT:x") == "SHORT:x")
    let exact = "SUMMARY:" + String(repeating: "a", count: 67)
    #expect(ICalendar.fold(exact) == exact)
  }

  /// TEXT cannot hold control characters (RFC 5545 §3.3.11): they become visible symbols, a
  /// tab stays, a line end is `\\n`.
  @Test func controlCharactersInTextAreWrittenAsSymbols() {
    #expect(ICalendar.escape("a\u{1B}]0;x\u{07}\tb\u{7F}\r\nc") == "a␛]0\\;x␇\tb␡\\nc")
    let todo = Todo(id: 1, title: "bell \u{07}", priority: .mid, day: Day(iso: "2024-03-03")!,
                    createdAt: Date(timeIntervalSince1970: 0), uuid: "u1")
    let text = ICalendar.export([todo], now: Date(timeIntervalSince1970: 0), productVersion: "0")
    #expect(text.contains("SUMMARY:bell ␇\r\n"))
    #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\r" && $0 != "\n" })
  }

  /// A CR in a title or the notes is a line break, TEXT's `\n` (a lone CR, or CR LF as one): it
  /// was dropped, joining `line\rtitle` into `linetitle`. TEXT has no CR, so the exact text goes
  /// beside it, in `X-OOTD-SUMMARY` / `X-OOTD-DESCRIPTION`, and the iCalendar import (CalDAV's
  /// ``VTODOMapping``) reads the CR back (it came back as LF); a reader that does not know
  /// them sees the line break.
  @Test func carriageReturn_isALineBreak_andComesBack() throws {
    #expect(ICalendar.escape("line\rtitle") == "line\\ntitle")
    #expect(ICalendar.escape("a\r\nb\n\rc\r\rd") == "a\\nb\\n\\nc\\n\\nd")
    var todo = Todo(
      id: 1, title: "line\rtitle", priority: .mid, day: Day(iso: "2026-11-22")!,
      createdAt: Date(timeIntervalSince1970: 0), uuid: "0f8fad5b-d9cb-469f-a165-70867728950e")
    todo.notes = "first\rsecond"
    let text = ICalendar.export([todo], now: Date(timeIntervalSince1970: 0), productVersion: "0")
    #expect(text.contains("SUMMARY:line\\ntitle\r\n"), "\(text)")
    #expect(text.contains("X-OOTD-SUMMARY:line\\u000Dtitle\r\n"), "\(text)")
    #expect(text.contains("DESCRIPTION:first\\nsecond\r\nX-OOTD-DESCRIPTION:first\\u000Dsecond\r\n"), "\(text)")
    let back = try VTODOMapping.parse(
      text, timeZone: TimeZone(identifier: "UTC")!, today: Day(iso: "2026-11-22")!, now: Date(timeIntervalSince1970: 0))
    #expect(back.fields[todo: .title] == .text("line\rtitle"))
    #expect(back.fields[todo: .notes] == .text("first\rsecond"))
  }

  /// `X-OOTD-SUMMARY` is written only when SUMMARY cannot hold the title exactly: a CR, ESC,
  /// DEL, a C1 control; not for a line end or a tab, which TEXT holds.
  @Test(arguments: [
    ("plain; a,b \\ c", nil),
    ("lf\nand\ttab", nil),
    ("crlf\r\nx", #"crlf\u000D\nx"#),
    ("esc\u{1B}[31m; del\u{7F} csi\u{9B}, back\\", #"esc\u001B[31m\; del\u007F csi\u009B\, back\\"#),
  ] as [(String, String?)])
  func exactText_onlyWhenTEXTCannotHoldIt(text: String, exact: String?) {
    #expect(ICalendar.exactText(text) == exact)
  }
}
