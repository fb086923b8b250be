import Core
import Foundation
import GRDB

extension AppDatabase {
  /// Which projects ``projects(_:)`` lists.
  public enum ProjectSelection: Sendable {
    /// Projects that are not archived.
    case active
    /// Only archived projects.
    case archived
    /// Every project.
    case all
  }

  /// Projects with their todo progress, by name.
  public func projects(_ selection: ProjectSelection = .active) throws(StorageError)
    -> [ProjectProgress]
  {
    var projects: [ProjectProgress] = []
    try forEachProject(selection) { project in
      projects.append(project)
      return true
    }
    return projects
  }

  /// The projects of ``projects(_:)``, in its order, handed to `body` one at a time as they are
  /// read, so that any number of them takes constant memory. `body` returns false to stop early.
  public func forEachProject(
    _ selection: ProjectSelection = .active, _ body: (ProjectProgress) -> Bool
  ) throws(StorageError) {
    try read { db in
      let filter: String
      switch selection {
      case .active: filter = "WHERE project.archived = 0"
      case .archived: filter = "WHERE project.archived = 1"
      case .all: filter = ""
      }
      try Self.forEachProgress(db, filter: filter, [], body)
    }
  }

  /// One project with its progress.
  public func project(named name: String) throws(StorageError) -> ProjectProgress {
    try read { db in
      guard let found = try Self.progress(db, filter: "WHERE project.name = ?", [name]).first
      else { throw StorageError.projectNotFound(name) }
      return found
    }
  }

  /// Whether the project named `name` is archived (one indexed row, where ``project(named:)``
  /// counts all its todos: 44 M instructions for a project of 22,000 todos).
  public func isArchived(project name: String) throws(StorageError) -> Bool {
    try read { db in
      guard let archived = try Bool.fetchOne(
        db.cachedStatement(sql: "SELECT archived FROM project WHERE name = ?"), arguments: [name])
      else { throw StorageError.projectNotFound(name) }
      return archived
    }
  }

  /// Adds a project; names are unique regardless of case.
  public func addProject(_ project: Project, now: Date) throws(StorageError) {
    try change(now: now) { recorder in
      if try Row.fetchOne(
        recorder.db, sql: "SELECT 1 FROM project WHERE name = ?", arguments: [project.name]) != nil
      {
        throw StorageError.duplicateProject(project.name)
      }
      var fields = ProjectRecord.fields(of: project)
      fields["createdAt"] = .text(Timestamp.string(now, .sqlite))
      try recorder.create(.project, fields)
    }
  }

  /// Replaces the project named `name` with `update(project)`, which may rename it.
  @discardableResult
  public func updateProject(
    named name: String, now: Date, _ update: (inout Project) throws(CoreError) -> Void
  ) throws(StorageError) -> Project {
    // Core validation errors surface unchanged, so callers see them as invalid values.
    var validation: CoreError?
    let result: Project? = try change(now: now) { recorder in
      let record = try ProjectRecord.named(recorder.db, name)
      var project = try record.project()
      do {
        try update(&project)
        project.tech = Project.normalizedTech(project.tech)
        _ = try Name.validate(project.name, kind: "project")
        try project.validateDates()
      } catch let error as CoreError {
        validation = error
        return nil
      }
      if project.name.lowercased() != record.name.lowercased(),
        try Row.fetchOne(
          recorder.db, sql: "SELECT 1 FROM project WHERE name = ? AND id != ?",
          arguments: [project.name, record.id]) != nil
      {
        throw StorageError.duplicateProject(project.name)
      }
      try recorder.update(
        .project, row: record.uuid, current: record.fields, to: ProjectRecord.fields(of: project))
      return project
    }
    if let validation { throw .invalidValue(validation) }
    return result!
  }

  /// Deletes a project. Its todos stay, unlinked from it (each unlinking is journaled, so undo
  /// links them again). Returns how many todos were unlinked.
  @discardableResult
  public func removeProject(named name: String, now: Date) throws(StorageError) -> Int {
    try change(now: now) { recorder in
      let record = try ProjectRecord.named(recorder.db, name)
      // A batch at a time, in listing order: an unlinked todo leaves the project's todos.
      let linked = try recorder.db.cachedStatement(
        sql: "SELECT uuid FROM todo WHERE projectId = ? ORDER BY day, priority, id LIMIT \(Self.batch)")
      var count = 0
      while case let uuids = try String.fetchAll(linked, arguments: [record.id]), !uuids.isEmpty {
        for uuid in uuids {
          try recorder.update(.todo, row: uuid, "project", from: .text(record.uuid), to: .null)
        }
        count += uuids.count
      }
      try recorder.delete(.project, row: record.uuid, fields: record.fields)
      return count
    }
  }

  static func progress(_ db: Database, filter: String, _ arguments: StatementArguments) throws
    -> [ProjectProgress]
  {
    var projects: [ProjectProgress] = []
    try forEachProgress(db, filter: filter, arguments) { project in
      projects.append(project)
      return true
    }
    return projects
  }

  /// The projects `filter` selects with their progress, by name, read from a cursor.
  static func forEachProgress(
    _ db: Database, filter: String, _ arguments: StatementArguments,
    _ body: (ProjectProgress) throws -> Bool
  ) throws {
    let sql = """
      SELECT project.*,
        (SELECT count(*) FROM todo WHERE todo.projectId = project.id) AS total,
        (SELECT count(*) FROM todo WHERE todo.projectId = project.id AND todo.done = 1) AS done,
        (SELECT max(day) FROM todo WHERE todo.projectId = project.id AND todo.done = 1)
          AS lastActivity
      FROM project \(filter) ORDER BY project.name COLLATE NOCASE
      """
    let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
    while let row = try rows.next() {
      let last: String? = row["lastActivity"]
      let progress = ProjectProgress(
        project: try ProjectRecord(row: row).project(), total: row["total"], done: row["done"],
        lastActivity: last.flatMap(Day.init(iso:)))
      guard try body(progress) else { return }
    }
  }
}
