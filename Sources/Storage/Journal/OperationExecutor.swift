import Core
import Formats
import GRDB

/// Applies journal operations to the tables: the only code that writes todo, project and block
/// rows. Fields map to columns of the same name, except a todo's `project`, which the journal
/// names by the project's uuid and the table by its local id.
enum OperationExecutor {
  /// The table of each journaled entity.
  static func table(_ entity: Entity) -> String {
    switch entity {
    case .todo: return TodoRecord.databaseTableName
    case .project: return ProjectRecord.databaseTableName
    case .block: return BlockRecord.databaseTableName
    }
  }

  /// The fields of the row with this uuid as they are now, or nil when there is no such row.
  static func currentFields(_ db: Database, _ entity: Entity, row: String) throws -> Fields? {
    switch entity {
    case .todo:
      return try TodoRecord.fields(db, uuid: row)
    case .project:
      return try ProjectRecord.fetchOne(
        db.cachedStatement(sql: "SELECT * FROM project WHERE uuid = ?"), arguments: [row])?.fields
    case .block:
      return try BlockRecord.fetchOne(
        db.cachedStatement(sql: "SELECT * FROM block WHERE uuid = ?"), arguments: [row])?.fields
    }
  }

  /// The name (a todo's title, a project's or block's name) of the row with this uuid as it is
  /// now, or nil when there is no such row: one column, not the whole row ``currentFields(_:_:row:)``
  /// reads (for a todo, a join whose statement costs several times as much to prepare).
  static func currentName(_ db: Database, _ entity: Entity, row: String) throws -> String? {
    try String.fetchOne(
      db.cachedStatement(sql: "SELECT \(try column(entity, entity.nameField)) FROM \(table(entity)) WHERE uuid = ?"),
      arguments: [row])
  }

