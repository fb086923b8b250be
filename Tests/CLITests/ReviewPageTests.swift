import Core
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

@testable import CLI

/// The page builder of `ootd review` (issue 28): pure values in, HTML and SVG strings out. The
/// figures come from a real ``AchievementReport`` and ``CommitCalendar``; user text is hostile.
@Suite struct ReviewPageTests {
  static let hostileProject = "</svg><script>alert(\"p\")</script>&amp;"
  static let hostileBlock = "b'lock\"<img src=x onerror=alert(1)>"
  static let hostileTitle = "Title </title><script>x</script> \u{1B}[31m\u{7}\u{85} & 'done'"
  static let plainTitle = "Write the quarterly report"

  /// 2026-03-02 … 2026-03-15: three perfect days in a row (2–4), a half day (5), a rest day,
  /// commits on some days from the 4th (synced from then).
  static func review(_ privacy: YearReview.Privacy = .names) throws -> YearReview {
    let range = try DayRange(from: Day(iso: "2026-03-02")!, to: Day(iso: "2026-03-15")!)
    let day = { (offset: Int) in range.from.adding(days: offset) }
    let counts = [
      DayPriorityCount(day: day(0), priority: .high, tally: Tally(total: 2, done: 2)),
      DayPriorityCount(day: day(1), priority: .mid, tally: Tally(total: 1, done: 1)),
      DayPriorityCount(day: day(2), priority: .low, tally: Tally(total: 3, done: 3)),
      DayPriorityCount(day: day(3), priority: .high, tally: Tally(total: 2, done: 1)),
    ]
    let report = AchievementReport(range: range, counts: counts, today: day(20))
    var commits = CommitCalendar(range: range, counts: [0, 0, 4, 0, 9, 0, 1, 0, 0, 0, 0, 0, 0, 2])
    commits.syncedFrom = day(2)
    let created = Date(timeIntervalSince1970: 0)
    var todos: [Todo] = []
    var id: Int64 = 0
    func todo(_ title: String, _ priority: Priority, _ offset: Int, project: String?, block: String?) {
      id += 1
      todos.append(
        Todo(id: id, title: title, priority: priority, day: day(offset), isDone: true, project: project,
             block: block, createdAt: created))
    }
    todo(hostileTitle, .high, 0, project: hostileProject, block: nil)
    todo(plainTitle, .high, 0, project: hostileProject, block: nil)
    todo("Review a pull request", .mid, 1, project: "ootd", block: hostileBlock)
    for _ in 0..<3 { todo("Solve a puzzle", .low, 2, project: nil, block: "algorithm") }
    todo("Ship it", .high, 3, project: "ootd", block: nil)
    return YearReview(
      figures: ReportFigures(report: report, commits: commits), doneTodos: todos, zone: "Asia/Seoul",
      privacy: privacy)
  }

  /// The text of every `http://` or `https://` in `text` that is not a namespace URI.
  static func foreignReferences(_ text: String) -> [String] {
    let allowed = ["http://www.w3.org/2000/svg", "http://www.w3.org/1999/xhtml"]
    var found: [String] = []
    var rest = Substring(text)
    while let start = rest.range(of: "http", options: .caseInsensitive) {
      let tail = rest[start.lowerBound...]
      let uri = String(tail.prefix { !"\"' <>".contains($0) })
      if uri.lowercased().hasPrefix("http:") || uri.lowercased().hasPrefix("https:"), !allowed.contains(uri) {
        found.append(uri)
      }
      rest = rest[start.upperBound...]
    }
    return found
  }

