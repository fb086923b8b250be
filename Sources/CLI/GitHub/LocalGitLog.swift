import Core
import Foundation
import Storage

/// Commits read from a project's local clone with `git log`, with no API at all.
///
/// Commits are keyed by SHA like GitHub's, so a commit already synced from GitHub (or from a
/// fork, or another clone) never counts twice.
enum LocalGitLog {
  /// The `git log` format: SHA, parents, author name, e-mail, author date, committer date and
  /// subject, separated by the unit separator (which cannot appear in these fields).
  static let format = "%H%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%cI%x1f%s"

  /// The arguments of the `git` call that lists every commit reachable from any ref since
  /// `since`, authored by one of `emails` (case-insensitive). Signatures are never checked
  /// (that runs `gpg.program`) and no external diff runs, whatever the clone configures.
  static func arguments(path: String, since: Date) -> [String] {
    [
      "-C", path, "log", "--all", "--no-show-signature", "--no-ext-diff", "--no-color",
      "--format=" + format, "--since=\(Int(since.timeIntervalSince1970))",
    ]
  }

  /// Parses `git log` output into commits read from `source` authored by one of `emails`, with
  /// `login` as their author login (they are the user's).
  static func commits(
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
  static func parseDate(_ text: String) -> Date? { Timestamp.date(text, .iso8601) }
}

/// How ootd runs git in a clone it does not control: a repository's `.git/config` (a clone
/// from anyone) must not make git run programs. Every git call gets these options and
/// variables, whatever its arguments.
enum SafeGit {
  /// Global options before the command: no pager, no signature check (it runs `gpg.program`),
  /// no fsmonitor hook, the pager set to `cat` in case one is ever asked for.
  static let options = [
    "--no-pager", "-c", "log.showSignature=false", "-c", "core.pager=cat",
    "-c", "core.fsmonitor=false",
  ]

  /// Variables set for git: no system-wide configuration, never a prompt for credentials, `cat`
  /// as pager, no lazy fetch of missing objects (it would contact the clone's remote), no
  /// optional index locks.
  static let environment = [
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat",
    "GIT_NO_LAZY_FETCH": "1", "GIT_OPTIONAL_LOCKS": "0",
  ]
}

/// `ootd sync --local`: reads the commits of every project with a local path from `git log`.
struct LocalSync {
  /// The author key of local reads' sync state, apart from every GitHub login's.
  static let stateKey = "local:git-log"

  let database: AppDatabase
  let environment: AppEnvironment

  /// What a local sync did.
  struct Summary {
    var projects = 0
    var newCommits = 0
    var skipped: [String] = []
  }

  /// Reads each project's clone since `since`; commits by `login`'s known e-mails, the clone's
  /// `user.email` and `extraEmails` count.
  func run(login: String?, extraEmails: [String], since: Date) throws -> Summary {
    var summary = Summary()
    var known = Set(extraEmails.map { $0.lowercased() })
    if let login { known.formUnion(try database.gitHub.authorEmails(of: login)) }
    for progress in try database.projects(.all) {
      let project = progress.project
      guard let rawPath = project.localPath, !rawPath.isEmpty else { continue }
      let path = environment.expandTilde(rawPath)
      guard let filedAs = project.commitRepository else { continue }
      let source = CommitSource.localClone(project: project.name, repository: project.repository)
      var emails = known
      if let email = environment.runGit(["-C", path, "config", "user.email"])?
        .trimmingCharacters(in: .whitespacesAndNewlines), !email.isEmpty
      {
        emails.insert(email.lowercased())
      }
      guard let log = environment.runGit(LocalGitLog.arguments(path: path, since: since)) else {
        summary.skipped.append(project.name)
        environment.printError(
          "ootd: warning: skipping project \(project.name): \(rawPath) is not a git repository")
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
        summary.newCommits += try database.gitHub.storeLocalCommits(page, recordedAs: key, now: environment.now)
        start += 500
      }
      if commits.isEmpty { try database.gitHub.storeLocalCommits([], recordedAs: key, now: environment.now) }
      summary.projects += 1
    }
    return summary
  }
}

extension Project {
  /// Where this project's commits are filed in the cache: its GitHub repository, else
  /// `local/NAME` (Storage's key for a local clone of a project without a GitHub repository).
  var commitRepository: RepositoryName? {
    if let repository { return repository }
    guard localPath != nil else { return nil }
    return RepositoryName(owner: "local", name: name)
  }
}
