import Core
import GRDB

/// The todo rules (``TodoRules``) on stored rows: the paths that cannot refuse a change (a
/// sync merge, an import, `github issues`) mend a todo that breaks one by the fixed resolution,
/// through the one write path, and report it in words.
extension TodoRecord {
  /// What the rules look at in this row (nil when its day is unreadable).
  var ruleState: TodoRuleState? { TodoRuleState(fields) }

  /// How a rule sentence names this todo: `#12 'Write the report'` (``RowSubject``).
  var ruleSubject: String { RowSubject.of(.todo, number: id, name: title) }
}

extension JournalOperation {
  /// Whether this operation can leave its todo breaking a rule: a todo created that may break
  /// one (``TodoRules/mayBreak(creating:)``), or a field the rules look at set
  /// (``TodoRules/fields``).
  var touchesRules: Bool {
    guard entity == .todo else { return false }
    switch action {
    case .create(let fields): return TodoRules.mayBreak(creating: fields)
    case .update(let field, _, _): return TodoRules.fields.contains(field)
    case .delete: return false
    }
  }
}

extension AppDatabase {
  /// Mends each todo of `uuids` that breaks a rule on `today` by the fixed resolution
  /// (``TodoRules/resolve(_:today:latest:)``), through `recorder`, and returns a sentence per fix.
  /// Rows that are gone, or keep every rule, are left alone. A sync merge passes `latest`
  /// (``TodoRules/latestDay(at:)``: a done todo of a day that is today somewhere is not after
  /// today) and the todos of `movedUnseen`, whose drop met a move made without seeing it
  /// (``TodoRules/movedUnseen(_:by:isPending:)``).
  static func keepTodoRules(
    _ recorder: ChangeRecorder, uuids: some Collection<String>, today: Day, latest: Day? = nil,
    movedUnseen: Set<String> = []
  ) throws -> [String] {
    var sentences: [String] = []
    var breaking = try breakingRules(recorder.db, uuids: uuids, today: today, latest: latest)
    let seen = Set(breaking.map(\.0.uuid))
    for record in try records(recorder.db, movedUnseen.filter { !seen.contains($0) }, where: "todo.dropped = 1 AND todo.done = 0") {
      guard var state = record.ruleState else { continue }
      state.movedUnseen = true
      breaking.append((record, state))
    }
    for index in breaking.indices where movedUnseen.contains(breaking[index].0.uuid) {
      breaking[index].1.movedUnseen = true
    }
    for (record, state) in breaking {
      let (resolved, fixes) = TodoRules.resolve(state, today: today, latest: latest)
      guard !fixes.isEmpty else { continue }
      try recorder.update(.todo, row: record.uuid, current: record.fields, to: resolved.fields)
      sentences += fixes.map { $0.sentence(record.ruleSubject) }
    }
    return sentences
  }

