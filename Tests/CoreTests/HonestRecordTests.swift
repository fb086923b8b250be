import Foundation
import Testing

@testable import Core

/// The one streak rule with a day in progress, and the rules that keep a day's record when its
/// todos are carried away or dropped.
@Suite struct HonestRecordTests {
  /// `pattern` starts 2026-11-01; `today` is the day at `todayOffset` of the pattern.
  @Test(arguments: [
    ("PPX", 2, 0, 2, 2),  // today open: it neither counts nor breaks
    ("PPP", 2, 0, 3, 3),  // today perfect: it counts
    ("PXX", 2, 0, 0, 1),  // yesterday open is over: it breaks; today (X) is open and skipped
    ("PPX", 1, 0, 2, 2),  // an open day after today is not over either
    ("PPX.", 3, 0, 0, 2),  // a rest day today: yesterday's open day broke the streak
    ("PP.X", 3, 0, 2, 2),  // an open today after a rest day
    ("X", 0, 4, 4, 4),  // the run before the range goes on through an open today
    ("PX", 1, 4, 5, 5),  // …and through a perfect day in the range
    ("XP", 1, 4, 1, 1),  // an open day over breaks the run before the range: not in it
    (".P", 1, 4, 5, 5),  // a rest day in the range: the run before it goes on through it
    ("..", 5, 2, 2, 2),  // a range of rest days after a run: the run overlaps it
    ("PPXX", 10, 0, 0, 2),  // a range that ended before today: the plain rule
  ])
  func streak_aDayInProgressCountsOncePerfectAndNeverBreaks(
    days: String, todayOffset: Int, runBefore: Int, current: Int, longest: Int
  ) {
    let today = d("2026-11-01").adding(days: todayOffset)
    #expect(
      Streaks(pattern(days), today: today, runBefore: runBefore)
        == Streaks(current: current, longest: longest))
  }

  @Test func streak_equalsTheDashboardsForARangeEndingToday() {
    // Before the range: 3 perfect days; in the range P, X (over), P, P; today is open.
    let days = pattern("PXPPX")
    let today = d("2026-11-05")
    let dashboard = Streaks.ongoing(perfectDaysBefore: 2, today: Tally(total: 2, done: 1))
    #expect(Streaks(days, today: today, runBefore: 3).current == dashboard)
  }

  static func todo(day: String, done: Bool = false, carriedFrom: [String] = []) -> Todo {
    var todo = Todo(
      id: 7, title: "t", priority: .mid, day: d(day), isDone: done,
      createdAt: Date(timeIntervalSince1970: 0))
    todo.carriedFrom = carriedFrom.map(d)
    return todo
  }

  @Test(arguments: [
    // (day, done, carried before, target, today, carried after)
    ("2026-11-20", false, [], "2026-11-22", "2026-11-22", ["2026-11-20"]),  // a past day keeps it
    ("2026-11-22", false, [], "2026-11-23", "2026-11-22", ["2026-11-22"]),  // today has begun
    ("2026-11-24", false, [], "2026-11-25", "2026-11-22", []),  // a future day has not begun
    ("2026-11-20", true, [], "2026-11-21", "2026-11-22", []),  // done work is no carry
    ("2026-11-21", false, ["2026-11-20"], "2026-11-22", "2026-11-22", ["2026-11-20", "2026-11-21"]),
    ("2026-11-22", false, ["2026-11-20"], "2026-11-20", "2026-11-22", ["2026-11-22"]),  // back on the 20th: counted there once
    ("2026-11-20", false, ["2026-11-20"], "2026-11-22", "2026-11-22", ["2026-11-20"]),  // never twice
  ] as [(String, Bool, [String], String, String, [String])])
  func carry_keepsTheRecordOfDaysThatBegan(
    day: String, done: Bool, before: [String], target: String, today: String, after: [String]
  ) {
    let todo = Self.todo(day: day, done: done, carriedFrom: before)
    #expect(CarryRecord.days(after: todo, movesTo: d(target), today: d(today)) == after.map(d))
  }

  @Test func carryRecord_text_roundTrips() {
    #expect(CarryRecord.text([]) == nil)
    #expect(CarryRecord.text([d("2026-11-20"), d("2026-11-21")]) == "2026-11-20,2026-11-21")
    #expect(CarryRecord.days("2026-11-20,2026-11-21") == [d("2026-11-20"), d("2026-11-21")])
    #expect(CarryRecord.days(nil) == [])
    #expect(CarryRecord.days("junk,2026-11-20") == [d("2026-11-20")])
  }

  @Test(arguments: [
    (true, "2026-11-23", false),  // done into the future: refused
    (true, "2026-11-22", false),  // off its past day onto today: the 20th would lose it
    (true, "2026-11-01", false),  // onto an earlier day, where it was not done
    (true, "2026-11-20", true),  // onto its own day: no move
    (false, "2026-12-01", true),
    (false, "2026-11-22", true),
  ])
  func move_aDoneTodoKeepsItsDay(done: Bool, target: String, allowed: Bool) {
    let todo = Self.todo(day: "2026-11-20", done: done)
    let refused = (try? CarryRecord.checkMove(todo, to: d(target), today: d("2026-11-22"))) == nil
    #expect(refused == !allowed)
  }

  @Test(arguments: [("2026-11-22", false), ("2026-11-30", false), (nil, false), ("2026-11-20", true)] as [(String?, Bool)])
  func move_aDroppedTodoIsTakenBackUpFirst(target: String?, allowed: Bool) {
    var todo = Self.todo(day: "2026-11-20")
    todo.isDropped = true
    let refused = (try? CarryRecord.checkMove(todo, to: target.map(d), today: d("2026-11-22"))) == nil
    #expect(refused == !allowed)
    todo.isDropped = false
    #expect((try? CarryRecord.checkMove(todo, to: target.map(d), today: d("2026-11-22"))) != nil)
  }

  @Test(arguments: [("2026-11-21", false), ("2026-11-22", true), ("2026-11-30", true)])
  func carryTarget_neverBeforeToday(target: String, allowed: Bool) {
    let refused = (try? CarryRecord.checkCarryTarget(d(target), today: d("2026-11-22"))) == nil
    #expect(refused == !allowed)
  }

  @Test func drop_onlyOpenTodos_andADroppedTodoIsNotOverdue() {
    #expect(CarryRecord.dropRefusal(Self.todo(day: "2026-11-20", done: true)) != nil)
    var open = Self.todo(day: "2026-11-20")
    #expect(CarryRecord.dropRefusal(open) == nil)
    #expect(open.isOverdue(today: d("2026-11-22")))
    open.isDropped = true
    #expect(!open.isOverdue(today: d("2026-11-22")))
  }

  @Test func report_countsCarriedTodosOnTheDayTheyLeft() {
    let range = try! DayRange(from: d("2026-11-20"), to: d("2026-11-21"))
    let report = AchievementReport(
      range: range,
      counts: [
        DayPriorityCount(day: d("2026-11-20"), priority: .mid, tally: Tally(total: 1, done: 1)),
        DayPriorityCount(day: d("2026-11-20"), priority: .mid, tally: Tally(total: 1, carried: 1)),
        DayPriorityCount(day: d("2026-11-21"), priority: .mid, tally: Tally(total: 1, done: 1)),
      ])
    #expect(report.days.map(\.tally) == [Tally(total: 2, done: 1, carried: 1), Tally(total: 1, done: 1)])
    #expect(report.total == Tally(total: 3, done: 2, carried: 1))
  }
}