  /// Applies `operation` and returns it as applied: a creation that gave no local id records
  /// the id the row got, so that undo and redo bring the row back under the same id. With
  /// `checked`, first compares the row with what the operation expects and throws
  /// ``JournalConflictError`` when it differs (nothing is written then).
  ///
  /// `projectIDs` remembers the local id of each project uuid looked up, across the operations
  /// of one change (an import links thousands of todos to a few projects).
  @discardableResult
  static func apply(
    _ db: Database, _ operation: JournalOperation, checked: Bool, projectIDs: inout [String: Int64]
  ) throws -> JournalOperation {
    if checked {
      let current = try currentFields(db, operation.entity, row: operation.row)
      if let conflict = operation.conflict(current: current) {
        throw JournalConflictError(operation: operation, conflict: conflict)
      }
    }
    let table = table(operation.entity)
    switch operation.action {
    case .create(let fields):
      // The statement's text as bytes (joining arrays of names, or appending to a String, cost
      // more than the insert's own SQLite work).
      var columns = Array("uuid".utf8)
      var marks: [UInt8] = [UInt8(ascii: "?")]
      columns.reserveCapacity(256)
      marks.reserveCapacity(64)
      var values: [(any DatabaseValueConvertible)?] = [operation.row.databaseValue]
      values.reserveCapacity(fields.count + 2)
      var givesID = false
      for (field, value) in fields.sorted(by: { $0.key < $1.key }) {
        if operation.entity != .block, field == "id", let id = value.integer {
          // A local id already taken (only possible for a row from another machine): the row
          // gets a new one, and the journal records that one.
          if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM \(table) WHERE id = ?"), arguments: [id]) == true {
            continue
          }
          givesID = true
        }
        columns.append(contentsOf: ", ".utf8)
        columns.append(contentsOf: try column(operation.entity, field).utf8)
        marks.append(contentsOf: ", ?".utf8)
        values.append(try databaseValue(db, operation.entity, operation, field: field, value, projectIDs: &projectIDs))
        if let fold = titleFold(operation.entity, field, value) {
          columns.append(contentsOf: ", titleFold".utf8)
          marks.append(contentsOf: ", ?".utf8)
          values.append(fold)
        }
      }
      var sql = Array("INSERT INTO \(table) (".utf8)
      sql.append(contentsOf: columns)
      sql.append(contentsOf: ") VALUES (".utf8)
      sql.append(contentsOf: marks)
      sql.append(UInt8(ascii: ")"))
      try db.cachedStatement(sql: String(decoding: sql, as: UTF8.self))
        .execute(arguments: arguments(values))
      if operation.entity != .block, !givesID {
        var applied = fields
        applied["id"] = .integer(db.lastInsertedRowID)
        return JournalOperation(operation.entity, row: operation.row, .create(applied))
      }
    case .update:
      try applyUpdates(db, [operation], projectIDs: &projectIDs)
    case .delete:
      if operation.entity == .project { projectIDs[operation.row] = nil }
      try db.cachedStatement(sql: "DELETE FROM \(table) WHERE uuid = ?").execute(arguments: [operation.row])
    }
    return operation
  }

  /// Creates rows of `entity` new here, each carrying its local id (a todo its number), free
  /// here: the same columns and values as ``apply(_:_:checked:projectIDs:)``'s insert (each
  /// field's column, a todo's project by its local id, the title's search key), with one
  /// prepared statement for the rows of the same fields, its values bound straight for each row
  /// (``RowStatement``): on a first pull of 20,000 todos, building each row's statement and
  /// binding its arguments cost more than SQLite's insert itself, and so did sending the rows
  /// as JSON for `json_each` to read. Returns each row's fields as the journal's text
  /// (``FieldsText/encode(_:)``), written from the values bound, in the order of their names
  /// sorted once for all the rows of the same fields; where `texts` gives a row's text already
  /// (a pulled payload's own, issue 24), that text, not written again.
  ///
  /// `ordered`, when given, has for each row its fields in name order (``SyncOperation/ordered``,
  /// a pulled payload's), or nil: such a row's values are bound as they come, none looked up by
  /// name, and rows sharing one array of names share the statement without comparing them.
  @discardableResult
  static func createAll(
    _ db: Database, _ entity: Entity, _ rows: [(row: String, fields: Fields)], texts given: [String?] = [],
    ordered: [OrderedFields?] = [], projectIDs: inout [String: Int64]
  ) throws -> [String] {
    var texts: [String] = []
    texts.reserveCapacity(rows.count)
    // The statement of each set of field names (a first sync's rows all have the same one).
    var statements: [[String]: (statement: RowStatement, folds: Bool)] = [:]
    var current: (names: [String], statement: RowStatement, folds: Bool)?
    var values: [FieldValue] = []
    var folder = TodoFilter.Folder()
    // The statement of the rows of fields `names` (sorted) from here on.
    func use(_ names: [String]) throws {
      if let current { statements[current.names] = (current.statement, current.folds) }
      if let known = statements[names] {
        current = (names, known.statement, known.folds)
      } else {
        let prepared = try insertStatement(db, entity, names)
        current = (names, prepared.statement, prepared.folds)
      }
    }
    for (index, (uuid, fields)) in rows.enumerated() {
      let known = index < ordered.count ? ordered[index] : nil
      if let known {
        if current?.names != known.names { try use(known.names) }
      } else {
        // Most often the previous row's names: checked by looking each up, not sorted again, and
        // each value kept for its binding (looked up twice, a quarter of the rows' cost).
        values.removeAll(keepingCapacity: true)
        var same = false
        if let current, fields.count == current.names.count {
          same = true
          for name in current.names {
            guard let value = fields[name] else {
              same = false
              break
            }
            values.append(value)
          }
        }
        if !same {
          try use(fields.keys.sorted())
          values.removeAll(keepingCapacity: true)
          for name in current?.names ?? [] { values.append(fields[name]!) }
        }
      }
      guard let prepared = current else {
        // (Never: a statement is prepared for every set of names.) A text for each row all the same.
        texts.append(JSONText.object(fields))
        continue
      }
      texts.append(
        try insert(
          db, entity, prepared.statement, folds: prepared.folds, row: uuid, names: prepared.names,
          values: known?.values ?? values, text: index < given.count ? given[index] : nil, folder: &folder,
          projectIDs: &projectIDs))
    }
    return texts
  }

  /// ``createAll(_:_:_:texts:ordered:projectIDs:)`` of rows given as their fields' names, sorted, and the
  /// values in that order (`names` shared by the rows of the same fields: an import's typed
  /// rows, no dictionary of fields a row): the same statements, values and texts.
  @discardableResult
  static func createAll(
    _ db: Database, _ entity: Entity, typed rows: [CreatedRow], projectIDs: inout [String: Int64]
  ) throws -> [String] {
    var texts: [String] = []
    texts.reserveCapacity(rows.count)
    // The statement of each set of names met, looked up by comparing (rows of the same set
    // share its array, compared by identity): a few sets, interleaved.
    var statements: [(names: [String], statement: RowStatement, folds: Bool)] = []
    var current = -1
    var folder = TodoFilter.Folder()
    for row in rows {
      if current < 0 || statements[current].names != row.names {
        if let known = statements.firstIndex(where: { $0.names == row.names }) {
          current = known
        } else {
          let prepared = try insertStatement(db, entity, row.names)
          statements.append((row.names, prepared.statement, prepared.folds))
          current = statements.count - 1
        }
      }
      texts.append(
        try insert(
          db, entity, statements[current].statement, folds: statements[current].folds, row: row.row,
          names: row.names, values: row.values, folder: &folder, projectIDs: &projectIDs))
    }
    return texts
  }

  /// The insert of a row of `entity` with the fields `names` (sorted), and whether it sets the
  /// title's search key too.
  private static func insertStatement(
    _ db: Database, _ entity: Entity, _ names: [String]
  ) throws -> (statement: RowStatement, folds: Bool) {
    let folds = names.contains { titleFold(entity, $0, .null) != nil }
    var columns = ["uuid"]
    for name in names { columns.append(try column(entity, name)) }
    if folds { columns.append("titleFold") }
    let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
    let sql = "INSERT INTO \(table(entity)) (\(columns.joined(separator: ", "))) VALUES (\(marks))"
    return (try RowStatement(db, sql: sql), folds)
  }

  /// Inserts one row with `statement` (``insertStatement(_:_:_:)`` of `names`), its values
  /// bound straight, and returns its fields' journal text: `text` when given, else written
  /// from those values.
  private static func insert(
    _ db: Database, _ entity: Entity, _ statement: RowStatement, folds: Bool, row uuid: String,
    names: [String], values: [FieldValue], text: String? = nil, folder: inout TodoFilter.Folder,
    projectIDs: inout [String: Int64]
  ) throws -> String {
    var statement = statement
    statement.bind(uuid)
    var fold: DatabaseValue?
    for (name, value) in zip(names, values) {
      statement.bind(
        try databaseValue(
          db, entity, JournalOperation(entity, row: uuid, .create(Fields(uniqueKeysWithValues: zip(names, values)))),
          field: name, value, projectIDs: &projectIDs))
      if let folded = titleFold(entity, name, value, folder: &folder) { fold = folded }
    }
    if folds { statement.bind(fold ?? .null) }
    try statement.run()
    return text ?? JSONText.object(sortedNames: names, values: values)
  }

  /// Applies updates of one row, each of a different field, with one statement (a statement
  /// per field cost each its preparation). Operations that are no update, or of another row
  /// than the first, are refused.
  static func applyUpdates(
    _ db: Database, _ operations: [JournalOperation], projectIDs: inout [String: Int64]
  ) throws {
    guard let first = operations.first else { return }
    var assignments: [String] = []
    var values: [(any DatabaseValueConvertible)?] = []
    for operation in operations {
      guard case .update(let field, _, let new) = operation.action,
        operation.entity == first.entity, operation.row == first.row
      else { throw StorageError.sqlite("updates of one row expected: \(operation.entity) \(operation.row)") }
      assignments.append("\(try column(operation.entity, field)) = ?")
      values.append(try databaseValue(db, operation.entity, operation, field: field, new, projectIDs: &projectIDs))
      if let fold = titleFold(operation.entity, field, new) {
        assignments.append("titleFold = ?")
        values.append(fold)
      }
    }
    values.append(first.row.databaseValue)
    try db.cachedStatement(
      sql: "UPDATE \(table(first.entity)) SET \(assignments.joined(separator: ", ")) WHERE uuid = ?"
    ).execute(arguments: arguments(values))
  }

  /// The arguments of a statement. Built from existentials: GRDB's initializer from a sequence
  /// of `DatabaseValue` runs unspecialized, about 2,000 instructions a value (a fifth of an
  /// imported row), against a few hundred for this one.
  private static func arguments(_ values: [(any DatabaseValueConvertible)?]) -> StatementArguments {
    StatementArguments(values)
  }

  /// The search key stored beside a todo's title (``Core/TodoFilter/fold(_:)``, migration
  /// v15-search-fold): derived here, where every title is written (commands, undo, redo, sync,
  /// import), so it never disagrees with the title. Nil for any other field.
  private static func titleFold(_ entity: Entity, _ field: String, _ value: FieldValue) -> DatabaseValue? {
    guard entity == .todo, field == TodoField.title.rawValue else { return nil }
    return value.text.map(TodoFilter.fold)?.databaseValue ?? .null
  }

  /// ``titleFold(_:_:_:)`` of one of many rows, through `folder` (``TodoFilter/Folder``).
  private static func titleFold(
    _ entity: Entity, _ field: String, _ value: FieldValue, folder: inout TodoFilter.Folder
  ) -> DatabaseValue? {
    guard entity == .todo, field == TodoField.title.rawValue else { return nil }
    return value.text.map { folder.fold($0) }?.databaseValue ?? .null
  }

  /// The column a field is stored in; a field outside the closed list is refused, so journal
  /// text (which may come from another machine) never becomes SQL.
  private static func column(_ entity: Entity, _ field: String) throws -> String {
    guard allowedFields(entity).contains(field) else {
      throw StorageError.sqlite("corrupt journal: unknown field \(entity).\(field)")
    }
    return entity == .todo && field == "project" ? "projectId" : field
  }

  /// The fields each entity may carry: its typed field list in Core (``TodoField``,
  /// ``ProjectField``, ``BlockField``), a closed set, so journal text never becomes SQL.
  static func allowedFields(_ entity: Entity) -> Set<String> { entity.fieldNames }

  /// The value to store for a field: a todo's project uuid becomes the project's local id.
  private static func databaseValue(
    _ db: Database, _ entity: Entity, _ operation: @autoclosure () -> JournalOperation, field: String,
    _ value: FieldValue,
    projectIDs: inout [String: Int64]
  ) throws -> DatabaseValue {
    if entity == .todo, field == "project", let uuid = value.text {
      if let id = projectIDs[uuid] { return id.databaseValue }
      guard let id = try Int64.fetchOne(
        db.cachedStatement(sql: "SELECT id FROM project WHERE uuid = ?"), arguments: [uuid])
      else {
        throw JournalConflictError(operation: operation(), conflict: .rowMissing, missingProject: true)
      }
      projectIDs[uuid] = id
      return id.databaseValue
    }
    return value.databaseValue
  }
}

extension FieldValue {
  /// The SQLite value.
  var databaseValue: DatabaseValue {
    switch self {
    case .null: return .null
    case .integer(let value): return value.databaseValue
    case .text(let text): return text.databaseValue
    }
  }

  /// The journal value of an SQLite value (reals, which ootd never stores, become text).
  init(_ value: DatabaseValue) {
    switch value.storage {
    case .null: self = .null
    case .int64(let integer): self = .integer(integer)
    case .string(let text): self = .text(text)
    case .double(let real): self = .text(String(real))
    case .blob(let data): self = .text(String(decoding: data, as: UTF8.self))
    }
  }
}

/// A row to create given as its fields' names, sorted, and their values in that order, with its
/// clock value from another machine (nil: this machine's): an import's todo, built straight
/// from what the file says, without a dictionary of fields (``ChangeRecorder/createAll(_:typed:)``).
struct CreatedRow {
  var row: String
  var names: [String]
  var values: [FieldValue]
  var clock: Int64?
}

/// An operation that does not fit the row as it is now.
struct JournalConflictError: Error {
  let operation: JournalOperation
  let conflict: OperationConflict
  var missingProject = false
}
