import Foundation
import Testing

@testable import Core

/// `d("2026-11-22")`: a day from ISO text (tests only).
func d(_ text: String) -> Day { Day(iso: text)! }

/// Days from a compact pattern starting at `start`: `P` perfect (2/2), `X` not (1/2), `0` nothing
/// done (0/3), `.` a rest day (no todos).
func pattern(_ text: String, from start: String = "2026-11-01") -> [DayTally] {
  text.enumerated().map { offset, symbol in
    let day = d(start).adding(days: offset)
    switch symbol {
    case "P": return DayTally(day, total: 2, done: 2)
    case "X": return DayTally(day, total: 2, done: 1)
    case "0": return DayTally(day, total: 3, done: 0)
    default: return DayTally(day, total: 0, done: 0)
    }
  }
}

@Suite struct TallyTests {
  @Test(arguments: [
    (0, 0, nil, false, nil),
    (1, 0, 0.0, false, 0),
    (4, 1, 0.25, false, 25),
    (3, 2, 2.0 / 3.0, false, 67),
    (5, 5, 1.0, true, 100),
  ] as [(Int, Int, Double?, Bool, Int?)])
  func rate_perfect_percent(total: Int, done: Int, rate: Double?, perfect: Bool, percent: Int?) {
    let tally = Tally(total: total, done: done)
    #expect(tally.rate == rate)
    #expect(tally.isPerfect == perfect)
    #expect(tally.percent == percent)
  }

  @Test func tallies_add() {
    #expect(Tally(total: 2, done: 1) + Tally(total: 3, done: 3) == Tally(total: 5, done: 4))
  }
}

@Suite struct StreakTests {
  @Test(arguments: [
    ("", 0, 0),  // empty: no days at all
    (".", 0, 0),  // one rest day
    ("....", 0, 0),  // no todos at all
    ("P", 1, 1),  // one perfect day
    ("X", 0, 0),  // one day, not all done
    ("0", 0, 0),  // one day, nothing done
    ("PPPP", 4, 4),  // all done
    ("P.PP", 3, 3),  // a rest day neither breaks nor extends
    ("P..P.", 2, 2),  // trailing rest days: the streak ends at the last day with todos
    ("PPXP", 1, 2),
    ("PPPX", 0, 3),  // the last day with todos is not perfect
    ("PPPX..", 0, 3),
    ("XPP.P", 3, 3),
    ("PP0PPP.X.PP", 2, 3),
  ])
  func streaks(days: String, current: Int, longest: Int) {
    #expect(Streaks(pattern(days)) == Streaks(current: current, longest: longest))
  }

  @Test func streaks_crossAMonthAndAYear() {
    // 2026-12-30 … 2027-01-02, all perfect, with 2026-12-31 a rest day.
    #expect(Streaks(pattern("P.PP", from: "2026-12-30")) == Streaks(current: 3, longest: 3))
  }

  @Test(arguments: [
    (0, Tally(total: 0, done: 0), 0),  // nothing before, nothing today
    (3, Tally(total: 0, done: 0), 3),  // a rest day today keeps the streak
    (3, Tally(total: 4, done: 2), 3),  // an unfinished today does not break it yet
    (3, Tally(total: 4, done: 4), 4),  // a perfect today extends it
    (0, Tally(total: 1, done: 1), 1),
  ])
  func ongoing_todayDoesNotBreakTheStreakUntilItIsOver(before: Int, today: Tally, expected: Int) {
    #expect(Streaks.ongoing(perfectDaysBefore: before, today: today) == expected)
  }
}

@Suite struct AchievementLevelTests {
  @Test(arguments: [
    (0, 0, AchievementLevel.none),
    (1, 0, .low),
    (5, 2, .low),  // 40 %
    (1000, 499, .low),
    (2, 1, .medium),  // exactly 50 %
    (10, 7, .medium),
    (1000, 799, .medium),
    (5, 4, .high),  // exactly 80 %
    (100, 99, .high),
    (4, 4, .perfect),
    (1, 1, .perfect),
  ])
  func levelThresholds(total: Int, done: Int, level: AchievementLevel) {
    #expect(AchievementLevel(Tally(total: total, done: done)) == level)
  }

  @Test func labels_areShortAndDistinct() {
    let labels = AchievementLevel.allCases.map(\.label)
    #expect(labels == ["none", "<50%", "50-79%", "80-99%", "100%"])
  }
}

@Suite struct WeekdayTests {
  @Test func weekdays_poolEachWeekdaysTodos_andNameBestAndWorst() {
    // 2026-11-16 is a Monday.
    let days = [
      DayTally(d("2026-11-16"), total: 4, done: 4),  // Mon
      DayTally(d("2026-11-17"), total: 4, done: 1),  // Tue
      DayTally(d("2026-11-18"), total: 0, done: 0),  // Wed: rest
      DayTally(d("2026-11-23"), total: 2, done: 0),  // Mon again
    ]
    let weekdays = WeekdayTally.of(days)
    #expect(weekdays.map(\.weekday) == Weekday.allCases)
    #expect(weekdays[0].tally == Tally(total: 6, done: 4))
    #expect(weekdays[0].activeDays == 2)
    #expect(weekdays[2].tally == .zero)
    #expect(WeekdayTally.best(weekdays) == .monday)
    #expect(WeekdayTally.worst(weekdays) == .tuesday)
  }