/// Relative days, read against Sunday 2026-11-22 (and other todays where the rule needs one).
@Suite struct RelativeDayTests {
  @Test(arguments: [
    ("mon", "2026-11-22", "2026-11-23"),
    ("monday", "2026-11-22", "2026-11-23"),
    ("FRI", "2026-11-22", "2026-11-27"),
    ("sun", "2026-11-22", "2026-11-29"),  // the next one, never today
    ("thurs", "2026-11-26", "2026-12-03"),
    ("+3d", "2026-11-22", "2026-11-25"),
    ("+0d", "2026-11-22", "2026-11-22"),
    ("-2d", "2026-11-22", "2026-11-20"),
    ("+1w", "2026-11-22", "2026-11-29"),
    ("+2w", "2026-12-25", "2027-01-08"),
    ("eow", "2026-11-22", "2026-11-22"),  // Sunday ends its own week
    ("eow", "2026-11-16", "2026-11-22"),
    ("eom", "2026-11-22", "2026-11-30"),
    ("eom", "2028-02-03", "2028-02-29"),
    ("2026-01-05", "2026-11-22", "2026-01-05"),
  ])
  func relativeDays(text: String, today: String, expected: String) throws {
    #expect(try DayExpression.parse(text, today: d(today)) == d(expected))
  }

  @Test(arguments: ["+d", "3d", "+3x", "+-3d", "mo", "+99999999w", "next monday"])
  func nonsense_isAnInvalidDate(text: String) {
    #expect(throws: CoreError.invalidDate(text)) { try DayExpression.parse(text, today: d("2026-11-22")) }
  }
}
