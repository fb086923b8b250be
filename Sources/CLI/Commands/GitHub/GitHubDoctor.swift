import ArgumentParser
import Core
import Foundation
import GitHubClient
import Storage
import UseCases

extension Ootd.GitHubCommand {
  /// `ootd github doctor`: why the graph may differ from the GitHub profile.
  struct Doctor: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "doctor",
      abstract: "Explain why the commit graph may differ from your GitHub profile.",
      discussion: """
        Checks the token's scopes (X-OAuth-Scopes) and what they hide, the author e-mails of \
        commits read from local clones that are not linked to your account (GET /user/emails, \
        when the token may read them), repositories where GitHub's search found commits the \
        listing could not read, projects of other owners only the commit search found (GitHub \
        counts those commits only if you are a member, forked the project, or opened an issue \
        or pull request there: ootd cannot check that and counts them), and when each \
        repository was last synced.

        Examples:
          ootd github doctor
          ootd github doctor --json
        """)

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) async throws {
      let database = try global.openDatabase(environment, readOnly: true)
      let access = try GitHubAccess.resolve(environment, database: database)
      var owner: String?
      var scopes: [String]?
      var linked: [String]?
      var problem: String?
      if access.token != nil {
        let client = try access.client(environment, rateLimitWaitBound: 0, maxAttempts: 1)
        do {
          let answer = try await client.tokenOwner()
          owner = answer.login
          scopes = answer.scopes
          linked = try await client.linkedEmails()
        } catch let error as GitHubError {
          problem = error.description
        }
      }
      let login = access.savedLogin ?? owner
      var gaps: [DoctorReport.SearchGap] = []
      let states = try database.gitHub.syncStates().filter { $0.author != LocalSync.stateKey }
      if let login {
        for (repository, found) in try database.gitHub.searchHits(author: login) where found > 0 {
          let listed = try database.gitHub.repositoryCommits(repository, author: login).total
          guard listed < found else { continue }
          let error = states.first {
            $0.repository == repository && $0.branch == nil && $0.author == login.lowercased()
          }?.lastError
          gaps.append(
            DoctorReport.SearchGap(
              repository: repository.description, searchCommits: found, listedCommits: listed,
              lastError: error))
        }
      }
      let known = try database.gitHub.knownRepositories()
      let forks = Set(known.filter(\.isFork).map { $0.name.description.lowercased() })
      var unconfirmed: [DoctorReport.Unconfirmed] = []
      if let login {
        for repository in known where repository.foundBy == "search" && !repository.isFork
          && repository.name.owner.lowercased() != login.lowercased()
        {
          let commits = try database.gitHub.repositoryCommits(repository.name, author: login).total
          if commits > 0 {
            unconfirmed.append(.init(repository: repository.name.description, commits: commits))
          }
        }
      }
      let report = DoctorReport(
        login: login, tokenSource: access.tokenSource, tokenOwner: owner, scopes: scopes,
        hidden: problem == nil ? DoctorReport.hidden(
          token: access.token != nil, scopes: scopes, emailsRead: linked != nil) : [],
        linkedEmails: linked,
        unlinked: DoctorReport.unlinked(local: try database.gitHub.localAuthorEmails(), linked: linked),
        gaps: gaps, unconfirmed: unconfirmed, states: states, forks: forks, problem: problem,
        timeZone: environment.timeZone)
      if output.json {
        JSONOutput.print(report, environment)
      } else {
        environment.output(report.text())
      }
    }
  }
}
