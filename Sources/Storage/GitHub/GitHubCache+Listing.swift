import Core
import Foundation
import GRDB

/// The sync's state as `Core.CommitStore` asks for it: each listing's `ListingState` (kept as
/// opaque text), what is known about each repository, the discovery window and search hits.
extension GitHubCache: CommitStore {
  public func listingState(_ key: ListingKey) throws(StorageError) -> ListingState? {
    try read { db in
      try String.fetchOne(
        db,
        sql: "SELECT state FROM githubListing WHERE repository = ? AND author = ? AND branch = ?",
        arguments: Self.arguments(key)
      ).flatMap(ListingState.init(encoded:))
    }
  }

  public func saveCompletedListing(_ key: ListingKey, state: ListingState, syncedAt: Date)
    throws(StorageError)
  {
    try write { db in
      try Self.saveState(db, key, state)
      try db.execute(
        sql: """
          UPDATE githubListing SET lastSyncAt = ?, lastError = NULL
          WHERE repository = ? AND author = ? AND branch = ?
          """,
        arguments: [Self.seconds(syncedAt)] + Self.arguments(key))
    }
  }

  public func recordListingError(_ message: String, listing key: ListingKey) throws(StorageError) {
    try write { db in
      try db.execute(
        sql: """
          INSERT INTO githubListing (repository, author, branch, state, lastError)
          VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (repository, author, branch) DO UPDATE SET lastError = excluded.lastError
          """,
        arguments: Self.arguments(key) + [ListingState().encoded, message])
    }
  }

  /// Records why syncing `repository` failed (e.g. it is missing); its cached commits stay.
  public func recordSyncError(
    _ message: String, repository: RepositoryName, author: String
  ) throws(StorageError) {
    try recordListingError(message, listing: ListingKey(repository: repository, author: author))
  }

  static func saveState(_ db: Database, _ key: ListingKey, _ state: ListingState) throws {
    try db.execute(
      sql: """
        INSERT INTO githubListing (repository, author, branch, state) VALUES (?, ?, ?, ?)
        ON CONFLICT (repository, author, branch) DO UPDATE SET state = excluded.state
        """,
      arguments: arguments(key) + [state.encoded])
  }

  static func arguments(_ key: ListingKey) -> StatementArguments {
    [key.repository.description, key.author.lowercased(), key.branch ?? ""]
  }

  // MARK: Repositories

  public func knownRepository(_ name: RepositoryName) throws(StorageError) -> KnownRepository? {
    try read { db in
      try Row.fetchOne(
        db, sql: "SELECT * FROM githubRepositoryInfo WHERE fullName = ?",
        arguments: [name.description]
      ).map { row in
        KnownRepository(
          name: RepositoryName(row["fullName"] as String) ?? name, isFork: row["fork"],
          hasPages: row["hasPages"], pushedAt: Self.date(row["pushedAt"]), etag: row["etag"],
          foundBy: row["foundBy"])
      }
    }
  }

  /// Every repository a listing or search told about, by name.
  public func knownRepositories() throws(StorageError) -> [KnownRepository] {
    try read { db in
      try Row.fetchAll(db, sql: "SELECT * FROM githubRepositoryInfo ORDER BY fullName").compactMap
      { row in
        guard let name = RepositoryName(row["fullName"] as String) else { return nil }
        return KnownRepository(
          name: name, isFork: row["fork"], hasPages: row["hasPages"],
          pushedAt: Self.date(row["pushedAt"]), etag: row["etag"], foundBy: row["foundBy"])
      }
    }
  }

  /// Saves what is known about a repository. When its fork flag changes, which commits count
  /// (those listed from at least one repository that is not a fork) is worked out again.
  public func saveRepository(_ repository: KnownRepository) throws(StorageError) {
    try write { db in
      let wasFork = try Bool.fetchOne(
        db, sql: "SELECT fork FROM githubRepositoryInfo WHERE fullName = ?",
        arguments: [repository.name.description]) ?? false
      try db.execute(
        sql: """
          INSERT INTO githubRepositoryInfo (fullName, fork, hasPages, pushedAt, etag, foundBy)
          VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (fullName) DO UPDATE SET fork = excluded.fork,
            hasPages = excluded.hasPages, pushedAt = excluded.pushedAt,
            etag = coalesce(excluded.etag, etag),
            foundBy = CASE WHEN foundBy = 'listing' THEN foundBy ELSE excluded.foundBy END
          """,
        arguments: [
          repository.name.description, repository.isFork, repository.hasPages,
          repository.pushedAt.map(Self.seconds), repository.etag, repository.foundBy,
        ])
      if wasFork != repository.isFork {
        try Self.recount(db, repository: repository.name.description)
      }
    }
  }

  // MARK: Discovery

