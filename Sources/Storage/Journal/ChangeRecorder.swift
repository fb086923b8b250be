import Core
import Foundation
import GRDB

/// The one write path for todos, projects and blocks: each change is applied through here, one
/// row-level operation at a time, and collected so that the command's journal entry records
/// exactly what happened, in the same transaction.
final class ChangeRecorder {
  let db: Database
  /// The operations applied so far, in order.
  private(set) var operations: [JournalOperation] = []
  /// Project uuid → local id, as looked up by the operations so far.
  private var projectIDs: [String: Int64] = [:]

  init(_ db: Database) { self.db = db }

  /// Creates a row with a new uuid (or `uuid`), returning the uuid.
  @discardableResult
  func create(_ entity: Entity, _ fields: Fields, uuid: String = RowID.random()) throws -> String {
    try apply(JournalOperation(entity, row: uuid, .create(fields)))
    return uuid
  }

  /// Sets one field of a row, recording nothing when it already holds `new`.
  func update(_ entity: Entity, row: String, _ field: String, from old: FieldValue, to new: FieldValue)
    throws
  {
    guard old != new else { return }
    try apply(JournalOperation(entity, row: row, .update(field: field, old: old, new: new)))
  }

  /// Sets several fields of a row whose fields are now `current`.
  func update(_ entity: Entity, row: String, current: Fields, to new: Fields) throws {
    for (field, value) in new.sorted(by: { $0.key < $1.key }) {
      try update(entity, row: row, field, from: current[field] ?? .null, to: value)
    }
  }

  /// Deletes a row whose fields are now `fields` (recorded, so that undo can bring it back).
  func delete(_ entity: Entity, row: String, fields: Fields) throws {
    try apply(JournalOperation(entity, row: row, .delete(fields)))
  }

  /// Applies an operation and records it.
  func apply(_ operation: JournalOperation, checked: Bool = false) throws {
    operations.append(
      try OperationExecutor.apply(db, operation, checked: checked, projectIDs: &projectIDs))
  }
}
