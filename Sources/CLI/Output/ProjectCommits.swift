import Core
import Foundation
import Storage

/// The commits of a project's repository, as `ootd project show` prints them.
struct ProjectCommits: Encodable {
  let commits: RepositoryCommits
  /// Commits in the last 30 days (today included), by author date in the user's zone.
  let last30Days: Int

  static func load(
    _ repository: RepositoryName, database: AppDatabase, environment: AppEnvironment
  ) throws -> ProjectCommits {
    let author = try database.gitHubSetting(.login)
    let today = environment.today
    let recent = try database.commitCalendar(
      DayRange(from: today.adding(days: -29), to: today), timeZone: environment.timeZone,
      filter: database.commitFilter(author: author, repository: repository))
    return ProjectCommits(
      commits: try database.repositoryCommits(
        repository, author: try database.commitFilter(author: author).author),
      last30Days: recent.total)
  }

  enum CodingKeys: String, CodingKey { case total, last30Days, latest, lastSync }
  enum LatestKeys: String, CodingKey { case sha, date, subject }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(commits.total, forKey: .total)
    try c.encode(last30Days, forKey: .last30Days)
    if let latest = commits.latest {
      var l = c.nestedContainer(keyedBy: LatestKeys.self, forKey: .latest)
      try l.encode(latest.sha, forKey: .sha)
      try l.encode(ISO8601Timestamp.string(latest.authoredAt), forKey: .date)
      try l.encode(latest.subject, forKey: .subject)
    } else {
      try c.encodeNil(forKey: .latest)
    }
    try c.encode(
      commits.lastSyncAt.map { ISO8601Timestamp.string($0) }, forKey: .lastSync)
  }

  /// Whether the repository was ever synced: never synced, it has no commit figures (the text
  /// says "not synced yet", the JSON `commits` is null), never 0 of them.
  var isSynced: Bool { commits.lastSyncAt != nil || commits.total > 0 }

  /// `1,234 synced, 12 in the last 30 days; latest 2025-10-02 "v7.8.0" (abc1234)`.
  func text(timeZone: TimeZone, now: Date) -> String {
    guard isSynced else {
      return "not synced yet (ootd sync)"
    }
    var text = "\(group(commits.total)) synced, \(group(last30Days)) in the last 30 days"
    if let latest = commits.latest {
      text +=
        "; latest \(Day(latest.authoredAt, in: timeZone)) \"\(TerminalText.printable(latest.subject))\" (\(latest.sha.prefix(7)))"
    }
    if let lastSync = commits.lastSyncAt {
      text += "; synced \(syncStamp(lastSync, timeZone: timeZone))"
    }
    return text
  }
}

/// `project show --json`: the project's fields and todos, plus `commits` (null without a
/// repository, or when it was never synced).
struct ProjectShowJSON: Encodable {
  let project: JSONOutput.ProjectJSON
  let commits: ProjectCommits?

  enum CodingKeys: String, CodingKey { case commits }

  func encode(to encoder: any Encoder) throws {
    try project.encode(to: encoder)
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(commits.flatMap { $0.isSynced ? $0 : nil }, forKey: .commits)
  }
}
