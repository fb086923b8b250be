import Core
import Foundation
import GRDB

// MARK: - Values

/// Which cached commits a query counts.
public struct CommitFilter: Hashable, Sendable {
  /// Only commits listed from this repository, or every repository.
  public var repository: RepositoryName?
  /// Only commits whose author login or author e-mail is this (case-insensitive), or everyone's.
  public var author: String?

  /// Creates a filter.
  public init(repository: RepositoryName? = nil, author: String? = nil) {
    self.repository = repository
    self.author = author
  }
}

/// Where a commit listing of one repository stands, for one author.
public struct RepositorySyncState: Hashable, Sendable {
  /// The repository.
  public var repository: RepositoryName
  /// The author the listing is filtered by (a login), lowercased.
  public var author: String
  /// The earliest `since` a complete listing covered, or nil before the first one completed.
  public var windowStart: Date?
  /// The newest author date among the commits of complete listings (the next `since`).
  public var newestAuthoredAt: Date?
  /// The SHA of that newest commit.
  public var newestSHA: String?
  /// The ETag of the first page of the last complete listing.
  public var etag: String?
  /// The `since` of the listing `etag` belongs to.
  public var etagSince: Date?
  /// When the last listing completed.
  public var lastSyncAt: Date?
  /// Why the last attempt failed, when it did (cleared by the next success).
  public var lastError: String?
  /// Pages stored by a listing that has not completed yet (0 when none is under way).
  public var pendingPages: Int

  /// Creates a state value.
  public init(
    repository: RepositoryName, author: String, windowStart: Date? = nil,
    newestAuthoredAt: Date? = nil, newestSHA: String? = nil, etag: String? = nil,
    etagSince: Date? = nil, lastSyncAt: Date? = nil, lastError: String? = nil,
    pendingPages: Int = 0
  ) {
    self.repository = repository
    self.author = author
    self.windowStart = windowStart
    self.newestAuthoredAt = newestAuthoredAt
    self.newestSHA = newestSHA
    self.etag = etag
    self.etagSince = etagSince
    self.lastSyncAt = lastSyncAt
    self.lastError = lastError
    self.pendingPages = pendingPages
  }
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

/// A GitHub setting ootd remembers. The token is never one of them.
public enum GitHubSetting: String, Sendable, CaseIterable {
  /// The GitHub login whose commits ootd tracks.
  case login
  /// The REST API base URL (GitHub Enterprise Server: `https://HOST/api/v3`).
  case apiURL
}

// MARK: - Writes

extension AppDatabase {
  /// Stores one page of a commit listing together with the listing's progress, in one
  /// transaction: a sync killed at any moment keeps every page stored before, and the next sync
  /// (whose `since` only moves on in ``finishListing(of:author:since:etag:now:)``) finishes.
  ///
  /// Commits are keyed by SHA: storing a page again, or the same commit from another repository
  /// (a fork), never duplicates it.
  ///
  /// - Returns: how many of the page's commits were new to the database.
  @discardableResult
  public func storeCommitPage(
    _ commits: [GitHubCommit], of repository: RepositoryName, author: String, since: Date?
  ) throws(StorageError) -> Int {
    try write { db in
      let insertCommit = try db.cachedStatement(
        sql: """
          INSERT OR IGNORE INTO githubCommit
            (sha, repository, authorLogin, authorName, authorEmail, authoredAt, committedAt,
             subject, url, parentCount)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """)
      let link = try db.cachedStatement(
        sql: "INSERT OR IGNORE INTO githubCommitRepository (repository, sha) VALUES (?, ?)")
      var inserted = 0
      var newest: GitHubCommit?
      for commit in commits {
        try insertCommit.execute(arguments: [
          commit.sha.lowercased(), commit.repository.description, commit.authorLogin,
          commit.authorName, commit.authorEmail, Self.seconds(commit.authorDate),
          Self.seconds(commit.committerDate), commit.subject, commit.htmlURL?.absoluteString,
          commit.parentCount,
        ])
        inserted += db.changesCount
        try link.execute(arguments: [repository.description, commit.sha.lowercased()])
        if commit.authorDate > (newest?.authorDate ?? .distantPast) { newest = commit }
      }
      try Self.ensureState(db, repository, author)
      try db.execute(
        sql: """
          UPDATE githubRepository SET
            pendingSince = ?, pendingPages = pendingPages + 1,
            pendingCommits = pendingCommits + ?,
            pendingNewestSha = CASE WHEN ? > coalesce(pendingNewestAuthoredAt, -1e18)
              THEN ? ELSE pendingNewestSha END,
            pendingNewestAuthoredAt = CASE WHEN ? > coalesce(pendingNewestAuthoredAt, -1e18)
              THEN ? ELSE pendingNewestAuthoredAt END
          WHERE fullName = ? AND author = ?
          """,
        arguments: [
          since.map(Self.seconds), commits.count,
          newest.map { Self.seconds($0.authorDate) }, newest?.sha.lowercased(),
          newest.map { Self.seconds($0.authorDate) }, newest.map { Self.seconds($0.authorDate) },
          repository.description, author.lowercased(),
        ])
      return inserted
    }
  }

