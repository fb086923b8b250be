import Foundation
import TestTags
import Testing

/// `ootd review` through the built binary (issue 28's contract): the files carry the figures of
/// `report --json` for the same range, no script and no reference outside themselves; private
/// by default; the same data gives the same bytes.
@Suite(.tags(.binary)) struct ReviewBinaryTests {
  static let secretTitle = "Call </svg><script>alert(1)</script> & the bank"

  /// A database with done and open todos over November 2026, in a project and a block; the
  /// pinned today is 2026-11-22.
  static func filled() throws -> (folder: TemporaryFolder, db: String) {
    let folder = try TemporaryFolder()
    let db = folder.file("ootd.sqlite")
    func run(_ arguments: [String]) throws {
      let result = try BinaryTests.run(arguments + ["--db", db])
      #expect(result.code == 0, "\(arguments): \(result.stderr)")
    }
    try run(["project", "add", "atlas"])
    try run(["block", "add", "reading", "Read a chapter"])
    for day in ["2026-11-16", "2026-11-17", "2026-11-18"] {
      try run(["add", "Plan the sprint", "--on", day, "--project", "atlas", "--priority", "high", "--done"])
      try run(["add", "--block", "reading", "--on", day, "--done"])
    }
    try run(["add", secretTitle, "--on", "2026-11-19", "--project", "atlas", "--done"])
    try run(["add", "Left open", "--on", "2026-11-19", "--priority", "low"])
    try run(["add", "Earlier", "--on", "2026-01-05", "--done"])
    return (folder, db)
  }

  /// The figures `report --json` states for a range.
  static func report(_ db: String, _ range: [String], environment: [String: String] = [:]) throws -> [String: Any] {
    let result = try BinaryTests.run(["report", "--json", "--db", db] + range, environment: environment)
    #expect(result.code == 0, "\(result.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  static func read(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
  }

  @Test func theFiles_carryTheReportsFigures_andNothingFromOutside() throws {
    let (folder, db) = try Self.filled()
    for range in [["--from", "2026-11-17", "--to", "2026-11-19"], ["--from", "2026-11-01", "--to", "2026-11-30"]] {
      let (html, svg) = (folder.file("review.html"), folder.file("card.svg"))
      let result = try BinaryTests.run(["review", "--html", html, "--svg", svg, "--db", db] + range)
      #expect(result.code == 0, "\(result.stderr)")
      #expect(result.stdout.contains("Wrote the review of \(range[1]) → \(range[3]) to \(html)"))
      let report = try Self.report(db, range)
      for text in [try Self.read(html), try Self.read(svg)] {
        for key in ["total", "done", "longestStreak"] {
          let value = try #require(report[key] as? Int)
          #expect(text.contains("data-figure=\"\(key)\">\(value)<"), "\(key) \(value)")
        }
        #expect(!text.lowercased().contains("<script"))
        #expect(ReviewPageTests.foreignReferences(text) == [])
        // Private by default: the project and block names, never a title.
        #expect(!text.contains("Plan the sprint"))
        #expect(!text.contains("Call "))
      }
      #expect(try Self.read(html).contains(">atlas</th>"))
    }
    // November's done todos by project and block, as `report` counts done (on their own day):
    // atlas 4 (3 sprints, the call), the reading block 3.
    let page = try Self.read(folder.file("review.html"))
    let bar = "<td class=\"bar\"><span class=\"track\"><span class=\"fill\" style=\"width:100%\"></span></span></td>"
    #expect(page.contains("<th scope=\"row\">atlas</th>" + bar + "<td class=\"num\">4</td>"))
    #expect(page.contains("<th scope=\"row\">reading</th>" + bar + "<td class=\"num\">3</td>"))
    // The November figures: 7 done of 8; the 16th to the 18th are perfect, the 19th is not;
    // the run counts in full, 5 January included (the days between have no todos: rest days).
    let report = try Self.report(db, ["--from", "2026-11-01", "--to", "2026-11-30"])
    #expect(report["done"] as? Int == 7)
    #expect(report["total"] as? Int == 8)
    #expect(report["longestStreak"] as? Int == 4)
  }

  @Test func theDefault_isThisCalendarYear_andTheSameDataGivesTheSameBytes() throws {
    let (folder, db) = try Self.filled()
    let first = folder.file("first.html")
    let second = folder.file("second.html")
    #expect(try BinaryTests.run(["review", "--html", first, "--svg", first + ".svg", "--db", db]).code == 0)
    #expect(try BinaryTests.run(["review", "--db", db, "--html", second, "--svg", second + ".svg"]).code == 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: first + ".svg"))
        == Data(contentsOf: URL(fileURLWithPath: second + ".svg")))
    let page = try Self.read(first)
    #expect(page.contains("<title>2026 in review · ootd</title>"))
    let year = try Self.report(db, ["--from", "2026-01-01", "--to", "2026-12-31"])
    #expect(page.contains("data-figure=\"done\">\(try #require(year["done"] as? Int))<"))
    #expect(page.contains("data-figure=\"total\">9<"))
    // --year names the same days.
    let named = folder.file("named.html")
    #expect(try BinaryTests.run(["review", "--year", "2026", "--html", named, "--db", db]).code == 0)
    #expect(try Self.read(named) == page)
  }

  @Test func redact_leavesNoTitleAndNoName_titlesNamesTheDoneTodos() throws {
    let (folder, db) = try Self.filled()
    let range = ["--from", "2026-11-01", "--to", "2026-11-30"]
    let (html, svg) = (folder.file("r.html"), folder.file("r.svg"))
    let redacted = try BinaryTests.run(["review", "--redact", "--titles", "--html", html, "--svg", svg, "--db", db] + range)
    #expect(redacted.code == 0, "\(redacted.stderr)")
    for text in [try Self.read(html), try Self.read(svg)] {
      for secret in ["atlas", "reading", "Read a chapter", "Plan the sprint", "Call ", "bank", "Left open"] {
        #expect(!text.contains(secret), "\(secret)")
      }
      #expect(text.contains("Project 1"))
    }
    #expect(try Self.read(html).contains("Block 1"))

    let titled = try BinaryTests.run(["review", "--titles", "--html", html, "--db", db] + range)
    #expect(titled.code == 0, "\(titled.stderr)")
    let page = try Self.read(html)
    #expect(page.contains("Plan the sprint"))
    // The hostile title is text, never markup.
    #expect(page.contains("Call &lt;/svg&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; the bank"))
    #expect(!page.contains("Left open"))
  }

  /// `--tz` moves the days as `TZ` does for `report`.
  @Test func tz_countsTheDaysInThatZone_asReportDoesUnderTZ() throws {
    let (folder, db) = try Self.filled()
    let range = ["--from", "2026-11-16", "--to", "2026-11-22"]
    let html = folder.file("tz.html")
    let result = try BinaryTests.run(["review", "--tz", "Pacific/Kiritimati", "--html", html, "--db", db] + range)
    #expect(result.code == 0, "\(result.stderr)")
    let report = try Self.report(db, range, environment: ["TZ": "Pacific/Kiritimati"])
    let page = try Self.read(html)
    #expect(page.contains("days counted in Pacific/Kiritimati"))
    for key in ["total", "done", "longestStreak", "currentStreak"] {
      #expect(page.contains("data-figure=\"\(key)\">\(try #require(report[key] as? Int))<"), "\(key)")
    }
  }

  @Test(arguments: [
    (["review"], "say what to write"),
    (["review", "--year", "0", "--html", "x.html"], "is not a year"),
    (["review", "--year", "2026", "--from", "2026-01-01", "--html", "x.html"], "not both"),
    (["review", "--tz", "Mars/Olympus", "--html", "x.html"], "is not a time zone"),
    (["review", "--html", ""], "--html needs a file name"),
    (["review", "--from", "2026-12-01", "--to", "2026-11-01", "--html", "x.html"], "2026-11-01"),
  ])
  func badInput_isOneLineAndExit64_andWritesNothing(arguments: [String], message: String) throws {
    let (folder, db) = try Self.filled()
    let before = try Data(contentsOf: URL(fileURLWithPath: db))
    let result = try BinaryTests.run(arguments + ["--db", db], directory: folder.path)
    #expect(result.code == 64, "\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("x.html")))
    #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
  }

  /// Without rsvg-convert, `--png` says how to get it in one line, exit 1, before writing anything.
  @Test func png_withoutRsvgConvert_saysHowToGetIt() throws {
    let (folder, db) = try Self.filled()
    let empty = folder.file("bin")
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    let result = try BinaryTests.run(
      ["review", "--html", folder.file("p.html"), "--png", folder.file("p.png"), "--db", db],
      environment: ["PATH": empty])
    #expect(result.code == 1)
    #expect(result.stderr.contains("apt-get install librsvg2-bin"), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("p.html")))
    #expect(!FileManager.default.fileExists(atPath: folder.file("p.png")))
  }

  /// The user's own link where the page goes is written through, as the shell's `>` does (a
  /// page kept in a synced folder); it stays a link. Another user's link (planted) is refused:
  /// `OutputFileTests`, the same rule as a database path's.
  @Test func theUsersOwnLink_isWrittenThrough() throws {
    let (folder, db) = try Self.filled()
    let target = folder.file("shared.html")
    try Data("old page\n".utf8).write(to: URL(fileURLWithPath: target))
    let link = folder.file("review.html")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let result = try BinaryTests.run(["review", "--html", link, "--db", db])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(try Self.read(target).hasPrefix("<!DOCTYPE html>"))
    let type = try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType
    #expect(type == .typeSymbolicLink)
  }
}
