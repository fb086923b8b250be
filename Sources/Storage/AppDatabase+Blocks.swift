import Core
import Foundation
import GRDB

extension AppDatabase {
  /// Every task block, built-in ones first, then by name.
  public func blocks() throws(StorageError) -> [TaskBlock] {
    try read { db in
      try Row.fetchAll(db, sql: "SELECT * FROM block ORDER BY builtIn DESC, name")
        .map(BlockRow.block(from:))
    }
  }

  /// The block named `name` (case-insensitive).
  public func block(named name: String) throws(StorageError) -> TaskBlock {
    try read { db in try Self.existingBlock(db, named: name) }
  }

  /// Adds a user block; names are unique regardless of case.
  public func addBlock(_ block: TaskBlock, now: Date = Date()) throws(StorageError) {
    try write { db in
      if try Row.fetchOne(
        db, sql: "SELECT 1 FROM block WHERE name = ?", arguments: [block.name]) != nil
      {
        throw StorageError.duplicateBlock(block.name)
      }
      try db.execute(
        sql: """
          INSERT INTO block (name, title, priority, builtIn, routine, createdAt)
          VALUES (?, ?, ?, 0, ?, ?)
          """,
        arguments: [block.name, block.title, block.priority.rank, block.isRoutine, Timestamp.text(now)])
    }
  }

  /// Removes a block. Todos made from it keep their title and the block's name.
  public func removeBlock(named name: String) throws(StorageError) {
    try write { db in
      _ = try Self.existingBlock(db, named: name)
      try db.execute(sql: "DELETE FROM block WHERE name = ?", arguments: [name])
    }
  }

  /// Marks a block as part of (or no longer part of) the daily routine.
  public func setRoutine(named name: String, _ isRoutine: Bool) throws(StorageError) -> TaskBlock {
    try write { db in
      _ = try Self.existingBlock(db, named: name)
      try db.execute(
        sql: "UPDATE block SET routine = ? WHERE name = ?", arguments: [isRoutine, name])
      return try Self.existingBlock(db, named: name)
    }
  }

  /// Adds a todo on `day` for each routine block that has no todo on that day yet.
  /// Running it twice adds nothing the second time. Returns the todos it added.
  public func planRoutine(on day: Day, now: Date = Date()) throws(StorageError) -> [Todo] {
    try write { db in
      let blocks = try Row.fetchAll(
        db,
        sql: """
          SELECT * FROM block WHERE routine = 1 AND NOT EXISTS (
            SELECT 1 FROM todo WHERE todo.day = ? AND todo.block = block.name COLLATE NOCASE)
          ORDER BY priority, name
          """,
        arguments: [day.description]
      ).map(BlockRow.block(from:))
      return try blocks.map { block in
        let draft = try NewTodo(
          title: block.title, priority: block.priority, day: day, block: block.name)
        return try Self.insert(db, draft, done: false, now: now)
      }
    }
  }

  static func existingBlock(_ db: Database, named name: String) throws -> TaskBlock {
    guard let row = try Row.fetchOne(db, sql: "SELECT * FROM block WHERE name = ?", arguments: [name])
    else { throw StorageError.blockNotFound(name) }
    return try BlockRow.block(from: row)
  }
}
