import ArgumentParser
import Core
import Foundation
import GitHubClient
import GitHubSync
import Storage

#if canImport(Glibc)
import Glibc
import UseCases
#endif

extension Ootd {
  /// `ootd sync`: fetch the user's commits from GitHub into the local database.
  struct Sync: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "sync",
      abstract: "Fetch your commits from GitHub into the local database.",
      discussion: """
        Lists the commits you authored in every repository of yours (GET /user/repos when the \
        token is yours, else your public ones), every repository linked to a project, and the \
        public repositories GitHub's search finds your commits or merged pull requests in; or \
        only the --repo ones. Repositories with GitHub Pages are listed on gh-pages too. The \
        first sync covers the last year (--since for more); later syncs skip repositories not \
        pushed to since, and fetch only what is new. Re-running never duplicates anything; \
        Ctrl-C keeps what was fetched and the next sync resumes. 'ootd graph' then works offline.

        The token is $GH_TOKEN, else $GITHUB_TOKEN, else 'gh auth token'; without one, public \
        data still works within GitHub's 60 requests an hour. The API is $OOTD_GITHUB_API_URL, \
        else the URL saved with 'ootd github url', else https://api.github.com.

        --local reads projects with a --path from their own git log instead, with no GitHub \
        at all; a commit seen both ways counts once. --caldav runs 'ootd caldav sync' instead.

        Examples:
          ootd sync
          ootd sync --user octocat --since 2024-01-01
          ootd sync --repo groue/GRDB.swift --repo me/dotfiles
          ootd sync --local    # offline, from the git log of projects with a --path
        """)

    @Option(
      name: .long,
      help: ArgumentHelp(
        "Whose commits (default: the saved login, else the token's owner).", valueName: "login"))
    var user: String?

    @Option(
      name: .long, parsing: .upToNextOption,
      help: ArgumentHelp(
        "Only these repositories (--repo a/b c/d, --repo a/b --repo c/d or --repo a/b,c/d).",
        valueName: "owner/name"))
    var repo: [String] = []

    /// `--repo` values, commas split, blanks dropped.
    var repositories: [String] {
      repo.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
    }

    @Option(
      name: .long,
      help: ArgumentHelp(
        "Fetch commits from this day on (default: a year ago, or where the last sync ended).",
        valueName: "date"))
    var since: String?

    @Option(
      name: .long,
      help: ArgumentHelp(
        "The longest to wait for GitHub's rate limit to reset before stopping.",
        valueName: "seconds"))
    var maxWait: Int = 900

    @Flag(
      name: .long,
      help: "Read the commits of projects with a local path from their git log instead (offline).")
    var local = false

    @Option(
      name: .long,
      help: ArgumentHelp(
        "With --local, also count commits by this e-mail (repeatable).", valueName: "email"))
    var email: [String] = []

    @Flag(name: .long, help: "Then bring your open GitHub issues in as todos ('ootd github issues').")
    var issues = false

    @Flag(
      name: .customLong("caldav"),
      help: "Sync the linked CalDAV task list instead ('ootd caldav sync'; --json prints its JSON).")
    var calDAV = false

    @Flag(name: .long, help: "With --caldav, print JSON for scripts.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if calDAV && (local || issues || !repo.isEmpty || user != nil) {
        throw ValidationError("--caldav syncs the CalDAV task list only: drop the GitHub options")
      }
      if json && !calDAV { throw ValidationError("--json goes with --caldav") }
      if local && !repo.isEmpty { throw ValidationError("--local reads projects; drop --repo") }
      if !email.isEmpty && !local { throw ValidationError("--email goes with --local") }
      for name in repositories where RepositoryName(name) == nil {
        throw ValidationError(
          "'\(name)' is not a repository: use OWNER/NAME, e.g. groue/GRDB.swift")
      }
      if let user, !Self.isLogin(user) {
        throw ValidationError("'\(user)' is not a GitHub login")
      }
      if !(0...86_400).contains(maxWait) {
        throw ValidationError("--max-wait must be between 0 and 86400 seconds")
      }
    }

    static func isLogin(_ text: String) -> Bool {
      RepositoryName(owner: text, name: "x") != nil
    }

    func run(in environment: AppEnvironment) async throws {
      if calDAV {
        try await Ootd.CalDAVCommand.SyncCommand.sync(environment, global: global, from: nil, to: nil, json: json)
        return
      }
      let database = try global.openDatabase(environment)
      try database.preferSpeedOverDurabilityForCachedData()  // a commit per page, no fsync each
      let sinceDay = try parseDay(since, environment)
      if let sinceDay, sinceDay > environment.today {
        throw CLIError.invalidValue(
          "--since \(sinceDay) is in the future: there are no commits to fetch from it yet")
      }
      if local {
        let start = (sinceDay ?? environment.today.adding(days: -365))
          .start(in: environment.timeZone)
        let login = try database.gitHub.commitAuthor(user)
        let summary = try LocalSync(
          store: database, now: environment.now, git: environment.runGit,
          expandPath: { environment.expandTilde($0) }, warn: { environment.printError(TerminalText.printable($0)) }
        ).run(login: login, extraEmails: email, since: start)
        let projects = counted(summary.projects, "project")
        let new =
          counted(summary.newCommits, "new commit", digits: group)
        environment.print(
          "Read the git log of \(projects): \(new) (\(group(try database.gitHub.commitCount())) cached).")
        try await afterCommitsStored(database, environment, client: nil)
        return
      }
      let access = try GitHubAccess.resolve(environment, database: database)
      // A full sync asked to go further back is remembered before any request goes out (for
      // its login once known, see below), so a sync stopped at once is finished by the next one.
      if let sinceDay, repo.isEmpty {
        try CommitSync.remember(
          since: sinceDay.start(in: environment.timeZone), login: user ?? access.savedLogin ?? CommitSync.ownerNotKnown,
          in: database.gitHub)
      }
      let progressLine = ProgressLine(environment: environment)
      let client = try access.client(
        environment, rateLimitWaitBound: TimeInterval(maxWait),
        onEvent: { event in progressLine.event(event) })

      // Who: --user, else the saved login, else the token's owner.
      // The token's owner is needed to name the user, or to list private repositories too.
      var tokenOwner: String?
      if access.token != nil, (user ?? access.savedLogin) == nil || repo.isEmpty {
        tokenOwner = try await client.authenticatedUser()
      }
      guard let login = user ?? access.savedLogin ?? tokenOwner else {
        throw CLIError.noGitHubLogin
      }
      // A full sync asked to go further back is remembered before the first request for
      // repositories or commits, so a sync stopped at once is finished by the next plain one.
      if repo.isEmpty { try CommitSync.adoptWindow(of: CommitSync.ownerNotKnown, for: login, in: database.gitHub) }
      if access.token == nil {
        environment.printError(
          "ootd: no GitHub token (GH_TOKEN, GITHUB_TOKEN or gh): public data only, 60 requests an hour"
        )
      }

      // Which repositories: --repo, else the user's plus the projects' (each once); the sync
      // adds those search finds.
      var targets: [CommitSync.Target] = []
      if !repo.isEmpty {
        targets = self.repositories.compactMap(RepositoryName.init).map {
          CommitSync.Target(name: $0, foundBy: "--repo")
        }
      } else {
        // Sorted by push, the listing can stop at the first page ending with a repository not
        // pushed to since the last complete sync (a day's margin for clocks): the rest are
        // unchanged. Not when this sync covers a window the last one did not.
        let discovery = try database.gitHub.discoveryState(author: login)
        let pushedSince =
          sinceDay == nil && discovery.wantedSince == nil
          ? discovery.searchedThrough?.addingTimeInterval(-86_400) : nil
        let owned = try await client.repositories(
          for: login,
          authenticatedAsLogin: tokenOwner?.lowercased() == login.lowercased(),
          pushedSince: pushedSince)
        targets = owned.map { CommitSync.Target(name: $0.fullName, repository: $0, foundBy: "listing") }
        targets += try database.projects(.all).compactMap(\.project.repository).map {
          CommitSync.Target(name: $0, foundBy: "project")
        }
      }

      let since = sinceDay ?? environment.today.adding(days: -365)
      let newCommits = Counter()
      let sync = CommitSync(
        client: client, store: database.gitHub, now: environment.now,
        onProgress: { progress in
          newCommits.value = progress.newCommits
          progressLine.update(progress)
        },
        onWarning: { message in progressLine.warn(message) })
      let interruption = Interruption {
        let kept = newCommits.value
        progressLine.warn(
          "interrupted; kept the \(counted(kept, "new commit", digits: group)) fetched so far; run 'ootd sync' to resume.")
      }
      defer { interruption.cancel() }
      do {
        let summary = try await sync.run(
          login: login, targets: targets, since: since.start(in: environment.timeZone),
          discover: repo.isEmpty)
        progressLine.clear()
        environment.print(Self.summaryLine(summary, cached: try database.gitHub.commitCount()))
        try await afterCommitsStored(database, environment, client: client)
      } catch let stopped as CommitSync.Stopped {
        progressLine.clear()
        if case .unauthorized = stopped.error { throw stopped.error }
        throw CLIError.syncStopped(
          reason: stopped.error.description, kept: stopped.summary.newCommits)
      }
    }

    /// `Synced 3 repositories for gr: 120 new commits (10,817 cached); 1 skipped; 4,990/5,000 requests left.`
    static func summaryLine(_ summary: CommitSync.Summary, cached: Int) -> String {
      let repositories =
        counted(summary.repositories, "repository", "repositories")
      let new =
        counted(summary.newCommits, "new commit", digits: group)
      var line = "Synced \(repositories) for \(TerminalText.printable(summary.login)): \(new) (\(group(cached)) cached)"
      if !summary.discovered.isEmpty { line += "; \(summary.discovered.count) found by search" }
      if summary.unchanged > 0 { line += "; \(summary.unchanged) unchanged" }
      if !summary.skipped.isEmpty { line += "; \(summary.skipped.count) skipped" }
      if let left = summary.requestsLeft, let limit = summary.requestLimit {
        line += "; \(group(left))/\(group(limit)) requests left"
      }
      return line + "."
    }
  }
}

/// A number shared between the sync's progress callback and the Ctrl-C handler.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var stored = 0
  var value: Int {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}

/// Ctrl-C during a sync: one line saying what was kept, then exit 130. Every page is stored in
/// its own transaction with the listing's progress, so stopping between two is always safe and
/// the next sync resumes.
final class Interruption: @unchecked Sendable {
  private let source: any DispatchSourceSignal

  init(_ onInterrupt: @escaping @Sendable () -> Void) {
    signal(SIGINT, SIG_IGN)
    source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler {
      onInterrupt()
      _exit(130)
    }
    source.resume()
  }

  func cancel() {
    source.cancel()
    signal(SIGINT, SIG_DFL)
  }
}
