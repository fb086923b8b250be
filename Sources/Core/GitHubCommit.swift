#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One commit as GitHub lists it for a repository, reduced to what the commit graph needs.
///
/// Commits are identified by `sha`; the same commit can appear in several repositories (forks),
/// so callers that count commits should deduplicate by `sha`.
public struct GitHubCommit: Hashable, Sendable {
  /// The 40-hex-digit commit id.
  public var sha: String
  /// The repository the commit was listed from.
  public var repository: RepositoryName
  /// The GitHub account linked to the author's e-mail, or nil when GitHub links none.
  public var authorLogin: String?
  /// The author name recorded in the commit.
  public var authorName: String
  /// The author e-mail recorded in the commit.
  public var authorEmail: String
  /// When the commit was authored (an absolute instant; GitHub reports it in UTC).
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
    repository: RepositoryName,
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
    self.repository = repository
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
