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
    if try database.gitHub.hasCommits() {
      facts.commits = try database.gitHub.commitCalendar(
        DayRange(day: today), timeZone: timeZone,
        filter: database.gitHub.commitFilter(author: database.gitHub.commitAuthor())
      ).total
      facts.lastSync = try database.gitHub.lastCommitSync()
    }
    return facts
  }
}
