import GRDB

extension AppDatabase {
  /// Migration "v18-caldav" (issue 27): the CalDAV collection this database syncs with and, per
  /// todo, what the last sync left on both sides.
  ///
  /// `caldavLink` has at most one row: the collection's URL, the user name (never a password:
  /// it comes from the environment, `~/.netrc` or a prompt each time), the server's sync token
  /// and ctag as of the last sync, when that was, and the collection's name.
  ///
  /// `caldavTodo` links a todo's uuid to its resource on the server (`href`, as the server
  /// wrote it), the resource's entity tag, and `base`: the synced fields
  /// (``Core/CalDAVFields``) as both sides had them after the last sync, as a JSON object, the
  /// base of the next three-way merge. A todo deleted on both sides loses its row.
  static func calDAVMigration(_ db: Database) throws {
    try db.execute(
      sql: """
        CREATE TABLE caldavLink (
          id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
          url TEXT NOT NULL,
          user TEXT,
          displayName TEXT,
          syncToken TEXT,
          ctag TEXT,
          lastSync TEXT
        );
        CREATE TABLE caldavTodo (
          uuid TEXT PRIMARY KEY NOT NULL,
          href TEXT NOT NULL UNIQUE,
          etag TEXT NOT NULL,
          base TEXT NOT NULL
        ) WITHOUT ROWID;
        """)
  }
}