  @Test func bestAndWorst_needTwoWeekdaysWithTodos() {
    let one = WeekdayTally.of([DayTally(d("2026-11-16"), total: 2, done: 1)])
    #expect(WeekdayTally.best(one) == nil)
    #expect(WeekdayTally.worst(one) == nil)
    #expect(WeekdayTally.best(WeekdayTally.of([])) == nil)
  }

  @Test func ties_goToMoreDone_thenTheEarlierWeekday() {
    let weekdays = WeekdayTally.of([
      DayTally(d("2026-11-16"), total: 1, done: 1),  // Mon 100 %
      DayTally(d("2026-11-17"), total: 3, done: 3),  // Tue 100 %, more done
      DayTally(d("2026-11-18"), total: 2, done: 1),  // Wed 50 %
      DayTally(d("2026-11-19"), total: 2, done: 1),  // Thu 50 %
    ])
    #expect(WeekdayTally.best(weekdays) == .tuesday)
    #expect(WeekdayTally.worst(weekdays) == .wednesday)
  }

  /// Issue 8: "weekday ties say so". Each row: per weekday (Mon first) `[total, done]` or nil
  /// for no todos → the weekdays tied for best, tied for worst, and whether all are tied.
  @Test(arguments: [
    // No tie: one best, one worst.
    ([[4, 4], [4, 1], nil, nil, nil, nil, nil], [Weekday.monday], [Weekday.tuesday], false),
    // Two share the best rate (1/1 and 3/3), two share the worst (1/2 and 2/4: the same rate).
    ([[1, 1], [3, 3], [2, 1], [4, 2], nil, nil, nil], [.monday, .tuesday], [.wednesday, .thursday], false),
    // Every weekday with todos has one rate: all tied, no best or worst to name.
    ([[1, 1], nil, [3, 3], nil, nil, nil, [2, 2]], [.monday, .wednesday, .sunday], [.monday, .wednesday, .sunday], true),
    ([[2, 1], [4, 2], nil, nil, nil, nil, nil], [.monday, .tuesday], [.monday, .tuesday], true),
    // One weekday with todos: no comparison, so nothing tied.
    ([[2, 1], nil, nil, nil, nil, nil, nil], [], [], false),
  ] as [([[Int]?], [Weekday], [Weekday], Bool)])
  func ties_areNamedInFull(tallies: [[Int]?], best: [Weekday], worst: [Weekday], allTied: Bool) {
    // 2026-11-16 is a Monday.
    let days = tallies.enumerated().compactMap { index, pair in
      pair.map { DayTally(d("2026-11-16").adding(days: index), total: $0[0], done: $0[1]) }
    }
    let weekdays = WeekdayTally.of(days)
    #expect(WeekdayTally.tiedForBest(weekdays) == best)
    #expect(WeekdayTally.tiedForWorst(weekdays) == worst)
    #expect(WeekdayTally.allTied(weekdays) == allTied)
    // The single best and worst are the first of their ties' tie-break, so among them.
    if let one = WeekdayTally.best(weekdays) { #expect(best.contains(one)) } else { #expect(best.isEmpty) }
    if let one = WeekdayTally.worst(weekdays) { #expect(worst.contains(one)) } else { #expect(worst.isEmpty) }
  }
}

@Suite struct AchievementReportTests {
  @Test func report_listsEveryDay_sumsPriorities_andIgnoresRowsOutsideTheRange() throws {
    // A range crossing a month and a year.
    let range = try DayRange(from: d("2026-12-30"), to: d("2027-01-02"))
    let counts = [
      DayPriorityCount(day: d("2026-12-29"), priority: .high, tally: Tally(total: 9, done: 0)),
      DayPriorityCount(day: d("2026-12-30"), priority: .high, tally: Tally(total: 2, done: 2)),
      DayPriorityCount(day: d("2026-12-30"), priority: .low, tally: Tally(total: 1, done: 1)),
      DayPriorityCount(day: d("2027-01-01"), priority: .mid, tally: Tally(total: 2, done: 1)),
      DayPriorityCount(day: d("2027-01-02"), priority: .high, tally: Tally(total: 1, done: 1)),
      DayPriorityCount(day: d("2027-01-03"), priority: .low, tally: Tally(total: 5, done: 5)),
    ]
    let report = AchievementReport(range: range, counts: counts)
    #expect(
      report.days.map(\.day.description) == ["2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02"])
    #expect(
      report.days.map(\.tally) == [
        Tally(total: 3, done: 3), .zero, Tally(total: 2, done: 1), Tally(total: 1, done: 1),
      ])
    #expect(report.total == Tally(total: 6, done: 5))
    #expect(report.streaks == Streaks(current: 1, longest: 1))
    #expect(report.priorities.map(\.priority) == [.high, .mid, .low])
    #expect(
      report.priorities.map(\.tally) == [
        Tally(total: 3, done: 3), Tally(total: 2, done: 1), Tally(total: 1, done: 1),
      ])
    #expect(report.activeDays == 3)
    #expect(report.perfectDays == 2)
  }

  @Test func report_ofOneDayWithoutTodos() {
    let report = AchievementReport(range: DayRange(day: d("2024-02-29")), counts: [])
    #expect(report.days == [DayTally(d("2024-02-29"), total: 0, done: 0)])
    #expect(report.total.rate == nil)
    #expect(report.streaks == Streaks(current: 0, longest: 0))
    #expect(report.bestWeekday == nil)
    #expect(report.priorities.allSatisfy { $0.tally == .zero })
  }
}

