import Core
import Formats
import Foundation
import GRDB

/// A `journalChange` row: one command's entry in the change journal.
struct JournalChangeRecord: FetchableRecord, TableRecord {
  static let databaseTableName = "journalChange"

  /// The table's columns.
  enum Columns {
    static let id = Column("id")
    static let uuid = Column("uuid")
    static let at = Column("at")
    static let device = Column("device")
    static let kind = Column("kind")
    static let command = Column("command")
    static let summary = Column("summary")
    static let target = Column("target")
    static let undone = Column("undone")
    static let redoable = Column("redoable")
  }

  var id: Int64
  var at: String
  var device: String
  var kind: String
  var command: String
  var summary: String
  var target: Int64?
  var undone: Bool
  /// Whether the change was pulled from another machine (`device` is then that machine's);
  /// read only where the query selects `remote` (the log), false elsewhere.
  var remote: Bool
  /// The name of that machine (`syncDevice`), read only where the query selects `deviceName`
  /// (the log).
  var deviceName: String?
  /// The hybrid clock of the change's operations, read only where the query selects `made`
  /// (a todo's history: the earliest of its operations on the todo).
  var made: Int64?

  /// The columns ``init(row:)`` reads, of `table` (the table or its alias in the query): what
  /// the undo and redo queries select rather than `*`, each column selected costing their
  /// preparation an authorizer call.
  static func selection(of table: String = databaseTableName) -> String {
    ["id", "at", "device", "kind", "command", "summary", "target", "undone"]
      .map { "\(table).\($0)" }.joined(separator: ", ")
  }

  init(row: Row) throws {
    id = row[Columns.id]
    at = row[Columns.at]
    device = row[Columns.device]
    kind = row[Columns.kind]
    command = row[Columns.command]
    summary = row[Columns.summary]
    target = row[Columns.target]
    undone = row[Columns.undone]
    remote = row.hasColumn("remote") ? row["remote"] : false
    deviceName = row.hasColumn("deviceName") ? row["deviceName"] : nil
    made = row.hasColumn("made") ? row["made"] : nil
  }

  /// The Core value.
  var entry: JournalEntry {
    var entry = JournalEntry(
      id: id, at: Timestamp.date(at, .sqlite) ?? Date(timeIntervalSince1970: 0), command: command,
      summary: summary, isUndone: undone, kind: JournalEntry.Kind(rawValue: kind) ?? .change,
      target: target, fromDevice: remote ? device : nil, fromDeviceName: remote ? deviceName : nil)
    if remote, let made {
      entry.madeAt = Date(timeIntervalSince1970: Double(HybridClock.milliseconds(made)) / 1000)
    }
    return entry
  }
}

/// A `journalOperation` row: one row-level operation of a change.
struct JournalOperationRecord: FetchableRecord, TableRecord {
  static let databaseTableName = "journalOperation"

  /// The table's columns.
  enum Columns {
    static let id = Column("id")
    static let changeID = Column("changeId")
    static let entity = Column("entity")
    static let row = Column("row")
    static let action = Column("action")
    static let field = Column("field")
    static let oldValue = Column("oldValue")
    static let newValue = Column("newValue")
    static let clock = Column("clock")
    static let device = Column("device")
  }

  var operation: JournalOperation

  /// The columns ``init(row:)`` reads: what undo and redo select rather than `*` (each column
  /// selected costs the statement's preparation an authorizer call).
  static let selection = "id, entity, row, action, field, oldValue, newValue"

  init(row: Row) throws {
    guard let entity = Entity(rawValue: row[Columns.entity]) else {
      throw StorageError.sqlite("corrupt journal operation \(row[Columns.id] as Int64)")
    }
    let uuid: String = row[Columns.row]
    let old = FieldValue(row[Columns.oldValue] as DatabaseValue)
    let new = FieldValue(row[Columns.newValue] as DatabaseValue)
    let allowed = OperationExecutor.allowedFields(entity)
    func checked(_ fields: Fields) throws -> Fields {
      guard fields.keys.allSatisfy(allowed.contains) else {
        throw StorageError.sqlite("corrupt journal operation \(row[Columns.id] as Int64)")
      }
      return fields
    }
    switch row[Columns.action] as String {
    case "create":
      operation = JournalOperation(entity, row: uuid, .create(try checked(FieldsText.decode(new.text ?? ""))))
    case "delete":
      operation = JournalOperation(entity, row: uuid, .delete(try checked(FieldsText.decode(old.text ?? ""))))
    default:
      let field: String = row[Columns.field]
      guard OperationExecutor.allowedFields(entity).contains(field) else {
        throw StorageError.sqlite("corrupt journal operation \(row[Columns.id] as Int64)")
      }
      operation = JournalOperation(entity, row: uuid, .update(field: field, old: old, new: new))
    }
  }

