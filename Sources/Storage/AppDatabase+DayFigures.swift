import Core
import Foundation
import Zone

// The day figures `ootd remote sync` publishes for the team board. They are read from the todos
// (as the report counts them) and the GitHub cache, not from the sync state, so they stay on
// the database that owns both.

/// The sync run reads the day figures it publishes through Core's ``DayFigureSource``.
extension AppDatabase: DayFigureSource {
  public func tallies(in range: DayRange) throws -> [(day: Day, tally: Tally)] {
    try achievementCounts(in: range).map { ($0.day, $0.tally) }
  }

  public func commits(in range: DayRange, timeZone: any ZoneRules) throws -> CommitCalendar? {
    guard try gitHub.hasCommits() else { return nil }
    return try gitHub.commitCalendar(
      range, timeZone: timeZone, filter: gitHub.commitFilter(author: gitHub.commitAuthor()))
  }
}
