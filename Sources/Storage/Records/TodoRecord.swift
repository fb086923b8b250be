import Core
import Foundation
import GRDB
import GRDBSQLite

/// A `todo` row, read together with its project's name and uuid.
struct TodoRecord: FetchableRecord, TableRecord {
  static let databaseTableName = "todo"

  /// The table's columns, plus the two read from the project it links to.
  enum Columns {
    static let id = Column("id")
    static let uuid = Column("uuid")
    static let title = Column("title")
    static let priority = Column("priority")
    static let day = Column("day")
    static let done = Column("done")
    static let doneAt = Column("doneAt")
    static let projectID = Column("projectId")
    static let block = Column("block")
    static let createdAt = Column("createdAt")
    static let dropped = Column("dropped")
    static let carriedFrom = Column("carriedFrom")
    static let notes = Column("notes")
    static let githubURL = Column("githubUrl")
    static let githubState = Column("githubState")
    static let doneBy = Column("doneBy")
    static let keepOpen = Column("keepOpen")
    static let tags = Column("tags")
    static let annotations = Column("annotations")
    static let attributes = Column("attributes")
    static let projectName = Column("projectName")
    static let projectUUID = Column("projectUuid")
  }

  /// What every todo query selects: the row and its project's name and uuid.
  static let selection = "todo.*, project.name AS projectName, project.uuid AS projectUuid"
  /// The FROM clause matching ``selection``.
  static let source = "todo LEFT JOIN project ON project.id = todo.projectId"

  var id: Int64
  var uuid: String
  var title: String
  var priority: Int
  var day: String?
  var done: Bool
  var doneAt: String?
  var block: String?
  var createdAt: String
  var dropped: Bool
  var carriedFrom: String?
  var notes: String?
  /// The linked issue's page, its state when last seen (`open`/`closed`), what ticked the todo,
  /// and whether the user reopened it after a rule ticked it (rules then leave it alone).
  var githubURL: String?
  var githubState: String?
  var doneBy: String?
  var keepOpen: Bool
  var tags: String?
  /// JSON text (``Annotation/text(_:)``, ``Attributes/text(_:)``), or nil when empty.
  var annotations: String?
  var attributes: String?
  var projectName: String?
  var projectUUID: String?

  /// ``Core/Todo/listOrder(_:_:)`` in SQL: the backlog (NULL) first, then day, priority, id.
  static let listOrderSQL = "todo.day, todo.priority, todo.id"
  /// ``Core/Todo/backlogOrder(_:_:)`` in SQL: priority, then the oldest first.
  static let backlogOrderSQL = "todo.priority, todo.createdAt, todo.id"

  /// Where the todo comes in a listing: by day (the backlog first, as SQLite orders NULL),
  /// then priority, then id.
  var listOrder: (day: String, priority: Int, id: Int64) { (day ?? "", priority, id) }

  /// Where each column of ``selection`` is in a row: looked up once per query instead of by
  /// name in every row (which was a tenth of a 100,000-todo listing).
  struct Layout {
    let id, uuid, title, priority, day, done, doneAt, block, createdAt, dropped, carriedFrom,
      notes, githubURL, githubState, doneBy, keepOpen, tags, annotations, attributes, projectName,
      projectUUID: Int

    /// The columns a layout finds, in the order of its slots.
    private static let columns = [
      Columns.id, Columns.uuid, Columns.title, Columns.priority, Columns.day, Columns.done,
      Columns.doneAt, Columns.block, Columns.createdAt, Columns.dropped, Columns.carriedFrom,
      Columns.notes, Columns.githubURL, Columns.githubState, Columns.doneBy, Columns.keepOpen,
      Columns.tags, Columns.annotations, Columns.attributes, Columns.projectName,
      Columns.projectUUID,
    ]

    init(_ statement: Statement) throws {
      // One pass over the statement's column names, each looked for among the 21 (the first
      // column of a name wins): no dictionary of every name built for each query, which was
      // 0.05 M instructions of each listing statement (issue 25).
      var found = [Int?](repeating: nil, count: Self.columns.count)
      let handle = statement.sqliteStatement
      for column in 0..<Int(sqlite3_column_count(handle)) {
        guard let cName = sqlite3_column_name(handle, CInt(column)) else { continue }
        let name = String(cString: cName)
        guard let slot = Self.columns.firstIndex(where: { $0.name == name }), found[slot] == nil
        else { continue }
        found[slot] = column
      }
      func index(_ slot: Int) throws -> Int {
        guard let index = found[slot] else {
          throw StorageError.sqlite("the todo query has no column \(Self.columns[slot].name)")
        }
        return index
      }
      id = try index(0)
      uuid = try index(1)
      title = try index(2)
      priority = try index(3)
      day = try index(4)
      done = try index(5)
      doneAt = try index(6)
      block = try index(7)
      createdAt = try index(8)
      dropped = try index(9)
      carriedFrom = try index(10)
      notes = try index(11)
      githubURL = try index(12)
      githubState = try index(13)
      doneBy = try index(14)
      keepOpen = try index(15)
      tags = try index(16)
      annotations = try index(17)
      attributes = try index(18)
      projectName = try index(19)
      projectUUID = try index(20)
    }
  }