  /// Records that a listing of `repository` from `since` completed: its newest commit becomes
  /// the next sync's `since`, `etag` (when given) is kept for a conditional request, and the
  /// pending progress is cleared.
  public func finishListing(
    of repository: RepositoryName, author: String, since: Date?, etag: String?, now: Date
  ) throws(StorageError) {
    try write { db in
      try Self.ensureState(db, repository, author)
      try db.execute(
        sql: """
          UPDATE githubRepository SET
            windowStart = CASE WHEN windowStart IS NULL OR ?1 < windowStart THEN ?1
              ELSE windowStart END,
            newestSha = CASE WHEN pendingNewestAuthoredAt IS NOT NULL
              AND pendingNewestAuthoredAt > coalesce(newestAuthoredAt, -1e18)
              THEN pendingNewestSha ELSE newestSha END,
            newestAuthoredAt = CASE WHEN pendingNewestAuthoredAt IS NOT NULL
              AND pendingNewestAuthoredAt > coalesce(newestAuthoredAt, -1e18)
              THEN pendingNewestAuthoredAt ELSE newestAuthoredAt END,
            etag = coalesce(?2, etag),
            etagSince = CASE WHEN ?2 IS NOT NULL THEN ?1 ELSE etagSince END,
            lastSyncAt = ?3, lastError = NULL,
            pendingSince = NULL, pendingPages = 0, pendingCommits = 0,
            pendingNewestAuthoredAt = NULL, pendingNewestSha = NULL
          WHERE fullName = ?4 AND author = ?5
          """,
        arguments: [
          since.map(Self.seconds) ?? 0, etag, Self.seconds(now), repository.description,
          author.lowercased(),
        ])
    }
  }

  /// Records why syncing `repository` failed (e.g. it is missing); its cached commits stay.
  public func recordSyncError(
    _ message: String, repository: RepositoryName, author: String
  ) throws(StorageError) {
    try write { db in
      try Self.ensureState(db, repository, author)
      try db.execute(
        sql: "UPDATE githubRepository SET lastError = ? WHERE fullName = ? AND author = ?",
        arguments: [message, repository.description, author.lowercased()])
    }
  }

  /// Saves (or, with nil, forgets) a GitHub setting.
  public func setGitHubSetting(_ setting: GitHubSetting, to value: String?) throws(StorageError) {
    try write { db in
      if let value {
        try db.execute(
          sql: """
            INSERT INTO githubSetting (key, value) VALUES (?, ?)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """,
          arguments: [setting.rawValue, value])
      } else {
        try db.execute(sql: "DELETE FROM githubSetting WHERE key = ?", arguments: [setting.rawValue])
      }
    }
  }

  private static func ensureState(_ db: Database, _ repository: RepositoryName, _ author: String)
    throws
  {
    try db.execute(
      sql: "INSERT OR IGNORE INTO githubRepository (fullName, author) VALUES (?, ?)",
      arguments: [repository.description, author.lowercased()])
  }

  static func seconds(_ date: Date) -> Int64 {
    Int64(date.timeIntervalSince1970.rounded(.down))
  }

