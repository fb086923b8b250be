import Core
import Foundation
import Storage
import Zone

/// What `ootd graph` reads from the GitHub cache (Output/CommitGraph.swift renders it).
extension CommitGraphReport {
  /// The graph of `range` from the synced commits: `user`'s (default: the saved login, else
  /// everyone's), only `repository`'s when given, by author day in `timeZone`.
  static func load(
    _ range: DayRange, user: String?, repository: RepositoryName?, timeZone: any ZoneRules, today: Day,
    includeForks: Bool = false, database: AppDatabase
  ) throws -> CommitGraphReport {
    let author = try database.gitHub.commitAuthor(user)
    let filter = try database.gitHub.commitFilter(
      author: author, repository: repository, includeForks: includeForks)
    return CommitGraphReport(
      calendar: try database.gitHub.commitCalendar(range, timeZone: timeZone, filter: filter),
      author: author, repository: filter.repository, timeZone: timeZone, today: today,
      repositories: try database.gitHub.commitsByRepository(range, timeZone: timeZone, filter: filter),
      lastSync: try database.gitHub.lastCommitSync())
  }
}
