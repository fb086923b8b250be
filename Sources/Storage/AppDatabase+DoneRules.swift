import Core
import Foundation
import GRDB
import Zone

extension AppDatabase {
  /// Ticks the open todos of blocks with a `commits` rule whose day (in `timeZone`) has at least
  /// one stored commit authored that day (in the rule's repository, when it names one), in one
  /// change: done at the first such commit, `doneBy: commits`. A todo the user reopened after a
  /// rule ticked it (`keepOpen`), or undid the change in which a rule ticked it (an `ootd undo`
  /// of a sync says "not this one" as `ootd undone` does), stays open; dropped todos and days
  /// after `today` are left alone. Returns the todos ticked.
  @discardableResult
  public func tickBlocksByCommits(today: Day, timeZone: any ZoneRules, now: Date)
    throws(StorageError) -> [Todo]
  {
    try change(now: now) { recorder in
      try Self.tickByCommits(recorder, today: today, timeZone: timeZone, onlyUUIDs: nil)
    }
  }

  /// Sets what ticks a block's todos by itself: `rule`, or nothing when nil. Returns the block.
  public func setDoneRule(named name: String, _ rule: DoneRule?, now: Date)
    throws(StorageError) -> TaskBlock
  {
    try change(now: now) { recorder in
      let record = try BlockRecord.named(recorder.db, name)
      try recorder.update(
        .block, row: record.uuid, current: record.fields,
        to: [
          "doneWhen": rule == nil ? .null : .text(DoneRule.commits),
          "doneWhenRepo": .optional(rule?.repository?.description),
        ])
      return try BlockRecord.named(recorder.db, name).block()
    }
  }

  /// ``tickBlocksByCommits(today:timeZone:now:)`` inside a change, for every candidate or only
  /// the todos `onlyUUIDs` names (a todo just added).
  static func tickByCommits(
    _ recorder: ChangeRecorder, today: Day, timeZone: any ZoneRules, onlyUUIDs: [String]?
  ) throws -> [Todo] {
    let db = recorder.db
    var clause = """
      todo.done = 0 AND todo.dropped = 0 AND todo.keepOpen = 0 AND todo.day <= ?
      AND todo.block IS NOT NULL
      AND EXISTS (SELECT 1 FROM block WHERE block.name = todo.block COLLATE NOCASE
        AND block.doneWhen = 'commits')
      AND NOT EXISTS (SELECT 1 FROM journalOperation JOIN journalChange
        ON journalChange.id = journalOperation.changeId
        WHERE journalOperation.row = todo.uuid AND journalOperation.field = 'doneBy'
          AND journalOperation.newValue = 'commits'
          AND journalChange.kind = 'change' AND journalChange.undone = 1)
      """
    var arguments: StatementArguments = [today.description]
    if let onlyUUIDs {
      guard !onlyUUIDs.isEmpty else { return [] }
      clause += " AND todo.uuid IN (\(Array(repeating: "?", count: onlyUUIDs.count).joined(separator: ",")))"
      arguments += StatementArguments(onlyUUIDs)
    }
    var ticked: [String] = []
    for record in try TodoRecord.fetchAll(db, where: clause, arguments) {
      guard let day = record.day.flatMap(Day.init(iso:)), let block = record.block else { continue }
      let repository = try String.fetchOne(
        db, sql: "SELECT doneWhenRepo FROM block WHERE name = ? COLLATE NOCASE", arguments: [block])
      let start = Int64(day.start(in: timeZone).timeIntervalSince1970)
      let end = Int64(day.adding(days: 1).start(in: timeZone).timeIntervalSince1970)
      // The commits the graph counts: not those found only in forks (GitHub does not count them).
      var sql = """
        SELECT min(r.authoredAt) FROM githubCommitRepository r JOIN githubCommit c ON c.sha = r.sha
        WHERE r.authoredAt >= ? AND r.authoredAt < ? AND c.counted = 1
        """
      var commitArguments: StatementArguments = [start, end]
      if let repository {
        sql += " AND r.repository = ?"
        commitArguments += [repository]
      }
      guard let first = try Int64.fetchOne(db, sql: sql, arguments: commitArguments) else { continue }
      try recorder.update(
        .todo, row: record.uuid, current: record.fields,
        to: [
          "done": .bool(true),
          "doneAt": .text(Timestamp.string(Date(timeIntervalSince1970: TimeInterval(first)), .sqlite)),
          "doneBy": .text(DoneBy.commits.rawValue),
        ])
      ticked.append(record.uuid)
    }
    return try todos(db, uuids: ticked)
  }
}
