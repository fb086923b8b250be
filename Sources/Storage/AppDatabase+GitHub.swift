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
  /// The `since` of that unfinished listing, so the next sync can finish it.
  public var pendingSince: Date?

  /// Creates a state value.
  public init(
    repository: RepositoryName, author: String, windowStart: Date? = nil,
    newestAuthoredAt: Date? = nil, newestSHA: String? = nil, etag: String? = nil,
    etagSince: Date? = nil, lastSyncAt: Date? = nil, lastError: String? = nil,
    pendingPages: Int = 0, pendingSince: Date? = nil
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
    self.pendingSince = pendingSince
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
  /// Makes this connection's commits skip the fsync (`PRAGMA synchronous = NORMAL`), for a sync
  /// that writes a transaction per page. In WAL mode a committed page still survives ootd being
  /// killed; only an OS crash or power loss can lose the last pages, and the next sync fetches
  /// them again because the listing's starting point had not moved.
  public func preferSpeedOverDurabilityForCachedData() throws(StorageError) {
    do {
      try writer.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA synchronous = NORMAL")
      }
    } catch {
      throw Self.map(error, path: path)
    }
  }

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
      var inserted = 0
      var newest: GitHubCommit?
      for commit in commits {
        let sha = commit.sha.lowercased()
        let authoredAt = Self.seconds(commit.authorDate)
        try insertCommit.execute(arguments: [
          sha, commit.repository.description, commit.authorLogin,
          commit.authorName, commit.authorEmail, authoredAt,
          Self.seconds(commit.committerDate), commit.subject, commit.htmlURL?.absoluteString,
          commit.parentCount,
        ])
        if db.changesCount > 0 {
          inserted += 1
          try countSlot.execute(arguments: [Self.slot(authoredAt)])
        }
        // A SHA seen before keeps its first author date everywhere (it cannot differ).
        let stored =
          db.changesCount > 0
          ? authoredAt
          : try Int64.fetchOne(
            db, sql: "SELECT authoredAt FROM githubCommit WHERE sha = ?", arguments: [sha])
            ?? authoredAt
        try link.execute(arguments: [repository.description, sha, stored])
        if db.changesCount > 0 {
          try countDay.execute(arguments: [repository.description, Self.utcDay(stored)])
        }
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
        try db.execute(
          sql: "DELETE FROM githubSetting WHERE key = ?", arguments: [setting.rawValue])
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
      lastError: row["lastError"], pendingPages: row["pendingPages"],
      pendingSince: date(row["pendingSince"]))
  }

  /// The last time any repository finished syncing, or nil when none ever did.
  public func lastCommitSync() throws(StorageError) -> Date? {
    try read { db in
      Self.date(try Int64.fetchOne(db, sql: "SELECT max(lastSyncAt) FROM githubRepository"))
    }
  }

  /// True when every commit listing so far was for `login` (then every cached commit is theirs,
  /// as GitHub's `author` filter picked them, and filtering by author can be skipped).
  public func listsOnlyCommits(of login: String) throws(StorageError) -> Bool {
    try read { db in
      try Bool.fetchOne(
        db, sql: "SELECT NOT EXISTS (SELECT 1 FROM githubRepository WHERE author <> ?)",
        arguments: [login]) ?? false
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
  /// Without a filter the counts come from the 15-minute slot totals (every UTC offset in use is
  /// a whole number of quarter hours, so no slot straddles a local midnight): a year is at most
  /// 35,136 rows, whatever the number of commits. With a filter, the matching author times are
  /// read in order from a covering index. Either way slots or instants are mapped onto local
  /// days here, exactly, daylight-saving changes included.
  public func commitCalendar(
    _ range: DayRange, timeZone: TimeZone, filter: CommitFilter = CommitFilter()
  ) throws(StorageError) -> CommitCalendar {
    // Local day starts as UTC seconds: boundaries[i] is the start of day i of the range.
    let boundaries = (0...range.count).map {
      Self.seconds(range.from.adding(days: $0).start(in: timeZone))
    }
    let lower = boundaries[0]
    let upper = boundaries[range.count]
    let slotsAreExact = boundaries.allSatisfy { $0 % 900 == 0 }
    var counts = Array(repeating: 0, count: range.count)
    var index = 0
    /// Adds `count` commits at `instant`; instants must come in ascending order.
    func add(_ instant: Int64, _ count: Int) {
      while index + 1 < range.count && instant >= boundaries[index + 1] { index += 1 }
      counts[index] += count
    }
    try read { db in
      if filter.repository == nil && filter.author == nil && slotsAreExact {
        let rows = try Row.fetchCursor(
          db,
          sql: """
            SELECT slot, commits FROM githubCommitSlot WHERE slot >= ? AND slot < ? ORDER BY slot
            """, arguments: [lower / 900, upper / 900])
        while let row = try rows.next() { add((row[0] as Int64) * 900, row[1]) }
        return
      }
      let sql: String
      var arguments: StatementArguments = []
      if let repository = filter.repository, filter.author == nil {
        // One repository lists each SHA once: no deduplication needed.
        sql = """
          SELECT authoredAt FROM githubCommitRepository
          WHERE repository = ? AND authoredAt >= ? AND authoredAt < ? ORDER BY authoredAt
          """
        arguments = [repository.description, lower, upper]
      } else {
        var conditions = ["authoredAt >= ?", "authoredAt < ?"]
        arguments = [lower, upper]
        if let author = filter.author {
          conditions.append("(authorLogin = ? OR authorEmail = ?)")
          arguments += [author, author]
        }
        if let repository = filter.repository {
          conditions.append(
            "sha IN (SELECT sha FROM githubCommitRepository WHERE repository = ?)")
          arguments += [repository.description]
        }
        sql = """
          SELECT authoredAt FROM githubCommit
          WHERE \(conditions.joined(separator: " AND ")) ORDER BY authoredAt
          """
      }
      let instants = try Int64.fetchCursor(db, sql: sql, arguments: arguments)
      while let instant = try instants.next() { add(instant, 1) }
    }
    return CommitCalendar(range: range, counts: counts)
  }

  /// Commits per repository in `range` (by author date in `timeZone`), most first, with each
  /// repository's last sync; repositories synced without commits in the range are listed with 0.
  ///
  /// Without an author filter, whole UTC days inside the range come from the per-day totals and
  /// only the partial days at both ends are counted commit by commit.
  public func commitsByRepository(
    _ range: DayRange, timeZone: TimeZone, filter: CommitFilter = CommitFilter()
  ) throws(StorageError) -> [RepositoryCommitCount] {
    let lower = Self.seconds(range.from.start(in: timeZone))
    let upper = Self.seconds(range.to.adding(days: 1).start(in: timeZone))
    return try read { db in
      var counts: [String: (name: String, commits: Int)] = [:]
      func add(_ name: String, _ commits: Int) {
        counts[name.lowercased(), default: (name, 0)].commits += commits
      }
      if let author = filter.author {
        let rows = try Row.fetchAll(
          db,
          sql: """
            SELECT r.repository, count(*)
            FROM githubCommit c JOIN githubCommitRepository r ON r.sha = c.sha
            WHERE r.authoredAt >= ? AND r.authoredAt < ?
              AND (c.authorLogin = ? OR c.authorEmail = ?)
            GROUP BY r.repository
            """, arguments: [lower, upper, author, author])
        for row in rows { add(row[0], row[1]) }
      } else {
        // Whole UTC days [firstDay, endDay) from the totals, the rest commit by commit.
        let firstDay = (lower + 86_399) / 86_400
        let endDay = upper / 86_400
        if firstDay < endDay {
          for row in try Row.fetchAll(
            db,
            sql: """
              SELECT repository, sum(commits) FROM githubRepositoryDay
              WHERE day >= ? AND day < ? GROUP BY repository
              """, arguments: [firstDay, endDay])
          {
            add(row[0], row[1])
          }
        }
        let edges: [(Int64, Int64)] =
          firstDay < endDay
          ? [(lower, firstDay * 86_400), (endDay * 86_400, upper)] : [(lower, upper)]
        for (from, to) in edges where from < to {
          for row in try Row.fetchAll(
            db,
            sql: """
              SELECT repository, count(*) FROM githubCommitRepository
              WHERE authoredAt >= ? AND authoredAt < ? GROUP BY repository
              """, arguments: [from, to])
          {
            add(row[0], row[1])
          }
        }
      }
      var synced: [String: (name: String, last: Int64?)] = [:]
      for row in try Row.fetchAll(
        db, sql: "SELECT fullName, max(lastSyncAt) FROM githubRepository GROUP BY fullName")
      {
        let name: String = row[0]
        synced[name.lowercased()] = (name, row[1])
      }
      var result: [RepositoryCommitCount] = []
      for key in Set(counts.keys).union(synced.keys) {
        if let repository = filter.repository, repository.description.lowercased() != key {
          continue
        }
        result.append(
          RepositoryCommitCount(
            repository: counts[key]?.name ?? synced[key]!.name, commits: counts[key]?.commits ?? 0,
            lastSyncAt: Self.date(synced[key]?.last ?? nil)))
      }
      return result.sorted {
        ($0.commits, $1.repository.lowercased()) > ($1.commits, $0.repository.lowercased())
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

extension AppDatabase {
  /// The author e-mails of `login`'s cached commits (to recognise their commits in a local clone).
  public func authorEmails(of login: String) throws(StorageError) -> [String] {
    try read { db in
      try String.fetchAll(
        db, sql: "SELECT DISTINCT lower(authorEmail) FROM githubCommit WHERE authorLogin = ?",
        arguments: [login])
    }
  }
}