  init(row: Row, layout: Layout) {
    id = row[layout.id]
    uuid = row[layout.uuid]
    title = row[layout.title]
    priority = row[layout.priority]
    day = row[layout.day]
    done = row[layout.done]
    doneAt = row[layout.doneAt]
    block = row[layout.block]
    createdAt = row[layout.createdAt]
    dropped = row[layout.dropped]
    carriedFrom = row[layout.carriedFrom]
    notes = row[layout.notes]
    githubURL = row[layout.githubURL]
    githubState = row[layout.githubState]
    doneBy = row[layout.doneBy]
    keepOpen = row[layout.keepOpen]
    tags = row[layout.tags]
    annotations = row[layout.annotations]
    attributes = row[layout.attributes]
    projectName = row[layout.projectName]
    projectUUID = row[layout.projectUUID]
  }

  init(row: Row) throws {
    id = row[Columns.id]
    uuid = row[Columns.uuid]
    title = row[Columns.title]
    priority = row[Columns.priority]
    day = row[Columns.day]
    done = row[Columns.done]
    doneAt = row[Columns.doneAt]
    block = row[Columns.block]
    createdAt = row[Columns.createdAt]
    dropped = row[Columns.dropped]
    carriedFrom = row[Columns.carriedFrom]
    notes = row[Columns.notes]
    githubURL = row[Columns.githubURL]
    githubState = row[Columns.githubState]
    doneBy = row[Columns.doneBy]
    keepOpen = row[Columns.keepOpen]
    tags = row[Columns.tags]
    annotations = row[Columns.annotations]
    attributes = row[Columns.attributes]
    projectName = row[Columns.projectName]
    projectUUID = row[Columns.projectUUID]
  }

  /// The Core value.
  func todo() throws -> Todo { try Self.todo(self) }

  /// The Core value of a row's columns, wherever they are held (a ``TodoRecord``, or the
  /// statement a listing steps through, ``StatementColumns``): the one mapping of a row to a
  /// ``Core/Todo`` (``Reading/read(_:)``).
  @inline(__always)
  static func todo(_ row: some TodoColumns) throws -> Todo {
    var reading = Reading()
    try reading.read(row)
    return reading.todo
  }

  /// One ``Core/Todo`` read from row after row into the same value: each field is assigned
  /// only what changed, and a text equal to the previous row's (a project, a block, the tags)
  /// keeps the `String` (and the tags array) it has. A listing of a million todos then builds
  /// no whole `Todo` per row, nor copies and destroys one (a tenth of an export's instructions).
  struct Reading {
    var todo = Todo(id: 0, title: "", priority: .mid, day: nil, createdAt: Date(timeIntervalSince1970: 0))
    /// The tags, annotations and attributes columns of the previous row, as they were parsed.
    private var tags: String?
    private var annotations: String?
    private var attributes: String?

    /// Reads `row` into ``todo``.
    @inline(__always)
    mutating func read(_ row: some TodoColumns) throws {
      let parsedDay: Day?? = row.withText(.day) { bytes in bytes.map(Day.init(isoUTF8:)) }
      guard let priority = Priority(rank: row.priority), parsedDay != .some(nil) else {
        throw StorageError.sqlite("corrupt todo row \(row.id)")
      }
      let done = row.done
      todo.id = row.id
      row.update(&todo.title, .title)
      todo.priority = priority
      todo.day = parsedDay ?? nil
      todo.isDone = done
      todo.doneAt = row.withText(.doneAt) { bytes in bytes.flatMap { Timestamp.date(utf8: $0, .sqlite) } }
      row.update(&todo.project, .projectName)
      row.update(&todo.block, .block)
      todo.createdAt =
        row.withText(.createdAt) { bytes in bytes.flatMap { Timestamp.date(utf8: $0, .sqlite) } }
        ?? Date(timeIntervalSince1970: 0)
      row.update(&todo.uuid, .uuid)
      todo.isDropped = row.dropped
      if let carriedFrom = row.carriedFrom {
        todo.carriedFrom = CarryRecord.days(carriedFrom)
      } else if !todo.carriedFrom.isEmpty {
        todo.carriedFrom = []
      }
      row.update(&todo.notes, .notes)
      if let githubURL = row.githubURL {
        todo.github = GitHubLink(url: githubURL, isOpen: row.githubState != "closed")
      } else if todo.github != nil {
        todo.github = nil
      }
      todo.doneBy = done ? row.doneBy.flatMap(DoneBy.init(rawValue:)) : nil
      if row.update(&tags, .tags) { todo.tags = tags.map(Tag.tags) ?? [] }
      if row.update(&annotations, .annotations) { todo.annotations = annotations.map(Annotation.annotations) ?? [] }
      if row.update(&attributes, .attributes) { todo.attributes = attributes.map(Attributes.attributes) ?? [:] }
    }
  }

