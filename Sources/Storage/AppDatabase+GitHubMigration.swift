import GRDB

extension AppDatabase {
  /// Migration "v3: GitHub commits and sync state": cached commits, the repositories they were
  /// listed from, each repository's sync state, and the GitHub settings (never the token).
  ///
  /// Instants are whole seconds since 1970 in UTC (`authoredAt`, `committedAt`, ...), so that
  /// the commit graph can bucket them with integer arithmetic.
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
        CREATE INDEX githubCommit_on_authoredAt ON githubCommit(authoredAt);
        CREATE TABLE githubCommitRepository (
          repository TEXT NOT NULL COLLATE NOCASE,
          sha TEXT NOT NULL REFERENCES githubCommit(sha) ON DELETE CASCADE,
          PRIMARY KEY (repository, sha)
        ) WITHOUT ROWID;
        CREATE INDEX githubCommitRepository_on_sha ON githubCommitRepository(sha);
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
