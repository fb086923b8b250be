import Core
import Foundation
import Formats
import GRDB

extension AppDatabase: CalDAVStore {
  /// The linked collection, or nil.
  public func calDAVLink() throws(StorageError) -> CalDAVLink? {
    try read { db in try CalDAVLinkRecord.fetchOne(db)?.link }
  }

  /// Links `link`'s collection (`caldav set`). Another URL or user than the linked one starts
  /// over: the per-todo states and the sync token are forgotten (the first sync then matches
  /// todos and VTODOs by uuid, pushing nothing twice).
  public func setCalDAVLink(_ link: CalDAVLink) throws(StorageError) {
    try write { db in
      var link = link
      if let old = try CalDAVLinkRecord.fetchOne(db)?.link {
        if old.url == link.url && old.user == link.user {
          link.syncToken = old.syncToken
          link.lastSync = old.lastSync
          link.ctag = old.ctag
        } else {
          try CalDAVTodoRecord.deleteAll(db)
          link.syncToken = nil
          link.lastSync = nil
        }
      }
      try CalDAVLinkRecord(link).save(db)
    }
  }

  /// Every todo's state as of the last sync, by uuid.
  public func calDAVStates() throws(StorageError) -> [String: CalDAVTodoState] {
    try read { db in
      var states: [String: CalDAVTodoState] = [:]
      for record in try CalDAVTodoRecord.fetchAll(db) {
        if let state = record.state { states[state.uuid] = state }
      }
      return states
    }
  }

  /// The todos a sync over `window` looks at: those planned in it, the backlog, and every todo
  /// linked to a VTODO (one moved out of the window is still updated on the server).
  public func calDAVTodos(window: DayRange) throws(StorageError) -> [CalDAVLocalTodo] {
    try read { db in
      try TodoRecord.fetchAll(
        db,
        where: "todo.day IS NULL OR todo.day BETWEEN ? AND ? OR todo.uuid IN (SELECT uuid FROM caldavTodo)",
        [window.from.description, window.to.description]
      ).map(\.calDAVTodo)
    }
  }

  /// The todos of `uuids` that exist.
  public func calDAVTodos(uuids: [String]) throws(StorageError) -> [CalDAVLocalTodo] {
    try read { db in try Self.calDAVRecords(db, uuids: uuids).map(\.calDAVTodo) }
  }

  /// When each todo of `uuids` was last changed (its latest journal entry); a todo never
  /// journaled is left out.
  public func calDAVLastChanges(uuids: [String]) throws(StorageError) -> [String: Date] {
    try read { db in
      var result: [String: Date] = [:]
      let statement = try db.cachedStatement(
        sql: """
          SELECT journalChange.at FROM journalOperation JOIN journalChange ON journalChange.id = journalOperation.changeId
          WHERE journalOperation.row = ? ORDER BY journalOperation.changeId DESC LIMIT 1
          """)
      for uuid in uuids {
        if let at = try String.fetchOne(statement, arguments: [uuid]), let date = Timestamp.date(at, .sqlite) {
          result[uuid] = date
        }
      }
      return result
    }
  }

  /// The names of the projects and task blocks: what a VTODO's `CATEGORIES` may name.
  public func calDAVCategoryNames() throws(StorageError) -> CalDAVCategories.Names {
    try read { db in
      CalDAVCategories.Names(
        projects: Set(try String.fetchAll(db, sql: "SELECT name FROM project")),
        blocks: Set(try String.fetchAll(db, sql: "SELECT name FROM block")))
    }
  }

  /// Applies what a sync pulled as ONE journal change (one `ootd undo` takes it back), mends
  /// any todo it leaves breaking a rule, and records `states` (and forgets the links of
  /// `forget`) and the server's `syncToken`, all in one transaction: a sync killed before it
  /// commits has changed nothing here. With `change` (the entry an earlier call of the same
  /// sync returned, still this machine's latest), the writes join that entry: a sync whose
  /// retried push pulls again is still one change.
  public func applyCalDAVPull(
    _ writes: [CalDAVLocalWrite], states: [CalDAVTodoState], forget: [String], syncToken: String?,
    joining change: Int64?, today: Day, now: Date
  ) throws(StorageError) -> CalDAVPullResult {
    let (pulled, entry) = try self.change(now: now, continuing: change) { recorder in
      let db = recorder.db
      var result = CalDAVPullResult()
      var touched: [String] = []
      for write in writes {
        switch write {
        case .create(let uuid, let fields):
          var journal = try Self.journalFields(db, fields, current: nil)
          journal[todo: .createdAt] = .text(Timestamp.string(now, .sqlite))
          journal[todo: .carriedFrom] = .null
          journal[todo: .keepOpen] = .bool(false)
          try recorder.create(.todo, journal, uuid: uuid)
          touched.append(uuid)
          result.created += 1
        case .update(let uuid, let fields):
          guard let record = try Self.calDAVRecords(db, uuids: [uuid]).first else { continue }
          let before = recorder.count
          try recorder.update(
            .todo, row: uuid, current: record.fields, to: try Self.journalFields(db, fields, current: record))
          if recorder.count > before {
            touched.append(uuid)
            result.updated += 1
          }
        case .delete(let uuid):
          guard let record = try Self.calDAVRecords(db, uuids: [uuid]).first else { continue }
          try recorder.delete(.todo, row: uuid, fields: record.fields)
          result.deleted += 1
        }
      }
      result.ruleConflicts = try Self.keepTodoRules(recorder, uuids: touched, today: today, latest: TodoRules.latestDay(at: now))
      for state in states { try CalDAVTodoRecord(state).save(db) }
      for uuid in forget { try CalDAVTodoRecord.deleteOne(db, key: uuid) }
      try db.execute(sql: "UPDATE caldavLink SET syncToken = ?", arguments: [syncToken])
      return result
    }
    var result = pulled
    result.change = entry
    return result
  }

