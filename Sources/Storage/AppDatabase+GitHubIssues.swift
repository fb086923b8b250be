import Core
import Foundation
import GRDB
import Zone

extension AppDatabase {
  // MARK: - Reads

  /// The todos linked to an issue whose state, when last seen, was open.
  public func todosLinkedToOpenIssues() throws(StorageError) -> [Todo] {
    try read { db in
      try TodoRecord.todos(db, where: "todo.githubUrl IS NOT NULL AND todo.githubState = 'open'")
    }
  }

  /// The todo with this id; throws ``StorageError/todosNotFound(_:)`` when there is none.
  public func todo(id: Int64) throws(StorageError) -> Todo {
    try read { db in try Self.existingTodos(db, ids: [id])[0] }
  }

  // MARK: - The import

  /// Brings GitHub's view into the todos, in one change (one `ootd undo` takes it all back):
  ///
  /// - each issue of `open` without a todo gets one on its day (``IssueTodoRule``), linked to the
  ///   project whose repository it is, under the uuid ``IssueTodoRule/uuid(url:)`` of its URL,
  ///   unless the user deleted that todo (a deletion that stands in the journal);
  /// - a linked todo is retitled when the issue was, and its issue's state kept;
  /// - a closed issue's open todo is done on the day it was closed (`doneBy: github`); a todo so
  ///   done is open again when its issue is reopened;
  /// - a transferred issue's todo follows it (its link becomes the new URL, its title the new
  ///   `owner/repo#N`); a deleted one's todo is left as it is, with a note saying so.
  public func importIssues(
    open: [GitHubIssue], checks: [IssueCheck], rules: LabelPriorityRules, today: Day,
    timeZone: any ZoneRules, now: Date
  ) throws(StorageError) -> IssueImport {
    try change(now: now) { recorder in
      let db = recorder.db
      var created: [String] = []
      var updated: [String] = []
      func noteUpdate(_ uuid: String, _ before: Int) {
        if recorder.count > before, !updated.contains(uuid) { updated.append(uuid) }
      }
      for check in checks {
        switch check {
        case .found(let linkedURL, let issue):
          guard let record = try Self.linkedRecord(db, url: linkedURL) else { continue }
          let before = recorder.count
          var new: Fields = [:]
          if issue.url != linkedURL, try Self.linkedRecord(db, url: issue.url) == nil {
            new["githubUrl"] = .text(issue.url)
            // Transferred: a todo linked to the old repository's project (or to none) follows
            // the issue to the project whose repository it is now; one the user moved stays.
            if let old = IssueReference(url: linkedURL), old.repository != issue.repository,
              try record.projectUUID == Self.projectUUID(db, repository: old.repository)
            {
              new["project"] = .optional(try Self.projectUUID(db, repository: issue.repository))
            }
          }
          new.merge(Self.issueFields(record, issue, today: today, timeZone: timeZone, now: now)) { $1 }
          try recorder.update(.todo, row: record.uuid, current: record.fields, to: new)
          noteUpdate(record.uuid, before)
        case .gone(let linkedURL):
          guard let record = try Self.linkedRecord(db, url: linkedURL) else { continue }
          let note = "GitHub: \(linkedURL) is gone (deleted, or no longer visible)"
          guard !(record.notes ?? "").contains(note) else { continue }
          let before = recorder.count
          let notes = [record.notes, note].compactMap { $0 }.joined(separator: "\n")
          try recorder.update(.todo, row: record.uuid, "notes", from: .optional(record.notes), to: .text(notes))
          noteUpdate(record.uuid, before)
        }
      }
      for issue in open {
        if let record = try Self.linkedRecord(db, url: issue.url) {
          let before = recorder.count
          try recorder.update(
            .todo, row: record.uuid, current: record.fields,
            to: Self.issueFields(record, issue, today: today, timeZone: timeZone, now: now))
          noteUpdate(record.uuid, before)
          continue
        }
        let uuid = IssueTodoRule.uuid(url: issue.url)
        if try TodoRecord.fetchAll(db, where: "todo.uuid = ?", [uuid]).first != nil { continue }
        if try Self.deletedByUser(db, uuid: uuid) { continue }
        let project = try Self.projectUUID(db, repository: issue.repository)
        let timestamp = Timestamp.string(now, .sqlite)
        try recorder.create(
          .todo,
          [
            "title": .text(IssueTodoRule.title(issue)),
            "priority": .integer(Int64(rules.priority(labels: issue.labels).rank)),
            "day": .optional(IssueTodoRule.day(issue, today: today, timeZone: timeZone)?.description),
            "done": .bool(false), "doneAt": .null, "project": .optional(project), "block": .null,
            "createdAt": .text(timestamp), "githubUrl": .text(issue.url),
            "githubState": .text("open"),
          ], uuid: uuid)
        created.append(uuid)
      }
      // A closed issue ticks its todo on whatever day it is planned: one of a later day is
      // done today (the rules' one resolution).
      let conflicts = try Self.keepTodoRules(recorder, uuids: updated, today: today)
      return IssueImport(
        created: try Self.todos(db, uuids: created),
        updated: try Self.todos(db, uuids: updated.filter { !created.contains($0) }),
        conflicts: conflicts)
    }
  }