  /// Inserts `operation` as a row of change `changeID`.
  static func insert(
    _ db: Database, _ operation: JournalOperation, changeID: Int64, clock: Int64, device: String,
    fieldsText: String? = nil
  ) throws {
    let (action, field, old, new) = columns(operation.action, fieldsText: fieldsText)
    try db.cachedStatement(sql: insertOneSQL).execute(arguments: [
      changeID, operation.entity.rawValue, operation.row, action, field, old.databaseValue,
      new.databaseValue, clock, device,
    ])
  }

  /// An action's `action`, `field`, `oldValue` and `newValue` columns: a creation's and a
  /// deletion's fields as JSON text (``FieldsText``).
  /// A creation whose fields' text is given (`fieldsText`, what ``FieldsText/encode(_:)`` writes
  /// for them) stores that text instead of encoding them again.
  static func columns(_ action: JournalOperation.Action, fieldsText: String? = nil)
    -> (String, String?, FieldValue, FieldValue)
  {
    if case .create = action, let fieldsText { return ("create", nil, .null, .text(fieldsText)) }
    switch action {
    case .create(let fields): return ("create", nil, .null, .text(FieldsText.encode(fields)))
    case .delete(let fields): return ("delete", nil, .text(FieldsText.encode(fields)), .null)
    case .update(let name, let before, let after): return ("update", name, before, after)
    }
  }
}

extension JournalOperationRecord {
  /// Inserts `operations` (each with its clock value) as rows of change `changeID`, in order:
  /// the same rows ``insert(_:_:changeID:clock:device:)`` writes, through prepared statements
  /// whose values are bound straight (``RowStatement``, no arguments array a row), up to
  /// ``rowsAStatement`` rows a statement.
  /// A creation whose fields' text is given in `fieldsTexts` (at its offset; the text
  /// ``FieldsText/encode(_:)`` writes for them, e.g. a pulled payload's own) stores that text.
  static func insertAll(
    _ db: Database, _ operations: some Collection<(operation: JournalOperation, clock: Int64)>, changeID: Int64,
    device: String, fieldsTexts: [String?] = []
  ) throws {
    guard !operations.isEmpty else { return }
    // A statement of ``rowsAStatement`` rows while as many are left, then one row a statement.
    var single: RowStatement?
    var several: RowStatement?
    var statement: RowStatement! = nil
    var left = operations.count
    // The rows of the statement in hand, and how many of them are bound.
    var size = 0
    var bound = 0
    for (index, (operation, clock)) in operations.enumerated() {
      if bound == 0 {
        size = left >= rowsAStatement ? rowsAStatement : 1
        if size > 1 {
          if several == nil { several = try RowStatement(db, sql: insertSQL(rows: rowsAStatement)) }
          statement = several
        } else {
          if single == nil { single = try RowStatement(db, sql: insertOneSQL) }
          statement = single
        }
      }
      let (action, field, old, new) = columns(
        operation.action, fieldsText: index < fieldsTexts.count ? fieldsTexts[index] : nil)
      statement.bind(changeID)
      statement.bind(operation.entity.rawValue)
      statement.bind(operation.row)
      statement.bind(action)
      statement.bind(field)
      statement.bind(old.databaseValue)
      statement.bind(new.databaseValue)
      statement.bind(clock)
      statement.bind(device)
      bound += 1
      left -= 1
      if bound == size {
        try statement.run()
        bound = 0
      }
    }
  }

  /// How many journal rows one statement inserts, while as many are left to write: each run of
  /// a statement pays SQLite's start and end (the AUTOINCREMENT counter read and written back,
  /// cursors opened and closed), as much again as a row's own insert; 50 rows of 9 values a
  /// run cost under half as much a row (BENCHMARKS.md, import25f). In the rows' order: the
  /// same ids.
  static let rowsAStatement = 50

  /// The insert of `rows` journal rows. (Appended, not `joined()`: the one-row insert is on
  /// every command's path, and the generic `joined()`'s first call costs 0.31 M instructions.)
  private static func insertSQL(rows: Int) -> String {
    var sql = "INSERT INTO journalOperation (changeId, entity, row, action, field, oldValue, newValue, clock, device) VALUES "
    for row in 0..<rows { sql += row == 0 ? "(?, ?, ?, ?, ?, ?, ?, ?, ?)" : ", (?, ?, ?, ?, ?, ?, ?, ?, ?)" }
    return sql
  }

  /// ``insertSQL(rows:)`` of one row: ``insert(_:_:changeID:clock:device:fieldsText:)``'s.
  private static let insertOneSQL = insertSQL(rows: 1)
}

/// A row's fields as compact JSON text (`{"done":1,"title":"x"}`), sorted by name, for the
/// create and delete operations of the journal.
enum FieldsText {
  static func encode(_ fields: Fields) -> String { JSONText.object(fields) }

  static func decode(_ text: String) throws -> Fields {
    // Core's reader, not JSONSerialization: on Linux that builds NSDictionary and NSNumber,
    // whose casts cost an undo ~1.6 M instructions.
    guard let fields = JSONText.fields(text) else { throw StorageError.sqlite("corrupt journal fields") }
    return fields
  }
}
