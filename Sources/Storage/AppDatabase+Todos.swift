import Core
import Foundation
import GRDB
import Zone

extension AppDatabase {
  // MARK: - Reads

  /// The todos that match `filter`, ordered by day, priority (high first), then id.
  public func todos(matching filter: TodoFilter) throws(StorageError) -> [Todo] {
    try read { db in
      let (clause, arguments) = try Self.condition(db, filter)
      return try TodoRecord.todos(db, where: clause, arguments)
    }
  }

  /// The todos that match `filter`, in the order of ``todos(matching:)``, handed to `body` one
  /// at a time as they are read, so that any number of them takes constant memory. `body`
  /// returns false to stop early (its output failed).
  public func forEachTodo(matching filter: TodoFilter, _ body: (Todo) -> Bool) throws(StorageError) {
    let listing = { (db: Database) throws in
      let (clause, arguments) = try Self.condition(db, filter)
      try TodoRecord.forEachTodo(db, where: clause, arguments, body)
    }
    // Without a project, one statement: outside a transaction (its `BEGIN`, `COMMIT` and two
    // pragmas; `done`'s note on a block's day reads this way). A project's name is looked up
    // first: then one transaction holds both.
    try filter.project == nil ? readStatement(listing) : read(listing)
  }

  /// Calls `body` with each todo of `ids` that exists, in listing order (day, priority, id),
  /// reading them from the cursor, until it returns false.
  public func forEachTodo(ids: [Int64], _ body: (Todo) throws -> Bool) throws(StorageError) {
    guard !ids.isEmpty else { return }
    try read { db in
      try TodoRecord.forEachTodo(
        db, where: "todo.id IN (SELECT value FROM json_each(?))",
        ["[" + ids.map(String.init).joined(separator: ",") + "]"], body)
    }
  }

  /// As ``forEachTodo(matching:_:)``, with a ``DayCounter`` that counts the listing's todos of
  /// a day on the snapshot being read: what a day's heading says before the day's todos when the
  /// day is too long to hold in memory. An error `body` throws ends the listing.
  public func forEachTodo(
    matching filter: TodoFilter, withDayCounts body: (Todo, any DayCounts) throws -> Bool
  ) throws(StorageError) {
    let listing = { (db: Database) throws in
      let (clause, arguments) = try Self.condition(db, filter)
      let counter = DayCounter(db: db, clause: clause, arguments: arguments)
      try TodoRecord.forEachTodo(db, where: clause, arguments) { todo in try body(todo, counter) }
    }
    // Without a project, outside a transaction (its `BEGIN` and `COMMIT`, issue 25): the
    // counter runs only while the listing's statement is being stepped, and SQLite keeps the
    // snapshot that statement began for every statement of the connection until it is reset,
    // so a count reads what the listing reads. A project's name is looked up first: then one
    // transaction holds both.
    try filter.project == nil ? readStatement(listing) : read(listing)
  }

  /// Counts the todos of a listing (``forEachTodo(matching:withDayCounts:)``) on one day, only
  /// while the listing is read.
  public struct DayCounter: DayCounts {
    let db: Database
    let clause: String
    let arguments: StatementArguments

    /// How many of the listing's todos are planned on `day`, and how many of them are done.
    public func counts(on day: Day) throws -> (done: Int, total: Int) {
      var arguments = self.arguments
      arguments += [day.description]
      let row = try Row.fetchOne(
        db.makeStatement(
          sql: """
            SELECT count(*), coalesce(sum(todo.done), 0) FROM \(TodoRecord.source)
            WHERE (\(clause)) AND todo.day = ?
            """), arguments: arguments)
      return (done: row?[1] ?? 0, total: row?[0] ?? 0)
    }
  }