  /// The row a journal creation made: `fields` as it recorded them (with the id the row got),
  /// the columns it did not set at their defaults, and the project's name.
  init(uuid: String, created fields: Fields, projectName: String?) throws {
    guard let id = fields[todo: .id]?.integer, let title = fields[todo: .title]?.text,
      let priority = fields[todo: .priority]?.integer, let createdAt = fields[todo: .createdAt]?.text
    else { throw StorageError.sqlite("incomplete todo creation \(uuid)") }
    // A missing or null day is the backlog.
    let day = fields[todo: .day]?.text
    self.id = id
    self.uuid = uuid
    self.title = title
    self.priority = Int(priority)
    self.day = day
    done = fields[todo: .done] == .integer(1)
    doneAt = fields[todo: .doneAt]?.text
    block = fields[todo: .block]?.text
    self.createdAt = createdAt
    dropped = fields[todo: .dropped] == .integer(1)
    carriedFrom = fields[todo: .carriedFrom]?.text
    notes = fields[todo: .notes]?.text
    githubURL = fields[todo: .githubUrl]?.text
    githubState = fields[todo: .githubState]?.text
    doneBy = fields[todo: .doneBy]?.text
    keepOpen = fields[todo: .keepOpen] == .integer(1)
    tags = fields[todo: .tags]?.text
    annotations = fields[todo: .annotations]?.text
    attributes = fields[todo: .attributes]?.text
    self.projectName = projectName
    projectUUID = fields[todo: .project]?.text
  }

  /// The row as the change journal records it (the project by uuid, never by local id): every
  /// field of ``TodoField``.
  var fields: Fields {
    var fields = Fields(minimumCapacity: TodoField.allCases.count)
    for field in TodoField.allCases { fields[todo: field] = value(field) }
    return fields
  }

  /// One field's value as the journal records it. Exhaustive: a new ``TodoField`` does not
  /// compile until it says which column it is.
  func value(_ field: TodoField) -> FieldValue {
    switch field {
    case .id: .integer(id)
    case .title: .text(title)
    case .priority: .integer(Int64(priority))
    case .day: .optional(day)
    case .done: .bool(done)
    case .doneAt: .optional(doneAt)
    case .project: .optional(projectUUID)
    case .block: .optional(block)
    case .createdAt: .text(createdAt)
    case .dropped: .bool(dropped)
    case .carriedFrom: .optional(carriedFrom)
    case .notes: .optional(notes)
    case .githubUrl: .optional(githubURL)
    case .githubState: .optional(githubState)
    case .doneBy: .optional(doneBy)
    case .keepOpen: .bool(keepOpen)
    case .tags: .optional(tags)
    case .annotations: .optional(annotations)
    case .attributes: .optional(attributes)
    }
  }

  /// The todos matching an SQL condition, ordered by day, priority (high first), then id.
  static func fetchAll(
    _ db: Database, where clause: String, _ arguments: StatementArguments = [], cached: Bool = false,
    limit: Int? = nil, order: String = listOrderSQL
  ) throws -> [TodoRecord] {
    var records: [TodoRecord] = []
    try forEach(db, where: clause, arguments, cached: cached, limit: limit, order: order) { record in
      records.append(record)
      return true
    }
    return records
  }

