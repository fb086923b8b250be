import Core
import Foundation
import Testing

@testable import CLI

/// What ootd exports as todo.txt it re-imports unchanged, whatever a title holds: a title with a
/// control character or a line end (from a Taskwarrior import, a sync) was written with the
/// terminal's symbols (␛, a space for a newline) and came back changed.
@Suite struct TodoTxtTitleRoundTripTests {
  static let titles = [
    "esc \u{1B}]0;pwn\u{07} and \u{1B}[31mred", "tab\tinside", "two\nlines", "carriage\rreturn", "crlf\r\nend",
    "line\u{2028}separator", #"back\slash \Users\me \\ two"#, #"the marker \u001B typed"#, #"doubled \\u000A too"#,
    "backslash then esc \\\u{1B}", "plain title", "회의 🚀 \u{202E}bidi",
    // Words the reader would take out of the title: a project, a key:value, a run of spaces.
    "Email +1 it", #"Fix C:\Users path"#, "set due:2026-12-01 here", "two  spaces   three", "C++ at 10:30",
  ]

  @Test func titlesWithControlsAndLineEnds_comeBackExactly() async throws {
    let h = try Harness()
    for title in Self.titles { #expect(await h.run(["add", title]).code == 0, "\(title.debugDescription)") }
    let before = await h.run(["list", "--all", "--json"]).stdout
    #expect(try await h.allTodos().compactMap { $0["title"] as? String } == Self.titles)
    let file = h.folder.file("todo.txt")
    #expect(await h.run(["export", "--format", "todotxt", "--output", file]).code == 0)
    let written = try String(contentsOfFile: file, encoding: .utf8)
    // One line a todo, no control character but the line ends and the tab.
    #expect(written.split(separator: "\n").count == Self.titles.count, "\(written)")
    #expect(!written.unicodeScalars.contains { ControlCharacters.isControl($0) && $0 != "\n" && $0 != "\t" }, "\(written)")
    #expect(written.contains(#" two\u000Alines "#), "\(written)")
    #expect(written.contains(" plain title due:"), "\(written)")

    // Into a fresh database: the same listing, byte for byte.
    let fresh = try Harness()
    let imported = await fresh.run(["import", "todotxt", file])
    #expect(imported.code == 0, "\(imported.stderr)")
    #expect(await fresh.run(["list", "--all", "--json"]).stdout == before)

    // Into the same database, trip after trip: every todo unchanged.
    for trip in 1...2 {
      let again = h.folder.file("trip-\(trip).txt")
      #expect(await h.run(["export", "--format", "todotxt", "--output", again]).code == 0)
      #expect(try String(contentsOfFile: again, encoding: .utf8) == written, "trip \(trip)")
      let result = await h.run(["import", "todotxt", again, "--json"])
      let counts = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      #expect(counts["unchanged"] as? Int == Self.titles.count, "trip \(trip): \(counts)")
      #expect(await h.run(["list", "--all", "--json"]).stdout == before, "trip \(trip)")
    }
  }
}
