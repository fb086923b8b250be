import Core
import Foundation
import GRDB

/// A `block` row.
struct BlockRecord: FetchableRecord, TableRecord {
  static let databaseTableName = "block"

  /// The table's columns.
  enum Columns {
    static let uuid = Column("uuid")
    static let name = Column("name")
    static let title = Column("title")
    static let priority = Column("priority")
    static let builtIn = Column("builtIn")
    static let routine = Column("routine")
    static let createdAt = Column("createdAt")
    static let doneWhen = Column("doneWhen")
    static let doneWhenRepo = Column("doneWhenRepo")
    static let recurrence = Column("recurrence")
  }

  var uuid: String
  var name: String
  var title: String
  var priority: Int
  var builtIn: Bool
  var routine: Bool
  var createdAt: String
  /// `commits` when the block's todos tick themselves by commits, else nil; the repository the
  /// commits must be in, or nil for any.
  var doneWhen: String?
  var doneWhenRepo: String?
  var recurrence: String?

  init(row: Row) throws {
    uuid = row[Columns.uuid]
    name = row[Columns.name]
    title = row[Columns.title]
    priority = row[Columns.priority]
    builtIn = row[Columns.builtIn]
    routine = row[Columns.routine]
    createdAt = row[Columns.createdAt]
    doneWhen = row[Columns.doneWhen]
    doneWhenRepo = row[Columns.doneWhenRepo]
    recurrence = row[Columns.recurrence]
  }

  /// The Core value.
  func block() throws -> TaskBlock {
    do {
      guard let recurrence = Recurrence(text: recurrence) else {
        throw StorageError.sqlite("corrupt block row '\(name)'")
      }
      var block = try TaskBlock(
        name: name, title: title, priority: Priority(rank: priority) ?? .mid, isBuiltIn: builtIn,
        isRoutine: routine, recurrence: recurrence, uuid: uuid)
      if doneWhen == DoneRule.commits {
        block.doneWhen = DoneRule(repository: doneWhenRepo.flatMap(RepositoryName.init))
      }
      return block
    } catch {
      throw StorageError.sqlite("corrupt block row '\(name)'")
    }
  }

  /// The row as the change journal records it: every field of ``BlockField``.
  var fields: Fields {
    var fields = Fields(minimumCapacity: BlockField.allCases.count)
    for field in BlockField.allCases { fields[block: field] = value(field) }
    return fields
  }

  /// One field's value as the journal records it (exhaustive over ``BlockField``).
  func value(_ field: BlockField) -> FieldValue {
    switch field {
    case .name: .text(name)
    case .title: .text(title)
    case .priority: .integer(Int64(priority))
    case .builtIn: .bool(builtIn)
    case .routine: .bool(routine)
    case .createdAt: .text(createdAt)
    case .doneWhen: .optional(doneWhen)
    case .doneWhenRepo: .optional(doneWhenRepo)
    case .recurrence: .optional(recurrence)
    }
  }

  /// The block named `name` (case-insensitive), or ``StorageError/blockNotFound(_:)``.
  static func named(_ db: Database, _ name: String) throws -> BlockRecord {
    guard
      let record = try BlockRecord.fetchOne(
        db, sql: "SELECT * FROM block WHERE name = ?", arguments: [name])
    else { throw StorageError.blockNotFound(name) }
    return record
  }
}
