import Core
import Foundation
import Storage
import Testing
import UseCases

@testable import CLI

/// What this machine would publish to its teams: per day, todos planned and done, and nothing
/// else of the todos.
struct LocalDayFiguresTests {
  @Test("one figure per day of the range: the report's counts, commits null without a GitHub sync")
  func figures() async throws {
    let harness = try Harness()
    #expect(await harness.run(["add", "a", "--on", "2026-11-20"]).code == 0)
    #expect(await harness.run(["add", "b", "--on", "2026-11-20"]).code == 0)
    #expect(await harness.run(["add", "c", "--on", "2026-11-22"]).code == 0)
    #expect(await harness.run(["done", "1"]).code == 0)
    let database = try AppDatabase.open(path: harness.databasePath, command: "test")
    let range = try DayRange(from: Day(iso: "2026-11-20")!, to: Day(iso: "2026-11-22")!)
    let figures = try RemoteSyncRun.dayFigures(database, range: range, timeZone: harness.timeZone)
    #expect(figures == [
      DayFigure(date: Day(iso: "2026-11-20")!, total: 2, done: 1, commits: nil),
      DayFigure(date: Day(iso: "2026-11-21")!, total: 0, done: 0, commits: nil),
      DayFigure(date: Day(iso: "2026-11-22")!, total: 1, done: 0, commits: nil),
    ])
  }

  @Test("what a sync keeps published: every day with todos, however old, and the last 35 days")
  func published() async throws {
    let harness = try Harness()
    #expect(await harness.run(["add", "old", "--on", "2020-01-05"]).code == 0)
    #expect(await harness.run(["done", "1"]).code == 0)
    #expect(await harness.run(["add", "recent", "--on", "2026-11-20"]).code == 0)
    let database = try AppDatabase.open(path: harness.databasePath, command: "test")
    let today = Day(iso: "2026-11-22")!
    let figures = try RemoteSyncRun.publishedFigures(database, today: today, timeZone: harness.timeZone)
    #expect(figures.first == DayFigure(date: Day(iso: "2020-01-05")!, total: 1, done: 1, commits: nil))
    #expect(figures.count == 1 + RemoteSyncRun.figureDays)
    #expect(figures.last?.date == today)
    #expect(figures.contains(DayFigure(date: Day(iso: "2026-11-20")!, total: 1, done: 0, commits: nil)))
    #expect(!figures.contains { $0.date == Day(iso: "2020-01-06")! })
    // As a machine remembers them.
    #expect(DayFigure.decode(DayFigure.encode(figures)) == figures)
  }
}