  @Test func thePage_isOneDocument_withTitlesForScreenReaders_andBothThemes() throws {
    let html = ReviewPage().html(try Self.review())
    #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n"))
    #expect(html.hasSuffix("</html>\n"))
    #expect(html.contains("<title>2026-03-02 → 2026-03-15 in review · ootd</title>"))
    #expect(html.contains("@media (prefers-color-scheme: dark)"))
    // Two heatmaps, each an SVG with its title and description, achievement first.
    let achievement = try #require(html.range(of: "<title id=\"achievement-title\">"))
    let commits = try #require(html.range(of: "<title id=\"commits-title\">"))
    #expect(achievement.lowerBound < commits.lowerBound)
    #expect(html.contains("<desc id=\"achievement-desc\">"))
    #expect(html.contains("<desc id=\"commits-desc\">"))
    #expect(html.components(separatedBy: "<svg ").count == 3)
    // The figures: 7 of 8 planned todos done, a streak of 3 perfect days, 16 commits.
    #expect(html.contains("data-figure=\"done\">7<"))
    #expect(html.contains("data-figure=\"total\">8<"))
    #expect(html.contains("data-figure=\"longestStreak\">3<"))
    #expect(html.contains("data-figure=\"commits\">16<"))
    // The relation, as `report` states it (days with commits: the 4th and the 5th's... only the
    // 4th has both todos and commits; the 5th has todos and none).
    #expect(html.contains("days with commits: 100% achieved (1 day) · days without: 50% achieved (1 day)"))
    // Busiest commit days, most first; a day before the sync is never one.
    let busiest = try #require(html.range(of: "data-figure=\"busiest\""))
    let list = html[busiest.upperBound...]
    let sixth = try #require(list.range(of: "2026-03-06"))
    let fourth = try #require(list.range(of: "2026-03-04"))
    #expect(sixth.lowerBound < fourth.lowerBound)
    // Every day of the range has its cell, with a tooltip.
    #expect(html.components(separatedBy: "data-date=\"2026-03-").count - 1 == 28)
    #expect(html.contains("<title>Mon 2026-03-02: 2/2 done (100%)</title>"))
    #expect(html.contains("<title>Wed 2026-03-04: 4 commits</title>"))
    #expect(html.contains("<title>Mon 2026-03-02: not synced</title>"))
    // The month of the range.
    #expect(html.contains("data-month=\"2026-03\""))
  }

  @Test func noScript_noForeignReference_noWebFont_inThePageOrTheCard() throws {
    for privacy in [YearReview.Privacy.names, .titles, .redacted] {
      let review = try Self.review(privacy)
      for text in [ReviewPage().html(review), ReviewPage().svg(review)] {
        #expect(!text.lowercased().contains("<script"))
        #expect(Self.foreignReferences(text) == [])
        #expect(!text.contains("@font-face"))
        #expect(!text.contains("@import"))
        #expect(!text.contains("url("))
        #expect(!text.contains("foreignObject"))
        #expect(!text.contains("href"))
      }
    }
  }

  @Test func hostileNames_areEscaped_andTheCardParsesAsXML() throws {
    let review = try Self.review(.titles)
    let html = ReviewPage().html(review)
    let svg = ReviewPage().svg(review)
    for text in [html, svg] {
      #expect(!text.contains("</svg><script>"))
      #expect(!text.contains("<img"))
      #expect(!text.contains("\u{1B}"))
      #expect(!text.contains("\u{7}"))
      #expect(!text.contains("\u{85}"))
    }
    #expect(html.contains("&lt;/svg&gt;&lt;script&gt;alert(&quot;p&quot;)&lt;/script&gt;&amp;amp;"))
    #expect(html.contains("b&apos;lock&quot;&lt;img src=x onerror=alert(1)&gt;"))
    #expect(html.contains("Title &lt;/title&gt;&lt;script&gt;x&lt;/script&gt; \u{FFFD}[31m\u{FFFD}\u{FFFD} &amp; &apos;done&apos;"))
    let document = try XMLDocument(xmlString: svg, options: [])
    let root = try #require(document.rootElement())
    #expect(root.name == "svg")
    #expect(root.elements(forName: "title").first?.stringValue == "2026-03-02 → 2026-03-15 in review · ootd")
    #expect(root.elements(forName: "desc").count == 1)
    // The hostile project name reads back as it was written (clipped to the card's width).
    let clipped = ReviewPage.clipped(Self.hostileProject, 24)
    #expect(svg.contains(HeatmapSVG.escape(clipped)))
    #expect(root.stringValue?.contains(clipped) == true)
  }

