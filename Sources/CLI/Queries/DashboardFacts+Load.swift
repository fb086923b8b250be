import Core
import Foundation
import Storage
import Zone

/// What the dashboard reads from the database beyond its todos (Output/ renders it).
extension DashboardFacts {
  /// The facts of `today`: the streak before it and, once commits are synced, today's commits
  /// by the saved login (a cheap EXISTS check otherwise).
  static func load(_ today: Day, database: AppDatabase, timeZone: any ZoneRules) throws -> DashboardFacts {
    // Today's tally as the report counts it: todos carried away from today still count.
    let counts = try database.achievementCounts(in: DayRange(day: today))
    var facts = DashboardFacts(
      today: counts.map(\.tally).reduce(.zero, +),
      streakBefore: try database.perfectDayStreak(before: today))
    if let calendar = try commitCalendar(DayRange(day: today), database: database, timeZone: timeZone) {
      facts.commits = calendar.total
      facts.lastSync = try database.gitHub.lastCommitSync()
    }
    return facts
  }

  /// The saved login's commits of each day of `range` (the dashboard's and `ootd tui`'s),
  /// nil when no commit is synced (a cheap EXISTS check).
  static func commitCalendar(_ range: DayRange, database: AppDatabase, timeZone: any ZoneRules) throws
    -> CommitCalendar?
  {
    guard try database.gitHub.hasCommits() else { return nil }
    return try database.gitHub.commitCalendar(
      range, timeZone: timeZone, filter: database.gitHub.commitFilter(author: database.gitHub.commitAuthor()))
  }
}
