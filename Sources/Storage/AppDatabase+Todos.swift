import Core
import Foundation
import GRDB

extension AppDatabase {
  // MARK: - Reads

  /// The todos that match `filter`, ordered by day, priority (high first), then id.
  public func todos(matching filter: TodoFilter) throws(StorageError) -> [Todo] {
    try read { db in
      var clauses: [String] = []
      var arguments = StatementArguments()
      if case .range(let range) = filter.days {
        clauses.append("todo.day BETWEEN ? AND ?")
        arguments += [range.from.description, range.to.description]
      }
      if let project = filter.project {
        _ = try Self.projectID(db, named: project)
        clauses.append("project.name = ? COLLATE NOCASE")
        arguments += [project]
      }
      if let priority = filter.priority {
        clauses.append("todo.priority = ?")
        arguments += [priority.rank]
      }
      switch filter.status {
      case .any: break
      case .open: clauses.append("todo.done = 0")
      case .done: clauses.append("todo.done = 1")
      }
      let clause = clauses.isEmpty ? "1" : clauses.joined(separator: " AND ")
      return try TodoRow.fetch(db, where: clause, arguments)
    }
  }

  /// Open todos planned before `day`, oldest first.
  public func overdueTodos(before day: Day) throws(StorageError) -> [Todo] {
    try read { db in
      try TodoRow.fetch(db, where: "todo.done = 0 AND todo.day < ?", [day.description])
    }
  }

  /// How many open todos are planned before `day` (counted up to `countLimit`), and the most
  /// recent `limit` of them in list order: what a screen shows without reading years of
  /// forgotten todos.
  public func overdueSummary(before day: Day, limit: Int, countLimit: Int = 1000)
    throws(StorageError) -> (todos: [Todo], count: Int)
  {
    try read { db in
      let count = try Int.fetchOne(
        db,
        sql: "SELECT count(*) FROM (SELECT 1 FROM todo WHERE done = 0 AND day < ? LIMIT ?)",
        arguments: [day.description, countLimit]) ?? 0
      guard count > 0, limit > 0 else { return ([], count) }
      // The day of the limit-th most recent overdue todo, read from the partial index alone;
      // then only the todos from that day on are loaded and ranked (not years of them).
      let boundary = try String.fetchOne(
        db,
        sql: "SELECT day FROM todo WHERE done = 0 AND day < ? ORDER BY day DESC LIMIT 1 OFFSET ?",
        arguments: [day.description, min(limit, count) - 1]) ?? day.description
      let recent = try TodoRow.fetch(
        db, where: "todo.done = 0 AND todo.day >= ? AND todo.day < ?",
        [boundary, day.description])
      let newest = recent.sorted { ($0.day, $1.priority.rank, $1.id) > ($1.day, $0.priority.rank, $0.id) }
      return (Array(newest.prefix(limit)).sorted(by: Todo.listOrder), count)
    }
  }

  /// The todos with these ids, in list order; throws when any id is unknown.
  public func todos(ids: [Int64]) throws(StorageError) -> [Todo] {
    try read { db in try Self.existingTodos(db, ids: ids) }
  }

  // MARK: - Writes

  /// Creates a todo, checking that its project exists. Returns it with its new id.
  @discardableResult
  public func addTodo(_ draft: NewTodo, now: Date = Date()) throws(StorageError) -> Todo {
    try write { db in try Self.insert(db, draft, done: false, now: now) }
  }

