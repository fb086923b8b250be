import Core
import Formats
import Foundation
import Storage
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@testable import CLI

/// `ootd report` and the dashboard, in-process with the harness clock (Sunday 2026-11-22, Seoul).
@Suite struct ReportTests {
  /// Nine days, 2026-11-14 (Sat) … 2026-11-22 (Sun), with rest days inside streaks:
  /// P . P X P . P . X (P perfect, X not, . no todos), plus one open todo on each side of the
  /// range. Todos of 11-16 and 11-17 belong to project `p`.
  static func scenario() async throws -> Harness {
    let h = try Harness()
    await h.run(["project", "add", "p"])
    let adds: [[String]] = [
      ["a", "--on", "2026-11-13"],  // 1 outside, open
      ["b", "--on", "2026-11-14", "-p", "high"],  // 2 done
      ["c", "--on", "2026-11-16", "-p", "high", "--project", "p"],  // 3 done
      ["d", "--on", "2026-11-16", "-p", "low", "--project", "p"],  // 4 done
      ["e", "--on", "2026-11-17", "-p", "high", "--project", "p"],  // 5 done
      ["f", "--on", "2026-11-17", "-p", "mid"],  // 6 open
      ["g", "--on", "2026-11-18", "-p", "mid"],  // 7 done
      ["h", "--on", "2026-11-20", "-p", "mid"],  // 8 done
      ["i", "--on", "2026-11-20", "-p", "low"],  // 9 done
      ["j", "--on", "2026-11-22", "-p", "high"],  // 10 done
      ["k", "--on", "2026-11-22", "-p", "mid"],  // 11 open
      ["l", "--on", "2026-11-22", "-p", "low"],  // 12 done
      ["m", "--on", "2026-11-23", "-p", "high"],  // 13 outside, open
    ]
    for arguments in adds { #expect(await h.run(["add"] + arguments).code == 0) }
    #expect(await h.run(["done", "2", "3", "4", "5", "7", "8", "9", "10", "12"]).code == 0)
    return h
  }

  static func json(_ text: String) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  // MARK: - JSON contract

  @Test func json_followsTheContract_everyDayPresent_nullRates_streaks() async throws {
    let h = try await Self.scenario()
    let result = await h.run(["report", "--from", "2026-11-14", "--to", "2026-11-22", "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    let object = try Self.json(result.stdout)
    #expect(object["from"] as? String == "2026-11-14")
    #expect(object["to"] as? String == "2026-11-22")
    let days = try #require(object["days"] as? [[String: Any]])
    #expect(days.map { $0["date"] as? String } == (14...22).map { "2026-11-\($0)" })
    // `commits` joins each day once GitHub commits exist; null before the first sync.
    for entry in days { #expect(Set(entry.keys) == ["date", "total", "done", "rate", "commits", "carried"]) }
    #expect(days.allSatisfy { $0["commits"] is NSNull })
    #expect(days.map { $0["total"] as? Int } == [1, 0, 2, 2, 1, 0, 2, 0, 3])
    #expect(days.map { $0["done"] as? Int } == [1, 0, 2, 1, 1, 0, 2, 0, 2])
    #expect(days[1]["rate"] is NSNull)
    #expect(days[0]["rate"] as? Double == 1)
    #expect(days[3]["rate"] as? Double == 0.5)
    #expect(object["total"] as? Int == 11)
    #expect(object["done"] as? Int == 9)
    // Foundation's JSONSerialization on Linux may parse the last digit differently.
    #expect(abs((object["rate"] as? Double ?? 0) - 9.0 / 11.0) < 1e-12)
    // P . P X P . P . X: the last day with todos is today, still open: it does not break the
    // streak of the 18th and 20th (one streak rule, as the dashboard).
    #expect(object["currentStreak"] as? Int == 2)
    #expect(object["longestStreak"] as? Int == 2)
    #expect(object["project"] is NSNull)
    let priorities = try #require(object["priorities"] as? [String: [String: Any]])
    #expect(priorities["high"]?["total"] as? Int == 4)
    #expect(priorities["high"]?["done"] as? Int == 4)
    #expect(priorities["mid"]?["rate"] as? Double == 0.5)
    #expect((object["weekdays"] as? [[String: Any]])?.count == 7)
  }

  @Test(arguments: [
    // (arguments, currentStreak, longestStreak, total)
    (["--from", "2026-11-14", "--to", "2026-11-21"], 2, 2, 8),  // ends on a rest day: 18, 20
    (["--from", "2026-11-14", "--to", "2026-11-16"], 2, 2, 3),  // 14 . 16, the rest day inside
    (["--from", "2026-11-17", "--to", "2026-11-17"], 0, 0, 2),  // one day, not perfect
    // One day without todos: the run of the 14th and 16th stands through it, counted in full.
    (["--from", "2026-11-15", "--to", "2026-11-15"], 1, 2, 0),
    (["--from", "2026-11-14", "--to", "2026-11-22", "--project", "p"], 2, 2, 3),
    // The project's run 16, 17 counts in full; on the 16th it stood at 1.
    (["--from", "2026-11-14", "--to", "2026-11-16", "--project", "P"], 1, 2, 2),
  ] as [([String], Int, Int, Int)])
  func json_streaksAndProjectFilter(arguments: [String], current: Int, longest: Int, total: Int)
    async throws
  {
    let h = try await Self.scenario()
    let result = await h.run(["report", "--json"] + arguments)
    #expect(result.code == 0, "\(result.stderr)")
    let object = try Self.json(result.stdout)
    #expect(object["currentStreak"] as? Int == current)
    #expect(object["longestStreak"] as? Int == longest)
    #expect(object["total"] as? Int == total)
    if total == 0 { #expect(object["rate"] is NSNull) }
  }

  @Test(arguments: [
    ([String](), "2026-10-26", "2026-11-22"),  // the last 4 weeks
    (["--week"], "2026-11-16", "2026-11-22"),
    (["--month"], "2026-10-24", "2026-11-22"),
    (["--year"], "2025-11-23", "2026-11-22"),
    (["--days", "3"], "2026-11-20", "2026-11-22"),
    (["--from", "2026-11-20"], "2026-11-20", "2026-11-22"),
    (["--to", "yesterday"], "2026-10-25", "2026-11-21"),
    (["--from", "2026-12-30", "--to", "2027-01-02"], "2026-12-30", "2027-01-02"),
  ] as [([String], String, String)])
  func ranges(arguments: [String], from: String, to: String) async throws {
    let h = try Harness()
    let object = try Self.json(await h.run(["report", "--json"] + arguments).stdout)
    #expect(object["from"] as? String == from)
    #expect(object["to"] as? String == to)
    let days = try #require(object["days"] as? [[String: Any]])
    #expect(days.count == Day(iso: from)!.distance(to: Day(iso: to)!) + 1)
    #expect(object["rate"] is NSNull)
    #expect(object["currentStreak"] as? Int == 0)
  }

  @Test func defaultRange_followsTheTimeZone() async throws {
    // 2026-11-21 15:30 UTC is already the 22nd in Seoul, still the 21st in UTC.
    var h = try Harness(now: "2026-11-21T15:30:00Z")
    h.timeZone = TimeZone(identifier: "Asia/Seoul")!
    #expect(try await Self.json(h.run(["report", "--json", "--days", "1"]).stdout)["to"] as? String == "2026-11-22")
    h.timeZone = TimeZone(identifier: "UTC")!
    #expect(try await Self.json(h.run(["report", "--json", "--days", "1"]).stdout)["to"] as? String == "2026-11-21")
  }

  // MARK: - CSV

  @Test func csv_hasAHeaderAndOneRowPerDay() async throws {
    let h = try await Self.scenario()
    let result = await h.run(["report", "--from", "2026-11-14", "--to", "2026-11-17", "--csv"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        date,weekday,total,done,rate,commits,carried
        2026-11-14,Sat,1,1,1.0,,0
        2026-11-15,Sun,0,0,,,0
        2026-11-16,Mon,2,2,1.0,,0
        2026-11-17,Tue,2,1,0.5,,0

        """)
  }

  // MARK: - Golden terminal output

  @Test(arguments: [false, true])
  func table_golden(colour: Bool) async throws {
    var h = try await Self.scenario()
    if colour { h.variables["CLICOLOR_FORCE"] = "1" }
    let result = await h.run(["report", "--from", "2026-11-14", "--to", "2026-11-22"])
    #expect(result.code == 0, "\(result.stderr)")
    try Golden.check(result.stdout, colour ? "report-table-colour.txt" : "report-table.txt")
  }

  @Test func table_ofALongRange_hasOneRowPerWeek() async throws {
    let h = try await Self.calendarData()
    let result = await h.run(["report", "--days", "100"])
    #expect(result.code == 0, "\(result.stderr)")
    try Golden.check(result.stdout, "report-table-weeks.txt")
  }

  /// 190 days ending 2026-11-22 with every level (seeded, so always the same), written straight
  /// to the database.
  static func calendarData() async throws -> Harness {
    let h = try Harness()
    try FileManager.default.copyItem(atPath: try calendarTemplate.get(), toPath: h.databasePath)
    return h
  }

  /// The calendar database, made once per test run and copied by each test.
  static let calendarTemplate: Result<String, any Error> = Result {
    let folder = NSTemporaryDirectory() + "/ootd-calendar-template-\(getpid())"
    try? FileManager.default.removeItem(atPath: folder)
    atexit {
      try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "/ootd-calendar-template-\(getpid())")
    }
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/ootd.sqlite"
    let database = try AppDatabase.open(path: path)
    var drafts: [(todo: NewTodo, done: Bool)] = []
    let today = Day(iso: "2026-11-22")!
    var random = SplitMix64(seed: 3)
    for offset in 0..<190 {
      let day = today.adding(days: -offset)
      let total = Int(random.next() % 7)  // 0 = a rest day
      let done = min(total, [0, total / 3, total / 2 + 1, total - 1, total, total][Int(random.next() % 6)])
      for index in 0..<total {
        drafts.append(
          (try NewTodo(title: "t", priority: Priority.allCases[index % 3], day: day), index < done))
      }
    }
    try database.addTodos(drafts, now: TestClock.now)
    return path  // `database` closes here; SQLite folds the WAL into the file on close
  }

  @Test(arguments: [false, true])
  func calendar_golden(colour: Bool) async throws {
    var h = try await Self.calendarData()
    if colour { h.variables["CLICOLOR_FORCE"] = "1" }
    let result = await h.run(["report", "--calendar"])
    #expect(result.code == 0, "\(result.stderr)")
    try Golden.check(result.stdout, colour ? "report-calendar-colour.txt" : "report-calendar.txt")
  }

  @Test func calendar_narrow_golden() async throws {
    var h = try await Self.calendarData()
    h.variables["COLUMNS"] = "40"
    let result = await h.run(["report", "--calendar", "--from", "2026-05-24", "--to", "today"])
    try Golden.check(result.stdout, "report-calendar-40-columns.txt")
  }

  // MARK: - Width

  @Test(arguments: [80, 72, 60, 40, 30, 20] as [Int])
  func calendar_ofSixMonths_fitsTheWidth_andKeepsEveryDay(width: Int) async throws {
    var h = try await Self.calendarData()
    h.variables["COLUMNS"] = String(width)
    let result = await h.run(["report", "--calendar", "--from", "2026-05-24", "--to", "today"])
    #expect(result.code == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let grid = lines.filter { line in Weekday.allCases.contains { line.hasPrefix($0.shortName + " ") } }
    for line in grid + lines.filter({ $0.contains("none") }) {
      #expect(DisplayWidth.of(line) <= width, "\(width): '\(line)'")
    }
    let cells = grid.reduce(0) { count, line in
      count + line.dropFirst(4).filter { TerminalHeatmap.glyphs.contains($0) }.count
    }
    #expect(cells == 183, "every day of 2026-05-24 … 2026-11-22 drawn once")
    let blocks = grid.filter { $0.hasPrefix("Mon ") }.count
    if width >= 80 { #expect(blocks == 1, "6 months fit 80 columns in one block") }
    if width <= 40 { #expect(blocks > 1, "narrow terminals wrap") }
  }

  // MARK: - SVG

  @Test func svg_isWellFormedXML_withOneRectAndTooltipPerDay() async throws {
    let h = try await Self.calendarData()
    let path = h.folder.file("achievement.svg")
    let result = await h.run(["report", "--from", "2026-05-24", "--to", "today", "--svg", path])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Wrote the calendar of 2026-05-24 → 2026-11-22 (183 days) to \(path)"))
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let collector = SVGCollector()
    let parser = XMLParser(data: data)
    parser.delegate = collector
    #expect(parser.parse(), "\(String(describing: parser.parserError))")
    #expect(collector.root == "svg")
    #expect(collector.dayDates.count == 183)
    #expect(Set(collector.dayDates).count == 183)
    #expect(collector.dayDates.first == "2026-05-24")
    #expect(collector.dayDates.sorted().last == "2026-11-22")
    #expect(collector.titledDays == 183)
    #expect(collector.legendRects == 5)
    #expect(collector.texts.contains("Mon") && collector.texts.contains("Sun"))
    #expect(collector.texts.contains("Jun") && collector.texts.contains("Nov"))
  }

  @Test func svg_toStandardOutput() async throws {
    let h = try await Self.scenario()
    let result = await h.run(["report", "--week", "--svg", "-"])
    #expect(result.code == 0)
    #expect(result.stdout.hasPrefix("<?xml"))
    #expect(result.stdout.components(separatedBy: "class=\"day\"").count - 1 == 7)
  }

  // MARK: - Errors

  @Test(arguments: [
    (["report", "--from", "2026-02-30"], Int32(64)),
    (["report", "--from", "2026-11-22", "--to", "2026-11-01"], 64),
    (["report", "--week", "--month"], 64),
    (["report", "--year", "--from", "2026-01-01"], 64),
    (["report", "--days", "0"], 64),
    (["report", "--days", "99999"], 64),
    (["report", "--days", "x"], 64),
    (["report", "--json", "--csv"], 64),
    (["report", "--calendar", "--json"], 64),
    (["report", "--project", "nope"], 1),
    (["report", "--svg", "/nonexistent-folder/x.svg"], 1),
  ] as [([String], Int32)])
  func badInput_oneLineError_withItsExitCode(arguments: [String], code: Int32) async throws {
    let h = try Harness()
    let result = await h.run(arguments)
    #expect(result.code == code, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("ootd: error: "), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  @Test func svg_ontoADirectory_failsWithExit1_andLeavesNoTemporaryFile() async throws {
    let h = try Harness()
    let result = await h.run(["report", "--svg", h.folder.path])
    #expect(result.code == 1)
    #expect(result.stderr.contains("cannot write"))
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: h.folder.path)
      .filter { $0.hasSuffix(".tmp") }
    #expect(leftovers.isEmpty)
  }

  // MARK: - Dashboard

  @Test func dashboard_showsTodaysRateAndTheStreak() async throws {
    let h = try await Self.scenario()
    // Before today: 20 perfect (19 rest, 18 perfect) → 2; today 2/3 done.
    let result = await h.run([])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("2/3 done  67%"))
    #expect(result.stdout.contains("Streak: 2 perfect days · finish today's 1 open todo to make it 3"))
    let json = try Self.json(await h.run(["today", "--json"]).stdout)
    #expect(json["streak"] as? Int == 2)
    #expect(abs((json["rate"] as? Double ?? 0) - 2.0 / 3.0) < 1e-12)
    #expect(await h.run(["done", "11"]).code == 0)
    #expect(await h.run([]).stdout.contains("Streak: 3 perfect days, today included"))
    #expect(try await Self.json(h.run(["today", "--json"]).stdout)["streak"] as? Int == 3)
  }

  @Test func dashboard_withNothing_saysSo() async throws {
    let h = try Harness()
    let result = await h.run([])
    #expect(result.stdout.contains("No streak yet · nothing planned today"))
    #expect(try await Self.json(h.run(["today", "--json"]).stdout)["streak"] as? Int == 0)
  }

  // MARK: - Project progress

  @Test func projectList_andShow_showDoneOverTotalAndLastActivity() async throws {
    let h = try await Self.scenario()
    let list = await h.run(["project", "list"])
    #expect(list.stdout.contains("3/3 done 100%"))
    #expect(list.stdout.contains("2026-11-17"))
    let show = await h.run(["project", "show", "p"])
    #expect(show.stdout.contains("3/3 done 100%"))
    #expect(show.stdout.contains("last active 2026-11-17"))
  }

  /// Issue 8, "weekday ties say so": weekdays sharing the best rate are all named, in the text
  /// and in JSON (`bestWeekdays`), and when every weekday has one rate there is no best or worst.
  @Test func weekdayTies_areSaid_inTextAndJSON() async throws {
    let h = try Harness()
    // Mon 16 and Tue 17: 1/1 each; Wed 18: 0/1.
    for day in ["2026-11-16", "2026-11-17", "2026-11-18"] {
      #expect(await h.run(["add", "x", "--on", day]).code == 0)
    }
    #expect(await h.run(["done", "1", "2"]).code == 0)
    let range = ["--from", "2026-11-16", "--to", "2026-11-22", "--no-color"]
    let tied = await h.run(["report"] + range)
    #expect(tied.stdout.contains("  Weekdays  best Mon, Tue 100% (tie) · worst Wed 0%\n"), "\(tied.stdout)")
    #expect(tied.stdout.contains("1/1  100%  best (tie)\n"), "\(tied.stdout)")
    #expect(tied.stdout.contains("0/1    0%  worst\n"), "\(tied.stdout)")
    let json = try Self.json(await h.run(["report", "--json"] + range.dropLast()).stdout)
    #expect(json["bestWeekday"] as? String == "Mon")
    #expect(json["bestWeekdays"] as? [String] == ["Mon", "Tue"])
    #expect(json["worstWeekdays"] as? [String] == ["Wed"])

    #expect(await h.run(["done", "3"]).code == 0)
    let even = await h.run(["report"] + range)
    #expect(even.stdout.contains("  Weekdays  all tied at 100%: no best or worst\n"), "\(even.stdout)")
    // No weekday row is marked best or worst.
    #expect(!even.stdout.contains("%  best") && !even.stdout.contains("%  worst"), "\(even.stdout)")
    let evenJSON = try Self.json(await h.run(["report", "--json"] + range.dropLast()).stdout)
    #expect(evenJSON["bestWeekdays"] as? [String] == ["Mon", "Tue", "Wed"])

    let none = try Self.json(await h.run(["report", "--json", "--from", "2026-11-16", "--to", "2026-11-16"]).stdout)
    #expect(none["bestWeekdays"] is NSNull && none["worstWeekdays"] is NSNull)
  }
}

/// Collects what the SVG tests check while parsing.
final class SVGCollector: NSObject, XMLParserDelegate {
  var root: String?
  var dayDates: [String] = []
  var titledDays = 0
  var legendRects = 0
  var texts: [String] = []
  private var inDay = false
  private var inText = false

  func parser(
    _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    if root == nil { root = name }
    if name == "rect" && attributes["class"] == "day" {
      dayDates.append(attributes["data-date"] ?? "")
      inDay = true
    }
    if name == "rect" && attributes["class"] == "legend" { legendRects += 1 }
    if name == "title" && inDay { titledDays += 1 }
    if name == "text" {
      inText = true
      texts.append("")
    }
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    if inText { texts[texts.count - 1] += string }
  }

  func parser(
    _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
  ) {
    if name == "rect" { inDay = false }
    if name == "text" { inText = false }
  }
}