  static func date(_ seconds: Int64?) -> Date? {
    seconds.map { Date(timeIntervalSince1970: Double($0)) }
  }
}

// MARK: - Reads

extension AppDatabase {
  /// A saved GitHub setting, or nil.
  public func gitHubSetting(_ setting: GitHubSetting) throws(StorageError) -> String? {
    try read { db in
      try String.fetchOne(
        db, sql: "SELECT value FROM githubSetting WHERE key = ?", arguments: [setting.rawValue])
    }
  }

  /// The sync state of `repository` for `author`, or nil when it was never synced.
  public func syncState(of repository: RepositoryName, author: String) throws(StorageError)
    -> RepositorySyncState?
  {
    try read { db in
      try Row.fetchOne(
        db, sql: "SELECT * FROM githubRepository WHERE fullName = ? AND author = ?",
        arguments: [repository.description, author.lowercased()]
      ).flatMap(Self.state(from:))
    }
  }

  /// Every repository's sync state, by name.
  public func syncStates() throws(StorageError) -> [RepositorySyncState] {
    try read { db in
      try Row.fetchAll(db, sql: "SELECT * FROM githubRepository ORDER BY fullName, author")
        .compactMap(Self.state(from:))
    }
  }

  private static func state(from row: Row) -> RepositorySyncState? {
    guard let name = RepositoryName(row["fullName"] as String) else { return nil }
    return RepositorySyncState(
      repository: name, author: row["author"], windowStart: date(row["windowStart"]),
      newestAuthoredAt: date(row["newestAuthoredAt"]), newestSHA: row["newestSha"],
      etag: row["etag"], etagSince: date(row["etagSince"]), lastSyncAt: date(row["lastSyncAt"]),
      lastError: row["lastError"], pendingPages: row["pendingPages"])
  }

  /// The last time any repository finished syncing, or nil when none ever did.
  public func lastCommitSync() throws(StorageError) -> Date? {
    try read { db in
      Self.date(try Int64.fetchOne(db, sql: "SELECT max(lastSyncAt) FROM githubRepository"))
    }
  }

  /// True when at least one commit is cached.
  public func hasCommits() throws(StorageError) -> Bool {
    try read { db in
      try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM githubCommit)") ?? false
    }
  }

  /// How many distinct cached commits there are.
  public func commitCount() throws(StorageError) -> Int {
    try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM githubCommit") ?? 0 }
  }

  /// Commits per day of `range`, each commit counted once (by SHA, whatever the number of
  /// repositories it was listed from) on the day of its **author date** in `timeZone`.
  ///
  /// SQLite groups the UTC author timestamps into 15-minute slots (every UTC offset in use is a
  /// whole number of quarter hours, so no slot straddles a local midnight), and the slots are
  /// mapped to local days here, exactly, daylight-saving changes included.
  public func commitCalendar(
    _ range: DayRange, timeZone: TimeZone, filter: CommitFilter = CommitFilter()
  ) throws(StorageError) -> CommitCalendar {
    // Local day starts as UTC seconds: boundaries[i] is the start of day i of the range.
    let boundaries = (0...range.count).map {
      Self.seconds(range.from.adding(days: $0).start(in: timeZone))
    }
    let lower = boundaries[0]
    let upper = boundaries[range.count]
    var sql = "SELECT c.authoredAt / 900 AS slot, count(*) FROM githubCommit c"
    var arguments: StatementArguments = []
    var conditions = ["c.authoredAt >= ?", "c.authoredAt < ?"]
    arguments += [lower, upper]
    if let repository = filter.repository {
      conditions.append(
        "c.sha IN (SELECT sha FROM githubCommitRepository WHERE repository = ?)")
      arguments += [repository.description]
    }
    if let author = filter.author {
      conditions.append("(c.authorLogin = ? OR c.authorEmail = ?)")
      arguments += [author, author]
    }
    sql += " WHERE " + conditions.joined(separator: " AND ") + " GROUP BY slot ORDER BY slot"
    let slots = try read { db in
      try Row.fetchAll(db, sql: sql, arguments: arguments).map {
        (slot: $0[0] as Int64, count: $0[1] as Int)
      }
    }
    var counts = Array(repeating: 0, count: range.count)
    var index = 0
    for (slot, count) in slots {
      let start = slot * 900
      // Slots come sorted, so the day index only moves forward.
      while index + 1 < range.count && start >= boundaries[index + 1] { index += 1 }
      counts[index] += count
    }
    return CommitCalendar(range: range, counts: counts)
  }

