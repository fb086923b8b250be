import Core
import Foundation
import Storage
import TUI
import Testing

@testable import CLI

/// The Day view's commits and the Calendar tab, on a real database (commits stored as `ootd
/// sync` stores them), with the CLI's host and rows.
@Suite struct CalendarTests {
  static let repository = RepositoryName("octo/ootd")!

  /// Stores a commit authored at each of `instants` (ISO 8601) as a sync of octo/ootd would.
  static func storeCommits(_ fixture: Fixture, _ instants: [String]) throws {
    let commits = instants.enumerated().map { index, instant in
      let date = Timestamp.date(instant, .iso8601)!
      return Commit(
        sha: String(repeating: String(index % 10), count: 40), source: .gitHub(repository), authorLogin: "octocat",
        authorName: "Octo", authorEmail: "octo@example.com", authorDate: date, committerDate: date,
        subject: "commit \(index)", htmlURL: nil, parentCount: 1)
    }
    try fixture.database.gitHub.storeCommits(
      commits, listing: ListingKey(repository: repository, author: "octocat"),
      state: ListingState(windowStart: Timestamp.date("2025-01-01T00:00:00Z", .iso8601)!, newest: TUIClock.now))
  }

  /// Every line fits `width` columns.
  static func fits(_ lines: [String], _ width: Int, _ height: Int) {
    #expect(lines.count == height)
    for line in lines { #expect(DisplayWidth.of(line) <= width, "\(line)") }
  }

  @Test func theDayShowsNoCommitLineUntilCommitsAreSynced() throws {
    let fixture = try Fixture()
    try fixture.add("Plan")
    let session = try fixture.session()
    #expect(session.state.data.commits == nil)
    let lines = Renderer(rows: plainRows()).render(session.state, width: 80, height: 24)
    #expect(!lines.contains { $0.contains("commit") }, "GitHub not linked: nothing said")
  }

  @Test func theDayShowsItsCommitsAsTheDashboardCountsThem() async throws {
    let fixture = try Fixture()
    try fixture.add("Plan")
    try Self.storeCommits(
      fixture, ["2026-11-22T01:00:00Z", "2026-11-22T09:00:00Z", "2026-11-22T11:00:00Z", "2026-11-21T10:00:00Z"])
    let session = try fixture.session()
    #expect(session.state.data.commits == 3)
    for (width, height) in [(80, 24), (50, 15)] {
      let lines = Renderer(rows: plainRows()).render(session.state, width: width, height: height)
      #expect(lines[1].contains("· streak 0 · 3 commits"), "\(lines[1])")
      Self.fits(lines, width, height)
    }
    // The dashboard says the same.
    var output = ""
    var environment = fixture.environment
    environment.output = { output += $0 }
    #expect(await Ootd.run(arguments: [], environment: environment) == 0)
    #expect(output.contains("Commits today: 3"))
    // The day before: one; a day without any: "no commits".
    session.handle(keys("h"))
    #expect(Renderer(rows: plainRows()).render(session.state, width: 80, height: 24)[1].contains("· 1 commit"))
    session.handle(keys("h"))
    #expect(Renderer(rows: plainRows()).render(session.state, width: 80, height: 24)[1].contains("· no commits"))
  }

  @Test func theCalendarShowsBothHeatmapsWithTheCursorOnTheDay() throws {
    let fixture = try Fixture()
    try fixture.add("Done today", done: true)
    try fixture.add("Half yesterday", day: -1, done: true)
    try fixture.add("Open yesterday", day: -1)
    try Self.storeCommits(fixture, ["2026-11-22T01:00:00Z", "2026-11-22T09:00:00Z", "2026-11-20T10:00:00Z"])
    let session = try fixture.session()
    session.handle([.tab, .tab])
    #expect(session.state.tab == .calendar)
    let calendar = try #require(session.state.data.calendar)
    #expect(calendar.range.count == 53 * 7)
    #expect(calendar.range.to == TUIClock.today, "today is a Sunday: its week is the last")
    #expect(calendar.tally(TUIClock.today) == Tally(total: 1, done: 1))
    #expect(calendar.commits?.count(on: TUIClock.today) == 2)

    let lines = Renderer(rows: plainRows()).render(session.state, width: 80, height: 24)
    Self.fits(lines, 80, 24)
    #expect(lines[0] == "Calendar Sun 2026-11-22 · 1/1 done · 2 commits  · h/l j/k move · Enter opens")
    #expect(lines[1].hasPrefix("    Mar") && lines[1].hasSuffix("Nov"), "\(lines[1])")
    #expect(lines[2] == "Todos done")
    // 38 weeks fit 80 columns; today (Sunday) is the last cell of the Sunday row, the cursor
    // on it; yesterday (1/2 done: 50-79%) is ▒, today (100%) █.
    #expect(lines[3].hasPrefix("Mon "))
    #expect(lines[9].hasPrefix("Sun ") && lines[9].hasSuffix(">█"), "\(lines[9])")
    #expect(lines[8].hasSuffix(" ▒"), "\(lines[8])")
    #expect(DisplayWidth.of(lines[9]) == 3 + 2 * 38)
    #expect(lines[10] == "Commits")
    // Two commits today: the busiest day, █; one on Friday: ▒ (half the maximum).
    #expect(lines[17].hasSuffix(">█"), "\(lines[17])")
    #expect(lines[15].hasSuffix(" ▒"), "\(lines[15])")
    #expect(lines.contains { $0.hasPrefix("Todos done:  · none") })
    #expect(lines.contains { $0.hasPrefix("Commits:  · 0  ░ -  ▒ 1  ▓ -  █ 2") })

    // At 50×15 the heatmaps stand side by side, fewer weeks each; nothing wraps.
    let small = Renderer(rows: plainRows()).render(session.state, width: 50, height: 15)
    Self.fits(small, 50, 15)
    #expect(small[1].contains("Todos done") && small[1].contains("│ Commits"))
    #expect(small[8].hasPrefix("Sun ") && small[8].contains(">█ │") && small[8].hasSuffix(">█"), "\(small[8])")
    #expect(small.contains("Commits:  · 0  ░ -  ▒ 1  ▓ -  █ 2"), "both legends")

    // In colour: the same cells, shaded; the cursor's in reverse video; still no line too wide.
    for (width, height) in [(80, 24), (50, 15)] {
      let colored = Renderer(rows: ListRows(style: Style(colored: true))).render(session.state, width: width, height: height)
      #expect(colored.count == height)
      for line in colored { #expect(DisplayWidth.visible(line) <= width, "\(line.debugDescription)") }
      #expect(colored.contains { $0.contains("\u{1B}[7m") }, "the cursor's cell in reverse video")
    }

    // k goes a week back (the cursor moves up a column), h a day; Enter opens that day.
    session.handle(keys("kh"))
    #expect(session.state.day == TUIClock.today.adding(days: -8))
    let moved = Renderer(rows: plainRows()).render(session.state, width: 80, height: 24)
    #expect(moved[8].hasSuffix(">· ▒"), "\(moved[8])")
    #expect(moved[0].hasPrefix("Calendar Sat 2026-11-14 · no todos · no commits"))
    session.handle(keys("x"))
    #expect(session.state.status.hasPrefix("On the Calendar tab"))
    session.handle([.enter])
    #expect(session.state.tab == .day && session.state.day == TUIClock.today.adding(days: -8))
  }

  @Test func theCalendarSaysWhenNoCommitIsSyncedAndGoesBackBeyondItsWeeks() throws {
    let fixture = try Fixture()
    try fixture.add("Plan")
    let session = try fixture.session()
    session.handle([.backTab, .backTab])
    #expect(session.state.tab == .calendar)
    for (width, height) in [(80, 24), (50, 15), (40, 10)] {
      let lines = Renderer(rows: plainRows()).render(session.state, width: width, height: height)
      Self.fits(lines, width, height)
      if width >= 50 { #expect(lines.contains { $0.contains("none synced") }, "\(width)") }
    }
    // Forty weeks back: the cursor's week is shown (first column), the range is still the year.
    session.handle(Array(repeating: Key.character("k"), count: 40))
    let lines = Renderer(rows: plainRows()).render(session.state, width: 80, height: 24)
    #expect(lines[9].hasPrefix("Sun>"), "\(lines[9])")
    // Two years back: the range follows the day.
    session.handle(keys("g2024-06-05") + [.enter])
    #expect(session.state.data.calendar?.range.contains(Day(iso: "2024-06-05")!) == true)
    #expect(Renderer(rows: plainRows()).render(session.state, width: 80, height: 24)[5].hasSuffix(">·"))
  }
}

/// `TERM=dumb` on a terminal: refused before the terminal or the database is touched.
@Suite struct DumbTerminalTests {
  @Test func aDumbTerminalIsRefusedWithOneLineAndExit64() async throws {
    let fixture = try Fixture()
    var errors = ""
    var environment = fixture.environment
    environment.stdinIsTerminal = true
    environment.stdoutIsTerminal = true
    environment.variables["TERM"] = "dumb"
    environment.errorOutput = { errors += $0 }
    #expect(await Ootd.run(arguments: ["tui"], environment: environment) == 64)
    #expect(errors.hasPrefix("ootd: error: ootd tui cannot run with TERM=dumb"), "\(errors)")
    #expect(errors.split(separator: "\n").count == 1)
  }
}

/// The Calendar tab's keys as a table: (state, keys) → (day, effects). Moving inside the year
/// read reads nothing again; leaving it does.
@Suite struct CalendarReducerTests {
  static func state() throws -> TUIState {
    var state = TUIState(today: TUIClock.today)
    state.tab = .calendar
    let range = state.calendarRange
    state.data.calendar = CalendarData(range: range, days: Array(repeating: .zero, count: range.count), commits: nil)
    return state
  }

  @Test(arguments: [
    (keys("l"), 1, [Effect.load]),  // today is the range's last day: tomorrow is outside
    (keys("h"), -1, []),
    ([Key.left, .left], -2, []),
    (keys("kk"), -14, []),
    ([Key.up, .down], 0, []),
    (keys("j"), 7, [.load]),
    (Array(repeating: Key.character("k"), count: 53), -371, [.load]),
    (keys("k") + [.enter], -7, [.load]),
  ])
  func keysMoveTheCursor(_ keys: [Key], _ offset: Int, _ effects: [Effect]) throws {
    var state = try Self.state()
    var seen: [Effect] = []
    for key in keys { seen += Reducer().reduce(&state, key) }
    #expect(state.day == TUIClock.today.adding(days: offset))
    #expect(seen == effects)
    #expect(state.tab == (keys.last == .enter ? .day : .calendar))
  }
}