  /// The largest id among the todos that match `filter` (nil when none does): the width of the
  /// id column of a streamed list.
  public func largestTodoID(matching filter: TodoFilter) throws(StorageError) -> Int64? {
    let body = { (db: Database) throws -> Int64? in
      let (clause, arguments) = try Self.condition(db, filter)
      // The project's table only when the condition names it (a project filter): a join is
      // dearer to prepare.
      let source = filter.project == nil ? "todo" : TodoRecord.source
      return try Int64.fetchOne(
        db.makeStatement(sql: "SELECT max(todo.id) FROM \(source) WHERE \(clause)"), arguments: arguments)
    }
    // One statement without a project (whose name ``condition(_:_:)`` looks up first): no read
    // transaction to begin and end (issue 25).
    return try filter.project == nil ? readStatement(body) : read(body)
  }

  /// The SQL condition selecting `filter`'s todos; throws when its project is unknown.
  static func condition(_ db: Database, _ filter: TodoFilter) throws -> (String, StatementArguments) {
    var clauses: [String] = []
    var arguments = StatementArguments()
    switch filter.days {
    case .all: break
    case .range(let range):
      clauses.append("todo.day BETWEEN ? AND ?")
      arguments += [range.from.description, range.to.description]
    case .backlog:
      clauses.append("todo.day IS NULL")
    }
    if let project = filter.project {
      _ = try Self.projectID(db, named: project)
      clauses.append("project.name = ? COLLATE NOCASE")
      arguments += [project]
    }
    if let priority = filter.priority {
      clauses.append("todo.priority = ?")
      arguments += [priority.rank]
    }
    switch filter.status {
    case .any: break
    case .open: clauses.append("todo.done = 0 AND todo.dropped = 0")
    case .done: clauses.append("todo.done = 1")
    }
    if let tag = filter.tag {
      // Tags are stored sorted and space-separated: a whole word of that text. Where the tag
      // asked or the stored ones are not ASCII, Core's rule decides (case taken out as search
      // takes it: `σοφος` finds `σοφοσ`); ASCII tags are their own caseless form.
      db.add(function: Self.tagsContain)
      let ascii = !tag.utf8.contains { $0 >= 0x80 }
      clauses.append(
        ascii
          ? "(instr(' ' || todo.tags || ' ', ?) > 0 OR (length(todo.tags) <> length(CAST(todo.tags AS BLOB)) AND ootd_tags_contain(todo.tags, ?)))"
          : "(todo.tags <> '' AND ootd_tags_contain(todo.tags, ?))")
      arguments += ascii ? [" \(tag) ", tag] : [tag]
    }
    if let text = filter.text {
      // Core's rule, as an SQL function of this connection (SQLite's own lower() and LIKE fold
      // ASCII only), asked only of the rows whose stored fold contains the text's fold: every
      // row the rule matches is among them. Where both folds are ASCII without a carriage
      // return, finding the fold is the rule's answer already (docs/decisions/search.md).
      db.add(function: Self.titleContains)
      let fold = TodoFilter.fold(text)
      let exact = !fold.containsUTF8 { $0 >= 0x80 || $0 == 0x0D }
      let asciiTitle =
        exact ? "(length(todo.titleFold) = length(CAST(todo.titleFold AS BLOB)) AND instr(todo.titleFold, char(13)) = 0) OR " : ""
      // AND and OR, not CASE: SQLite stops at the first operand that decides a WHERE term's
      // AND or OR, but computes both operands of one inside a value (a CASE branch), which
      // called the rule for every row again. `likelihood`: a search keeps few rows, so over
      // every day SQLite reads the table in order and sorts what it keeps, rather than walking
      // the day index and looking up every row (a day range still takes the index).
      clauses.append(
        """
        likelihood((todo.titleFold IS NULL AND ootd_title_contains(todo.title, ?)) \
        OR (instr(todo.titleFold, ?) > 0 AND (\(asciiTitle)ootd_title_contains(todo.title, ?))), 0.01)
        """)
      arguments += [text, fold, text]
    }
    return (clauses.isEmpty ? "1" : clauses.concatenated(separator: " AND "), arguments)
  }


