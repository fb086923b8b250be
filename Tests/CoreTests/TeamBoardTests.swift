import Core
import Testing

/// A team board's row: per-day entries, the range's rate and the streak by report's rule.
struct TeamBoardTests {
  static func day(_ n: Int) -> Day { Day(year: 2026, month: 11, day: n)! }
  static func figure(_ n: Int, _ total: Int, _ done: Int, _ commits: Int? = nil) -> DayFigure {
    DayFigure(date: day(n), total: total, done: done, commits: commits)
  }

  struct Example: Sendable, CustomTestStringConvertible {
    let name: String
    let figures: [DayFigure]
    let from: Int
    let to: Int
    let today: Int
    let rate: Double?
    let streak: Int
    var testDescription: String { name }
  }

  static let examples: [Example] = [
    Example(name: "nothing published", figures: [], from: 1, to: 7, today: 7, rate: nil, streak: 0),
    Example(name: "two perfect days", figures: [figure(2, 2, 2), figure(3, 1, 1)], from: 1, to: 7, today: 7, rate: 1, streak: 2),
    Example(name: "a bad day breaks the run", figures: [figure(2, 2, 2), figure(3, 2, 1)], from: 1, to: 7, today: 7, rate: 0.75, streak: 0),
    Example(name: "rest days neither extend nor break", figures: [figure(2, 1, 1), figure(5, 1, 1)], from: 1, to: 7, today: 7, rate: 1, streak: 2),
    Example(name: "an open today does not break", figures: [figure(5, 1, 1), figure(6, 3, 0)], from: 1, to: 6, today: 6, rate: 0.25, streak: 1),
    Example(name: "a range reaching today goes on from before it", figures: [figure(1, 1, 1), figure(2, 1, 1), figure(4, 2, 2)], from: 3, to: 7, today: 7, rate: 1, streak: 3),
    Example(name: "a past range counts its run in full", figures: [figure(1, 1, 1), figure(2, 1, 1), figure(4, 2, 2)], from: 3, to: 5, today: 20, rate: 1, streak: 3),
    Example(name: "a run broken before the range does not reach it", figures: [figure(1, 1, 1), figure(2, 1, 0), figure(4, 2, 2)], from: 3, to: 5, today: 20, rate: 1, streak: 1),
    Example(name: "days after the range are ignored", figures: [figure(2, 1, 1), figure(9, 1, 0)], from: 1, to: 7, today: 20, rate: 1, streak: 1),
  ]

  @Test(arguments: examples)
  func row(_ example: Example) throws {
    let range = try DayRange(from: Self.day(example.from), to: Self.day(example.to))
    let row = TeamBoardRow(name: "a", figures: example.figures, range: range, today: Self.day(example.today))
    #expect(row.rate == example.rate)
    #expect(row.currentStreak == example.streak)
    #expect(row.days.map(\.day) == Array(range))
  }

  @Test("a day without figures is zero with no commits; commits are kept as published")
  func entries() throws {
    let range = try DayRange(from: Self.day(1), to: Self.day(2))
    let row = TeamBoardRow(name: "a", figures: [Self.figure(2, 3, 2, 5)], range: range, today: Self.day(2))
    #expect(row.days[0].tally == Tally(total: 0, done: 0))
    #expect(row.days[0].commits == nil)
    #expect(row.days[1].tally == Tally(total: 3, done: 2))
    #expect(row.days[1].commits == 5)
  }
}
