import Core
import Foundation
import GRDB
import Zone

// MARK: - Reads

extension GitHubCache {
  /// True when at least one commit is cached.
  public func hasCommits() throws(StorageError) -> Bool {
    try readStatement { db in
      // A prepared statement, not GRDB's `fetchOne(_:sql:)`: that builds an SQL literal, whose
      // `joined()` was the first call of the standard library's generic one in `report` and the
      // dashboard (0.31 M instructions, issue 25; see ``Array/concatenated(separator:)``).
      try Bool.fetchOne(db.makeStatement(sql: "SELECT EXISTS (SELECT 1 FROM githubCommit)")) ?? false
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
    _ range: DayRange, timeZone: any ZoneRules, filter: CommitFilter = CommitFilter()
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
      if filter.repository == nil && filter.author == nil && !filter.includeForks && slotsAreExact {
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
      if let repository = filter.repository, filter.author == nil, filter.includeForks {
        // One repository lists each SHA once: no deduplication needed.
        sql = """
          SELECT authoredAt FROM githubCommitRepository
          WHERE repository = ? AND authoredAt >= ? AND authoredAt < ? ORDER BY authoredAt
          """
        arguments = [repository.description, lower, upper]
      } else {
        var conditions = ["authoredAt >= ?", "authoredAt < ?"]
        arguments = [lower, upper]
        if !filter.includeForks { conditions.append("counted = 1") }
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
    _ range: DayRange, timeZone: any ZoneRules, filter: CommitFilter = CommitFilter()
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
              AND (c.authorLogin = ? OR c.authorEmail = ?)\(filter.includeForks ? "" : " AND c.counted = 1")
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
      if filter.author == nil && !filter.includeForks {
        // A fork's commits found only there do not count: its totals are counted again.
        for name in try String.fetchAll(
          db, sql: "SELECT fullName FROM githubRepositoryInfo WHERE fork = 1")
        where counts[name.lowercased()] != nil {
          let commits =
            try Int.fetchOne(
              db,
              sql: """
                SELECT count(*) FROM githubCommitRepository r JOIN githubCommit c ON c.sha = r.sha
                WHERE r.repository = ? AND r.authoredAt >= ? AND r.authoredAt < ? AND c.counted = 1
                """, arguments: [name, lower, upper]) ?? 0
          counts[name.lowercased()]?.commits = commits
        }
      }
      var synced: [String: (name: String, last: Int64?)] = [:]
      for row in try Row.fetchAll(
        db,
        sql: "SELECT repository, max(lastSyncAt) FROM githubListing GROUP BY repository")
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

  public init(total: Int, latest: (sha: String, authoredAt: Date, subject: String)?, lastSyncAt: Date?) {
    self.total = total
    self.latest = latest
    self.lastSyncAt = lastSyncAt
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.total == rhs.total && lhs.lastSyncAt == rhs.lastSyncAt
      && lhs.latest?.sha == rhs.latest?.sha
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(total)
    hasher.combine(latest?.sha)
  }
}

extension GitHubCache {
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
        db, sql: "SELECT max(lastSyncAt) FROM githubListing WHERE repository = ?",
        arguments: [repository.description])
      return RepositoryCommits(total: total, latest: latest, lastSyncAt: Self.date(lastSync))
    }
  }
}

extension GitHubCache {
  /// The author e-mails of commits read from local clones, with how many commits each.
  public func localAuthorEmails() throws(StorageError) -> [(email: String, commits: Int)] {
    try read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT lower(c.authorEmail), count(DISTINCT c.sha)
          FROM githubCommit c JOIN githubCommitRepository r ON r.sha = c.sha
          WHERE r.repository IN (SELECT repository FROM githubListing WHERE author = 'local:git-log')
          GROUP BY 1 ORDER BY 2 DESC, 1
          """
      ).map { (email: $0[0] as String, commits: $0[1] as Int) }
    }
  }

  /// The author e-mails of `login`'s cached commits (to recognise their commits in a local clone).
  public func authorEmails(of login: String) throws(StorageError) -> [String] {
    try read { db in
      try String.fetchAll(
        db, sql: "SELECT DISTINCT lower(authorEmail) FROM githubCommit WHERE authorLogin = ?",
        arguments: [login])
    }
  }
}

extension GitHubCache {
  /// Whose commits the views show (graph, report, dashboard, project, team figures): `user` when
  /// given, else the saved GitHub login, else nil (everyone's). The one place this default lives.
  public func commitAuthor(_ user: String? = nil) throws(StorageError) -> String? {
    if let user { return user }
    return try settings.gitHubSetting(.login)
  }

  /// The filter for `author`'s commits (optionally in one repository). The author condition is
  /// left out when every listing was for that author: GitHub's `author` filter already chose
  /// exactly their commits, and the unfiltered graph reads precomputed totals.
  /// Commits found only in forks are left out, as GitHub's profile does, unless `includeForks`.
  public func commitFilter(
    author: String?, repository: RepositoryName? = nil, includeForks: Bool = false
  ) throws -> CommitFilter {
    guard let author, !(try listsOnlyCommits(of: author)) else {
      return CommitFilter(repository: repository, includeForks: includeForks)
    }
    return CommitFilter(repository: repository, author: author, includeForks: includeForks)
  }
}
