import Core
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: - Listing values

/// What to list with `GitHubClient.commits(_:onPage:)`.
public struct CommitQuery: Hashable, Sendable {
  /// The repository to list.
  public var repository: RepositoryName
  /// A GitHub login or e-mail; only commits by that author are listed. Nil lists everyone's.
  public var author: String?
  /// Only commits committed at or after this instant (GitHub filters on the committer date).
  public var since: Date?
  /// Only commits committed before this instant.
  public var until: Date?
  /// The ETag returned by the last complete listing of this same query, or nil.
  public var etag: String?
  /// The branch to list (`sha=`), or nil for the default branch.
  public var branch: String?

  /// Creates a query.
  public init(
    repository: RepositoryName, author: String? = nil, since: Date? = nil, until: Date? = nil,
    etag: String? = nil, branch: String? = nil
  ) {
    self.repository = repository
    self.author = author
    self.since = since
    self.until = until
    self.etag = etag
    self.branch = branch
  }
}

/// One page of a commit listing, handed to the caller as soon as it arrives.
public struct CommitPage: Hashable, Sendable {
  /// The page's position in the listing, from 1.
  public var number: Int
  /// The page's commits, in GitHub's order (newest first).
  public var commits: [Commit]

  /// Creates a page.
  public init(number: Int, commits: [Commit]) {
    self.number = number
    self.commits = commits
  }
}

/// How a commit listing ended.
public enum CommitListingOutcome: Hashable, Sendable {
  /// GitHub answered 304 to the stored ETag: nothing new since the last listing.
  case notModified
  /// The repository has no commits at all (GitHub answers 409 "Git Repository is empty.").
  case emptyRepository
  /// Every page was delivered. `etag` is the first page's new ETag (store it for next time).
  case fetched(etag: String?, pages: Int, commits: Int)

  /// The ETag to store after this listing, when there is a new one.
  public var etag: String? {
    if case .fetched(let etag, _, _) = self { return etag }
    return nil
  }
}

