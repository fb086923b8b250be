import Core
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

@testable import CLI

/// `report --calendar` with synced commits: the achievement and commit heatmaps week by week,
/// the relation between them, and days before the first sync shown as "not synced", never 0.
@Suite struct SideBySideCalendarTests {
  /// Todos on the 8th (before the sync window), the 12th (done, with a commit) and the 13th
  /// (open, no commit); commits synced from the 10th.
  func syncedHarness() async throws -> Harness {
    var harness = try Harness()
    for (title, day) in [("before", "2026-11-08"), ("with", "2026-11-12"), ("without", "2026-11-13")] {
      #expect(await harness.run(["add", title, "--on", day]).code == 0)
    }
    #expect(await harness.run(["done", "2"]).code == 0)
    harness.transport = StubGitHub.mona(commits: [StubGitHub.commit("aaaa1111", "2026-11-12T01:00:00Z")])
    harness.variables["GITHUB_TOKEN"] = "t0k"
    let synced = await harness.run(["sync", "--since", "2026-11-10"])
    #expect(synced.code == 0, "\(synced.stderr)")
    return harness
  }

  @Test func daysBeforeTheFirstSync_areNotSynced_inJSONCSVAndTheTable() async throws {
    let harness = try await syncedHarness()
    let json = await harness.run(["report", "--from", "2026-11-08", "--to", "2026-11-13", "--json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let days = try #require(object["days"] as? [[String: Any]])
    #expect(days.map { $0["commits"] as? Int } == [nil, nil, 0, 0, 1, 0])
    #expect(days.prefix(2).allSatisfy { $0["commits"] is NSNull })
    let csv = await harness.run(["report", "--from", "2026-11-08", "--to", "2026-11-13", "--csv"])
    let rows = csv.stdout.split(separator: "\n")
    #expect(rows[1] == "2026-11-08,Sun,1,0,0.0,,0")
    #expect(rows[5] == "2026-11-12,Thu,1,1,1.0,1,0")
    let table = await harness.run(["report", "--from", "2026-11-08", "--to", "2026-11-13", "--no-color"])
    let sunday = try #require(table.stdout.split(separator: "\n").first { $0.contains("Sun 2026-11-08") })
    #expect(sunday.contains("not synced"))
    #expect(!sunday.contains("0 commits"))
  }

  /// The relation the calendar draws is in `report --json` too (`commitRelation`), and null
  /// before any sync, as `commits` is.
  @Test func reportJSON_carriesTheRelation_nullUntilSynced() async throws {
    var harness = try Harness()
    #expect(await harness.run(["add", "x", "--on", "2026-11-12"]).code == 0)
    let unsynced = await harness.run(["report", "--from", "2026-11-08", "--to", "2026-11-13", "--json"])
    let before = try #require(try JSONSerialization.jsonObject(with: Data(unsynced.stdout.utf8)) as? [String: Any])
    #expect(before["commitRelation"] is NSNull)
    #expect(before.keys.contains("commitRelation"))

    harness = try await syncedHarness()
    let json = await harness.run(["report", "--from", "2026-11-08", "--to", "2026-11-13", "--json"])
    #expect(json.code == 0, "\(json.stderr)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    let relation = try #require(object["commitRelation"] as? [String: [String: Any]])
    // The 12th (1 of 1 done, one commit) against the 13th (0 of 1, none); the 8th is before
    // the sync and counts on neither side.
    let with = try #require(relation["withCommits"])
    let without = try #require(relation["withoutCommits"])
    #expect(with["days"] as? Int == 1 && with["total"] as? Int == 1 && with["done"] as? Int == 1)
    #expect(with["rate"] as? Double == 1.0)
    #expect(without["days"] as? Int == 1 && without["total"] as? Int == 1 && without["done"] as? Int == 0)
    #expect(without["rate"] as? Double == 0.0)
  }

  @Test func calendar_stacksAchievementAndCommitsWeekByWeek_andRelatesThem() async throws {
    let harness = try await syncedHarness()
    let drawn = await harness.run(["report", "--calendar", "--from", "2026-11-02", "--to", "2026-11-22", "--no-color"])
    #expect(drawn.code == 0)
    let lines = drawn.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let achievement = try #require(lines.firstIndex(of: "Achievement"))
    let commits = try #require(lines.firstIndex(of: "Commits"))
    #expect(commits == achievement + 8)
    // Three weeks, one column each, in both panels: the week of the 9th has the unsynced
    // Sunday the 8th ... and the commit on Thursday the 12th.
    #expect(lines[commits + 1] == "Mon - - ·")  // the 2nd and 9th before the sync, the 16th synced
    #expect(lines[commits + 4] == "Thu - █ ·")  // the 12th: the busiest day
    #expect(lines[commits + 7] == "Sun - · ·")  // the 8th: not synced
    #expect(drawn.stdout.contains("- not synced"))
    #expect(drawn.stdout.contains("days with commits: 100% achieved (1 day) · days without: 0% achieved (1 day)"))
    #expect(drawn.stdout.contains("not synced before 2026-11-10"))
  }

  @Test(
    "the relation counts only synced days with todos",
    arguments: [
      ([1, 0, 2], [(1, 1), (2, 1), (1, 0)], nil as String?, [
        "days with commits: 50% achieved (2 days)", "days without: 50% achieved (1 day)",
      ]),
      ([0, 0, 3], [(0, 0), (2, 2), (1, 1)], "2026-11-02", [
        "days with commits: 100% achieved (1 day)", "days without: 100% achieved (1 day)",
      ]),
      ([0, 0, 0], [(0, 0), (0, 0), (0, 0)], nil, ["days with commits: no days", "days without: no days"]),
    ] as [([Int], [(Int, Int)], String?, [String])])
  func relation(counts: [Int], tallies: [(Int, Int)], syncedFrom: String?, expected: [String]) throws {
    let range = try DayRange(from: Day(iso: "2026-11-01")!, to: Day(iso: "2026-11-03")!)
    var calendar = CommitCalendar(range: range, counts: counts)
    calendar.syncedFrom = syncedFrom.flatMap(Day.init(iso:))
    let counts = zip(range, tallies).map { day, tally in
      DayPriorityCount(day: day, priority: .mid, tally: Tally(total: tally.0, done: tally.1))
    }
    let report = AchievementReport(range: range, counts: counts)
    #expect(CommitAchievementRelation(report, commits: calendar).parts == expected)
  }

  @Test func svg_stacksBothHeatmaps_withLevelLabels_andTheRelation() async throws {
    let harness = try await syncedHarness()
    let drawn = await harness.run(["report", "--from", "2026-11-08", "--to", "2026-11-13", "--svg", "-"])
    #expect(drawn.code == 0)
    let collector = SVGCollector()
    let parser = XMLParser(data: Data(drawn.stdout.utf8))
    parser.delegate = collector
    #expect(parser.parse(), "\(String(describing: parser.parserError))")
    #expect(collector.dayDates.count == 6)  // the achievement panel
    #expect(drawn.stdout.components(separatedBy: "class=\"day secondary\"").count - 1 == 6)
    #expect(drawn.stdout.components(separatedBy: "data-level=\"none\"").count - 1 == 2)  // the 8th and 9th
    #expect(collector.legendRects == 10)
    for text in ["Achievement", "Commits", "none", "100%", "not synced", "Mon", "Sun"] {
      #expect(collector.texts.contains(text), "\(text)")
    }
    #expect(collector.texts.contains("days with commits: 100% achieved (1 day); days without: 0% achieved (1 day)"))
  }

  @Test func svg_ofOneDay_isWideEnoughForItsCaption_andItsLabelsClearTheEdge() async throws {
    let harness = try Harness()
    #expect(await harness.run(["add", "x"]).code == 0)
    let drawn = await harness.run(["report", "--from", "today", "--to", "today", "--svg", "-"])
    let svg = drawn.stdout
    let width = try #require(svg.firstMatch(of: /<svg[^>]* width="(\d+)"/).flatMap { Int($0.1) })
    let caption = try #require(svg.firstMatch(of: /class="caption" x="\d+" y="\d+">([^<]*)</).map { String($0.1) })
    // At 12px a character is at most ~7.5px wide: the caption fits the image.
    #expect(Double(width) >= Double(caption.count) * 7.5)
    // Weekday labels start clear of the left edge
    for match in svg.matches(of: /<text x="(\d+)" y="\d+">(Mon|Sun)</) { #expect(Int(match.1)! >= 8) }
    // The legend names its levels as the terminal's does
    for label in ["none", "<50%", "50-79%", "80-99%", "100%"] {
      #expect(svg.contains(">\(HeatmapSVG().escape(label))</text>"), "\(label)")
    }
  }

  @Test("SVG text is escaped, and characters XML cannot carry are replaced")
  func svgEscaping() {
    #expect(HeatmapSVG().escape("a<b>&\"c'\u{1}") == "a&lt;b&gt;&amp;&quot;c&apos;\u{FFFD}")
  }
}
