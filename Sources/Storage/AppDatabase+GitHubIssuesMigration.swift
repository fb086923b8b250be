import GRDB

extension AppDatabase {
  /// Migration "v8-github-issues": todos linked to GitHub issues, what ticked a todo, and blocks
  /// that tick themselves.
  ///
  /// The link lives on the todo (`githubUrl`, unique, and `githubState`), as journaled fields: an
  /// undo of `ootd github issues` takes back the todos and their links together, and a link
  /// travels with its todo to another machine. `doneBy` says what ticked a done todo (`manual`,
  /// `commits`, `github`); `keepOpen` is set when the user reopens a todo a rule ticked, so no
  /// rule ticks it again. A block's `doneWhen` is `commits` (optionally only in `doneWhenRepo`);
  /// the built-in `commit` block has it. `githubLabelPriority` holds the user's label → priority
  /// rules (settings, not journaled).
  static func githubIssuesMigration(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE todo ADD COLUMN githubUrl TEXT;
        ALTER TABLE todo ADD COLUMN githubState TEXT
          CHECK (githubState IS NULL OR githubState IN ('open', 'closed'));
        ALTER TABLE todo ADD COLUMN doneBy TEXT
          CHECK (doneBy IS NULL OR doneBy IN ('manual', 'commits', 'github'));
        ALTER TABLE todo ADD COLUMN keepOpen INTEGER NOT NULL DEFAULT 0 CHECK (keepOpen IN (0, 1));
        CREATE UNIQUE INDEX todo_on_githubUrl ON todo(githubUrl) WHERE githubUrl IS NOT NULL;
        ALTER TABLE block ADD COLUMN doneWhen TEXT CHECK (doneWhen IS NULL OR doneWhen = 'commits');
        ALTER TABLE block ADD COLUMN doneWhenRepo TEXT;
        UPDATE block SET doneWhen = 'commits' WHERE name = 'commit' AND builtIn = 1;
        CREATE TABLE githubLabelPriority (
          label TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
          priority INTEGER NOT NULL CHECK (priority IN (0, 1, 2))
        ) WITHOUT ROWID;
        """)
  }
}
