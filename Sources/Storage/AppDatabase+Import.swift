import Core
import Foundation
import GRDB

/// What an import did (or, for a dry run, would do).
public struct ImportResult: Hashable, Sendable {
  /// Todos created.
  public var added = 0
  /// Todos that existed (same uuid) and had fields changed.
  public var updated = 0
  /// Todos that existed and already matched.
  public var unchanged = 0
  /// Items of the file left out, by reason.
  public var skipped: [String: Int] = [:]
  /// The projects created, in the order first met.
  public var projects: [String] = []

  /// How many items were left out in all.
  public var skippedCount: Int { skipped.values.reduce(0, +) }
}

extension AppDatabase {
  /// Applies an import plan as one change (one transaction, one journal entry, so `ootd undo`
  /// takes it back whole): each todo is created under its uuid, or, when a todo has that uuid,
  /// updated in the fields that differ (the tags and notes are replaced by the file's); missing
  /// projects are created. With `dryRun`, only
  /// counts what would happen. A todo whose day is only a default keeps its day on update.
  public func importTodos(_ plan: consuming ImportPlan, dryRun: Bool = false, now: Date = Date())
    throws(StorageError) -> ImportResult
  {
    let result: ImportResult
    // Taken out when applied (the transaction's body runs once), so that the plan is gone
    // before the journal entry is written: the caller hands it over and keeps no copy.
    var pending = consume plan
    if dryRun {
      result = try read { db in
        let plan = pending
        pending = ImportPlan()
        return try Self.applyImport(db, recorder: nil, plan, now: now)
      }
    } else {
      result = try change(now: now) { recorder in
        let plan = pending
        pending = ImportPlan()
        return try Self.applyImport(recorder.db, recorder: recorder, plan, now: now)
      }
      if result.added + result.updated > 1000 {
        // Fold a large write-ahead log into the database now, not in the next command.
        do {
          try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        } catch {
          throw Self.map(error, path: path)
        }
      }
    }
    return result
  }

  /// Counts, and with a recorder applies, an import plan.
  static func applyImport(_ db: Database, recorder: ChangeRecorder?, _ plan: ImportPlan, now: Date)
    throws -> ImportResult
  {
    var result = ImportResult()
    result.skipped = plan.skipped
    let timestamp = Timestamp.text(now)
    // Projects by lowercased name → uuid (names are unique regardless of case).
    var projects: [String: String] = [:]
    for row in try Row.fetchAll(db, sql: "SELECT name, uuid FROM project") {
      projects[(row["name"] as String).lowercased()] = row["uuid"]
    }
    // The todos the plan names, by uuid (one query per 500 uuids, not one per todo).
    var existing: [String: TodoRecord] = [:]
    let uuids = plan.todos.map(\.uuid)
    for start in stride(from: 0, to: uuids.count, by: 500) {
      let chunk = Array(uuids[start..<min(start + 500, uuids.count)])
      let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
      for record in try TodoRecord.fetchAll(db, where: "todo.uuid IN (\(marks))", StatementArguments(chunk)) {
        existing[record.uuid] = record
      }
    }
    for todo in plan.todos {
      var projectUUID: String? = nil
      if let name = todo.project {
        if let known = projects[name.lowercased()] {
          projectUUID = known
        } else {
          let uuid = RowID.random()
          if let recorder {
            try recorder.create(
              .project,
              ["name": .text(name), "tech": .text(""), "archived": .bool(false), "createdAt": .text(timestamp)],
              uuid: uuid)
          }
          projects[name.lowercased()] = uuid
          projectUUID = uuid
          result.projects.append(name)
        }
      }
      var fields: Fields = [
        "title": .text(todo.title), "priority": .integer(Int64(todo.priority.rank)),
        "day": .text(todo.day.description), "done": .bool(todo.isDone),
        "project": .optional(projectUUID), "notes": .optional(todo.notes),
        "tags": .optional(Tag.text(todo.tags)),
      ]
      if let record = existing[todo.uuid] {
        if todo.dayIsDefault { fields["day"] = nil }
        // Keep the recorded time of a todo that stays done; set or clear it when that changes.
        if todo.isDone != record.done {
          fields["doneAt"] = todo.isDone ? .text(Timestamp.text(todo.doneAt ?? now)) : .null
          if todo.isDone { fields["dropped"] = .bool(false) }
        } else if todo.isDone, let doneAt = todo.doneAt {
          fields["doneAt"] = .text(Timestamp.text(doneAt))
        }
        let current = record.fields
        let differs = fields.contains { current[$0.key] ?? .null != $0.value }
        if differs {
          result.updated += 1
          try recorder?.update(.todo, row: record.uuid, current: current, to: fields)
        } else {
          result.unchanged += 1
        }
      } else {
        fields["doneAt"] = todo.isDone ? .text(Timestamp.text(todo.doneAt ?? now)) : .null
        fields["createdAt"] = .text(Timestamp.text(todo.createdAt ?? now))
        result.added += 1
        try recorder?.create(.todo, fields, uuid: todo.uuid)
      }
    }
    return result
  }
}
