import GRDB

extension AppDatabase {
  /// Migration "v11-lean-indexes": fewer index pages written by each change.
  ///
  /// Every index a row is in is one more page that a change reads, writes to the WAL and writes
  /// again at the checkpoint: an `add` wrote 16 pages, 7 of them for indexes that no query needs
  /// as they were. Each query of Storage was checked with `EXPLAIN QUERY PLAN` on 100,000 todos
  /// before and after (same plans, no new scan or temporary b-tree; `QueryPlanTests` keeps the
  /// hot ones on an index):
  ///
  /// - `todo_on_day_priority (day, priority, id)` and `todo_on_day_priority_done (day, priority,
  ///   done)` become one index, `(day, priority, id, done)`: it orders lists by day, priority and
  ///   id as the first did, and still covers the reports' counts of done todos as the second did.
  /// - `todo_on_project_day` keeps only todos with a project (`WHERE projectId IS NOT NULL`), so a
  ///   todo without one is in no project index. Every query reaching it names a project
  ///   (`projectId = ?`), as does the foreign key's `ON DELETE SET NULL`, which SQLite lets use a
  ///   partial index whose condition is `IS NOT NULL`.
  /// - `journalChange_on_target` keeps only undo and redo entries (`WHERE target IS NOT NULL`):
  ///   a plain change has no target, and the index only serves the foreign key's lookups of
  ///   `target = ?` when old entries are pruned.
  /// - `journalChange_on_device_undone` goes: no query filters journal entries by device since
  ///   undo looks for this machine's changes by `remote = 0` (`journalChange_on_remote_undone`).
  ///
  /// - `todo_open_on_day (day) WHERE done = 0` also holds `dropped` and `done` (SQLite counts a
  ///   partial index as covering only for the columns it holds): the overdue todos every listing
  ///   and the dashboard count and rank (`done = 0 AND dropped = 0 AND day < ?`) are then read from
  ///   the index alone, where each was a lookup in the table (`list` 12.2 M → 10.5 M instructions
  ///   on 100,000 todos, the dashboard 13.0 M → 11.3 M); the perfect-day streak still finds the
  ///   last day with an open or dropped todo in it.
  ///
  /// An `add` without a project now writes 12 pages instead of 16.
  static func leanIndexMigration(_ db: Database) throws {
    try db.execute(
      sql: """
        DROP INDEX todo_on_day_priority;
        DROP INDEX todo_on_day_priority_done;
        CREATE INDEX todo_on_day_priority_done ON todo(day, priority, id, done);
        DROP INDEX todo_on_project_day;
        CREATE INDEX todo_on_project_day ON todo(projectId, day, priority, done)
          WHERE projectId IS NOT NULL;
        DROP INDEX journalChange_on_target;
        CREATE INDEX journalChange_on_target ON journalChange(target) WHERE target IS NOT NULL;
        DROP INDEX journalChange_on_device_undone;
        DROP INDEX todo_open_on_day;
        CREATE INDEX todo_open_on_day ON todo(day, dropped, done) WHERE done = 0;
        """)
  }
}
