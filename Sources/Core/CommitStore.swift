#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a repository listing or a search told about a repository, as the sync keeps it.
public struct KnownRepository: Hashable, Sendable {
  /// The repository.
  public var name: RepositoryName
  /// True when GitHub says it is a fork (`"fork": true`): commits found only there do not count.
  public var isFork: Bool
  /// True when it publishes GitHub Pages (its `gh-pages` branch is listed too).
  public var hasPages: Bool
  /// Its last push, when known.
  public var pushedAt: Date?
  /// The ETag of `GET /repos/{owner}/{repo}`, for a conditional check of a repository that no
  /// listing reports.
  public var etag: String?
  /// How ootd found it: `listing`, `project`, `search`, `pull request` or `--repo`.
  public var foundBy: String

  /// Creates a value.
  public init(
    name: RepositoryName, isFork: Bool, hasPages: Bool, pushedAt: Date?, etag: String? = nil,
    foundBy: String
  ) {
    self.name = name
    self.isFork = isFork
    self.hasPages = hasPages
    self.pushedAt = pushedAt
    self.etag = etag
    self.foundBy = foundBy
  }
}

/// Where the repository discovery (GitHub's search) stands for one author, and the window a sync
/// was asked for until it completes (so a plain sync finishes an interrupted `sync --since`).
public struct DiscoveryState: Hashable, Sendable {
  /// The earliest day a sync was asked to cover and has not completed yet, or nil.
  public var wantedSince: Date?
  /// The window searched by completed discoveries, or nil before the first one.
  public var searchedFrom: Date?
  public var searchedThrough: Date?

  /// How far before the end of the last discovery the next one starts (the search index lags).
  public static let overlap: TimeInterval = 3 * 86_400

  /// Creates a state.
  public init(wantedSince: Date? = nil, searchedFrom: Date? = nil, searchedThrough: Date? = nil) {
    self.wantedSince = wantedSince
    self.searchedFrom = searchedFrom
    self.searchedThrough = searchedThrough
  }

  /// The window a sync wanting commits from `since` searches: everything when the window grew
  /// (or on the first sync), else only the days since the last discovery, with ``overlap``.
  public func searchWindow(since: Date, now: Date) -> (from: Date, to: Date) {
    guard let from = searchedFrom, let through = searchedThrough, since >= from else {
      return (since, now)
    }
    return (max(since, min(through, now).addingTimeInterval(-Self.overlap)), now)
  }

  /// The window a sync covers: the requested `since`, or further back when an earlier sync
  /// asked for more and did not complete.
  public func effectiveSince(_ since: Date) -> Date {
    min(since, wantedSince ?? since)
  }
}

/// Where ``CommitSync`` keeps commits and its progress. Storage's `AppDatabase` conforms; the
/// CLI hands it over, so the sync service never depends on SQL and Storage never on the network.
public protocol CommitStore: Sendable {
  /// The state of a listing, or nil when it never started.
  func listingState(_ key: ListingKey) throws -> ListingState?
  /// Stores `commits` and the listing's new state in one transaction.
  /// - Returns: how many commits were new.
  func storeCommits(_ commits: [Commit], listing key: ListingKey, state: ListingState) throws -> Int
  /// Saves a listing's state after it completed at `syncedAt`, clearing its last error.
  func saveCompletedListing(_ key: ListingKey, state: ListingState, syncedAt: Date) throws
  /// Records why a listing failed (its commits and state stay).
  func recordListingError(_ message: String, listing key: ListingKey) throws
  /// What is known about `name`, or nil.
  func knownRepository(_ name: RepositoryName) throws -> KnownRepository?
  /// Remembers what a listing or search said about a repository.
  func saveRepository(_ repository: KnownRepository) throws
  /// The discovery state of `author`.
  func discoveryState(author: String) throws -> DiscoveryState
  /// Saves the discovery state of `author`.
  func saveDiscoveryState(_ state: DiscoveryState, author: String) throws
  /// Remembers that search found `count` commits (0 for a merged pull request) of `author` in
  /// each repository: later syncs keep listing them, and the doctor compares.
  func recordSearchHits(_ hits: [RepositoryName: Int], author: String) throws
  /// Every repository search ever found for `author`.
  func discoveredRepositories(author: String) throws -> [RepositoryName]
  /// How many commits of `author` (by login) authored in `from..<to` are stored from
  /// repositories not known as forks, each repository's counted apart (as search counts them).
  func searchableCommitCount(author: String, from: Date, to: Date) throws -> Int
  /// How many distinct commits are stored.
  func commitCount() throws -> Int
}
