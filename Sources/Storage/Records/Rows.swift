import Core
import Foundation
import GRDB

/// Maps `todo` rows (joined with their project's name) to Core values.
enum TodoRow {
  /// The columns every todo query selects, in the order ``todo(from:)`` reads them.
  static let selection = """
    todo.id, todo.title, todo.priority, todo.day, todo.done, todo.doneAt, project.name,
    todo.block, todo.createdAt
    """
  /// The FROM clause matching ``selection``.
  static let source = "todo LEFT JOIN project ON project.id = todo.projectId"

  static func todo(from row: Row) throws -> Todo {
    let rank: Int = row[2]
    let dayText: String = row[3]
    guard let priority = Priority(rank: rank), let day = Day(iso: dayText) else {
      throw StorageError.sqlite("corrupt todo row \(row[0] as Int64)")
    }
    let doneAt: String? = row[5]
    let createdAt: String = row[8]
    return Todo(
      id: row[0], title: row[1], priority: priority, day: day, isDone: row[4],
      doneAt: doneAt.flatMap(Timestamp.date), project: row[6], block: row[7],
      createdAt: Timestamp.date(createdAt) ?? Date(timeIntervalSince1970: 0))
  }

  static func fetch(_ db: Database, where clause: String, _ arguments: StatementArguments = [])
    throws -> [Todo]
  {
    let sql = """
      SELECT \(selection) FROM \(source) WHERE \(clause)
      ORDER BY todo.day, todo.priority, todo.id
      """
    // A cursor reuses one row buffer: no copy of each row (and its column names) as fetchAll makes.
    var todos: [Todo] = []
    let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
    while let row = try rows.next() { todos.append(try todo(from: row)) }
    return todos
  }
}

/// Maps `project` rows to Core values.
enum ProjectRow {
  static let selection = """
    project.id, project.name, project.summary, project.repository, project.localPath,
    project.startDay, project.endDay, project.tech, project.memo, project.archived
    """

  static func project(from row: Row) throws -> Project {
    let repository: String? = row[3]
    let start: String? = row[5]
    let end: String? = row[6]
    let tech: String = row[7]
    do {
      return try Project(
        name: row[1], summary: row[2], repository: repository.flatMap(RepositoryName.init),
        localPath: row[4], start: start.flatMap(Day.init(iso:)), end: end.flatMap(Day.init(iso:)),
        tech: tech.isEmpty ? [] : tech.components(separatedBy: ","), memo: row[8],
        isArchived: row[9])
    } catch {
      throw StorageError.sqlite("corrupt project row '\(row[1] as String)'")
    }
  }

  /// The values to store for `project`, in the order of the `project` columns after `id`.
  static func values(_ project: Project) -> [(String, (any DatabaseValueConvertible)?)] {
    [
      ("name", project.name), ("summary", project.summary),
      ("repository", project.repository?.description), ("localPath", project.localPath),
      ("startDay", project.start?.description), ("endDay", project.end?.description),
      ("tech", project.tech.joined(separator: ",")), ("memo", project.memo),
      ("archived", project.isArchived),
    ]
  }
}

/// Maps `block` rows to Core values.
enum BlockRow {
  static func block(from row: Row) throws -> TaskBlock {
    let rank: Int = row["priority"]
    do {
      return try TaskBlock(
        name: row["name"], title: row["title"], priority: Priority(rank: rank) ?? .mid,
        isBuiltIn: row["builtIn"], isRoutine: row["routine"])
    } catch {
      throw StorageError.sqlite("corrupt block row '\(row["name"] as String)'")
    }
  }
}
