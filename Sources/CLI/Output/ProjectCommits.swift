import Core
import Foundation
import Storage
import Zone

/// The commits of a project's repository, as `ootd project show` prints them.
struct ProjectCommits {
  let commits: RepositoryCommits
  /// Commits in the last 30 days (today included), by author date in the user's zone.
  let last30Days: Int

  /// Writes `{"last30Days","lastSync","latest":{"date","sha","subject"} or null,"total"}`, keys
  /// sorted (`project show --json`'s `commits`).
  func write(to writer: inout JSONStreamWriter) {
    writer.beginObject()
    writer.key("last30Days")
    writer.integer(last30Days)
    writer.key("lastSync")
    writer.string(commits.lastSyncAt.map { Timestamp.string($0, .iso8601) })
    writer.key("latest")
    if let latest = commits.latest {
      writer.beginObject()
      writer.key("date")
      writer.string(Timestamp.string(latest.authoredAt, .iso8601))
      writer.key("sha")
      writer.string(latest.sha)
      writer.key("subject")
      writer.string(latest.subject)
      writer.endObject()
    } else {
      writer.null()
    }
    writer.key("total")
    writer.integer(commits.total)
    writer.endObject()
  }

  /// Whether the repository was ever synced: never synced, it has no commit figures (the text
  /// says "not synced yet", the JSON `commits` is null), never 0 of them.
  var isSynced: Bool { commits.lastSyncAt != nil || commits.total > 0 }

  /// `1,234 synced, 12 in the last 30 days; latest 2025-10-02 "v7.8.0" (abc1234)`.
  func text(timeZone: any ZoneRules, now: Date) -> String {
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
