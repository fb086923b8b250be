import Core
import Foundation
import GRDB

/// The commit cache's write path: commits keyed by SHA, the repositories (or clones) each was
/// read from, and the running totals the graph reads.
extension GitHubCache {
  /// Where a commit from `source` is filed: `owner/name`, or `local/NAME` for a local clone of
  /// a project without a GitHub repository (a key of the cache, never shown as a repository).
  static func repositoryKey(_ source: CommitSource) -> String {
    switch source {
    case .gitHub(let repository): return repository.description
    case .localClone(let project, let repository): return repository?.description ?? "local/\(project)"
    }
  }

  /// Stores `commits` together with the listing's new `state`, in one transaction: a sync
  /// killed at any moment keeps every page stored before, and the next sync finishes.
  ///
  /// Commits are keyed by SHA: storing a page again, or the same commit from another repository
  /// (a fork), never duplicates it. A commit counts in the graph's totals once it is listed from
  /// a repository not known as a fork.
  ///
  /// - Returns: how many of the commits were new to the database.
  @discardableResult
  public func storeCommits(_ commits: [Commit], listing key: ListingKey, state: ListingState)
    throws(StorageError) -> Int
  {
    try write { db in
      let inserted = try Self.insert(db, commits)
      try Self.saveState(db, key, state)
      return inserted
    }
  }

  /// Stores commits read from local clones (no listing state: a clone is read whole each time)
  /// and records the read as a sync of `key` at `now`.
  @discardableResult
  public func storeLocalCommits(_ commits: [Commit], recordedAs key: ListingKey, now: Date)
    throws(StorageError) -> Int
  {
    try write { db in
      let inserted = try Self.insert(db, commits)
      try Self.saveState(db, key, ListingState())
      try db.execute(
        sql: """
          UPDATE githubListing SET lastSyncAt = ?, lastError = NULL
          WHERE repository = ? AND author = ? AND branch = ?
          """,
        arguments: [Self.seconds(now)] + Self.arguments(key))
      return inserted
    }
  }

  private static func insert(_ db: Database, _ commits: [Commit]) throws -> Int {
    let insertCommit = try db.cachedStatement(
      sql: """
        INSERT OR IGNORE INTO githubCommit
          (sha, repository, authorLogin, authorName, authorEmail, authoredAt, committedAt,
           subject, url, parentCount, counted)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
    let promote = try db.cachedStatement(
      sql: "UPDATE githubCommit SET counted = 1 WHERE sha = ? AND counted = 0")
    let link = try db.cachedStatement(
      sql: """
        INSERT OR IGNORE INTO githubCommitRepository (repository, sha, authoredAt)
        VALUES (?, ?, ?)
        """)
    let countSlot = try db.cachedStatement(
      sql: """
        INSERT INTO githubCommitSlot (slot, commits) VALUES (?, 1)
        ON CONFLICT (slot) DO UPDATE SET commits = commits + 1
        """)
    let countDay = try db.cachedStatement(
      sql: """
        INSERT INTO githubRepositoryDay (repository, day, commits) VALUES (?, ?, 1)
        ON CONFLICT (repository, day) DO UPDATE SET commits = commits + 1
        """)
    var forks: [String: Bool] = [:]
    func isFork(_ key: String) throws -> Bool {
      if let known = forks[key.lowercased()] { return known }
      let fork =
        try Bool.fetchOne(
          db, sql: "SELECT fork FROM githubRepositoryInfo WHERE fullName = ?", arguments: [key])
        ?? false
      forks[key.lowercased()] = fork
      return fork
    }
    var inserted = 0
    for commit in commits {
      let sha = commit.sha.lowercased()
      let key = repositoryKey(commit.source)
      let counted = try !isFork(key)
      let authoredAt = seconds(commit.authorDate)
      try insertCommit.execute(arguments: [
        sha, key, commit.authorLogin, commit.authorName, commit.authorEmail, authoredAt,
        seconds(commit.committerDate), commit.subject, commit.htmlURL?.absoluteString,
        commit.parentCount, counted,
      ])
      let isNew = db.changesCount > 0
      // A SHA seen before keeps its first author date everywhere (it cannot differ).
      let stored =
        isNew
        ? authoredAt
        : try Int64.fetchOne(
          db, sql: "SELECT authoredAt FROM githubCommit WHERE sha = ?", arguments: [sha])
          ?? authoredAt
      if isNew {
        inserted += 1
        if counted { try countSlot.execute(arguments: [slot(authoredAt)]) }
      } else if counted {
        // First seen only in a fork, now in a repository that counts.
        try promote.execute(arguments: [sha])
        if db.changesCount > 0 { try countSlot.execute(arguments: [slot(stored)]) }
      }
      try link.execute(arguments: [key, sha, stored])
      if db.changesCount > 0 { try countDay.execute(arguments: [key, utcDay(stored)]) }
    }
    return inserted
  }

  /// Works out again which commits of `repository` count (listed from at least one repository
  /// not known as a fork) and rebuilds the slot totals, after a repository's fork flag changed.
  static func recount(_ db: Database, repository: String) throws {
    try db.execute(
      sql: """
        UPDATE githubCommit SET counted = EXISTS (
          SELECT 1 FROM githubCommitRepository r
          LEFT JOIN githubRepositoryInfo i ON i.fullName = r.repository
          WHERE r.sha = githubCommit.sha AND coalesce(i.fork, 0) = 0)
        WHERE sha IN (SELECT sha FROM githubCommitRepository WHERE repository = ?)
        """, arguments: [repository])
    guard db.changesCount > 0 else { return }
    try db.execute(
      sql: """
        DELETE FROM githubCommitSlot;
        INSERT INTO githubCommitSlot (slot, commits)
        SELECT CASE WHEN authoredAt >= 0 THEN authoredAt / 900 ELSE (authoredAt - 899) / 900 END
          AS s, count(*)
        FROM githubCommit WHERE counted = 1 GROUP BY s;
        """)
  }
}
