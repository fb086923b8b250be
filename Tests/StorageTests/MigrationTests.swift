import Core
import Foundation
import GRDB
import Testing

@testable import Storage

/// Frozen copies of released schemas. Never edit these: they are what users' files look like.
enum ReleasedSchema {
  /// Every migration identifier ootd has released, in order. A new ootd may only append.
  static let migrationIdentifiers = [
    "v1: todos, task blocks and projects",
    "v2: report indexes",
    "v3: GitHub commits and sync state",
    "v4: uuids and the change journal",
    "v5: dropped and carried todos",
    "v6: todo notes",
    "v7-tags-recurrence",
    "v8-github-issues",
    "v9-github-listing",
    "v10-remote-settings",
    "v10-remote-sync",
    "v11-lean-indexes",
    "v12-sync-set-aside",
    "v13-backlog",
  ]

  /// `PRAGMA application_id` of ootd databases: the bytes "ootd".
  static let applicationID: Int32 = 0x6F6F_7464

  /// Writes a database exactly as the first ootd release left it after creating it: WAL mode,
  /// the v1 tables and indexes, the eight built-in blocks, and GRDB's record of the migration.
  static func writeVersion1(at path: String) throws {
    try withRawDatabase(path) { db in
      try db.execute(sql: "PRAGMA journal_mode = WAL")
      try db.inTransaction {
        try db.execute(sql: "PRAGMA application_id = 1869575268")
        try db.execute(
          sql: """
            CREATE TABLE project (
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              name TEXT NOT NULL UNIQUE COLLATE NOCASE,
              summary TEXT,
              repository TEXT,
              localPath TEXT,
              startDay TEXT CHECK (startDay IS NULL OR length(startDay) = 10),
              endDay TEXT CHECK (endDay IS NULL OR length(endDay) = 10),
              tech TEXT NOT NULL DEFAULT '',
              memo TEXT,
              archived INTEGER NOT NULL DEFAULT 0 CHECK (archived IN (0, 1)),
              createdAt DATETIME NOT NULL
            );
            CREATE TABLE block (
              name TEXT PRIMARY KEY COLLATE NOCASE,
              title TEXT NOT NULL CHECK (length(trim(title)) > 0),
              priority INTEGER NOT NULL CHECK (priority IN (0, 1, 2)),
              builtIn INTEGER NOT NULL DEFAULT 0 CHECK (builtIn IN (0, 1)),
              routine INTEGER NOT NULL DEFAULT 0 CHECK (routine IN (0, 1)),
              createdAt DATETIME NOT NULL
            );
            CREATE TABLE todo (
              id INTEGER PRIMARY KEY AUTOINCREMENT,
              title TEXT NOT NULL CHECK (length(trim(title)) > 0),
              priority INTEGER NOT NULL CHECK (priority IN (0, 1, 2)),
              day TEXT NOT NULL CHECK (length(day) = 10),
              done INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
              doneAt DATETIME,
              projectId INTEGER REFERENCES project(id) ON DELETE SET NULL,
              block TEXT,
              createdAt DATETIME NOT NULL
            );
            CREATE INDEX todo_on_day_priority ON todo(day, priority, id);
            CREATE INDEX todo_on_project ON todo(projectId);
            CREATE INDEX todo_open_on_day ON todo(day) WHERE done = 0;
            INSERT INTO block (name, title, priority, builtIn, routine, createdAt) VALUES
              ('algorithm', 'Solve an algorithm problem', 0, 1, 0, '2026-01-01 09:00:00.000'),
              ('blog', 'Write a blog post / TIL', 1, 1, 0, '2026-01-01 09:00:00.000'),
              ('commit', 'Make a commit', 0, 1, 0, '2026-01-01 09:00:00.000'),
              ('study', 'Study / watch a lecture', 1, 1, 0, '2026-01-01 09:00:00.000'),
              ('review', 'Review a pull request', 1, 1, 0, '2026-01-01 09:00:00.000'),
              ('docs', 'Write or update documentation', 2, 1, 0, '2026-01-01 09:00:00.000'),
              ('refactor', 'Refactor or pay down tech debt', 2, 1, 0, '2026-01-01 09:00:00.000'),
              ('english', 'Practise technical English', 2, 1, 0, '2026-01-01 09:00:00.000');
            CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
            INSERT INTO grdb_migrations (identifier) VALUES ('v1: todos, task blocks and projects');
            """)
        return .commit
      }
    }
  }
}