  /// Keeps ``RoutineOnce`` on the days the todos of `uuids` are on (those a merge created,
  /// moved or gave a block): a day's planned routine todo that meets another todo of its
  /// block there is folded into it and removed, through `recorder`. Returns a sentence per fold
  /// and the todos that took over a done (for the rules to check).
  static func keepRoutineOnce(_ recorder: ChangeRecorder, uuids: some Collection<String>) throws
    -> (sentences: [String], tookDone: Set<String>)
  {
    let db = recorder.db
    // The days and routine blocks of the todos placed, read without the todos themselves (a
    // first pull places thousands).
    var days = Set<[String]>()
    let all = Array(uuids)
    for start in stride(from: 0, to: all.count, by: 500) {
      let chunk = Array(all[start..<min(start + 500, all.count)])
      let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
      for row in try Row.fetchAll(
        db,
        sql: """
          SELECT DISTINCT todo.day, lower(todo.block) FROM todo
          JOIN block ON block.name = todo.block COLLATE NOCASE AND block.routine = 1
          WHERE todo.uuid IN (\(marks)) AND todo.day IS NOT NULL
          """, arguments: StatementArguments(chunk))
      {
        let day: String = row[0]
        let block: String = row[1]
        days.insert([day, block])
      }
    }
    var sentences: [String] = []
    var tookDone = Set<String>()
    for pair in days.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
      guard let day = Day(iso: pair[0]),
        let row = try Row.fetchOne(
          db, sql: "SELECT * FROM block WHERE name = ? COLLATE NOCASE AND routine = 1", arguments: [pair[1]])
      else { continue }
      let block = try BlockRecord(row: row)
      let todos = try TodoRecord.fetchAll(db, where: "todo.day = ? AND todo.block = ? COLLATE NOCASE", [pair[0], pair[1]])
      guard todos.count > 1 else { continue }
      let plannedUUID = RowID.routineTodo(block: block.uuid, day: day)
      func routine(_ record: TodoRecord) -> RoutineTodo {
        RoutineTodo(uuid: record.uuid, number: record.id, isDone: record.done)
      }
      guard let planned = todos.first(where: { $0.uuid == plannedUUID }),
        let fold = RoutineOnce.fold(
          planned: routine(planned), others: todos.filter { $0.uuid != plannedUUID }.map(routine)),
        let kept = todos.first(where: { $0.uuid == fold.kept.uuid })
      else { continue }
      if fold.takesDone {
        try recorder.update(
          .todo, row: kept.uuid, current: kept.fields,
          to: [
            TodoField.done.rawValue: .bool(true), TodoField.doneAt.rawValue: .optional(planned.doneAt),
            TodoField.doneBy.rawValue: .optional(planned.doneBy),
          ])
        tookDone.insert(kept.uuid)
      }
      try recorder.delete(.todo, row: planned.uuid, fields: planned.fields)
      sentences.append(
        RoutineOnce.sentence(
          title: planned.title, day: day, kept: fold.kept, removed: fold.removed, takesDone: fold.takesDone))
    }
    return (sentences, tookDone)
  }

  /// Refuses (``StorageError/journalConflict(_:)``, changing nothing) when a todo of `uuids` breaks a rule on
  /// `today` (`latest` as in ``TodoRules/broken(_:today:latest:)``): what a path that can refuse
  /// (undo, redo) checks before it commits.
  static func checkTodoRules(
    _ db: Database, uuids: some Collection<String>, today: Day, latest: Day? = nil, refusing what: String
  ) throws {
    guard let (record, state) = try breakingRules(db, uuids: uuids, today: today, latest: latest).first else { return }
    let why = TodoRules.broken(state, today: today, latest: latest).map { $0.breach(record.ruleSubject, state) }
    throw StorageError.journalConflict("cannot \(what): \(why.joined(separator: "; "))")
  }

  /// The todos of `uuids` that break a rule on `today` (`latest` as in
  /// ``TodoRules/broken(_:today:latest:)``), with their states.
  private static func breakingRules(_ db: Database, uuids: some Collection<String>, today: Day, latest: Day? = nil)
    throws -> [(TodoRecord, TodoRuleState)]
  {
    // Only rows that can break a rule are read whole: done and dropped, done on a day after
    // today, or done in the backlog (no day: `day > ?` is NULL there, never true).
    let lastDone = TodoRules.lastDoneDay(today: today, latest: latest)
    var found: [(TodoRecord, TodoRuleState)] = []
    for record in try records(
      db, uuids, where: "todo.done = 1 AND (todo.dropped = 1 OR todo.day IS NULL OR todo.day > ?)",
      [lastDone.description])
    {
      guard let state = record.ruleState, !TodoRules.broken(state, today: today, latest: latest).isEmpty else { continue }
      found.append((record, state))
    }
    return found
  }

  /// The todos of `uuids` that meet `clause` (with `arguments` after the uuids').
  private static func records(
    _ db: Database, _ uuids: some Collection<String>, where clause: String, _ arguments: [String] = []
  ) throws -> [TodoRecord] {
    guard !uuids.isEmpty else { return [] }
    var found: [TodoRecord] = []
    // A few hundred at a time: SQLite limits the arguments of one statement.
    let all = Array(uuids)
    for start in stride(from: 0, to: all.count, by: 500) {
      let chunk = Array(all[start..<min(start + 500, all.count)])
      let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
      found += try TodoRecord.fetchAll(
        db, where: "todo.uuid IN (\(marks)) AND \(clause)", StatementArguments(chunk + arguments))
    }
    return found
  }
}
