import Core
import GRDB

extension AppDatabase {
  /// A random version 4 uuid, lowercase, computed by SQLite (for filling existing rows at once).
  static let randomUUIDExpression = """
    lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
    substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) ||
    substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))
    """

  /// Migration "v4: uuids and the change journal".
  ///
  /// Every todo, project and block gets a stable uuid (built-in blocks a name-based one, the
  /// same on every machine). The journal keeps one entry per command that changed data
  /// (`journalChange`) and the row-level operations that invert or replay it
  /// (`journalOperation`): the row's uuid, the field, the old and new value, a per-operation
  /// clock and the device that made it. `journalSetting` holds this database's device id and
  /// its clock. GitHub tables are not journaled.
  static func journalMigration(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE todo ADD COLUMN uuid TEXT NOT NULL DEFAULT '';
        ALTER TABLE project ADD COLUMN uuid TEXT NOT NULL DEFAULT '';
        ALTER TABLE block ADD COLUMN uuid TEXT NOT NULL DEFAULT '';
        UPDATE todo SET uuid = \(randomUUIDExpression);
        UPDATE project SET uuid = \(randomUUIDExpression);
        UPDATE block SET uuid = \(randomUUIDExpression);
        """)
    for block in TaskBlock.builtIns {
      try db.execute(
        sql: "UPDATE block SET uuid = ? WHERE name = ? AND builtIn = 1",
        arguments: [RowID.builtInBlock(block.name), block.name])
    }
    try db.execute(
      sql: """
        CREATE UNIQUE INDEX todo_on_uuid ON todo(uuid);
        CREATE UNIQUE INDEX project_on_uuid ON project(uuid);
        CREATE UNIQUE INDEX block_on_uuid ON block(uuid);

        CREATE TABLE journalChange (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          uuid TEXT NOT NULL UNIQUE,
          at DATETIME NOT NULL,
          device TEXT NOT NULL,
          kind TEXT NOT NULL CHECK (kind IN ('change', 'undo', 'redo')),
          command TEXT NOT NULL,
          summary TEXT NOT NULL,
          target INTEGER REFERENCES journalChange(id) ON DELETE SET NULL,
          undone INTEGER NOT NULL DEFAULT 0 CHECK (undone IN (0, 1)),
          redoable INTEGER NOT NULL DEFAULT 0 CHECK (redoable IN (0, 1))
        );
        CREATE INDEX journalChange_on_device_undone ON journalChange(device, kind, undone, id);
        CREATE INDEX journalChange_on_target ON journalChange(target);
        CREATE INDEX journalChange_redoable ON journalChange(id) WHERE redoable = 1;

        CREATE TABLE journalOperation (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          changeId INTEGER NOT NULL REFERENCES journalChange(id) ON DELETE CASCADE,
          entity TEXT NOT NULL CHECK (entity IN ('todo', 'project', 'block')),
          row TEXT NOT NULL,
          action TEXT NOT NULL CHECK (action IN ('create', 'update', 'delete')),
          field TEXT CHECK ((action = 'update') = (field IS NOT NULL)),
          oldValue,
          newValue,
          clock INTEGER NOT NULL,
          device TEXT NOT NULL
        );
        CREATE INDEX journalOperation_on_change ON journalOperation(changeId);
        CREATE INDEX journalOperation_on_row ON journalOperation(row, changeId);

        CREATE TABLE journalSetting (
          key TEXT PRIMARY KEY NOT NULL CHECK (key IN ('device', 'clock')),
          value NOT NULL
        ) WITHOUT ROWID;
        """)
    try db.execute(
      sql: "INSERT INTO journalSetting (key, value) VALUES ('device', ?), ('clock', 0)",
      arguments: [RowID.random()])
  }
}