  /// Records that the issues of these todos were closed on GitHub (after `done --close-on-github`).
  public func markIssuesClosed(todoIDs: [Int64], now: Date) throws(StorageError) -> [Todo] {
    try change(now: now) { recorder in
      let records = try Self.existingRecords(recorder.db, ids: todoIDs)
      for record in records where record.githubURL != nil {
        try recorder.update(
          .todo, row: record.uuid, "githubState", from: .optional(record.githubState),
          to: .text("closed"))
      }
      return try Self.existingTodos(recorder.db, ids: todoIDs).sorted(by: Todo.listOrder)
    }
  }

  // MARK: - Helpers

  /// The fields of a linked todo that `issue` changes: title, state, and done when closed (on
  /// the day it was closed in `timeZone`, when that is before the day it was planned for or it
  /// was in the backlog: ``TodoRules/doneWorkDay(planned:done:today:)``).
  static func issueFields(
    _ record: TodoRecord, _ issue: GitHubIssue, today: Day, timeZone: any ZoneRules, now: Date
  ) -> Fields {
    var new: Fields = ["title": .text(IssueTodoRule.title(issue))]
    new["githubState"] = .text(issue.isOpen ? "open" : "closed")
    if !issue.isOpen, record.githubState != "closed", !record.done {
      // Done on the day it was closed.
      let closed = issue.closedAt ?? now
      if let day = TodoRules.doneWorkDay(
        planned: record.day.flatMap { Day(iso: $0) }, done: Day(closed, in: timeZone), today: today)
      {
        new["day"] = .text(day.description)
      }
      new["done"] = .bool(true)
      new["doneAt"] = .text(Timestamp.string(closed, .sqlite))
      new["doneBy"] = .text(DoneBy.github.rawValue)
      new["dropped"] = .bool(false)
    } else if issue.isOpen, record.done, record.doneBy == DoneBy.github.rawValue {
      // Reopened on GitHub: the todo it ticked is open again.
      new["done"] = .bool(false)
      new["doneAt"] = .null
      new["doneBy"] = .null
    }
    return new
  }

  /// The uuid of the project whose repository is `repository` (an unarchived one first), if any.
  static func projectUUID(_ db: Database, repository: RepositoryName) throws -> String? {
    try String.fetchOne(
      db,
      sql: "SELECT uuid FROM project WHERE repository = ? COLLATE NOCASE ORDER BY archived, id LIMIT 1",
      arguments: [repository.description])
  }

  /// The todo linked to the issue at `url`, if any.
  static func linkedRecord(_ db: Database, url: String) throws -> TodoRecord? {
    try TodoRecord.fetchAll(db, where: "todo.githubUrl = ?", [url]).first
  }

  /// Whether the row `uuid` was deleted by a change that stands (not by an undo, which only
  /// takes back its creation): then an import must not bring it back.
  static func deletedByUser(_ db: Database, uuid: String) throws -> Bool {
    try Bool.fetchOne(
      db,
      sql: """
        SELECT journalOperation.action = 'delete' AND journalChange.kind <> 'undo'
        FROM journalOperation JOIN journalChange ON journalChange.id = journalOperation.changeId
        WHERE journalOperation.row = ? ORDER BY journalOperation.id DESC LIMIT 1
        """, arguments: [uuid]) ?? false
  }
}

/// The issue import run reaches this machine's todos through Core's ``IssueStore``.
extension AppDatabase: IssueStore {
  public func labelPriorityRules() throws -> LabelPriorityRules {
    try settings.labelPriorityRules()
  }
}