  /// The records of ``fetchAll(_:where:_:cached:limit:)`` handed to `body` one at a time,
  /// until it returns false: the first `limit` of them, when given. `cached` keeps the compiled
  /// statement for the next call with the same clause (for a lookup repeated per row, whose
  /// `body` runs no query of its own).
  static func forEach(
    _ db: Database, where clause: String, _ arguments: StatementArguments = [], cached: Bool = false,
    limit: Int? = nil, order: String = listOrderSQL, _ body: (TodoRecord) throws -> Bool
  ) throws {
    let sql = """
      SELECT \(selection) FROM \(source) WHERE \(clause)
      ORDER BY \(order)\(limit.map { " LIMIT \($0)" } ?? "")
      """
    // A cursor reuses one row buffer: no copy of each row as fetchAll makes.
    let statement = try cached ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
    let layout = try Layout(statement)
    let rows = try Row.fetchCursor(statement, arguments: arguments)
    while let row = try rows.next() {
      guard try body(TodoRecord(row: row, layout: layout)) else { return }
    }
  }

  /// The Core values of the todos matching an SQL condition, in ``forEach(_:where:_:cached:limit:order:_:)``'s
  /// order, handed to `body` one at a time until it returns false. Each is read straight from
  /// the statement (``StatementColumns``): no ``TodoRecord`` of 21 `String`s on the way, and
  /// no `String` at all for a day or a timestamp. What the listings and the exports read, a
  /// million rows at a time.
  static func forEachTodo(
    _ db: Database, where clause: String, _ arguments: StatementArguments = [],
    order: String = listOrderSQL, _ body: (Todo) throws -> Bool
  ) throws {
    let sql = "SELECT \(selection) FROM \(source) WHERE \(clause) ORDER BY \(order)"
    let statement = try db.makeStatement(sql: sql)
    let columns = StatementColumns(statement.sqliteStatement, layout: try Layout(statement))
    let rows = try Row.fetchCursor(statement, arguments: arguments)
    var reading = Reading()
    while try rows.next() != nil {
      try reading.read(columns)
      guard try body(reading.todo) else { return }
    }
  }

  /// As ``forEachTodo(_:where:_:order:_:)``, with one more integer column, `extra` (an SQL
  /// expression, the same for every row: a count asked in the same statement), handed to `body`
  /// with each todo.
  static func forEachTodo(
    _ db: Database, where clause: String, _ arguments: StatementArguments, extra: String,
    order: String = listOrderSQL, _ body: (Todo, Int64) throws -> Bool
  ) throws {
    let sql = "SELECT \(selection), \(extra) AS ootdExtra FROM \(source) WHERE \(clause) ORDER BY \(order)"
    let statement = try db.makeStatement(sql: sql)
    let columns = StatementColumns(statement.sqliteStatement, layout: try Layout(statement))
    let extraIndex = CInt(statement.columnCount - 1)
    let rows = try Row.fetchCursor(statement, arguments: arguments)
    while try rows.next() != nil {
      guard try body(todo(columns), sqlite3_column_int64(statement.sqliteStatement, extraIndex)) else { return }
    }
  }

  /// The fields (``fields``) of the todo with this uuid as it is now, or nil when there is none:
  /// one row, read by a statement lighter to prepare than ``fetchAll(_:where:_:cached:limit:)``'s
  /// (no join, no order, no project name): what undo and redo check before each operation.
  static func fields(_ db: Database, uuid: String) throws -> Fields? {
    let statement = try db.cachedStatement(
      sql: """
        SELECT todo.*, NULL AS projectName,
          (SELECT uuid FROM project WHERE project.id = todo.projectId) AS projectUuid
        FROM todo WHERE uuid = ?
        """)
    let layout = try Layout(statement)
    return try Row.fetchOne(statement, arguments: [uuid]).map { TodoRecord(row: $0, layout: layout).fields }
  }

  /// Like ``fetchAll(_:where:_:)``, as Core values.
  static func todos(_ db: Database, where clause: String, _ arguments: StatementArguments = [])
    throws -> [Todo]
  {
    var todos: [Todo] = []
    try forEachTodo(db, where: clause, arguments) { todo in
      todos.append(todo)
      return true
    }
    return todos
  }
}

