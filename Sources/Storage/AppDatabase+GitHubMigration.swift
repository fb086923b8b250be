import GRDB

extension AppDatabase {
  /// Migration "v3: GitHub commits and sync state": cached commits, the repositories they were
  /// listed from, each repository's sync state, and the GitHub settings (never the token).
  ///
  /// Instants are whole seconds since 1970 in UTC (`authoredAt`, `committedAt`, ...), so that
  /// the commit graph can bucket them with integer arithmetic. Two running totals keep the graph
  /// fast with 100,000s of commits: `githubCommitSlot` counts distinct commits per 15-minute
  /// slot of their UTC author time (every UTC offset in use is a whole number of quarter hours,
  /// so slots map exactly onto local days in any zone), and `githubRepositoryDay` counts each
  /// repository's commits per UTC day (exact for a range once its partial edge days are added
  /// from `githubCommitRepository`). Both are updated in the transaction that adds the commits.
  static func githubMigration(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE githubCommit (
          sha TEXT PRIMARY KEY NOT NULL CHECK (length(sha) BETWEEN 4 AND 64),
          repository TEXT NOT NULL,
          authorLogin TEXT COLLATE NOCASE,
          authorName TEXT NOT NULL,
          authorEmail TEXT NOT NULL COLLATE NOCASE,
          authoredAt INTEGER NOT NULL,
          committedAt INTEGER NOT NULL,
          subject TEXT NOT NULL,
          url TEXT,
          parentCount INTEGER NOT NULL CHECK (parentCount >= 0)
        ) WITHOUT ROWID;
        CREATE INDEX githubCommit_on_authoredAt
          ON githubCommit(authoredAt, authorLogin, authorEmail);
        CREATE TABLE githubCommitRepository (
          repository TEXT NOT NULL COLLATE NOCASE,
          sha TEXT NOT NULL REFERENCES githubCommit(sha) ON DELETE CASCADE,
          authoredAt INTEGER NOT NULL,
          PRIMARY KEY (repository, sha)
        ) WITHOUT ROWID;
        CREATE INDEX githubCommitRepository_on_repository_authoredAt
          ON githubCommitRepository(repository, authoredAt);
        CREATE INDEX githubCommitRepository_on_authoredAt
          ON githubCommitRepository(authoredAt, repository);
        CREATE TABLE githubCommitSlot (
          slot INTEGER PRIMARY KEY NOT NULL,
          commits INTEGER NOT NULL CHECK (commits >= 0)
        ) WITHOUT ROWID;
        CREATE TABLE githubRepositoryDay (
          repository TEXT NOT NULL COLLATE NOCASE,
          day INTEGER NOT NULL,
          commits INTEGER NOT NULL CHECK (commits >= 0),
          PRIMARY KEY (repository, day)
        ) WITHOUT ROWID;
        CREATE TABLE githubRepository (
          fullName TEXT NOT NULL COLLATE NOCASE,
          author TEXT NOT NULL COLLATE NOCASE,
          windowStart INTEGER,
          newestAuthoredAt INTEGER,
          newestSha TEXT,
          etag TEXT,
          etagSince INTEGER,
          lastSyncAt INTEGER,
          lastError TEXT,
          pendingSince INTEGER,
          pendingPages INTEGER NOT NULL DEFAULT 0,
          pendingCommits INTEGER NOT NULL DEFAULT 0,
          pendingNewestAuthoredAt INTEGER,
          pendingNewestSha TEXT,
          PRIMARY KEY (fullName, author)
        ) WITHOUT ROWID;
        CREATE TABLE githubSetting (
          key TEXT PRIMARY KEY NOT NULL CHECK (key IN ('login', 'apiURL')),
          value TEXT NOT NULL
        ) WITHOUT ROWID;
        """)
  }
}