  /// `ootd_title_contains(title, text)`: ``TodoFilter/title(_:contains:)`` for SQL.
  /// ``Core/Tag/tags(_:contain:)`` as an SQL function of the connection.
  static let tagsContain = DatabaseFunction(
    "ootd_tags_contain", argumentCount: 2, pure: true
  ) { values in
    guard let tags = String.fromDatabaseValue(values[0]), let tag = String.fromDatabaseValue(values[1]) else { return false }
    return Tag.tags(tags, contain: tag)
  }

  static let titleContains = DatabaseFunction(
    "ootd_title_contains", argumentCount: 2, pure: true
  ) { values in
    guard let title = String.fromDatabaseValue(values[0]),
      let text = String.fromDatabaseValue(values[1])
    else { return false }
    return TodoFilter.title(title, contains: text)
  }

  /// Open todos planned before `day`, oldest first.
  public func overdueTodos(before day: Day) throws(StorageError) -> [Todo] {
    var todos: [Todo] = []
    try forEachOverdueTodo(before: day) { todo in
      todos.append(todo)
      return true
    }
    return todos
  }

  /// The todos of ``overdueTodos(before:)``, in its order, handed to `body` one at a time as
  /// they are read (constant memory for any number); `body` returns false to stop early.
  public func forEachOverdueTodo(before day: Day, _ body: (Todo) -> Bool) throws(StorageError) {
    try read { db in
      try TodoRecord.forEachTodo(
        db, where: "todo.done = 0 AND todo.dropped = 0 AND todo.day < ?", [day.description], body)
    }
  }

  /// The backlog's todos (no day yet, open or dropped: a done todo always has a day) in backlog
  /// order (``Core/Todo/backlogOrder(_:_:)``), handed to `body` one at a time until it returns
  /// false.
  public func forEachBacklogTodo(_ body: (Todo) -> Bool) throws(StorageError) {
    try read { db in
      try TodoRecord.forEachTodo(db, where: "todo.day IS NULL", order: TodoRecord.backlogOrderSQL, body)
    }
  }

  /// How many backlog todos wait to be planned (open, not dropped), and the first `limit` of
  /// them in backlog order: what the dashboard shows.
  public func backlogSummary(limit: Int) throws(StorageError) -> (todos: [Todo], count: Int) {
    let waiting = "todo.day IS NULL AND todo.done = 0 AND todo.dropped = 0"
    let countSQL = "SELECT count(*) FROM todo WHERE \(waiting)"
    guard limit > 0 else { return ([], try readStatement { db in try Int.fetchOne(db, sql: countSQL) ?? 0 }) }
    // One statement, each row carrying the count (as ``overdueSummary(before:limit:countLimit:)``).
    return try readStatement { db in
      var todos: [Todo] = []
      var count = 0
      try TodoRecord.forEachTodo(
        db,
        where: "todo.id IN (SELECT id FROM todo WHERE \(waiting) ORDER BY \(TodoRecord.backlogOrderSQL) LIMIT ?)",
        [limit], extra: "(\(countSQL))", order: TodoRecord.backlogOrderSQL
      ) { todo, extra in
        todos.append(todo)
        count = Int(extra)
        return true
      }
      return (todos, count)
    }
  }

