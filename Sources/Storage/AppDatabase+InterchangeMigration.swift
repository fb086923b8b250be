import GRDB

extension AppDatabase {
  /// Migration "v14-annotations-attributes": what moves in and out of other trackers without
  /// becoming prose in the notes. `annotations` holds a todo's Taskwarrior annotations, each with
  /// its own time (JSON text, ``Core/Annotation/text(_:)``); `attributes` what no field holds
  /// (Taskwarrior's user-defined attributes and unknown fields, todo.txt's `key:value`s; JSON
  /// text, ``Core/Attributes/text(_:)``). Both journaled, both NULL when empty.
  static func interchangeMigration(_ db: Database) throws {
    try db.execute(
      sql: """
        ALTER TABLE todo ADD COLUMN annotations TEXT;
        ALTER TABLE todo ADD COLUMN attributes TEXT;
        """)
  }
}
