import GRDB

extension AppDatabase {
  /// Migration "v16-plain-checks": the checks every import row pays for, written as plain
  /// comparisons. SQLite evaluates `x IN (a, b, c)` (three values or more) by filling a temporary
  /// b-tree with the list, and a CHECK constraint has no once-only block to keep it: each
  /// inserted or updated row built one for `todo.priority` and one each for
  /// `journalOperation.entity` and `.action` (`sqlite3BtreeCreateTable` about 3 times per
  /// imported todo, 18 % of an import). `x = a OR x = b OR x = c` accepts exactly the same
  /// values (the column's affinity applies to the constants in both, and NULL passes both), with
  /// no b-tree. `todo.doneBy` is rewritten the same way.
  ///
  /// SQLite cannot change a check in place: both tables are rebuilt as v13-backlog rebuilt
  /// `todo` (create, copy, drop, rename, recreate the indexes) in the migration's transaction.
  /// Every column keeps its name, order, type, default and the values it accepts; ids are kept,
  /// and each AUTOINCREMENT counter is carried over as it was.
  static func plainChecksMigration(_ db: Database) throws {
    try rebuild(
      db, table: "todo",
      definition: """
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        title TEXT NOT NULL CHECK (length(trim(title)) > 0),
        priority INTEGER NOT NULL CHECK (priority = 0 OR priority = 1 OR priority = 2),
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
        doneBy TEXT CHECK (doneBy IS NULL OR doneBy = 'manual' OR doneBy = 'commits' OR doneBy = 'github'),
        keepOpen INTEGER NOT NULL DEFAULT 0 CHECK (keepOpen IN (0, 1)),
        annotations TEXT,
        attributes TEXT,
        titleFold TEXT
        """,
      columns: """
        id, title, priority, day, done, doneAt, projectId, block, createdAt, uuid, dropped,
        carriedFrom, notes, tags, githubUrl, githubState, doneBy, keepOpen, annotations,
        attributes, titleFold
        """,
      indexes: """
        CREATE UNIQUE INDEX todo_on_uuid ON todo(uuid);
        CREATE INDEX todo_carried ON todo(carriedFrom) WHERE carriedFrom IS NOT NULL;
        CREATE UNIQUE INDEX todo_on_githubUrl ON todo(githubUrl) WHERE githubUrl IS NOT NULL;
        CREATE INDEX todo_on_day_priority_done ON todo(day, priority, id, done);
        CREATE INDEX todo_on_project_day ON todo(projectId, day, priority, done)
          WHERE projectId IS NOT NULL;
        CREATE INDEX todo_open_on_day ON todo(day, dropped, done) WHERE done = 0;
        """)
    try rebuild(
      db, table: "journalOperation",
      definition: """
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        changeId INTEGER NOT NULL REFERENCES journalChange(id) ON DELETE CASCADE,
        entity TEXT NOT NULL CHECK (entity = 'todo' OR entity = 'project' OR entity = 'block'),
        row TEXT NOT NULL,
        action TEXT NOT NULL CHECK (action = 'create' OR action = 'update' OR action = 'delete'),
        field TEXT CHECK ((action = 'update') = (field IS NOT NULL)),
        oldValue,
        newValue,
        clock INTEGER NOT NULL,
        device TEXT NOT NULL
        """,
      columns: "id, changeId, entity, row, action, field, oldValue, newValue, clock, device",
      indexes: """
        CREATE INDEX journalOperation_on_change ON journalOperation(changeId);
        CREATE INDEX journalOperation_on_row ON journalOperation(row, changeId);
        """)
  }

  /// Rebuilds `table` as `definition` (its columns, in `columns`' order), with every row, its
  /// `indexes` and its AUTOINCREMENT counter.
  private static func rebuild(
    _ db: Database, table: String, definition: String, columns: String, indexes: String
  ) throws {
    let sequence = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [table])
    try db.execute(
      sql: """
        CREATE TABLE \(table)_new (
        \(definition)
        );
        INSERT INTO \(table)_new (\(columns)) SELECT \(columns) FROM \(table);
        DROP TABLE \(table);
        ALTER TABLE \(table)_new RENAME TO \(table);
        \(indexes)
        DELETE FROM sqlite_sequence WHERE name = '\(table)';
        """)
    if let sequence {
      try db.execute(
        sql: "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", arguments: [table, sequence])
    }
  }
}
