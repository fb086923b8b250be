import Testing

@testable import Core

@Suite struct CommitCalendarTests {
  static let start = Day(iso: "2026-11-01")!

  func calendar(_ counts: [Int]) -> CommitCalendar {
    let range = try! DayRange(from: Self.start, to: Self.start.adding(days: counts.count - 1))
    return CommitCalendar(range: range, counts: counts)
  }

  @Test(
    arguments: [
      ([0, 0, 0], nil, nil),
      ([1, 1, 0, 2, 3, 4], 3, 3),  // ends on the last day
      ([1, 1, 1, 0, 2, 0], 1, 3),  // today (last day) has none yet: the streak ending yesterday
      ([1, 0, 0], nil, 1),  // broken two days ago
      ([5], 1, 1),
    ] as [([Int], Int?, Int?)])
  func streaks(counts: [Int], current: Int?, longest: Int?) {
    let c = calendar(counts)
    #expect(c.currentStreak?.length == current)
    #expect(c.longestStreak?.length == longest)
  }

  @Test func busiestDay_isTheEarliestOfTheMaximum() {
    let c = calendar([1, 4, 2, 4])
    #expect(c.busiestDay?.day == Self.start.adding(days: 1))
    #expect(c.busiestDay?.count == 4)
    #expect(c.total == 11)
    #expect(c.activeDays == 4)
    #expect(calendar([0, 0]).busiestDay == nil)
  }

  @Test(arguments: [
    (0, 8, 0), (1, 8, 1), (2, 8, 1), (3, 8, 2), (6, 8, 3), (7, 8, 4), (8, 8, 4), (1, 1, 4),
  ])
  func levels_arQuartersOfTheBusiestDay(count: Int, maximum: Int, level: Int) {
    #expect(CommitCalendar.level(of: count, maximum: maximum) == level)
  }
}