  /// How many open todos are planned before `day` (counted up to `countLimit`), and the most
  /// recent `limit` of them in list order: what a screen shows without reading years of
  /// forgotten todos.
  public func overdueSummary(before day: Day, limit: Int, countLimit: Int)
    throws(StorageError) -> (todos: [Todo], count: Int)
  {
    // One statement (one snapshot by itself, no transaction to begin and end): every listing
    // of today and the dashboard ask this, and its three statements and the read transaction
    // around them were a fifth of `ootd list` (issue 25). Each row carries the count. The day
    // of the limit-th most recent overdue todo is read from the partial index alone; only the
    // todos from that day on are ranked, and only `limit` of them loaded (a day of a
    // 100,000-line import is not). With fewer than `limit` overdue todos there is no such day:
    // every overdue todo is ranked.
    guard limit > 0 else {
      return (
        [],
        try readStatement { db in
          try Int.fetchOne(
            db.makeStatement(sql: "SELECT count(*) FROM (SELECT 1 FROM todo WHERE done = 0 AND dropped = 0 AND day < ?1 ORDER BY day DESC LIMIT ?2)"),
            arguments: [day.description, countLimit]) ?? 0
        }
      )
    }
    return try readStatement { db in
      var todos: [Todo] = []
      var count = 0
      try TodoRecord.forEachTodo(
        db,
        where: """
          todo.id IN (
            SELECT id FROM todo WHERE done = 0 AND dropped = 0 AND day < ?1 AND day >= coalesce(
              (SELECT day FROM todo WHERE done = 0 AND dropped = 0 AND day < ?1 ORDER BY day DESC LIMIT 1 OFFSET ?3 - 1),
              '')
            ORDER BY day DESC, priority, id LIMIT ?3)
          """,
        [day.description, countLimit, limit],
        extra: "(SELECT count(*) FROM (SELECT 1 FROM todo WHERE done = 0 AND dropped = 0 AND day < ?1 ORDER BY day DESC LIMIT ?2))"
      ) { todo, extra in
        todos.append(todo)
        count = Int(extra)
        return true
      }
      return (todos, count)
    }
  }

  /// The todos with these ids, in list order; throws when any id is unknown.
  public func todos(ids: [Int64]) throws(StorageError) -> [Todo] {
    try read { db in try Self.existingTodos(db, ids: ids) }
  }

  /// The ids of the todos whose uuid begins with `prefix` (lowercase, with the uuid's dashes, as
  /// ``Core/TodoReference/uuidPrefix(_:)`` holds it), smallest first: none, one, or several when
  /// the prefix is ambiguous. uuids are stored lowercase, so a range of the `todo_on_uuid` index
  /// answers it (`uuid >= 'abcd' AND uuid < 'abce'`), not a scan.
  public func todoIDs(matchingUUIDPrefix prefix: String) throws(StorageError) -> [Int64] {
    guard let last = prefix.utf8.last else { return [] }
    // The first text after every text that begins with `prefix`: its last byte, one higher.
    let end = String(decoding: prefix.utf8.dropLast() + [last + 1], as: UTF8.self)
    return try read { db in
      // Sorted here: an ORDER BY id could lead SQLite to walk the table in id order instead.
      try Int64.fetchAll(
        db.cachedStatement(sql: "SELECT id FROM todo WHERE uuid >= ? AND uuid < ?"),
        arguments: [prefix, end])
    }.sorted()
  }

  // MARK: - Writes

  /// Creates a todo (already `done`, when given), checking that its project exists. Returns it
  /// with its new id.
  ///
  /// With `timeZone`, a todo of a block with a `commits` rule whose day already has a commit
  /// (in that zone) is done at once, in the same change (`doneBy: commits`).
  @discardableResult
  public func addTodo(
    _ draft: NewTodo, done: Bool = false, now: Date, timeZone: (any ZoneRules)? = nil
  ) throws(StorageError) -> Todo {
    try change(now: now) { recorder in
      let uuid = try Self.insert(recorder, draft, done: done, now: now)
      if let timeZone, draft.block != nil, !done {
        let ticked = try Self.tickByCommits(
          recorder, today: Day(now, in: timeZone), timeZone: timeZone, onlyUUIDs: [uuid])
        if !ticked.isEmpty { return ticked[0] }
      }
      // The todo as created, without reading it back (a query to prepare: a tenth of an add).
      guard let created = recorder.lastApplied, created.row == uuid, case .create(let fields) = created.action
      else { return try Self.todos(recorder.db, uuids: [uuid])[0] }
      let projectName = try fields["project"]?.text.flatMap { project in
        try String.fetchOne(
          recorder.db.cachedStatement(sql: "SELECT name FROM project WHERE uuid = ?"), arguments: [project])
      }
      return try TodoRecord(uuid: uuid, created: fields, projectName: projectName).todo()
    }
  }

