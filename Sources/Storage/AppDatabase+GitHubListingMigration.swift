import GRDB

extension AppDatabase {
  /// Migration "v9-github-listing": the listing protocol's state becomes one opaque value per
  /// listing (`Core.ListingState` as JSON text), keyed by repository, author and branch (the
  /// default branch is `''`, GitHub Pages is `gh-pages`); what listings and searches say about
  /// repositories (fork, Pages, last push, the repository's ETag) gets a table; so do the
  /// discovery window and the repositories search found commits in. Old sync states become
  /// default-branch listings with the same window, newest commit, ETag and pending progress, so
  /// an interrupted sync still resumes; `githubCommit.counted` marks commits listed from at least
  /// one repository not known as a fork (every old commit: no repository was known as a fork),
  /// and `githubCommitSlot` counts only those from now on.
  static func githubListingMigration(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE githubListing (
          repository TEXT NOT NULL COLLATE NOCASE,
          author TEXT NOT NULL COLLATE NOCASE,
          branch TEXT NOT NULL DEFAULT '',
          state TEXT NOT NULL,
          lastSyncAt INTEGER,
          lastError TEXT,
          PRIMARY KEY (repository, author, branch)
        ) WITHOUT ROWID;
        INSERT INTO githubListing (repository, author, branch, state, lastSyncAt, lastError)
        SELECT fullName, author, '',
          json_object(
            'windowStart', windowStart, 'newest', newestAuthoredAt, 'etag', etag,
            'etagSince', etagSince, 'pendingSince', pendingSince, 'pendingPages', pendingPages,
            'pendingNewest', pendingNewestAuthoredAt),
          lastSyncAt, lastError
        FROM githubRepository;
        DROP TABLE githubRepository;
        CREATE TABLE githubRepositoryInfo (
          fullName TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
          fork INTEGER NOT NULL DEFAULT 0 CHECK (fork IN (0, 1)),
          hasPages INTEGER NOT NULL DEFAULT 0 CHECK (hasPages IN (0, 1)),
          pushedAt INTEGER,
          etag TEXT,
          foundBy TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE githubDiscovery (
          author TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
          wantedSince INTEGER,
          searchedFrom INTEGER,
          searchedThrough INTEGER
        ) WITHOUT ROWID;
        CREATE TABLE githubSearchHit (
          repository TEXT NOT NULL COLLATE NOCASE,
          author TEXT NOT NULL COLLATE NOCASE,
          commits INTEGER NOT NULL CHECK (commits >= 0),
          PRIMARY KEY (repository, author)
        ) WITHOUT ROWID;
        ALTER TABLE githubCommit ADD COLUMN counted INTEGER NOT NULL DEFAULT 1
          CHECK (counted IN (0, 1));
        """)
  }
}