/// The columns of a todo row that the mapping to ``Core/Todo`` (``TodoRecord/todo(_:)``) reads.
protocol TodoColumns {
  var id: Int64 { get }
  var priority: Int { get }
  var done: Bool { get }
  var dropped: Bool { get }
  var carriedFrom: String? { get }
  var githubURL: String? { get }
  var githubState: String? { get }
  var doneBy: String? { get }
  /// Sets `text` to a text column's value (nil when NULL), unless it holds that text already;
  /// returns whether it changed.
  @discardableResult func update(_ text: inout String?, _ column: TodoTextColumn) -> Bool
  /// Hands `body` the UTF-8 bytes of a day or timestamp column, nil when it is NULL.
  func withText<Result>(_ column: TodoTimeColumn, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result
}

/// The columns of a todo row read as bytes (parsed without a `String`).
enum TodoTimeColumn {
  case day, doneAt, createdAt
}

/// The text columns of a todo row read into a `String` that may be kept from the previous row.
enum TodoTextColumn {
  case uuid, title, block, notes, projectName, tags, annotations, attributes
}

extension TodoColumns {
  /// ``update(_:_:)-(String?,_)`` for a column that is never NULL (NULL reads as "").
  @inline(__always)
  func update(_ text: inout String, _ column: TodoTextColumn) {
    var value: String? = text
    text = ""  // (`value` is then the only reference: an unchanged text is not copied.)
    update(&value, column)
    text = value ?? ""
  }
}

extension TodoRecord: TodoColumns {
  @discardableResult
  func update(_ text: inout String?, _ column: TodoTextColumn) -> Bool {
    let value: String?
    switch column {
    case .uuid: value = uuid
    case .title: value = title
    case .block: value = block
    case .notes: value = notes
    case .projectName: value = projectName
    case .tags: value = tags
    case .annotations: value = annotations
    case .attributes: value = attributes
    }
    // (Equal bytes, not Unicode equality: a text is kept only when it is the same text.)
    if let value, let current = text, value.utf8.elementsEqual(current.utf8) { return false }
    if value == nil, text == nil { return false }
    text = value
    return true
  }

  func withText<Result>(_ column: TodoTimeColumn, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
    let text: String?
    switch column {
    case .day: text = day
    case .doneAt: text = doneAt
    case .createdAt: text = createdAt
    }
    guard var text else { return body(nil) }
    return text.withUTF8 { body($0) }
  }
}

/// The row a statement is on, read column by column by index (``TodoRecord/Layout``), straight
/// from SQLite: only the columns the mapping asks for, days and timestamps as bytes.
struct StatementColumns: TodoColumns {
  let statement: SQLiteStatement
  let layout: TodoRecord.Layout

  init(_ statement: SQLiteStatement, layout: TodoRecord.Layout) {
    self.statement = statement
    self.layout = layout
  }

  @inline(__always) private func integer(_ index: Int) -> Int64 { sqlite3_column_int64(statement, CInt(index)) }
  @inline(__always) private func text(_ index: Int) -> String? {
    sqlite3_column_type(statement, CInt(index)) == SQLITE_NULL
      ? nil : String(sqliteStatement: statement, index: CInt(index))
  }

  var id: Int64 { integer(layout.id) }
  var priority: Int { Int(integer(layout.priority)) }
  var done: Bool { integer(layout.done) != 0 }
  var dropped: Bool { integer(layout.dropped) != 0 }
  var carriedFrom: String? { text(layout.carriedFrom) }
  var githubURL: String? { text(layout.githubURL) }
  var githubState: String? { text(layout.githubState) }
  var doneBy: String? { text(layout.doneBy) }

  @discardableResult
  func update(_ text: inout String?, _ column: TodoTextColumn) -> Bool {
    let index: Int
    switch column {
    case .uuid: index = layout.uuid
    case .title: index = layout.title
    case .block: index = layout.block
    case .notes: index = layout.notes
    case .projectName: index = layout.projectName
    case .tags: index = layout.tags
    case .annotations: index = layout.annotations
    case .attributes: index = layout.attributes
    }
    // (sqlite3_column_text before sqlite3_column_bytes, as SQLite's documentation asks.)
    guard let start = sqlite3_column_text(statement, CInt(index)) else {
      guard text != nil else { return false }
      text = nil
      return true
    }
    // The text up to its first NUL, as GRDB's `String(cString:)` reads it (invalid UTF-8
    // repaired the same way).
    let all = Int(sqlite3_column_bytes(statement, CInt(index)))
    let count = memchr(start, 0, all).map { UnsafeRawPointer($0) - UnsafeRawPointer(start) } ?? all
    let bytes = UnsafeBufferPointer(start: start, count: count)
    if let current = text,
      current.utf8.withContiguousStorageIfAvailable({ stored in
        stored.count == count && (count == 0 || memcmp(stored.baseAddress!, start, count) == 0)
      })
        == true
    {
      return false
    }
    text = String(decoding: bytes, as: UTF8.self)
    return true
  }

  func withText<Result>(_ column: TodoTimeColumn, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
    let index: Int
    switch column {
    case .day: index = layout.day
    case .doneAt: index = layout.doneAt
    case .createdAt: index = layout.createdAt
    }
    // (sqlite3_column_text before sqlite3_column_bytes, as SQLite's documentation asks.)
    guard let text = sqlite3_column_text(statement, CInt(index)) else { return body(nil) }
    return body(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, CInt(index)))))
  }
}