  /// Creates many todos in one transaction and one journal entry (demo data, imports,
  /// benchmarks).
  public func addTodos(_ drafts: some Sequence<(todo: NewTodo, done: Bool)>, now: Date)
    throws(StorageError)
  {
    let count = try change(now: now) { recorder in
      var projects: [String: String] = [:]
      var count = 0
      for draft in drafts {
        try Self.insert(recorder, draft.todo, done: draft.done, now: now, projects: &projects)
        count += 1
      }
      return count
    }
    try checkpointAfterWriting(count)
  }

  /// Ticks (`done: true`) or unticks todos. All ids must exist, or nothing changes.
  /// Returns the todos after the change. Given `today`, a todo of a day after it is done
  /// today: it moves to today (``TodoRules``); every command passes it. Without it (a caller
  /// that does not know the user's today) days are kept.
  public func setDone(ids: [Int64], done: Bool, today: Day? = nil, now: Date) throws(StorageError)
    -> [Todo]
  {
    try setDoneTellingUnchanged(ids: ids, done: done, today: today, now: now).todos
  }

  /// As ``setDone(ids:done:today:now:)``, and the ids of the todos that already were (done, or
  /// open) as asked: what a message must not claim to have changed; and the day each todo
  /// moved to today from (a todo of a later day, done today).
  public func setDoneTellingUnchanged(ids: [Int64], done: Bool, today: Day? = nil, now: Date)
    throws(StorageError) -> (todos: [Todo], unchanged: Set<Int64>, movedFrom: [Int64: Day?])
  {
    try change(now: now) { recorder in
      var movedFrom: [Int64: Day?] = [:]
      let records = try Self.existingRecords(recorder.db, ids: ids)
      // Reopening a dropped todo takes it back up: it was not open, so it changes.
      let unchanged = Set(records.filter { $0.done == done && (done || !$0.dropped) }.map(\.id))
      for record in records where !unchanged.contains(record.id) {
        var new: Fields = ["done": .bool(done), "doneAt": done ? .text(Timestamp.string(now, .sqlite)) : .null]
        new["doneBy"] = done ? .text(DoneBy.manual.rawValue) : .null
        // Doing or reopening a dropped todo takes it back up.
        new["dropped"] = .bool(false)
        // Reopening what a commits rule ticked: no rule ticks it again.
        if !done, record.doneBy == DoneBy.commits.rawValue { new["keepOpen"] = .bool(true) }
        // Work of a later day done today is on today: the rules' one resolution.
        if done, let today, var state = record.ruleState {
          state.isDone = true
          state.isDropped = false
          let resolved = TodoRules.resolve(state, today: today).state
          if resolved.day != state.day {
            new.merge(resolved.fields) { $1 }
            movedFrom[record.id] = .some(state.day)
          }
        }
        // Keep the first doneAt when a done todo is ticked again.
        try recorder.update(.todo, row: record.uuid, current: record.fields, to: new)
      }
      return (try Self.existingTodos(recorder.db, ids: ids), unchanged, movedFrom)
    }
  }

  /// Applies `changes` to one todo and returns it as it is now.
  public func editTodo(id: Int64, _ changes: TodoChanges, today: Day, now: Date)
    throws(StorageError) -> Todo
  {
    try editTodos(ids: [id], changes, today: today, now: now)[0]
  }

  /// Applies `changes` to every todo of `ids`, all or none (every id must exist, and one refused move
  /// refuses them all). A move away from a day that has begun keeps
  /// that day's record (``CarryRecord``).
  public func editTodos(ids: [Int64], _ changes: TodoChanges, today: Day, now: Date)
    throws(StorageError) -> [Todo]
  {
    try editTodosTellingUnchanged(ids: ids, changes, today: today, now: now).todos
  }

