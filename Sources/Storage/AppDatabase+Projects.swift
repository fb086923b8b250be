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
    try read { db in
      let filter: String
      switch selection {
      case .active: filter = "WHERE project.archived = 0"
      case .archived: filter = "WHERE project.archived = 1"
      case .all: filter = ""
      }
      return try Self.progress(db, filter: filter, [])
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

  /// Adds a project; names are unique regardless of case.
  public func addProject(_ project: Project, now: Date = Date()) throws(StorageError) {
    try write { db in
      if try Row.fetchOne(
        db, sql: "SELECT 1 FROM project WHERE name = ?", arguments: [project.name]) != nil
      {
        throw StorageError.duplicateProject(project.name)
      }
      let values = ProjectRow.values(project)
      let columns = values.map(\.0).joined(separator: ", ")
      let placeholders = Array(repeating: "?", count: values.count + 1).joined(separator: ", ")
      try db.execute(
        sql: "INSERT INTO project (\(columns), createdAt) VALUES (\(placeholders))",
        arguments: StatementArguments(values.map(\.1) + [Timestamp.text(now)]))
    }
  }

  /// Replaces the project named `name` with `update(project)`, which may rename it.
  @discardableResult
  public func updateProject(
    named name: String, _ update: (inout Project) throws(CoreError) -> Void
  ) throws(StorageError) -> Project {
    // Core validation errors surface unchanged, so callers see them as invalid values.
    var validation: CoreError?
    let result: Project? = try write { db in
      let id = try Self.projectID(db, named: name)
      guard let row = try Row.fetchOne(
        db, sql: "SELECT \(ProjectRow.selection) FROM project WHERE id = ?", arguments: [id])
      else { throw StorageError.projectNotFound(name) }
      var project = try ProjectRow.project(from: row)
      do {
        try update(&project)
        project.tech = Project.normalizedTech(project.tech)
        _ = try Name.validate(project.name, kind: "project")
        try project.validateDates()
      } catch let error as CoreError {
        validation = error
        return nil
      }
      if project.name.lowercased() != name.lowercased(),
        try Row.fetchOne(
          db, sql: "SELECT 1 FROM project WHERE name = ? AND id != ?",
          arguments: [project.name, id]) != nil
      {
        throw StorageError.duplicateProject(project.name)
      }
      let values = ProjectRow.values(project)
      try db.execute(
        sql: "UPDATE project SET \(values.map { "\($0.0) = ?" }.joined(separator: ", ")) WHERE id = ?",
        arguments: StatementArguments(values.map(\.1) + [id]))
      return project
    }
    if let validation { throw .invalidValue(validation) }
    return result!
  }

  /// Deletes a project. Its todos stay, unlinked from it. Returns how many todos were unlinked.
  @discardableResult
  public func removeProject(named name: String) throws(StorageError) -> Int {
    try write { db in
      let id = try Self.projectID(db, named: name)
      let count = try Int.fetchOne(
        db, sql: "SELECT count(*) FROM todo WHERE projectId = ?", arguments: [id]) ?? 0
      try db.execute(sql: "UPDATE todo SET projectId = NULL WHERE projectId = ?", arguments: [id])
      try db.execute(sql: "DELETE FROM project WHERE id = ?", arguments: [id])
      return count
    }
  }

  static func progress(_ db: Database, filter: String, _ arguments: StatementArguments) throws
    -> [ProjectProgress]
  {
    let sql = """
      SELECT \(ProjectRow.selection),
        (SELECT count(*) FROM todo WHERE todo.projectId = project.id),
        (SELECT count(*) FROM todo WHERE todo.projectId = project.id AND todo.done = 1),
        (SELECT max(day) FROM todo WHERE todo.projectId = project.id AND todo.done = 1)
      FROM project \(filter) ORDER BY project.name COLLATE NOCASE
      """
    return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
      let last: String? = row[12]
      return ProjectProgress(
        project: try ProjectRow.project(from: row), total: row[10], done: row[11],
        lastActivity: last.flatMap(Day.init(iso:)))
    }
  }
}
