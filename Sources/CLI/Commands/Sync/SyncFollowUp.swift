import Core
import Foundation
import GitHubClient
import Storage

extension Ootd.Sync {
  /// What a sync does once its commits are stored: ticks the todos of blocks with a `commits`
  /// rule whose day now has a commit, and with `--issues` imports the user's GitHub issues.
  /// `client` is the sync's GitHub client (nil after `--local`).
  func afterCommitsStored(
    _ database: AppDatabase, _ environment: AppEnvironment, client: GitHubClient?
  ) async throws {
    let ticked = try database.tickBlocksByCommits(
      today: environment.today, timeZone: environment.timeZone, now: environment.now)
    if !ticked.isEmpty {
      try printTodos(
        ticked, verb: "Ticked", suffix: " by commits", json: false, noColor: global.noColor, environment)
    }
    if issues {
      let result = try await IssueImportOutput.run(database, environment, client: client)
      IssueImportOutput.printSummary(result, noColor: global.noColor, environment)
    }
  }
}
