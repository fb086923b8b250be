import Core
import Foundation
import GRDB

/// A `project` row.
struct ProjectRecord: FetchableRecord, TableRecord {
  static let databaseTableName = "project"

  /// The table's columns.
  enum Columns {
    static let id = Column("id")
    static let uuid = Column("uuid")
    static let name = Column("name")
    static let summary = Column("summary")
    static let repository = Column("repository")
    static let localPath = Column("localPath")
    static let startDay = Column("startDay")
    static let endDay = Column("endDay")
    static let tech = Column("tech")
    static let memo = Column("memo")
    static let archived = Column("archived")
    static let createdAt = Column("createdAt")
  }

  var id: Int64
  var uuid: String
  var name: String
  var summary: String?
  var repository: String?
  var localPath: String?
  var startDay: String?
  var endDay: String?
  var tech: String
  var memo: String?
  var archived: Bool
  var createdAt: String

  init(row: Row) throws {
    id = row[Columns.id]
    uuid = row[Columns.uuid]
    name = row[Columns.name]
    summary = row[Columns.summary]
    repository = row[Columns.repository]
    localPath = row[Columns.localPath]
    startDay = row[Columns.startDay]
    endDay = row[Columns.endDay]
    tech = row[Columns.tech]
    memo = row[Columns.memo]
    archived = row[Columns.archived]
    createdAt = row[Columns.createdAt]
  }

  /// The Core value.
  func project() throws -> Project {
    do {
      var project = try Project(
        name: name, summary: summary, repository: repository.flatMap(RepositoryName.init),
        localPath: localPath, start: startDay.flatMap(Day.init(iso:)),
        end: endDay.flatMap(Day.init(iso:)),
        tech: tech.isEmpty ? [] : tech.components(separatedBy: ","), memo: memo,
        isArchived: archived)
      project.uuid = uuid
      return project
    } catch {
      throw StorageError.sqlite("corrupt project row '\(name)'")
    }
  }

  /// The row as the change journal records it: every field of ``ProjectField``.
  var fields: Fields {
    var fields = Fields(minimumCapacity: ProjectField.allCases.count)
    for field in ProjectField.allCases { fields[project: field] = value(field) }
    return fields
  }

  /// One field's value as the journal records it (exhaustive over ``ProjectField``).
  func value(_ field: ProjectField) -> FieldValue {
    switch field {
    case .id: .integer(id)
    case .name: .text(name)
    case .summary: .optional(summary)
    case .repository: .optional(repository)
    case .localPath: .optional(localPath)
    case .startDay: .optional(startDay)
    case .endDay: .optional(endDay)
    case .tech: .text(tech)
    case .memo: .optional(memo)
    case .archived: .bool(archived)
    case .createdAt: .text(createdAt)
    }
  }

  /// The fields a Core project value sets (every field but `id` and `createdAt`).
  static func fields(of project: Project) -> Fields {
    .project([
      .name: .text(project.name), .summary: .optional(project.summary),
      .repository: .optional(project.repository?.description),
      .localPath: .optional(project.localPath), .startDay: .optional(project.start?.description),
      .endDay: .optional(project.end?.description),
      .tech: .text(project.tech.joined(separator: ",")), .memo: .optional(project.memo),
      .archived: .bool(project.isArchived),
    ])
  }

  /// The project named `name` (case-insensitive), or ``StorageError/projectNotFound(_:)``.
  static func named(_ db: Database, _ name: String) throws -> ProjectRecord {
    guard
      let record = try ProjectRecord.fetchOne(
        db, sql: "SELECT * FROM project WHERE name = ? COLLATE NOCASE", arguments: [name])
    else { throw StorageError.projectNotFound(name) }
    return record
  }
}