  /// Records the todos' states after pushes, in one transaction.
  public func recordCalDAVStates(_ changes: [CalDAVStateChange]) throws(StorageError) {
    guard !changes.isEmpty else { return }
    try write { db in
      for change in changes {
        if let state = change.state {
          // A resource renamed by the server: its old path is no one's now.
          try CalDAVTodoRecord.filter(CalDAVTodoRecord.Columns.href == state.href && CalDAVTodoRecord.Columns.uuid != change.uuid)
            .deleteAll(db)
          try CalDAVTodoRecord(state).save(db)
        } else {
          try CalDAVTodoRecord.deleteOne(db, key: change.uuid)
        }
      }
    }
  }

  /// Records a finished sync: the server's token and ctag, and when.
  public func finishCalDAVSync(syncToken: String?, ctag: String?, now: Date) throws(StorageError) {
    try write { db in
      try db.execute(
        sql: "UPDATE caldavLink SET syncToken = ?, ctag = COALESCE(?, ctag), lastSync = ?",
        arguments: [syncToken, ctag, Timestamp.string(now, .sqlite)])
    }
  }

  // MARK: - Helpers

  static func calDAVRecords(_ db: Database, uuids: [String]) throws -> [TodoRecord] {
    var records: [TodoRecord] = []
    for start in stride(from: 0, to: uuids.count, by: 500) {
      let slice = Array(uuids[start..<min(start + 500, uuids.count)])
      let placeholders = Array(repeating: "?", count: slice.count).joined(separator: ",")
      records += try TodoRecord.fetchAll(db, where: "todo.uuid IN (\(placeholders))", StatementArguments(slice))
    }
    return records
  }

  /// The journal's fields for synced `fields` (``CalDAVFields``): `doneAt` back in SQLite's
  /// form (the stored one kept when it is the same second), the project by name (one that does
  /// not exist leaves the todo's as it is), `doneBy` set when a pull ticks it.
  static func journalFields(_ db: Database, _ fields: Fields, current: TodoRecord?) throws -> Fields {
    var journal = Fields()
    for name in CalDAVFields.names where name != TodoField.project.rawValue && name != TodoField.doneAt.rawValue {
      if let value = fields[name] { journal[name] = value }
    }
    let doneAt = fields[todo: .doneAt]?.text.flatMap { Timestamp.date($0, .compact) }
    if let current, let stored = current.doneAt.flatMap({ Timestamp.date($0, .sqlite) }), let doneAt,
      Timestamp.string(stored, .compact) == Timestamp.string(doneAt, .compact)
    {
      journal[todo: .doneAt] = .text(current.doneAt!)
    } else {
      journal[todo: .doneAt] = .optional(doneAt.map { Timestamp.string($0, .sqlite) })
    }
    let done = fields[todo: .done] == .bool(true)
    if done != (current?.done ?? false) || current == nil {
      journal[todo: .doneBy] = done ? .text(DoneBy.manual.rawValue) : .null
    }
    if let name = fields[todo: .project]?.text {
      if name != current?.projectName,
        let uuid = try String.fetchOne(db, sql: "SELECT uuid FROM project WHERE name = ?", arguments: [name])
      {
        journal[todo: .project] = .text(uuid)
      } else if current == nil {
        journal[todo: .project] = .null
      }
    } else {
      journal[todo: .project] = .null
    }
    return journal
  }
}

extension TodoRecord {
  /// The todo as a CalDAV sync compares it (``CalDAVFields``).
  var calDAVTodo: CalDAVLocalTodo {
    var fields = Fields(minimumCapacity: CalDAVFields.names.count)
    fields[todo: .title] = .text(title)
    fields[todo: .priority] = .integer(Int64(priority))
    fields[todo: .day] = .optional(day)
    fields[todo: .done] = .bool(done)
    fields[todo: .doneAt] =
      done ? .optional(doneAt.flatMap { Timestamp.date($0, .sqlite) }.map { Timestamp.string($0, .compact) }) : .null
    fields[todo: .dropped] = .bool(dropped)
    fields[todo: .notes] = .optional(notes)
    fields[todo: .tags] = .optional(tags)
    fields[todo: .project] = .optional(projectName)
    fields[todo: .block] = .optional(block)
    return CalDAVLocalTodo(
      uuid: uuid, id: id, fields: fields,
      createdAt: Timestamp.date(createdAt, .sqlite) ?? Date(timeIntervalSince1970: 0))
  }
}