  /// As ``editTodos(ids:_:today:now:)``, and the ids of the todos the change left as they were
  /// (each field already as asked, a tag to take away they do not have): what a message must
  /// not claim to have edited. Nothing is journaled for them.
  public func editTodosTellingUnchanged(ids: [Int64], _ changes: TodoChanges, today: Day, now: Date)
    throws(StorageError) -> (todos: [Todo], unchanged: Set<Int64>)
  {
    try change(now: now) { recorder in
      let records = try Self.existingRecords(recorder.db, ids: ids)
      if let place = changes.day {
        for record in records {
          do { try CarryRecord.checkMove(try record.todo(), to: place.day, today: today) } catch let error as CoreError {
            throw StorageError.invalidValue(error)
          }
        }
      }
      let project = try changes.project.map { name in
        try name.map { try ProjectRecord.named(recorder.db, $0).uuid }
      }
      var unchanged: Set<Int64> = []
      for record in records {
        let applied = recorder.count
        var new: Fields = [:]
        if let title = changes.title { new["title"] = .text(title) }
        if let priority = changes.priority { new["priority"] = .integer(Int64(priority.rank)) }
        if let project { new["project"] = .optional(project) }
        if let notes = changes.notes { new["notes"] = .optional(notes) }
        if !changes.addTags.isEmpty || !changes.removeTags.isEmpty {
          let (before, after) = (Tag.tags(record.tags), changes.tags(after: Tag.tags(record.tags)))
          // Held to the cap when it gives the todo more tags (a todo a merge left above it, until
          // its sync cuts it, may still lose some): pushed, more would be cut by the sync.
          if after.count > before.count {
            do throws(CoreError) { try Caps.checkTags(after) } catch { throw StorageError.invalidValue(error) }
          }
          new["tags"] = .optional(Tag.text(after))
        }
        try recorder.update(.todo, row: record.uuid, current: record.fields, to: new)
        if let place = changes.day { try Self.move(recorder, record, to: place.day, today: today) }
        // The recorder records only the fields that change: none, nothing changed.
        if recorder.count == applied { unchanged.insert(record.id) }
      }
      return (try Self.existingTodos(recorder.db, ids: ids).sorted(by: Todo.listOrder), unchanged)
    }
  }

  /// Adds a line to a todo's notes (`ootd note`) and returns the todo as it is now.
  public func appendNote(id: Int64, _ line: String, now: Date) throws(StorageError) -> Todo {
    try change(now: now) { recorder in
      let record = try Self.existingRecords(recorder.db, ids: [id])[0]
      let notes = Notes.appending(line, to: record.notes)
      do throws(CoreError) { try Caps.checkNotes(notes) } catch { throw StorageError.invalidValue(error) }
      try recorder.update(
        .todo, row: record.uuid, "notes", from: .optional(record.notes), to: .optional(notes))
      return try Self.existingTodos(recorder.db, ids: [id])[0]
    }
  }

  /// The journal entries that touched the todo with this uuid, in the order they were made (at
  /// most `limit`, the most recent ones): what `ootd show` lists as its history.
  ///
  /// Made, not pulled (issue 24 §3): each entry by the hybrid clock of its first operation on
  /// the todo, which a change pulled from another machine keeps from there (and this machine's
  /// clock, after every change pulled, orders its own after them). A todo edited on the desktop
  /// at 10:00 and on the laptop at 10:05 lists the 10:00 edit first on both machines, whichever
  /// synced first; a pulled entry says when it was made there (``JournalEntry/madeAt``). Entries
  /// of one clock keep the order they came in.
  /// `ootd log` lists the journal by arrival: it is the order `undo` steps back through.
  public func history(ofRow uuid: String, limit: Int = 50) throws(StorageError) -> [JournalEntry] {
    try read { db in
      try JournalChangeRecord.fetchAll(
        db,
        sql: """
          SELECT c.*, d.name AS deviceName, o.made FROM (
            SELECT changeId, MIN(clock) AS made FROM journalOperation WHERE row = ?
            GROUP BY changeId ORDER BY made DESC, changeId DESC LIMIT ?) o
          JOIN journalChange c ON c.id = o.changeId
          LEFT JOIN syncDevice d ON c.remote = 1 AND d.device = c.device
          ORDER BY o.made, c.id
          """, arguments: [uuid, limit]
      ).map(\.entry)
    }
  }

