import Core
import Foundation
import GRDB

// The GitHub cache: its store and values here; the listing protocol's state in
// GitHubCache+Listing.swift, the commit write path in GitHubCache+Commits.swift, and the graph's
// reads in GitHubCache+Queries.swift. The GitHub settings and label priorities are ``Settings``;
// the issue import writes todos and stays on ``AppDatabase`` (the journaled write path).

/// The GitHub cache: cached commits, each listing's state, known repositories, discovery and
/// search hits, and the graph's reads of them. Not journaled, never synced: a sync of GitHub
/// fills it again. Reached as `database.gitHub`; the ``CommitStore`` the commit sync writes to.
public struct GitHubCache: DatabaseStore {
  let writer: any DatabaseWriter
  let path: String
  /// The settings, for the saved login (``commitAuthor(_:)``).
  var settings: Settings { Settings(writer: writer, path: path) }
}

extension AppDatabase {
  /// The GitHub cache (commits, listings, repositories) in this database.
  public var gitHub: GitHubCache { GitHubCache(writer: writer, path: path) }
}

// MARK: - Values

/// Which cached commits a query counts.
public struct CommitFilter: Hashable, Sendable {
  /// Only commits listed from this repository, or every repository.
  public var repository: RepositoryName?
  /// Only commits whose author login or author e-mail is this (case-insensitive), or everyone's.
  public var author: String?
  /// Also count commits found only in repositories GitHub marks as forks (`"fork": true`),
  /// which GitHub's profile does not count.
  public var includeForks: Bool

  /// Creates a filter.
  public init(repository: RepositoryName? = nil, author: String? = nil, includeForks: Bool = false)
  {
    self.repository = repository
    self.author = author
    self.includeForks = includeForks
  }
}

/// Where the commit listing of one repository branch stands, for one author (for display).
public struct RepositorySyncState: Hashable, Sendable {
  /// The repository.
  public var repository: RepositoryName
  /// The branch, or nil for the default branch.
  public var branch: String?
  /// The author the listing is filtered by (a login), lowercased.
  public var author: String
  /// The listing protocol's state.
  public var listing: ListingState
  /// When the last listing completed.
  public var lastSyncAt: Date?
  /// Why the last attempt failed, when it did (cleared by the next success).
  public var lastError: String?

  /// Creates a state value.
  public init(
    repository: RepositoryName, branch: String? = nil, author: String,
    listing: ListingState = ListingState(), lastSyncAt: Date? = nil, lastError: String? = nil
  ) {
    self.repository = repository
    self.branch = branch
    self.author = author
    self.listing = listing
    self.lastSyncAt = lastSyncAt
    self.lastError = lastError
  }

  /// The earliest `since` a complete listing covered.
  public var windowStart: Date? { listing.windowStart }
  /// The newest author date among the commits of complete listings.
  public var newestAuthoredAt: Date? { listing.newest }
  /// The ETag of the last complete listing.
  public var etag: String? { listing.etag }
  /// Pages stored by a listing that has not completed yet.
  public var pendingPages: Int { listing.pendingPages }
  /// The `since` of that unfinished listing.
  public var pendingSince: Date? { listing.pendingSince }
}

/// A repository's share of the cached commits.
public struct RepositoryCommitCount: Hashable, Sendable {
  /// The repository (as first written).
  public var repository: String
  /// Its commits in the range (a commit in several repositories counts in each).
  public var commits: Int
  /// When it was last synced, if ever.
  public var lastSyncAt: Date?

  /// Creates a count.
  public init(repository: String, commits: Int, lastSyncAt: Date?) {
    self.repository = repository
    self.commits = commits
    self.lastSyncAt = lastSyncAt
  }
}

extension GitHubCache {
  // MARK: Instants

  /// The 15-minute slot of a UTC timestamp (floor division, also before 1970).
  static func slot(_ seconds: Int64) -> Int64 {
    seconds >= 0 ? seconds / 900 : (seconds - 899) / 900
  }

  /// The UTC day (days since 1970-01-01) of a UTC timestamp.
  static func utcDay(_ seconds: Int64) -> Int64 {
    seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
  }

  static func seconds(_ date: Date) -> Int64 {
    Int64(date.timeIntervalSince1970.rounded(.down))
  }

  static func date(_ seconds: Int64?) -> Date? {
    seconds.map { Date(timeIntervalSince1970: Double($0)) }
  }
}

/// The local git sync reads projects and keeps commits through Core's ``LocalCommitStore``.
extension AppDatabase: LocalCommitStore {
  public func allProjects() throws -> [Project] { try projects(.all).map(\.project) }

  public func authorEmails(of login: String) throws -> [String] {
    try gitHub.authorEmails(of: login)
  }

  public func storeLocalCommits(_ commits: [Commit], recordedAs key: ListingKey, now: Date)
    throws -> Int
  {
    try gitHub.storeLocalCommits(commits, recordedAs: key, now: now)
  }
}
