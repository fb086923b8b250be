import GRDB

extension AppDatabase {
  /// Migration "v13-backlog": a todo may have no day (it waits in the backlog, `day IS NULL`).
  ///
  /// SQLite cannot drop a column's `NOT NULL` in place, so the table is rebuilt the way its
  /// documentation gives (create the new table, copy, drop, rename, recreate the indexes), in
  /// the migration's one transaction. Every column keeps its name, type, default and check;
  /// only `day` changes, from `NOT NULL CHECK (length(day) = 10)` to a check that also lets
  /// NULL through. Ids are never reused: the AUTOINCREMENT counter is carried over as it was
  /// (it can be past the largest id left, after an `rm`).
  ///
  /// Every day query (`day = ?`, `day < ?`, `BETWEEN`) leaves NULL out by itself, so a backlog
  /// todo counts in no day's figures and is never overdue without a line of query changed. The
  /// listing index `(day, priority, id, done)` orders NULL first, which is the backlog's place
  /// in `list --all`, and serves `day IS NULL` for `ootd backlog`.
  static func backlogMigration(_ db: Database) throws {
    let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'todo'")
    try db.execute(
      sql: """
        CREATE TABLE todo_new (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          title TEXT NOT NULL CHECK (length(trim(title)) > 0),
          priority INTEGER NOT NULL CHECK (priority IN (0, 1, 2)),
          day TEXT CHECK (day IS NULL OR length(day) = 10),
          done INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
          doneAt DATETIME,
          projectId INTEGER REFERENCES project(id) ON DELETE SET NULL,
          block TEXT,
          createdAt DATETIME NOT NULL,
          uuid TEXT NOT NULL DEFAULT '',
          dropped INTEGER NOT NULL DEFAULT 0 CHECK (dropped IN (0, 1)),
          carriedFrom TEXT,
          notes TEXT,
          tags TEXT,
          githubUrl TEXT,
          githubState TEXT CHECK (githubState IS NULL OR githubState IN ('open', 'closed')),
          doneBy TEXT CHECK (doneBy IS NULL OR doneBy IN ('manual', 'commits', 'github')),
          keepOpen INTEGER NOT NULL DEFAULT 0 CHECK (keepOpen IN (0, 1))
        );
        INSERT INTO todo_new (
          id, title, priority, day, done, doneAt, projectId, block, createdAt, uuid, dropped,
          carriedFrom, notes, tags, githubUrl, githubState, doneBy, keepOpen)
        SELECT
          id, title, priority, day, done, doneAt, projectId, block, createdAt, uuid, dropped,
          carriedFrom, notes, tags, githubUrl, githubState, doneBy, keepOpen
        FROM todo;
        DROP TABLE todo;
        ALTER TABLE todo_new RENAME TO todo;
        CREATE UNIQUE INDEX todo_on_uuid ON todo(uuid);
        CREATE INDEX todo_carried ON todo(carriedFrom) WHERE carriedFrom IS NOT NULL;
        CREATE UNIQUE INDEX todo_on_githubUrl ON todo(githubUrl) WHERE githubUrl IS NOT NULL;
        CREATE INDEX todo_on_day_priority_done ON todo(day, priority, id, done);
        CREATE INDEX todo_on_project_day ON todo(projectId, day, priority, done)
          WHERE projectId IS NOT NULL;
        CREATE INDEX todo_open_on_day ON todo(day, dropped, done) WHERE done = 0;
        """)
    if let sequence {
      try db.execute(sql: "UPDATE sqlite_sequence SET seq = ? WHERE name = 'todo'", arguments: [sequence])
    }
  }
}
