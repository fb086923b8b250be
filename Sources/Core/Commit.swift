#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a commit was read: a GitHub repository's listing, or a project's local clone.
public enum CommitSource: Hashable, Sendable, CustomStringConvertible {
  /// Listed by the GitHub API from this repository.
  case gitHub(RepositoryName)
  /// Read with `git log` from the local clone of the project called `project`, whose GitHub
  /// repository is `repository` when the project names one.
  case localClone(project: String, repository: RepositoryName?)

  /// The GitHub repository the commit belongs to, when known.
  public var repository: RepositoryName? {
    switch self {
    case .gitHub(let repository): return repository
    case .localClone(_, let repository): return repository
    }
  }

  /// `owner/name`, or `local clone of NAME`.
  public var description: String {
    switch self {
    case .gitHub(let repository): return repository.description
    case .localClone(let project, let repository):
      return repository?.description ?? "local clone of \(project)"
    }
  }
}

/// One commit, reduced to what the commit graph needs, whatever it was read from.
///
/// Commits are identified by `sha`; the same commit can appear in several repositories (forks)
/// and clones, so callers that count commits deduplicate by `sha`.
public struct Commit: Hashable, Sendable {
  /// The 40-hex-digit commit id.
  public var sha: String
  /// Where the commit was read.
  public var source: CommitSource
  /// The GitHub account linked to the author's e-mail, or nil when none is known.
  public var authorLogin: String?
  /// The author name recorded in the commit.
  public var authorName: String
  /// The author e-mail recorded in the commit.
  public var authorEmail: String
  /// When the commit was authored (an absolute instant).
  public var authorDate: Date
  /// When the commit was committed (differs from `authorDate` after a rebase or amend).
  public var committerDate: Date
  /// The first line of the commit message.
  public var subject: String
  /// The commit's page on GitHub, when GitHub reported one.
  public var htmlURL: URL?
  /// How many parents the commit has: 0 for a root commit, 1 usually, 2 or more for a merge.
  public var parentCount: Int

  /// Creates a commit value.
  public init(
    sha: String,
    source: CommitSource,
    authorLogin: String?,
    authorName: String,
    authorEmail: String,
    authorDate: Date,
    committerDate: Date,
    subject: String,
    htmlURL: URL?,
    parentCount: Int
  ) {
    self.sha = sha
    self.source = source
    self.authorLogin = authorLogin
    self.authorName = authorName
    self.authorEmail = authorEmail
    self.authorDate = authorDate
    self.committerDate = committerDate
    self.subject = subject
    self.htmlURL = htmlURL
    self.parentCount = parentCount
  }

  /// True for a merge commit (two or more parents). Merges still count as commits.
  public var isMerge: Bool { parentCount >= 2 }

  /// The most characters a subject keeps: a subject is a line of a listing, not an archive of
  /// whatever a commit message holds.
  public static let maxSubjectLength = 1000

  /// The first line of `message`, cut at ``maxSubjectLength`` characters, without trailing
  /// whitespace.
  public static func subject(ofMessage message: String) -> String {
    let firstLine = message.prefix { !$0.isNewline }
    var subject = firstLine.prefix(maxSubjectLength)
    while let last = subject.last, last.isWhitespace { subject.removeLast() }
    return String(subject)
  }
}
