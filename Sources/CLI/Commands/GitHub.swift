import ArgumentParser
import Core
import Foundation
import GitHubClient
import Storage

extension Ootd {
  /// `ootd github`: the GitHub connection (login, API URL, token status).
  struct GitHubCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "github",
      abstract: "Show and set up the GitHub connection used by 'ootd sync'.",
      discussion: """
        The token is never stored: ootd reads $GH_TOKEN, else $GITHUB_TOKEN, else asks \
        'gh auth token'. Without one, public data still works (60 requests an hour).

        Examples:
          ootd github status
          ootd github login octocat
          ootd github url https://ghe.example.com/api/v3     # GitHub Enterprise Server
          ootd github doctor    # why the graph may differ from the profile
        """,
      subcommands: [Status.self, Login.self, URLCommand.self, Issues.self, Doctor.self],
      defaultSubcommand: Status.self)
  }
}

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
      let states = try database.syncStates()
      let everything = try DayRange(from: Day(ordinal: 0), to: environment.today.adding(days: 2))
      let counts = Dictionary(
        try database.commitsByRepository(everything, timeZone: environment.timeZone)
          .map { ($0.repository.lowercased(), $0.commits) }, uniquingKeysWith: +)
      let report = StatusReport(
        access: access, tokenOwner: tokenOwner, rateLimit: rateLimit, problem: problem,
        states: states, counts: counts, timeZone: environment.timeZone, now: environment.now,
        labelRules: try database.labelPriorityRules())
      if output.json {
        environment.output(try JSONOutput.encode(report) + "\n")
      } else {
        environment.output(report.text(style: environment.style(noColor: global.noColor)))
      }
      // As `gh auth status`: the whole status is shown, and a rejected token exits 1.
      if let rejected { throw rejected }
    }
  }

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
      let states = try database.syncStates().filter { $0.author != LocalSync.stateKey }
      if let login {
        for (repository, found) in try database.searchHits(author: login) where found > 0 {
          let listed = try database.repositoryCommits(repository, author: login).total
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
      let known = try database.knownRepositories()
      let forks = Set(known.filter(\.isFork).map { $0.name.description.lowercased() })
      var unconfirmed: [DoctorReport.Unconfirmed] = []
      if let login {
        for repository in known where repository.foundBy == "search" && !repository.isFork
          && repository.name.owner.lowercased() != login.lowercased()
        {
          let commits = try database.repositoryCommits(repository.name, author: login).total
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
        unlinked: DoctorReport.unlinked(local: try database.localAuthorEmails(), linked: linked),
        gaps: gaps, unconfirmed: unconfirmed, states: states, forks: forks, problem: problem,
        timeZone: environment.timeZone)
      if output.json {
        environment.output(try JSONOutput.encode(report) + "\n")
      } else {
        environment.output(report.text())
      }
    }
  }

  /// `ootd github login NAME`.
  struct Login: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "login",
      abstract: "Save the GitHub login whose commits ootd syncs and graphs.",
      discussion: """
        Examples:
          ootd github login octocat
          ootd github login            # prints the saved login
          ootd github login --forget
        """)

    @Argument(help: ArgumentHelp("The GitHub login.", valueName: "login"))
    var login: String?

    @Flag(name: .long, help: "Forget the saved login.")
    var forget = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if let login, !Ootd.Sync.isLogin(login) {
        throw ValidationError("'\(login)' is not a GitHub login")
      }
      if login != nil && forget { throw ValidationError("give a login or --forget, not both") }
    }

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment)
      if forget {
        try database.setGitHubSetting(.login, to: nil)
        environment.print("Forgot the GitHub login.")
      } else if let login {
        try database.setGitHubSetting(.login, to: login)
        environment.print(TerminalText.printable("GitHub login: \(login)"))
      } else {
        environment.print(TerminalText.printable(try database.gitHubSetting(.login) ?? "(no login saved)"))
      }
    }
  }

  /// `ootd github url URL`: the API for GitHub Enterprise Server.
  struct URLCommand: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "url",
      abstract: "Save the GitHub REST API URL (GitHub Enterprise Server: https://HOST/api/v3).",
      discussion: """
        A bare host (ghe.example.com) becomes https://ghe.example.com/api/v3. Plain http:// is \
        accepted only for loopback hosts. $OOTD_GITHUB_API_URL overrides the saved URL.

        Examples:
          ootd github url ghe.example.com
          ootd github url https://ghe.example.com/api/v3
          ootd github url              # prints the URL in use
          ootd github url --reset
        """)

    @Argument(help: ArgumentHelp("The API URL or GHES host.", valueName: "url"))
    var url: String?

    @Flag(name: .long, help: "Go back to https://api.github.com.")
    var reset = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if url != nil && reset { throw ValidationError("give a URL or --reset, not both") }
    }

    /// `ghe.example.com` → `https://ghe.example.com/api/v3`; URLs are kept as given.
    static func normalized(_ text: String) -> String {
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      if trimmed.contains("://") { return trimmed }
      var host = trimmed
      while host.hasSuffix("/") { host.removeLast() }
      return host == "api.github.com" ? "https://api.github.com" : "https://\(host)/api/v3"
    }

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment)
      if reset {
        try database.setGitHubSetting(.apiURL, to: nil)
        environment.print("GitHub API: https://api.github.com")
      } else if let url {
        let validated = try GitHubAccess.validatedURL(Self.normalized(url), what: "the API URL")
        try database.setGitHubSetting(.apiURL, to: validated.absoluteString)
        environment.print("GitHub API: \(validated.absoluteString)")
      } else {
        let access = try GitHubAccess.resolve(environment, database: database)
        environment.print(access.baseURL.absoluteString)
      }
    }
  }
}
