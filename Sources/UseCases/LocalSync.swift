import Core
import Foundation

/// Commits read from a project's local clone with `git log`, with no API at all.
///
/// Commits are keyed by SHA like GitHub's, so a commit already synced from GitHub (or from a
/// fork, or another clone) never counts twice.
public enum LocalGitLog {
  /// The `git log` format: SHA, parents, author name, e-mail, author date, committer date and
  /// subject, separated by the unit separator (which cannot appear in these fields).
  public static let format = "%H%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%cI%x1f%s"

  /// The arguments of the `git` call that lists every commit reachable from any ref since
  /// `since`, authored by one of `emails` (case-insensitive). Signatures are never checked
  /// (that runs `gpg.program`) and no external diff runs, whatever the clone configures.
  public static func arguments(path: String, since: Date) -> [String] {
    [
      "-C", path, "log", "--all", "--no-show-signature", "--no-ext-diff", "--no-color",
      "--format=" + format, "--since=\(Int(since.timeIntervalSince1970))",
    ]
  }

  /// Parses `git log` output into commits read from `source` authored by one of `emails`, with
  /// `login` as their author login (they are the user's).
  public static func commits(
    fromLog output: String, source: CommitSource, emails: Set<String>, login: String?
  ) -> [Commit] {
    var commits: [Commit] = []
    for line in output.split(separator: "\n") {
      let fields = line.split(separator: "\u{1F}", omittingEmptySubsequences: false)
      guard fields.count >= 7, emails.contains(fields[3].lowercased()),
        let authored = parseDate(String(fields[4])), let committed = parseDate(String(fields[5]))
      else { continue }
      let parents = fields[1].split(separator: " ").count
      commits.append(
        Commit(
          sha: String(fields[0]).lowercased(), source: source, authorLogin: login,
          authorName: String(fields[2]), authorEmail: String(fields[3]), authorDate: authored,
          committerDate: committed,
          subject: Commit.subject(ofMessage: fields[6...].joined(separator: "\u{1F}")),
          htmlURL: nil,
          parentCount: parents))
    }
    return commits
  }

  /// `2025-10-02T08:11:07+02:00` (git's `%aI`) as an instant.
  public static func parseDate(_ text: String) -> Date? { Timestamp.date(text, .iso8601) }
}

/// `ootd sync --local`: reads the commits of every project with a local path from `git log`.
/// It knows the database only through Core's ``LocalCommitStore``; the CLI hands it how git runs
/// (``SafeGit``'s options, in the user's environment) and how a path's `~` expands.
public struct LocalSync {
  /// The author key of local reads' sync state, apart from every GitHub login's.
  public static let stateKey = "local:git-log"

  public let store: any LocalCommitStore
  public let now: Date
  /// Runs git with these arguments; its standard output, nil when it failed.
  public let git: ([String]) -> String?
  /// A project's path as written, `~` expanded.
  public let expandPath: (String) -> String
  /// Receives each warning line (`ootd: warning: …`), raw: the CLI makes it printable.
  public let warn: (String) -> Void

  public init(
    store: any LocalCommitStore, now: Date, git: @escaping ([String]) -> String?,
    expandPath: @escaping (String) -> String, warn: @escaping (String) -> Void
  ) {
    self.store = store
    self.now = now
    self.git = git
    self.expandPath = expandPath
    self.warn = warn
  }

  /// What a local sync did.
  public struct Summary: Sendable {
    public var projects = 0
    public var newCommits = 0
    public var skipped: [String] = []
  }

  /// Reads each project's clone since `since`; commits by `login`'s known e-mails, the clone's
  /// `user.email` and `extraEmails` count.
  public func run(login: String?, extraEmails: [String], since: Date) throws -> Summary {
    var summary = Summary()
    var known = Set(extraEmails.map { $0.lowercased() })
    if let login { known.formUnion(try store.authorEmails(of: login)) }
    for project in try store.allProjects() {
      guard let rawPath = project.localPath, !rawPath.isEmpty else { continue }
      let path = expandPath(rawPath)
      guard let filedAs = project.commitRepository else { continue }
      let source = CommitSource.localClone(project: project.name, repository: project.repository)
      var emails = known
      if let email = git(["-C", path, "config", "user.email"])?
        .trimmingCharacters(in: .whitespacesAndNewlines), !email.isEmpty
      {
        emails.insert(email.lowercased())
      }
      guard let log = git(LocalGitLog.arguments(path: path, since: since)) else {
        summary.skipped.append(project.name)
        warn("ootd: warning: skipping project \(project.name): \(rawPath) is not a git repository")
        continue
      }
      let commits = LocalGitLog.commits(
        fromLog: log, source: source, emails: emails, login: login)
      // Local reads are recorded apart from every GitHub listing: GitHub's state (where its next
      // listing starts, its ETag) must only ever describe what GitHub listed.
      let key = ListingKey(repository: filedAs, author: LocalSync.stateKey)
      var start = 0
      while start < commits.count {
        let page = Array(commits[start..<min(commits.count, start + 500)])
        summary.newCommits += try store.storeLocalCommits(page, recordedAs: key, now: now)
        start += 500
      }
      if commits.isEmpty { _ = try store.storeLocalCommits([], recordedAs: key, now: now) }
      summary.projects += 1
    }
    return summary
  }
}