  @Test func privateByDefault_titlesOnlyWhenAsked_redactLeavesNoName() throws {
    let names = ReviewPage().html(try Self.review(.names))
    #expect(!names.contains("quarterly report"))
    #expect(!names.contains("Solve a puzzle"))
    #expect(names.contains(">ootd<"))
    #expect(names.contains(">algorithm<"))

    let titles = ReviewPage().html(try Self.review(.titles))
    #expect(titles.contains(Self.plainTitle))
    #expect(titles.contains("Ship it"))

    let review = try Self.review(.redacted)
    for text in [ReviewPage().html(review), ReviewPage().svg(review)] {
      for secret in [Self.plainTitle, "Ship it", "Solve a puzzle", "Review a pull request", "algorithm", "alert", "b&apos;lock"] {
        #expect(!text.contains(secret), "\(secret)")
      }
      // A project is called ootd: a redacted page names nothing, not even the tool.
      #expect(!text.contains("ootd"))
      // Neutral labels in ranking order: the hostile project has 2 done todos, ootd 2 (ties by
      // name, byte order: '<' before 'o'), the algorithm block 3.
      #expect(text.contains("Project 1"))
    }
    #expect(review.projects.map(\.name) == ["Project 1", "Project 2"])
    #expect(review.blocks.map(\.name) == ["Block 1", "Block 2"])
    #expect(review.highlights.map(\.title).allSatisfy { $0.hasPrefix("Todo ") })
    #expect(review.highlights.compactMap(\.project).allSatisfy { $0.hasPrefix("Project ") })
  }

  @Test func rankings_countEveryDoneTodoOnce_mostFirst() throws {
    let review = try Self.review()
    #expect(review.projects == [.init(name: Self.hostileProject, done: 2), .init(name: "ootd", done: 2)])
    #expect(review.blocks == [.init(name: "algorithm", done: 3), .init(name: Self.hostileBlock, done: 1)])
    #expect(review.busiestDays.map(\.count) == [9, 4, 2, 1])
    #expect(review.months.count == 1)
    #expect(review.months[0].tally == review.report.total)
    #expect(review.months[0].commits == 16)
    #expect(review.highlights.isEmpty)
    #expect(try Self.review(.titles).highlights.map(\.priority) == [.high, .high, .high, .mid, .low, .low, .low])
  }

  @Test func theSameReview_givesTheSameBytes() throws {
    for privacy in [YearReview.Privacy.names, .titles, .redacted] {
      let (first, second) = (try Self.review(privacy), try Self.review(privacy))
      #expect(ReviewPage().html(first) == ReviewPage().html(second))
      #expect(ReviewPage().svg(first) == ReviewPage().svg(second))
    }
  }

  /// A year with no commits synced: one heatmap, and the page says how to get the other.
  @Test func withoutCommits_thePageSaysHowToSyncThem() throws {
    let range = try DayRange(from: Day(iso: "2026-01-01")!, to: Day(iso: "2026-12-31")!)
    let report = AchievementReport(range: range, counts: [])
    let review = YearReview(figures: ReportFigures(report: report), doneTodos: [], zone: "UTC", privacy: .names)
    let html = ReviewPage().html(review)
    #expect(html.contains("<title>2026 in review · ootd</title>"))
    #expect(html.contains("<code>ootd sync</code>"))
    #expect(html.components(separatedBy: "<svg ").count == 2)
    #expect(review.months.count == 12)
    #expect(html.contains("data-figure=\"rate\">–<"))
    let svg = ReviewPage().svg(review)
    _ = try XMLDocument(xmlString: svg, options: [])
    #expect(svg.contains("data-figure=\"longestStreak\">0<"))
  }
}