  public func discoveryState(author: String) throws(StorageError) -> DiscoveryState {
    try read { db in
      guard
        let row = try Row.fetchOne(
          db, sql: "SELECT * FROM githubDiscovery WHERE author = ?", arguments: [author])
      else { return DiscoveryState() }
      return DiscoveryState(
        wantedSince: Self.date(row["wantedSince"]), searchedFrom: Self.date(row["searchedFrom"]),
        searchedThrough: Self.date(row["searchedThrough"]))
    }
  }

  public func saveDiscoveryState(_ state: DiscoveryState, author: String) throws(StorageError) {
    try write { db in
      try db.execute(
        sql: """
          INSERT INTO githubDiscovery (author, wantedSince, searchedFrom, searchedThrough)
          VALUES (?, ?, ?, ?)
          ON CONFLICT (author) DO UPDATE SET wantedSince = excluded.wantedSince,
            searchedFrom = excluded.searchedFrom, searchedThrough = excluded.searchedThrough
          """,
        arguments: [
          author.lowercased(), state.wantedSince.map(Self.seconds),
          state.searchedFrom.map(Self.seconds), state.searchedThrough.map(Self.seconds),
        ])
    }
  }

  public func recordSearchHits(_ hits: [RepositoryName: Int], author: String) throws(StorageError)
  {
    try write { db in
      for (repository, commits) in hits {
        try db.execute(
          sql: """
            INSERT INTO githubSearchHit (repository, author, commits) VALUES (?, ?, ?)
            ON CONFLICT (repository, author) DO UPDATE SET commits = max(commits, excluded.commits)
            """,
          arguments: [repository.description, author.lowercased(), commits])
      }
    }
  }

  public func discoveredRepositories(author: String) throws(StorageError) -> [RepositoryName] {
    try searchHits(author: author).map(\.0)
  }

  public func searchableCommitCount(author: String, from: Date, to: Date) throws(StorageError)
    -> Int
  {
    try read { db in
      try Int.fetchOne(
        db,
        sql: """
          SELECT count(*) FROM githubCommitRepository r JOIN githubCommit c ON c.sha = r.sha
          WHERE r.authoredAt >= ? AND r.authoredAt < ? AND c.authorLogin = ?
            AND r.repository NOT IN (SELECT fullName FROM githubRepositoryInfo WHERE fork = 1)
            AND r.repository NOT LIKE 'local/%'
          """, arguments: [Self.seconds(from), Self.seconds(to), author]) ?? 0
    }
  }

  /// Repositories where search found commits of `author`, with how many.
  public func searchHits(author: String) throws(StorageError) -> [(RepositoryName, Int)] {
    try read { db in
      try Row.fetchAll(
        db,
        sql: "SELECT repository, commits FROM githubSearchHit WHERE author = ? ORDER BY repository",
        arguments: [author]
      ).compactMap { row in RepositoryName(row[0] as String).map { ($0, row[1] as Int) } }
    }
  }

  // MARK: Listing states for display

  /// The sync state of `repository`'s default branch for `author`, or nil when never synced.
  public func syncState(of repository: RepositoryName, author: String) throws(StorageError)
    -> RepositorySyncState?
  {
    try read { db in
      try Row.fetchOne(
        db,
        sql: "SELECT * FROM githubListing WHERE repository = ? AND author = ? AND branch = ''",
        arguments: [repository.description, author.lowercased()]
      ).flatMap(Self.state(from:))
    }
  }

  /// Every listing's state, by repository, branch and author.
  public func syncStates() throws(StorageError) -> [RepositorySyncState] {
    try read { db in
      try Row.fetchAll(
        db, sql: "SELECT * FROM githubListing ORDER BY repository, branch, author"
      ).compactMap(Self.state(from:))
    }
  }

  private static func state(from row: Row) -> RepositorySyncState? {
    guard let name = RepositoryName(row["repository"] as String) else { return nil }
    let branch: String = row["branch"]
    return RepositorySyncState(
      repository: name, branch: branch.isEmpty ? nil : branch, author: row["author"],
      listing: ListingState(encoded: row["state"]) ?? ListingState(),
      lastSyncAt: date(row["lastSyncAt"]), lastError: row["lastError"])
  }

  /// The last time any repository finished syncing, or nil when none ever did.
  public func lastCommitSync() throws(StorageError) -> Date? {
    try read { db in
      Self.date(try Int64.fetchOne(db, sql: "SELECT max(lastSyncAt) FROM githubListing"))
    }
  }

  /// True when every commit listing so far was for `login` (then every cached commit is theirs,
  /// as GitHub's `author` filter picked them, and filtering by author can be skipped).
  public func listsOnlyCommits(of login: String) throws(StorageError) -> Bool {
    try read { db in
      try Bool.fetchOne(
        db, sql: "SELECT NOT EXISTS (SELECT 1 FROM githubListing WHERE author <> ?)",
        arguments: [login]) ?? false
    }
  }
}