extension ReleasedSchema {
  /// Writes a database exactly as the release before the change journal (schema v3) left it:
  /// the v1 file, then the v2 and v3 migrations as they were released (frozen copies).
  static func writeVersion3(at path: String) throws {
    try writeVersion1(at: path)
    try withRawDatabase(path) { db in
      try db.inTransaction {
        try db.execute(
          sql: """
            CREATE INDEX todo_on_day_priority_done ON todo(day, priority, done);
            CREATE INDEX todo_on_project_day ON todo(projectId, day, priority, done);
            DROP INDEX todo_on_project;
            INSERT INTO grdb_migrations (identifier) VALUES ('v2: report indexes');
            """)
        try db.execute(sql: """

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
            INSERT INTO grdb_migrations (identifier) VALUES ('v3: GitHub commits and sync state');
            """)
        return .commit
      }
    }
  }
}

@Suite("Migrations")
struct MigrationTests {
  @Test("a database written by the first release opens, migrates to the current schema and keeps its data")
  func upgradesVersion1() throws {
    // Given a v1 database with a project, todos (one done, one linked, one from a block),
    // a user block in the routine and a changed built-in
    let scratch = Scratch()
    let path = scratch.path()
    try ReleasedSchema.writeVersion1(at: path)
    try withRawDatabase(path) { db in
      try db.execute(
        sql: """
          INSERT INTO project (name, summary, repository, localPath, startDay, endDay, tech, memo,
            archived, createdAt)
          VALUES ('ootd', 'Terminal todo tracker', 'octo/ootd', '/src/ootd', '2026-01-01', NULL,
            'swift,sqlite', 'memo "quoted"', 0, '2026-01-02 10:00:00.000');
          INSERT INTO project (name, tech, archived, createdAt)
          VALUES ('old', '', 1, '2026-01-02 10:00:00.000');
          INSERT INTO todo (title, priority, day, done, doneAt, projectId, block, createdAt) VALUES
            ('Write the carry-over test', 0, '2026-11-20', 1, '2026-11-20 18:00:00.000', 1, NULL,
             '2026-11-20 09:00:00.000'),
            ('BOJ 1753: 최단경로 🧭', 2, '2026-11-21', 0, NULL, NULL, 'algorithm',
             '2026-11-21 09:00:00.000'),
            ('''); DROP TABLE todo; --', 1, '2026-11-22', 0, NULL, 1, NULL,
             '2026-11-22 09:00:00.000');
          INSERT INTO block (name, title, priority, builtIn, routine, createdAt)
          VALUES ('leetcode', 'One LeetCode problem', 0, 0, 1, '2026-01-03 08:00:00.000');
          UPDATE block SET routine = 1 WHERE name = 'commit';
          """)
    }
    // When
    let database = try AppDatabase.open(path: path)
    // Then the todos are all there, exactly
    let todos = try allTodos(database)
    #expect(todos.map(\.id) == [1, 2, 3])
    #expect(todos.map(\.title) == [
      "Write the carry-over test", "BOJ 1753: 최단경로 🧭", "'); DROP TABLE todo; --",
    ])
    #expect(todos.map(\.priority) == [.high, .low, .mid])
    #expect(todos.map(\.day!.description) == ["2026-11-20", "2026-11-21", "2026-11-22"])
    #expect(todos.map(\.isDone) == [true, false, false])
    #expect(todos[0].doneAt == ISO8601DateFormatter().date(from: "2026-11-20T18:00:00Z"))
    #expect(todos.map(\.project) == ["ootd", nil, "ootd"])
    #expect(todos.map(\.block) == [nil, "algorithm", nil])
    // And the projects and blocks
    let projects = try database.projects(.all)
    #expect(projects.map(\.project.name) == ["old", "ootd"])
    let ootd = try database.project(named: "ootd")
    #expect(ootd.project.summary == "Terminal todo tracker")
    #expect(ootd.project.repository?.description == "octo/ootd")
    #expect(ootd.project.tech == ["swift", "sqlite"])
    #expect(ootd.project.memo == #"memo "quoted""#)
    #expect(ootd.total == 2 && ootd.done == 1)
    #expect(try database.block(named: "leetcode").isRoutine)
    #expect(try database.block(named: "commit").isRoutine)
    #expect(try database.blocks().count == TaskBlock.builtIns.count + 1)
    // And the file records every current migration and is still an ootd database in WAL mode
    let applied = try withRawDatabase(path) {
      try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
    }
    #expect(Array(applied.prefix(ReleasedSchema.migrationIdentifiers.count)) == ReleasedSchema.migrationIdentifiers)
    #expect(try withRawDatabase(path) { try Int32.fetchOne($0, sql: "PRAGMA application_id") } == ReleasedSchema.applicationID)
    #expect(try withRawDatabase(path) { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
    // And it still works for writes
    let added = try database.addTodo(try draft("after upgrade", project: "OOTD"), now: fixedNow)
    #expect(added.id == 4 && added.project == "ootd")
  }

  @Test("the list of migrations only grows: released identifiers come first, unchanged and in order")
  func migrationsOnlyGrow() throws {
    // Given a database created by this ootd
    let scratch = Scratch()
    _ = try scratch.freshDatabase()
    // When
    let applied = try withRawDatabase(scratch.path()) {
      try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
    }
    // Then
    #expect(applied.count >= ReleasedSchema.migrationIdentifiers.count)
    #expect(Array(applied.prefix(ReleasedSchema.migrationIdentifiers.count)) == ReleasedSchema.migrationIdentifiers)
    #expect(Set(applied).count == applied.count)
  }

  @Test("a fresh database has exactly the v1 tables a v1 build would read")
  func freshSchemaContainsVersion1() throws {
    // Given a fresh database and a frozen v1 one
    let scratch = Scratch()
    _ = try scratch.freshDatabase("fresh.sqlite")
    try ReleasedSchema.writeVersion1(at: scratch.path("v1.sqlite"))
    // When
    func columns(_ path: String) throws -> [String: [String]] {
      try withRawDatabase(path) { db in
        var result: [String: [String]] = [:]
        for table in ["project", "block", "todo"] {
          result[table] = try db.columns(in: table).map { "\($0.name) \($0.type) \($0.isNotNull)" }
        }
        return result
      }
    }
    let fresh = try columns(scratch.path("fresh.sqlite"))
    let v1 = try columns(scratch.path("v1.sqlite"))
    // Then every v1 column still exists with the same type; the one column that changed on
    // purpose is todo.day, which may be NULL since v13-backlog (a todo in the backlog)
    for (table, v1Columns) in v1 {
      for column in v1Columns {
        let expected = table == "todo" && column == "day TEXT true" ? "day TEXT false" : column
        #expect(fresh[table]?.contains(expected) == true, "\(table).\(column)")
      }
    }
  }

  @Test("a database written by the release before the journal (v3) migrates with every todo intact and gets uuids")
  func upgradesVersion3() throws {
    // Given a v3 database with projects, todos, a user block, synced commits and a setting
    let scratch = Scratch()
    let path = scratch.path()
    try ReleasedSchema.writeVersion3(at: path)
    try withRawDatabase(path) { db in
      try db.execute(
        sql: """
          INSERT INTO project (name, repository, tech, archived, createdAt)
          VALUES ('ootd', 'octo/ootd', 'swift', 0, '2026-01-02 10:00:00.000');
          INSERT INTO todo (title, priority, day, done, doneAt, projectId, block, createdAt) VALUES
            ('Write the carry-over test', 0, '2026-11-20', 1, '2026-11-20 18:00:00.000', 1, NULL,
             '2026-11-20 09:00:00.000'),
            ('BOJ 1753: 최단경로 🧭', 2, '2026-11-21', 0, NULL, NULL, 'algorithm',
             '2026-11-21 09:00:00.000');
          INSERT INTO block (name, title, priority, builtIn, routine, createdAt)
          VALUES ('leetcode', 'One LeetCode problem', 0, 0, 1, '2026-01-03 08:00:00.000');
          INSERT INTO githubSetting (key, value) VALUES ('login', 'octocat');
          INSERT INTO githubCommit (sha, repository, authorLogin, authorName, authorEmail,
            authoredAt, committedAt, subject, url, parentCount)
          VALUES ('abcdef1', 'octo/ootd', 'octocat', 'Octo', 'o@example.com', 1795000000,
            1795000000, 'First', NULL, 0);
          """)
    }
    let todosBefore = try withRawDatabase(path) {
      try Row.fetchAll($0, sql: "SELECT * FROM todo ORDER BY id")
    }
    // When
    let database = try AppDatabase.open(path: path)
    // Then every todo is intact, column for column, and has a uuid
    let todosAfter = try withRawDatabase(path) {
      try Row.fetchAll($0, sql: "SELECT * FROM todo ORDER BY id")
    }
    #expect(todosAfter.count == todosBefore.count)
    for (before, after) in zip(todosBefore, todosAfter) {
      for column in before.columnNames {
        #expect(before[column] as DatabaseValue == after[column] as DatabaseValue, "\(column)")
      }
    }
    let todos = try allTodos(database)
    #expect(todos.map(\.title) == ["Write the carry-over test", "BOJ 1753: 최단경로 🧭"])
    #expect(todos.map(\.project) == ["ootd", nil])
    let uuids = todos.map(\.uuid) + (try database.projects(.all)).map(\.project.uuid)
      + (try database.blocks()).map(\.uuid)
    #expect(uuids.allSatisfy(RowID.isValid))
    #expect(Set(uuids).count == uuids.count)
    #expect(try database.block(named: "algorithm").uuid == RowID.builtInBlock("algorithm"))
    #expect(try database.settings.gitHubSetting(.login) == "octocat")
    #expect(try database.gitHub.commitCount() == 1)
    // And the journal starts empty: nothing to undo, and the next change is undoable
    #expect(try database.journal(limit: 10).isEmpty)
    #expect(throws: StorageError.nothingToUndo) { try database.undo(now: fixedNow) }
    _ = try database.setDone(ids: [2], done: true, now: fixedNow)
    _ = try database.undo(now: fixedNow)
    #expect(try allTodos(database) == todos)
  }

  @Test("v11-lean-indexes: a v10 database keeps its todos, lists and counts them as before, and undoes")
  func leanIndexesMigrateAVersion10Database() throws {
    // Given a database migrated up to v10, with todos on two days, one in a project
    let scratch = Scratch()
    let path = scratch.path()
    do {
      let queue = try DatabaseQueue(path: path)
      try AppDatabase.migrator.migrate(queue, upTo: "v10-remote-sync")
      try queue.write { db in
        try db.execute(
          sql: """
            INSERT INTO project (name, createdAt, uuid) VALUES ('ootd', '2026-11-01 00:00:00', '00000000-0000-4000-8000-0000000000aa');
            INSERT INTO todo (title, priority, day, done, projectId, createdAt, uuid) VALUES
              ('a', 2, '2026-11-21', 1, 1, '2026-11-01 00:00:00', '00000000-0000-4000-8000-000000000001'),
              ('b', 0, '2026-11-21', 0, NULL, '2026-11-01 00:00:00', '00000000-0000-4000-8000-000000000002'),
              ('c', 0, '2026-11-22', 1, NULL, '2026-11-01 00:00:00', '00000000-0000-4000-8000-000000000003'),
              ('d', 1, '2026-11-22', 0, 1, '2026-11-01 00:00:00', '00000000-0000-4000-8000-000000000004');
            """)
      }
    }
    // When this ootd opens it
    let database = try AppDatabase.open(path: path)
    // Then the indexes are the lean ones and the file is sound
    let (indexes, integrity) = try withRawDatabase(path) { db in
      (
        try String.fetchAll(
          db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('todo', 'journalChange')"),
        try String.fetchAll(db, sql: "PRAGMA integrity_check")
      )
    }
    #expect(!indexes.contains("todo_on_day_priority") && !indexes.contains("journalChange_on_device_undone"))
    #expect(indexes.contains("todo_on_day_priority_done") && indexes.contains("todo_on_project_day"))
    #expect(integrity == ["ok"])
    // And lists, project lists and counts read the same todos in the same order
    #expect(try allTodos(database).map(\.title) == ["b", "a", "c", "d"])
    #expect(try database.todos(matching: TodoFilter(days: .all, project: "ootd")).map(\.title) == ["a", "d"])
    let range = try DayRange(from: day("2026-11-21"), to: day("2026-11-22"))
    let report = AchievementReport(range: range, counts: try database.achievementCounts(in: range))
    #expect(report.days.map(\.tally) == [Tally(total: 2, done: 1), Tally(total: 2, done: 1)])
    let project = AchievementReport(range: range, counts: try database.achievementCounts(in: range, project: "ootd"))
    #expect(project.days.map(\.tally) == [Tally(total: 1, done: 1), Tally(total: 1, done: 0)])
    // And a change made now undoes and redoes
    let added = try database.addTodo(try draft("e", project: "ootd"), now: fixedNow)
    _ = try database.undo(now: fixedNow)
    #expect(try database.todos(matching: TodoFilter(days: .all, project: "ootd")).map(\.title) == ["a", "d"])
    _ = try database.redo(now: fixedNow)
    #expect(try database.todos(ids: [added.id]) == [added])
  }

  @Test("v9-github-listing: an old sync state becomes the default branch's listing state, so an interrupted sync still resumes")
  func oldSyncStateBecomesAListingState() throws {
    // Given a v3 database with a finished listing of one repository and an interrupted one
    let scratch = Scratch()
    let path = scratch.path()
    try ReleasedSchema.writeVersion3(at: path)
    try withRawDatabase(path) { db in
      try db.execute(
        sql: """
          INSERT INTO githubCommit (sha, repository, authorLogin, authorName, authorEmail,
            authoredAt, committedAt, subject, url, parentCount)
          VALUES ('abcdef1', 'octo/done', 'octocat', 'Octo', 'o@example.com', 1795000000,
            1795000000, 'First', NULL, 0);
          INSERT INTO githubCommitRepository (repository, sha, authoredAt)
          VALUES ('octo/done', 'abcdef1', 1795000000);
          INSERT INTO githubCommitSlot (slot, commits) VALUES (1994444, 1);
          INSERT INTO githubRepository (fullName, author, windowStart, newestAuthoredAt, newestSha,
            etag, etagSince, lastSyncAt, lastError, pendingSince, pendingPages, pendingCommits,
            pendingNewestAuthoredAt, pendingNewestSha)
          VALUES
            ('octo/done', 'octocat', 1700000000, 1795000000, 'abcdef1', '"e1"', 1793790000,
             1795100000, NULL, NULL, 0, 0, NULL, NULL),
            ('octo/half', 'octocat', NULL, NULL, NULL, NULL, NULL, NULL, 'rate limited',
             1420070400, 3, 300, 1790000000, 'ffff');
          """)
    }
    // When
    let database = try AppDatabase.open(path: path)
    // Then the finished listing keeps its window, newest commit, ETag and last sync
    let done = try #require(
      try database.gitHub.listingState(ListingKey(repository: RepositoryName("octo/done")!, author: "octocat")))
    #expect(
      done
        == ListingState(
          windowStart: Date(timeIntervalSince1970: 1_700_000_000),
          newest: Date(timeIntervalSince1970: 1_795_000_000), etag: "\"e1\"",
          etagSince: Date(timeIntervalSince1970: 1_793_790_000)))
    #expect(try database.gitHub.lastCommitSync() == Date(timeIntervalSince1970: 1_795_100_000))
    // And the interrupted one resumes where it started
    let half = try #require(try database.gitHub.syncState(of: RepositoryName("octo/half")!, author: "octocat"))
    #expect(half.lastError == "rate limited")
    #expect(
      half.listing.plan(since: Date(timeIntervalSince1970: 1_760_000_000), pushedAt: nil, now: Date(timeIntervalSince1970: 1_795_200_000))
        == .list(since: Date(timeIntervalSince1970: 1_420_070_400), etag: nil))
    // And the cached commit still counts
    #expect(try database.gitHub.commitCount() == 1)
    let day = Day(Date(timeIntervalSince1970: 1_795_000_000), in: TimeZone(identifier: "UTC")!)
    let calendar = try database.gitHub.commitCalendar(
      DayRange(from: day, to: day), timeZone: TimeZone(identifier: "UTC")!)
    #expect(calendar.total == 1)
  }
}
