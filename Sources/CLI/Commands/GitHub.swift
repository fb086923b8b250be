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
        The token is never stored: ootd reads $GITHUB_TOKEN, else $GH_TOKEN, else asks \
        'gh auth token'. Without one, public data still works (60 requests an hour).

        Examples:
          ootd github status
          ootd github login octocat
          ootd github url https://ghe.example.com/api/v3     # GitHub Enterprise Server
        """,
      subcommands: [Status.self, Login.self, URLCommand.self],
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
      let database = try global.openDatabase(environment)
      let access = try GitHubAccess.resolve(environment, database: database)
      var tokenOwner: String?
      var rateLimit: RateLimitStatus?
      var problem: String?
      if !offline {
        // A status check answers at once: no retries, no waiting for a rate limit.
        let client = try access.client(environment, rateLimitWaitBound: 0, maxAttempts: 1)
        do {
          if access.token != nil { tokenOwner = try await client.authenticatedUser() }
          rateLimit = try await client.rateLimit()
        } catch let error as GitHubError {
          problem = error.description
        }
      }
      let states = try database.syncStates()
      let everything = try DayRange(from: Day(ordinal: 0), to: environment.today.adding(days: 2))
      let counts = Dictionary(
        try database.commitsByRepository(everything, timeZone: environment.timeZone)
          .map { ($0.repository.lowercased(), $0.commits) }, uniquingKeysWith: +)
      let report = StatusReport(
        access: access, tokenOwner: tokenOwner, rateLimit: rateLimit, problem: problem,
        states: states, counts: counts, timeZone: environment.timeZone, now: environment.now)
      if output.json {
        environment.output(try JSONOutput.encode(report) + "\n")
      } else {
        environment.output(report.text(style: environment.style(noColor: global.noColor)))
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
        environment.print("GitHub login: \(login)")
      } else {
        environment.print(try database.gitHubSetting(.login) ?? "(no login saved)")
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

/// What `ootd github status` shows. Never the token: only where it came from.
struct StatusReport: Encodable {
  let access: GitHubAccess
  let tokenOwner: String?
  let rateLimit: RateLimitStatus?
  let problem: String?
  let states: [RepositorySyncState]
  let counts: [String: Int]
  let timeZone: TimeZone
  let now: Date

  enum CodingKeys: String, CodingKey {
    case apiURL, apiURLSource, token, tokenSource, tokenOwner, login, rateLimit, problem
    case repositories
  }

  enum RateKeys: String, CodingKey { case limit, remaining, reset }
  enum RepoKeys: String, CodingKey { case repository, author, commits, lastSync, lastError }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(access.baseURL.absoluteString, forKey: .apiURL)
    try c.encode(access.baseURLSource, forKey: .apiURLSource)
    try c.encode(access.token != nil, forKey: .token)
    try c.encode(access.tokenSource, forKey: .tokenSource)
    try c.encode(tokenOwner, forKey: .tokenOwner)
    try c.encode(access.savedLogin, forKey: .login)
    if let rateLimit {
      var r = c.nestedContainer(keyedBy: RateKeys.self, forKey: .rateLimit)
      try r.encode(rateLimit.limit, forKey: .limit)
      try r.encode(rateLimit.remaining, forKey: .remaining)
      try r.encode(ISO8601Timestamp.string(rateLimit.reset), forKey: .reset)
    } else {
      try c.encodeNil(forKey: .rateLimit)
    }
    try c.encode(problem, forKey: .problem)
    var list = c.nestedUnkeyedContainer(forKey: .repositories)
    for state in states {
      var r = list.nestedContainer(keyedBy: RepoKeys.self)
      try r.encode(state.repository.description, forKey: .repository)
      try r.encode(state.author, forKey: .author)
      try r.encode(counts[state.repository.description.lowercased()] ?? 0, forKey: .commits)
      try r.encode(
        state.lastSyncAt.map { ISO8601Timestamp.string($0) }, forKey: .lastSync)
      try r.encode(state.lastError, forKey: .lastError)
    }
  }

  func text(style: Style) -> String {
    var lines: [String] = []
    lines.append("\(style.bold("API")):         \(access.displayHost) (\(access.baseURLSource))")
    if let source = access.tokenSource {
      let owner = tokenOwner.map { ", authenticated as \($0)" } ?? ""
      lines.append("\(style.bold("Token")):       from \(source)\(owner)")
    } else {
      lines.append(
        "\(style.bold("Token")):       none: public data only, 60 requests an hour (set GITHUB_TOKEN)"
      )
    }
    let login =
      access.savedLogin.map { "\($0) (saved)" }
      ?? tokenOwner.map { "\($0) (the token's owner)" }
      ?? "none: ootd github login LOGIN"
    lines.append("\(style.bold("Login")):       \(login)")
    if let rateLimit {
      let minutes = max(0, Int((rateLimit.reset.timeIntervalSince(now) / 60).rounded(.up)))
      lines.append(
        "\(style.bold("Rate limit")):  \(group(rateLimit.remaining))/\(group(rateLimit.limit)) left, resets at \(clock(rateLimit.reset)) (in \(minutes) min)"
      )
    } else if problem == nil {
      lines.append("\(style.bold("Rate limit")):  unknown (not checked, or none on this server)")
    }
    if let problem { lines.append("\(style.bold("Problem")):     \(TerminalText.printable(problem))") }
    if states.isEmpty {
      lines.append("Repositories: none synced yet (ootd sync)")
    } else {
      lines.append("\(style.bold("Repositories")):")
      let width = states.map { DisplayWidth.of($0.repository.description) }.max() ?? 0
      for state in states {
        let name = DisplayWidth.padRight(state.repository.description, to: width)
        let commits = counts[state.repository.description.lowercased()] ?? 0
        let when = state.lastSyncAt.map { "last sync \(stamp($0))" } ?? "never completed"
        var line = "  \(name)  \(DisplayWidth.padLeft(group(commits), to: 7)) commits  \(when)"
        if let error = state.lastError { line += "  " + style.red(error) }
        lines.append(line)
      }
    }
    return lines.map { $0 + "\n" }.joined()
  }

  private func clock(_ date: Date) -> String { clockTime(date, timeZone: timeZone) }

  private func stamp(_ date: Date) -> String { syncStamp(date, timeZone: timeZone) }
}

/// `2026-11-22 09:41` in `timeZone`, without DateFormatter (whose start-up the dashboard avoids).
func syncStamp(_ date: Date, timeZone: TimeZone) -> String {
  "\(Day(date, in: timeZone)) " + clockTime(date, timeZone: timeZone)
}

/// `09:41` in `timeZone`.
func clockTime(_ date: Date, timeZone: TimeZone) -> String {
  let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: date)
  let minutes = (seconds % 86_400 + 86_400) % 86_400 / 60
  let hour = minutes / 60
  let minute = minutes % 60
  return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
}