  /// Gives up open todos (`ootd drop`): every id must exist and none may be done, or nothing
  /// changes. Returns the todos dropped now and those that already were.
  public func dropTodos(ids: [Int64], now: Date) throws(StorageError)
    -> (dropped: [Todo], already: [Todo])
  {
    try change(now: now) { recorder in
      let records = try Self.existingRecords(recorder.db, ids: ids)
      for record in records {
        if let refusal = CarryRecord.dropRefusal(try record.todo()) { throw StorageError.invalidValue(.refusedMove(refusal)) }
      }
      var dropped: [Int64] = []
      for record in records where !record.dropped {
        try recorder.update(.todo, row: record.uuid, "dropped", from: .bool(false), to: .bool(true))
        dropped.append(record.id)
      }
      let already = try records.filter(\.dropped).map { try $0.todo() }
      return (try Self.existingTodos(recorder.db, ids: dropped), already.sorted(by: Todo.listOrder))
    }
  }

  /// Deletes todos. All ids must exist, or nothing is deleted. Returns what was deleted.
  @discardableResult
  public func deleteTodos(ids: [Int64], now: Date) throws(StorageError) -> [Todo] {
    try change(now: now) { recorder in
      let records = try Self.existingRecords(recorder.db, ids: ids)
      for record in records { try recorder.delete(.todo, row: record.uuid, fields: record.fields) }
      return try records.map { try $0.todo() }
    }
  }

  /// Moves overdue todos (open, planned before `today`) to `target`: all of them, or only
  /// those of `ids` (which must all exist) that are overdue. A todo made from a task block stays
  /// where it is when `target` already has a todo from that block (so a routine block is never
  /// planned twice a day). Returns the ids of what moved and of what stayed as such a duplicate,
  /// each in the order the overdue todos are listed (``forEachTodo(ids:_:)`` reads them).
  ///
  /// All overdue todos are read a thousand at a time: carrying a million holds a thousand.
  public func carryOver(ids: [Int64]? = nil, today: Day, to target: Day, now: Date)
    throws(StorageError) -> (moved: [Int64], duplicates: [Int64])
  {
    do { try CarryRecord.checkCarryTarget(target, today: today) } catch { throw .invalidValue(error) }
    return try change(now: now) { recorder in
      let db = recorder.db
      var plannedBlocks = Set(
        try String.fetchAll(
          db, sql: "SELECT lower(block) FROM todo WHERE day = ? AND block IS NOT NULL",
          arguments: [target.description]))
      var moved: [Int64] = []
      var duplicates: [Int64] = []
      func carry(_ record: TodoRecord) throws {
        guard record.day != target.description else { return }
        if let block = record.block?.lowercased() {
          guard plannedBlocks.insert(block).inserted else {
            duplicates.append(record.id)
            return
          }
        }
        try Self.move(recorder, record, to: target, today: today)
        moved.append(record.id)
      }
      if let ids {
        for record in try Self.existingRecords(db, ids: ids).sorted(by: { $0.listOrder < $1.listOrder })
        where !record.done && !record.dropped && record.day.map({ $0 < today.description }) == true {
          try carry(record)
        }
        return (moved, duplicates)
      }
      // A batch at a time, past the last todo read, in listing order: a moved todo leaves the overdue days and a
      // kept one stays behind the mark, so no todo is read twice.
      var last: (day: String, priority: Int, id: Int64) = ("", .min, .min)
      while true {
        let batch = try TodoRecord.fetchAll(
          db,
          where: """
            todo.done = 0 AND todo.dropped = 0 AND todo.day < ?
              AND (todo.day, todo.priority, todo.id) > (?, ?, ?)
            """, [today.description, last.day, last.priority, last.id], cached: true, limit: Self.batch)
        guard let end = batch.last else { return (moved, duplicates) }
        last = end.listOrder
        for record in batch { try carry(record) }
      }
    }
  }

  // MARK: - Helpers

  /// Moves one todo to `target` (nil: into the backlog) through the journal, keeping the record
  /// of a day it leaves after that day began (``CarryRecord/days(after:movesTo:today:)``).
  static func move(_ recorder: ChangeRecorder, _ record: TodoRecord, to target: Day?, today: Day)
    throws
  {
    let carried = CarryRecord.days(after: try record.todo(), movesTo: target, today: today)
    try recorder.update(
      .todo, row: record.uuid, current: record.fields,
      to: ["day": .optional(target?.description), "carriedFrom": .optional(CarryRecord.text(carried))])
  }

