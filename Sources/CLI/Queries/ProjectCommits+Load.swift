import Core
import Foundation
import Storage
import Zone

/// What `ootd project show` reads about a project's repository (Output/ renders it).
extension ProjectCommits {
  static func load(
    _ repository: RepositoryName, database: AppDatabase, environment: AppEnvironment
  ) throws -> ProjectCommits {
    let author = try database.gitHub.commitAuthor()
    let today = environment.today
    let recent = try database.gitHub.commitCalendar(
      DayRange(from: today.adding(days: -29), to: today), timeZone: environment.timeZone,
      filter: database.gitHub.commitFilter(author: author, repository: repository))
    return ProjectCommits(
      commits: try database.gitHub.repositoryCommits(
        repository, author: try database.gitHub.commitFilter(author: author).author),
      last30Days: recent.total)
  }
}