@Suite struct ReportPeriodTests {
  @Test(arguments: [
    // today 2026-11-22 is a Sunday
    (ReportPeriod.week, "2026-11-22", "2026-11-16", "2026-11-22"),
    (.week, "2026-11-16", "2026-11-10", "2026-11-16"),  // a Monday: still the last 7 days
    (.month, "2026-11-22", "2026-10-24", "2026-11-22"),  // the last 30 days
    (.month, "2024-03-01", "2024-02-01", "2024-03-01"),  // Feb 1 to Mar 1 of a leap year: 30 days
    (.month, "2027-01-01", "2026-12-03", "2027-01-01"),  // the 1st: still 30 days
    (.year, "2024-02-29", "2023-03-02", "2024-02-29"),  // 365 days across a leap day
    (.year, "2025-01-01", "2024-01-03", "2025-01-01"),
    (.days(1), "2026-11-22", "2026-11-22", "2026-11-22"),
    (.days(28), "2026-11-22", "2026-10-26", "2026-11-22"),
    (.standard, "2027-01-10", "2026-12-14", "2027-01-10"),  // crossing a year
    (.calendarWeeks(26), "2026-11-22", "2026-05-25", "2026-11-22"),  // from a Monday
    (.calendarWeeks(1), "2026-11-18", "2026-11-16", "2026-11-18"),
    (.between(d("2026-12-31"), d("2027-01-01")), "2026-11-22", "2026-12-31", "2027-01-01"),
  ])
  func ranges(period: ReportPeriod, today: String, from: String, to: String) throws {
    let range = try period.range(today: d(today))
    #expect(range.from == d(from))
    #expect(range.to == d(to))
  }

  @Test func week_month_cover7And30Days() throws {
    for today in ["2026-11-16", "2024-02-29", "2027-01-01"] {
      #expect(try ReportPeriod.week.range(today: d(today)).count == 7)
      #expect(try ReportPeriod.month.range(today: d(today)).count == 30)
    }
  }

  @Test func year_coversExactly365Days() throws {
    #expect(try ReportPeriod.year.range(today: d("2024-02-29")).count == 365)
  }

  @Test(arguments: [
    (ReportPeriod.days(0), CoreError.invalidRangeLength(0, limit: 36_525)),
    (.days(-3), .invalidRangeLength(-3, limit: 36_525)),
    (.days(36_526), .invalidRangeLength(36_526, limit: 36_525)),
    (
      .between(d("2026-11-22"), d("2026-11-21")),
      .invertedRange(from: d("2026-11-22"), to: d("2026-11-21"))
    ),
    (.between(d("1900-01-01"), d("2026-11-21")), .invalidRangeLength(46_346, limit: 36_525)),
  ])
  func badRanges_throw(period: ReportPeriod, error: CoreError) {
    #expect(throws: error) { try period.range(today: d("2026-11-22")) }
  }
}

@Suite struct TimeZoneBoundaryTests {
  /// The same instant is a different calendar day in different zones, so "today" (and every
  /// default report range) follows TZ.
  @Test(arguments: [
    ("2026-11-21T15:30:00Z", "Asia/Seoul", "2026-11-22"),  // 00:30 in Seoul
    ("2026-11-21T15:30:00Z", "UTC", "2026-11-21"),
    ("2026-11-21T14:59:59Z", "Asia/Seoul", "2026-11-21"),  // 23:59:59 in Seoul
    ("2026-11-22T10:30:00Z", "Pacific/Kiritimati", "2026-11-23"),  // UTC+14
    ("2026-11-22T10:30:00Z", "Pacific/Pago_Pago", "2026-11-21"),  // UTC-11
    ("2024-02-29T23:00:00Z", "Europe/Berlin", "2024-03-01"),
  ])
  func dayOfAnInstant(instant: String, zone: String, expected: String) throws {
    let date = try #require(ISO8601DateFormatter().date(from: instant))
    let today = Day(date, in: try #require(TimeZone(identifier: zone)))
    #expect(today == d(expected))
    #expect(try ReportPeriod.days(1).range(today: today) == DayRange(day: d(expected)))
  }
}
