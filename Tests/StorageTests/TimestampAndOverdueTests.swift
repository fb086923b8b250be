import Core
import Foundation
import Testing

@testable import Storage

@Suite("Timestamps and the overdue summary")
struct TimestampAndOverdueTests {
  @Test(
    "timestamps are written as GRDB writes dates and read back exactly (to the millisecond)",
    arguments: [
      (0.0, "1970-01-01 00:00:00.000"),
      (1_795_000_000.123, "2026-11-18 11:06:40.123"),
      (951_782_400.5, "2000-02-29 00:00:00.500"),
      (-1.0, "1969-12-31 23:59:59.000"),
    ])
  func timestampRoundTrip(seconds: Double, text: String) throws {
    let date = Date(timeIntervalSince1970: seconds)
    #expect(Timestamp.string(date, .sqlite) == text)
    let back = try #require(Timestamp.date(text, .sqlite))
    #expect(abs(back.timeIntervalSince1970 - seconds) < 0.001)
  }

  @Test("malformed timestamps are not dates", arguments: ["", "2026-11-18", "2026-13-01 00:00:00", "2026-11-18 xx:00:00"])
  func malformedTimestamps(text: String) {
    #expect(Timestamp.date(text, .sqlite) == nil)
  }

  @Test("the overdue summary counts every open earlier todo up to the cap and shows the newest")
  func overdueSummary() throws {
    // Given 30 open todos over 15 past days (two a day), one done, one today
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    let today = day("2026-11-22")
    for offset in 1...15 {
      let past = today.adding(days: -offset).description
      try database.addTodo(try draft("low \(offset)", .low, on: past), now: fixedNow)
      try database.addTodo(try draft("high \(offset)", .high, on: past), now: fixedNow)
    }
    let done = try database.addTodo(try draft("done", on: "2026-11-21"), now: fixedNow)
    _ = try database.setDone(ids: [done.id], done: true, now: fixedNow)
    try database.addTodo(try draft("today"), now: fixedNow)
    // When
    let summary = try database.overdueSummary(before: today, limit: 3)
    let capped = try database.overdueSummary(before: today, limit: 3, countLimit: 10)
    // Then: the three most recent, high priority first within the newest day, in list order
    #expect(summary.count == 30)
    #expect(summary.todos.map(\.title) == ["high 2", "high 1", "low 1"])
    #expect(capped.count == 10)
    #expect(try database.overdueSummary(before: today, limit: 0).todos.isEmpty)
    #expect(try database.overdueSummary(before: today, limit: 0).count == 30)
    // Fewer overdue todos than the limit: every one, in list order (one statement, issue 25)
    let all = try database.overdueSummary(before: today, limit: 50)
    #expect(all.count == 30)
    #expect(all.todos.count == 30)
    #expect(all.todos.first?.title == "high 15" && all.todos.last?.title == "low 1")
    // Nothing before the first day: no todos, a count of 0
    let none = try database.overdueSummary(before: today.adding(days: -15), limit: 3)
    #expect(none.count == 0 && none.todos.isEmpty)
  }

  @Test(
    "the overdue count is capped exactly at its limit, dropped and done todos left out",
    arguments: [(29, 29), (30, 30), (31, 30), (1, 1), (1000, 30)])
  func overdueCountAtTheCap(countLimit: Int, expected: Int) throws {
    // Given 30 open overdue todos, and a dropped one and a done one before today
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    let today = day("2026-11-22")
    for offset in 1...30 {
      try database.addTodo(try draft("open \(offset)", on: today.adding(days: -offset).description), now: fixedNow)
    }
    let dropped = try database.addTodo(try draft("dropped", on: "2026-11-21"), now: fixedNow)
    _ = try database.dropTodos(ids: [dropped.id], now: fixedNow)
    let done = try database.addTodo(try draft("done", on: "2026-11-21"), now: fixedNow)
    _ = try database.setDone(ids: [done.id], done: true, now: fixedNow)
    // When / Then: the cap when there are at least that many (the countLimit-th one exists),
    // else every one; the same with todos listed and without
    #expect(try database.overdueSummary(before: today, limit: 3, countLimit: countLimit).count == expected)
    #expect(try database.overdueSummary(before: today, limit: 0, countLimit: countLimit).count == expected)
  }
}