  /// Creates one todo row through the journal, checking that its project exists; returns its
  /// uuid. `projects` caches project uuids by name across a bulk insert.
  @discardableResult
  static func insert(
    _ recorder: ChangeRecorder, _ draft: NewTodo, done: Bool, now: Date,
    projects: inout [String: String], uuid: String = RowID.random()
  ) throws -> String {
    var projectUUID: String? = nil
    if let name = draft.project {
      if let cached = projects[name.lowercased()] {
        projectUUID = cached
      } else {
        projectUUID = try ProjectRecord.named(recorder.db, name).uuid
        projects[name.lowercased()] = projectUUID
      }
    }
    let timestamp = Timestamp.string(now, .sqlite)
    do throws(CoreError) {
      try Caps.checkNotes(draft.notes)
      try Caps.checkTags(draft.tags)
    } catch { throw StorageError.invalidValue(error) }
    var fields: Fields = [
      "title": .text(draft.title), "priority": .integer(Int64(draft.priority.rank)),
      "day": .optional(draft.day?.description), "done": .bool(done),
      "doneAt": done ? .text(timestamp) : .null, "project": .optional(projectUUID),
      "block": .optional(draft.block), "createdAt": .text(timestamp),
      "notes": .optional(draft.notes.flatMap(Notes.cleaned)), "tags": .optional(Tag.text(draft.tags)),
    ]
    if done { fields["doneBy"] = .text(DoneBy.manual.rawValue) }
    return try recorder.create(.todo, fields, uuid: uuid)
  }

  /// ``insert(_:_:done:now:projects:)`` for one todo.
  @discardableResult
  static func insert(
    _ recorder: ChangeRecorder, _ draft: NewTodo, done: Bool, now: Date, uuid: String = RowID.random()
  ) throws -> String {
    var projects: [String: String] = [:]
    return try insert(recorder, draft, done: done, now: now, projects: &projects, uuid: uuid)
  }

  /// The todos with these uuids, in list order.
  static func todos(_ db: Database, uuids: [String]) throws -> [Todo] {
    guard !uuids.isEmpty else { return [] }
    let placeholders = Array(repeating: "?", count: uuids.count).joined(separator: ",")
    return try TodoRecord.todos(db, where: "todo.uuid IN (\(placeholders))", StatementArguments(uuids))
  }

  /// Fetches todo rows by id, throwing ``StorageError/todosNotFound(_:)`` listing every missing id.
  static func existingRecords(_ db: Database, ids: [Int64]) throws -> [TodoRecord] {
    guard !ids.isEmpty else { return [] }
    let unique = Array(Set(ids))
    let placeholders = Array(repeating: "?", count: unique.count).joined(separator: ",")
    // Cached: a command reads its todos again after changing them.
    let records = try TodoRecord.fetchAll(
      db, where: "todo.id IN (\(placeholders))", StatementArguments(unique), cached: true)
    let found = Set(records.map(\.id))
    let missing = unique.filter { !found.contains($0) }.sorted()
    if !missing.isEmpty { throw StorageError.todosNotFound(missing) }
    return records
  }

  /// Fetches todos by id, throwing ``StorageError/todosNotFound(_:)`` listing every missing id.
  static func existingTodos(_ db: Database, ids: [Int64]) throws -> [Todo] {
    try existingRecords(db, ids: ids).map { try $0.todo() }
  }

  /// The id of the project named `name` (case-insensitive), or ``StorageError/projectNotFound(_:)``.
  static func projectID(_ db: Database, named name: String) throws -> Int64 {
    guard
      let id = try Int64.fetchOne(
        try db.cachedStatement(sql: "SELECT id FROM project WHERE name = ? COLLATE NOCASE"),
        arguments: [name])
    else { throw StorageError.projectNotFound(name) }
    return id
  }
}