  /// Creates many todos in one transaction (the demo and benchmarks use this).
  public func addTodos(_ drafts: [(todo: NewTodo, done: Bool)], now: Date = Date())
    throws(StorageError)
  {
    try write { db in
      for draft in drafts { try Self.insertRow(db, draft.todo, done: draft.done, now: now) }
    }
    // A large import leaves a large write-ahead log: fold it into the database now rather than
    // in the middle of the user's next command.
    if drafts.count > 1000 {
      do {
        try writer.writeWithoutTransaction { db in
          try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
      } catch {
        throw Self.map(error, path: path)
      }
    }
  }

  /// Ticks (`done: true`) or unticks todos. All ids must exist, or nothing changes.
  /// Returns the todos after the change.
  public func setDone(ids: [Int64], done: Bool, now: Date = Date()) throws(StorageError)
    -> [Todo]
  {
    try write { db in
      _ = try Self.existingTodos(db, ids: ids)
      for id in Set(ids) {
        // Keep the first doneAt when a done todo is ticked again.
        try db.execute(
          sql: """
            UPDATE todo SET done = ?, doneAt = CASE WHEN ? THEN coalesce(doneAt, ?) ELSE NULL END
            WHERE id = ?
            """,
          arguments: [done, done, Timestamp.text(now), id])
      }
      return try Self.existingTodos(db, ids: ids)
    }
  }

  /// Applies `changes` to one todo and returns it as it is now.
  public func editTodo(id: Int64, _ changes: TodoChanges) throws(StorageError) -> Todo {
    try write { db in
      _ = try Self.existingTodos(db, ids: [id])
      var assignments: [String] = []
      var arguments = StatementArguments()
      if let title = changes.title {
        assignments.append("title = ?")
        arguments += [title]
      }
      if let priority = changes.priority {
        assignments.append("priority = ?")
        arguments += [priority.rank]
      }
      if let day = changes.day {
        assignments.append("day = ?")
        arguments += [day.description]
      }
      if let project = changes.project {
        assignments.append("projectId = ?")
        arguments += [try project.map { try Self.projectID(db, named: $0) }]
      }
      if !assignments.isEmpty {
        arguments += [id]
        try db.execute(
          sql: "UPDATE todo SET \(assignments.joined(separator: ", ")) WHERE id = ?",
          arguments: arguments)
      }
      return try Self.existingTodos(db, ids: [id])[0]
    }
  }

  /// Deletes todos. All ids must exist, or nothing is deleted. Returns what was deleted.
  @discardableResult
  public func deleteTodos(ids: [Int64]) throws(StorageError) -> [Todo] {
    try write { db in
      let todos = try Self.existingTodos(db, ids: ids)
      for id in Set(ids) { try db.execute(sql: "DELETE FROM todo WHERE id = ?", arguments: [id]) }
      return todos
    }
  }

  /// Moves overdue todos (open, planned before `today`) to `target`: all of them, or only
  /// those of `ids` (which must all exist) that are overdue. A todo made from a task block stays
  /// where it is when `target` already has a todo from that block (so a routine block is never
  /// planned twice a day). Returns what moved and what stayed as such a duplicate.
  public func carryOver(ids: [Int64]? = nil, today: Day, to target: Day) throws(StorageError)
    -> (moved: [Todo], duplicates: [Todo])
  {
    try write { db in
      let candidates: [Todo]
      if let ids {
        candidates = try Self.existingTodos(db, ids: ids).filter { $0.isOverdue(today: today) }
      } else {
        candidates = try TodoRow.fetch(db, where: "todo.done = 0 AND todo.day < ?", [today.description])
      }
      var plannedBlocks = Set(
        try String.fetchAll(
          db, sql: "SELECT lower(block) FROM todo WHERE day = ? AND block IS NOT NULL",
          arguments: [target.description]))
      var moving: [Todo] = []
      var duplicates: [Todo] = []
      for todo in candidates where todo.day != target {
        if let block = todo.block?.lowercased() {
          guard plannedBlocks.insert(block).inserted else {
            duplicates.append(todo)
            continue
          }
        }
        moving.append(todo)
      }
      for todo in moving {
        try db.execute(
          sql: "UPDATE todo SET day = ? WHERE id = ?", arguments: [target.description, todo.id])
      }
      return (try Self.existingTodos(db, ids: moving.map(\.id)), duplicates)
    }
  }

  // MARK: - Helpers

  static func insert(_ db: Database, _ draft: NewTodo, done: Bool, now: Date) throws -> Todo {
    try insertRow(db, draft, done: done, now: now)
    return try existingTodos(db, ids: [db.lastInsertedRowID])[0]
  }

  /// Inserts one todo row with a cached statement, checking that its project exists.
  private static func insertRow(_ db: Database, _ draft: NewTodo, done: Bool, now: Date) throws {
    let projectID = try draft.project.map { try AppDatabase.projectID(db, named: $0) }
    let statement = try db.cachedStatement(
      sql: """
        INSERT INTO todo (title, priority, day, done, doneAt, projectId, block, createdAt)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """)
    let timestamp = Timestamp.text(now)
    try statement.execute(arguments: [
      draft.title, draft.priority.rank, draft.day.description, done, done ? timestamp : nil,
      projectID, draft.block, timestamp,
    ])
  }

  /// Fetches todos by id, throwing ``StorageError/todosNotFound(_:)`` listing every missing id.
  static func existingTodos(_ db: Database, ids: [Int64]) throws -> [Todo] {
    guard !ids.isEmpty else { return [] }
    let unique = Array(Set(ids))
    let placeholders = Array(repeating: "?", count: unique.count).joined(separator: ",")
    let todos = try TodoRow.fetch(
      db, where: "todo.id IN (\(placeholders))", StatementArguments(unique))
    let found = Set(todos.map(\.id))
    let missing = unique.filter { !found.contains($0) }.sorted()
    if !missing.isEmpty { throw StorageError.todosNotFound(missing) }
    return todos
  }

  /// The id of the project named `name` (case-insensitive), or ``StorageError/projectNotFound(_:)``.
  static func projectID(_ db: Database, named name: String) throws -> Int64 {
    guard
      let id = try Int64.fetchOne(
        try db.cachedStatement(sql: "SELECT id FROM project WHERE name = ? COLLATE NOCASE"),
        arguments: [name])
    else { throw StorageError.projectNotFound(name) }
    return id
  }
}
