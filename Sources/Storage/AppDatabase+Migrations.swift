import Core
import Foundation
import GRDB

extension AppDatabase {
  /// The identifiers of every migration this ootd knows, in order.
  static var migrationIdentifiers: Set<String> { Set(migrator.migrations) }

  /// The schema's history. Append-only: a released migration never changes; add a new one.
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()

    migrator.registerMigration("v1: todos, task blocks and projects") { db in
      try db.execute(sql: "PRAGMA application_id = \(AppDatabase.applicationID)")
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
          """)
      let now = Date()  // real clock: the frozen v1 migration stamps the built-in blocks as the file is made
      for block in TaskBlock.builtIns {
        try db.execute(
          sql: """
            INSERT INTO block (name, title, priority, builtIn, routine, createdAt)
            VALUES (?, ?, ?, 1, 0, ?)
            """,
          arguments: [block.name, block.title, block.priority.rank, Timestamp.string(now, .sqlite)])
      }
    }

    migrator.registerMigration("v2: report indexes") { db in
      // Reports aggregate (day, priority, done) over a range of days: covering indexes let
      // SQLite answer from the index alone, without reading the todo rows. The per-project
      // index also serves the project foreign key, so the projectId-only index goes.
      try db.execute(
        sql: """
          CREATE INDEX todo_on_day_priority_done ON todo(day, priority, done);
          CREATE INDEX todo_on_project_day ON todo(projectId, day, priority, done);
          DROP INDEX todo_on_project;
          """)
    }

    migrator.registerMigration("v3: GitHub commits and sync state", migrate: AppDatabase.githubMigration)

    migrator.registerMigration("v4: uuids and the change journal", migrate: AppDatabase.journalMigration)

    migrator.registerMigration("v5: dropped and carried todos", migrate: AppDatabase.achievementMigration)

    migrator.registerMigration("v6: todo notes") { db in
      // Free text kept with a todo (a journaled field): what an import could not map elsewhere.
      try db.execute(sql: "ALTER TABLE todo ADD COLUMN notes TEXT")
    }

    migrator.registerMigration("v7-tags-recurrence") { db in
      // A todo's tags (journaled: sorted, lowercased, space-separated; NULL when none); a
      // routine block's days (journaled: NULL or 'daily', 'mon,wed,fri', 'every 2d from DAY');
      // and which (block, day) the routine has planned, so a day never gets a routine todo
      // twice, nor back after the user removed or dropped it. Not journaled: a marker of what
      // planning did, like a setting.
      try db.execute(
        sql: """
          ALTER TABLE todo ADD COLUMN tags TEXT;
          ALTER TABLE block ADD COLUMN recurrence TEXT;
          CREATE TABLE routinePlan (
            block TEXT NOT NULL,
            day TEXT NOT NULL CHECK (length(day) = 10),
            PRIMARY KEY (block, day)
          ) WITHOUT ROWID;
          """)
    }
    migrator.registerMigration("v8-github-issues", migrate: AppDatabase.githubIssuesMigration)
    migrator.registerMigration("v9-github-listing", migrate: AppDatabase.githubListingMigration)
    migrator.registerMigration("v10-remote-settings") { db in
      // The PostgreSQL server this database syncs with (`ootd remote set`): its URI (never with
      // a password) and the display name teammates see. Not journaled: settings of this
      // machine, not data that travels. Keys are free so that later settings need no migration.
      try db.execute(
        sql: """
          CREATE TABLE remoteSetting (
            key TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
          ) WITHOUT ROWID
          """)
    }

    migrator.registerMigration("v10-remote-sync", migrate: AppDatabase.syncMigration)

    migrator.registerMigration("v11-lean-indexes", migrate: AppDatabase.leanIndexMigration)

    migrator.registerMigration("v12-sync-set-aside", migrate: AppDatabase.setAsideMigration)

    migrator.registerMigration("v13-backlog", migrate: AppDatabase.backlogMigration)

    migrator.registerMigration("v14-annotations-attributes", migrate: AppDatabase.interchangeMigration)

    migrator.registerMigration("v15-search-fold", migrate: AppDatabase.searchFoldMigration)

    migrator.registerMigration("v16-plain-checks", migrate: AppDatabase.plainChecksMigration)

    migrator.registerMigration("v17-device-names", migrate: AppDatabase.deviceNameMigration)
    migrator.registerMigration("v18-caldav", migrate: AppDatabase.calDAVMigration)

    migrator.registerMigration("v19-search-fold-caseless", migrate: AppDatabase.searchFoldCaselessMigration)

    return migrator
  }
}
