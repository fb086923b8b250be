import Core
import Foundation
import GRDB

extension AppDatabase {
  /// Every task block, built-in ones first, then by name.
  public func blocks() throws(StorageError) -> [TaskBlock] {
    try read { db in
      try BlockRecord.fetchAll(db, sql: "SELECT * FROM block ORDER BY builtIn DESC, name")
        .map { try $0.block() }
    }
  }

  /// The block named `name` (case-insensitive).
  public func block(named name: String) throws(StorageError) -> TaskBlock {
    try read { db in try BlockRecord.named(db, name).block() }
  }

  /// Adds a user block; names are unique regardless of case.
  public func addBlock(_ block: TaskBlock, now: Date = Date()) throws(StorageError) {
    try change(now: now) { recorder in
      if try Row.fetchOne(
        recorder.db, sql: "SELECT 1 FROM block WHERE name = ?", arguments: [block.name]) != nil
      {
        throw StorageError.duplicateBlock(block.name)
      }
      try recorder.create(
        .block,
        [
          "name": .text(block.name), "title": .text(block.title),
          "priority": .integer(Int64(block.priority.rank)), "builtIn": .bool(false),
          "routine": .bool(block.isRoutine), "createdAt": .text(Timestamp.text(now)),
        ])
    }
  }

  /// Removes a block. Todos made from it keep their title and the block's name.
  public func removeBlock(named name: String, now: Date = Date()) throws(StorageError) {
    try change(now: now) { recorder in
      let record = try BlockRecord.named(recorder.db, name)
      try recorder.delete(.block, row: record.uuid, fields: record.fields)
    }
  }

  /// Brings back a built-in block removed with `block rm`, as a fresh database has it (its
  /// title, priority and uuid; not in the routine). Returns it.
  ///
  /// - Throws: ``StorageError/blockNotFound(_:)`` when `name` is no built-in block,
  ///   ``StorageError/duplicateBlock(_:)`` when a block of that name exists.
  public func restoreBuiltInBlock(named name: String, now: Date = Date()) throws(StorageError)
    -> TaskBlock
  {
    guard let builtIn = TaskBlock.builtIns.first(where: { $0.name == name.lowercased() }) else {
      throw .blockNotFound(name)
    }
    return try change(now: now) { recorder in
      if try Row.fetchOne(
        recorder.db, sql: "SELECT 1 FROM block WHERE name = ? COLLATE NOCASE", arguments: [builtIn.name]) != nil
      {
        throw StorageError.duplicateBlock(builtIn.name)
      }
      try recorder.create(
        .block,
        [
          "name": .text(builtIn.name), "title": .text(builtIn.title),
          "priority": .integer(Int64(builtIn.priority.rank)), "builtIn": .bool(true),
          "routine": .bool(false), "createdAt": .text(Timestamp.text(now)),
        ], uuid: RowID.builtInBlock(builtIn.name))
      return try BlockRecord.named(recorder.db, builtIn.name).block()
    }
  }

  /// Marks a block as part of (or no longer part of) the daily routine.
  public func setRoutine(named name: String, _ isRoutine: Bool, now: Date = Date())
    throws(StorageError) -> TaskBlock
  {
    try change(now: now) { recorder in
      let record = try BlockRecord.named(recorder.db, name)
      try recorder.update(
        .block, row: record.uuid, "routine", from: .bool(record.routine), to: .bool(isRoutine))
      return try BlockRecord.named(recorder.db, name).block()
    }
  }

  /// Adds a todo on `day` for each routine block that has no todo on that day yet.
  /// Running it twice adds nothing the second time. Returns the todos it added.
  public func planRoutine(on day: Day, now: Date = Date()) throws(StorageError) -> [Todo] {
    try change(now: now) { recorder in
      let blocks = try BlockRecord.fetchAll(
        recorder.db,
        sql: """
          SELECT * FROM block WHERE routine = 1 AND NOT EXISTS (
            SELECT 1 FROM todo WHERE todo.day = ? AND todo.block = block.name COLLATE NOCASE)
          ORDER BY priority, name
          """,
        arguments: [day.description]
      )
      let uuids = try blocks.map { block in
        let draft = try NewTodo(
          title: block.title, priority: Priority(rank: block.priority) ?? .mid, day: day,
          block: block.name)
        return try Self.insert(
          recorder, draft, done: false, now: now,
          uuid: RowID.routineTodo(block: block.uuid, day: day))
      }
      return try Self.todos(recorder.db, uuids: uuids)
    }
  }
}
