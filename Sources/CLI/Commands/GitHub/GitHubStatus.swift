import ArgumentParser
import Core
import Foundation
import GitHubClient
import Storage

extension Ootd.GitHubCommand {
  /// `ootd github status`.
  struct Status: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "status",
      abstract: "Show the login, API host, rate limit and the last sync of each repository.",
      discussion: """
        Never shows the token, only where it came from.

        Examples:
          ootd github status
          ootd github status --offline
          ootd github status --json
        """)

    @Flag(name: .long, help: "Do not contact GitHub (no login check, no rate limit).")
    var offline = false

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) async throws {
      let database = try global.openDatabase(environment, readOnly: true)
      let access = try GitHubAccess.resolve(environment, database: database)
      var tokenOwner: String?
      var rateLimit: RateLimitStatus?
      var problem: String?
      var rejected: GitHubError?
      if !offline {
        // A status check answers at once: no retries, no waiting for a rate limit.
        let client = try access.client(environment, rateLimitWaitBound: 0, maxAttempts: 1)
        do {
          if access.token != nil { tokenOwner = try await client.authenticatedUser() }
          rateLimit = try await client.rateLimit()
        } catch let error as GitHubError {
          problem = error.description
          if case .unauthorized = error { rejected = error }
        }
      }
      let states = try database.gitHub.syncStates()
      let everything = try DayRange(from: Day(ordinal: 0), to: environment.today.adding(days: 2))
      let counts = Dictionary(
        try database.gitHub.commitsByRepository(everything, timeZone: environment.timeZone)
          .map { ($0.repository.lowercased(), $0.commits) }, uniquingKeysWith: +)
      let report = StatusReport(
        access: access, tokenOwner: tokenOwner, rateLimit: rateLimit, problem: problem,
        states: states, counts: counts, timeZone: environment.timeZone, now: environment.now,
        labelRules: try database.settings.labelPriorityRules())
      if output.json {
        JSONOutput.print(report, environment)
      } else {
        environment.output(report.text(style: environment.style(noColor: global.noColor)))
      }
      // As `gh auth status`: the whole status is shown, and a rejected token exits 1.
      if let rejected { throw rejected }
    }
  }
}