  /// Commits per repository in `range` (by author date in `timeZone`), most first, with each
  /// repository's last sync; repositories synced without commits in the range are listed with 0.
  public func commitsByRepository(
    _ range: DayRange, timeZone: TimeZone, filter: CommitFilter = CommitFilter()
  ) throws(StorageError) -> [RepositoryCommitCount] {
    let lower = Self.seconds(range.from.start(in: timeZone))
    let upper = Self.seconds(range.to.adding(days: 1).start(in: timeZone))
    var conditions = ["c.authoredAt >= ?", "c.authoredAt < ?"]
    var arguments: StatementArguments = [lower, upper]
    if let author = filter.author {
      conditions.append("(c.authorLogin = ? OR c.authorEmail = ?)")
      arguments += [author, author]
    }
    var repositoryCondition = ""
    if let repository = filter.repository {
      repositoryCondition = "WHERE names.name = ? COLLATE NOCASE"
      arguments += [repository.description]
    }
    return try read { db in
      let rows = try Row.fetchAll(
        db,
        sql: """
          WITH counted AS (
            SELECT r.repository AS name, count(*) AS commits
            FROM githubCommitRepository r JOIN githubCommit c ON c.sha = r.sha
            WHERE \(conditions.joined(separator: " AND "))
            GROUP BY r.repository COLLATE NOCASE
          ), synced AS (
            SELECT fullName AS name, max(lastSyncAt) AS lastSyncAt
            FROM githubRepository GROUP BY fullName COLLATE NOCASE
          ), names AS (
            SELECT name FROM counted UNION SELECT name FROM synced
          )
          SELECT names.name, coalesce(counted.commits, 0), synced.lastSyncAt
          FROM names
          LEFT JOIN counted ON counted.name = names.name COLLATE NOCASE
          LEFT JOIN synced ON synced.name = names.name COLLATE NOCASE
          \(repositoryCondition)
          ORDER BY 2 DESC, 1 COLLATE NOCASE
          """,
        arguments: arguments)
      return rows.map {
        RepositoryCommitCount(
          repository: $0[0], commits: $0[1], lastSyncAt: Self.date($0[2]))
      }
    }
  }
}

/// The cached commits of one repository, for `ootd project show`.
public struct RepositoryCommits: Hashable, Sendable {
  /// Every cached commit listed from the repository.
  public var total: Int
  /// The newest by author date: its SHA, author date and subject.
  public var latest: (sha: String, authoredAt: Date, subject: String)?
  /// When the repository last finished syncing.
  public var lastSyncAt: Date?

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.total == rhs.total && lhs.lastSyncAt == rhs.lastSyncAt
      && lhs.latest?.sha == rhs.latest?.sha
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(total)
    hasher.combine(latest?.sha)
  }
}

extension AppDatabase {
  /// The cached commits of `repository` (optionally only `author`'s).
  public func repositoryCommits(_ repository: RepositoryName, author: String? = nil)
    throws(StorageError) -> RepositoryCommits
  {
    try read { db in
      var condition = "r.repository = ?"
      var arguments: StatementArguments = [repository.description]
      if let author {
        condition += " AND (c.authorLogin = ? OR c.authorEmail = ?)"
        arguments += [author, author]
      }
      let total =
        try Int.fetchOne(
          db,
          sql: """
            SELECT count(*) FROM githubCommitRepository r JOIN githubCommit c ON c.sha = r.sha
            WHERE \(condition)
            """, arguments: arguments) ?? 0
      let latest = try Row.fetchOne(
        db,
        sql: """
          SELECT c.sha, c.authoredAt, c.subject
          FROM githubCommitRepository r JOIN githubCommit c ON c.sha = r.sha
          WHERE \(condition) ORDER BY c.authoredAt DESC LIMIT 1
          """, arguments: arguments
      ).map { (sha: $0[0] as String, authoredAt: Self.date($0[1])!, subject: $0[2] as String) }
      let lastSync = try Int64.fetchOne(
        db, sql: "SELECT max(lastSyncAt) FROM githubRepository WHERE fullName = ?",
        arguments: [repository.description])
      return RepositoryCommits(total: total, latest: latest, lastSyncAt: Self.date(lastSync))
    }
  }
}
