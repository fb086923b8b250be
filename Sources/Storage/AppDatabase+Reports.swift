import Core
import Foundation
import GRDB
import GRDBSQLite

extension AppDatabase {
  // MARK: - Reports

  /// The todos of every day and priority in `range`, counted by SQLite in one grouped query
  /// (answered from the `todo_on_day_priority_done` or `todo_on_project_day` covering index,
  /// never loading a todo). Days without todos have no row.
  ///
  /// - Parameters:
  ///   - range: the days to count.
  ///   - project: only todos of this project (case-insensitive), when given.
  /// - Throws: ``StorageError/projectNotFound(_:)`` for an unknown project.
  public func achievementCounts(in range: DayRange, project: String? = nil) throws(StorageError)
    -> [DayPriorityCount]
  {
    try read { db in
      var sql = """
        SELECT day, priority, count(*), sum(done) FROM todo
        WHERE day BETWEEN ? AND ?
        """
      var arguments: StatementArguments = [range.from.description, range.to.description]
      if let project {
        sql += " AND projectId = ?"
        arguments += [try Self.projectID(db, named: project)]
      }
      sql += " GROUP BY day, priority"
      var counts: [DayPriorityCount] = []
      counts.reserveCapacity(range.count)
      // Each row read by column index straight from the statement, the day as bytes: no `Row`
      // subscript (a type check and a conversion per value) and no `String` per row.
      let statement = try db.makeStatement(sql: sql)
      let handle = statement.sqliteStatement
      let rows = try Row.fetchCursor(statement, arguments: arguments)
      while try rows.next() != nil {
        let rank = Int(sqlite3_column_int64(handle, 1))
        guard let day = Self.day(handle, column: 0), let priority = Priority(rank: rank) else {
          throw StorageError.sqlite("corrupt todo day or priority \(rank)")
        }
        let tally = DayFigures.own(
          total: Int(sqlite3_column_int64(handle, 2)), done: Int(sqlite3_column_int64(handle, 3)))
        counts.append(DayPriorityCount(day: day, priority: priority, tally: tally))
      }
      // Todos carried away from a day after it began still count there, as not done
      // (``DayFigures``).
      for (day, priority) in try Self.carriedTodos(db, project: project.map { try Self.projectID(db, named: $0) })
      where range.contains(day) {
        counts.append(DayPriorityCount(day: day, priority: priority, tally: DayFigures.carriedAway(1)))
      }
      return counts
    }
  }

  /// The todos carried away from the days of `range` (every day when nil;
  /// ``DayFigures/isCarriedAway(_:from:)`` for one of its days), only `project`'s when given,
  /// in listing order: what a day's listing shows after its own todos, so that its heading's
  /// figures can be read off its rows. Read through the partial index `todo_carried`: only
  /// carried todos, every one of them (a heading counts them all).
  public func todosCarriedAway(
    from range: DayRange?, project: String?
  ) throws(StorageError) -> [Todo] {
    // One statement without a project (one snapshot by itself: no read transaction to begin
    // and end, issue 25); the project's lookup and it, in one transaction.
    let body = { (db: Database) throws -> [Todo] in
      var todos: [Todo] = []
      var clause = "todo.carriedFrom IS NOT NULL"
      var arguments: StatementArguments = []
      if let range {
        // carriedFrom lists its days oldest first: its first and last ten characters bound them.
        clause += " AND substr(todo.carriedFrom, 1, 10) <= ? AND substr(todo.carriedFrom, -10) >= ?"
        arguments += [range.to.description, range.from.description]
      }
      if let project {
        clause += " AND todo.projectId = ?"
        arguments += [try Self.projectID(db, named: project)]
      }
      // Most days have no carried todo: a statement that only asks whether any lies in the
      // range costs a third of the whole row's to prepare and run (0.13 M instructions against
      // 0.40 M in `ootd list` at 10,000 todos, issue 25), and the row's is prepared only when
      // one does.
      guard
        try Bool.fetchOne(db.makeStatement(sql: "SELECT EXISTS (SELECT 1 FROM todo WHERE \(clause))"), arguments: arguments)
          ?? false
      else { return todos }
      // `+todo.day`: the same order, but not one the day index can give, so SQLite reads the
      // few carried todos through `todo_carried` and sorts them, instead of walking every todo
      // in day order to find them (13.8 M instructions of the dashboard at 10,000 todos, none
      // carried; issue 25).
      try TodoRecord.forEach(db, where: clause, arguments, order: "+todo.day, todo.priority, todo.id") { record in
        let todo = try record.todo()
        if todo.carriedFrom.contains(where: { range?.contains($0) ?? true && DayFigures.isCarriedAway(todo, from: $0) }) {
          todos.append(todo)
        }
        return true
      }
      return todos
    }
    return try project == nil ? readStatement(body) : read(body)
  }

  /// The run of perfect days that goes on outside a range, by Core's rule (``RunCounter``):
  /// walking backwards from the day before `range` (`forward` false) or forwards from the day
  /// after it, one day with todos at a time, until a day breaks the run or no todo lies further.
  /// `today` as in ``Streaks/step(_:today:)``.
  ///
  /// One statement walks the days in that order (SQLite's grouped counts, read from the day
  /// index in either direction) and is stepped only as far as the run goes; the carried todos
  /// (few, through `todo_carried`) are merged in by day. Each day's figures are
  /// ``DayFigures``'s, as ``achievementCounts(in:project:)`` gives them. (It read chunks of 64
  /// days, two statements each: a fifth of `ootd report --year --json`, issue 25.)
  public func runOutside(
    _ range: DayRange, forward: Bool, today: Day?, project: String? = nil
  ) throws(StorageError) -> Int {
    try read { db in
      var counter = RunCounter(today: today)
      let projectID = try project.map { try Self.projectID(db, named: $0) }
      // The days beyond the range that todos were carried away from, nearest first.
      var carriedCounts: [Day: Int] = [:]
      for (day, _) in try Self.carriedTodos(db, project: projectID)
      where forward ? day > range.to : day < range.from {
        carriedCounts[day, default: 0] += 1
      }
      var carried = carriedCounts.keys.sorted(by: forward ? (<) : (>))[...]
      let nearer: (Day, Day) -> Bool = forward ? (<) : (>)
      var sql = "SELECT day, count(*), sum(done) FROM todo WHERE day \(forward ? ">" : "<") ?"
      var arguments: StatementArguments = [(forward ? range.to : range.from).description]
      if let projectID {
        sql += " AND projectId = ?"
        arguments += [projectID]
      }
      sql += " GROUP BY day ORDER BY day \(forward ? "ASC" : "DESC")"
      let statement = try db.makeStatement(sql: sql)
      let handle = statement.sqliteStatement
      let rows = try Row.fetchCursor(statement, arguments: arguments)
      /// Takes the carried days nearer than `day` (all of them when nil); false once the run ends.
      func takeCarried(before day: Day?) -> Bool {
        while let next = carried.first, day.map({ nearer(next, $0) }) ?? true {
          carried.removeFirst()
          let tally = DayFigures.carriedAway(carriedCounts[next] ?? 0)
          guard counter.take(DayTally(day: next, tally: tally)) else { return false }
        }
        return true
      }
      while try rows.next() != nil {
        guard let day = Self.day(handle, column: 0) else {
          throw StorageError.sqlite("corrupt todo day")
        }
        guard takeCarried(before: day) else { return counter.run }
        var tally = DayFigures.own(
          total: Int(sqlite3_column_int64(handle, 1)), done: Int(sqlite3_column_int64(handle, 2)))
        if carried.first == day {
          carried.removeFirst()
          tally += DayFigures.carriedAway(carriedCounts[day] ?? 0)
        }
        guard counter.take(DayTally(day: day, tally: tally)) else { return counter.run }
      }
      _ = takeCarried(before: nil)
      return counter.run
    }
  }

  /// The day in text column `column` of the row `statement` is on, read as bytes (nil when it
  /// is NULL or not a day).
  static func day(_ statement: SQLiteStatement, column: CInt) -> Day? {
    // (sqlite3_column_text before sqlite3_column_bytes, as SQLite's documentation asks.)
    guard let text = sqlite3_column_text(statement, column) else { return nil }
    return Day(isoUTF8: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column))))
  }

  /// The run of perfect days (every todo done) ending at the last day before `day` that has
  /// todos: what the dashboard's streak needs, in one indexed query.
  ///
  /// The last day before `day` with an open todo ends the streak (the partial index
  /// `todo_open_on_day` finds it at once; SQLite would otherwise pick the covering index and
  /// scan it); every day after it with todos is perfect, so the streak is how many distinct
  /// such days there are.
  ///
  /// A day a todo was carried from is not perfect either, so the latest such day before `day`
  /// ends the streak too.
  public func perfectDayStreak(before day: Day) throws(StorageError) -> Int {
    try read { db in
      let lastCarried = try Self.carriedTodos(db, project: nil).map(\.day).filter { $0 < day }.max()
      // A prepared statement, not an SQL literal (as ``GitHubCache/hasCommits()``).
      return try Int.fetchOne(
        db.makeStatement(
          sql: """
            SELECT count(DISTINCT day) FROM todo
            WHERE day < ?1
              AND day > max(
                coalesce((SELECT max(day) FROM todo INDEXED BY todo_open_on_day WHERE done = 0 AND day < ?1), ''),
                ?2)
            """),
        arguments: [day.description, lastCarried?.description ?? ""]) ?? 0
    }
  }

  /// Every (day, priority) a todo was carried from, read through the partial index
  /// `todo_carried` (only carried todos); only a project's todos when `project` is its id.
  static func carriedTodos(_ db: Database, project: Int64?) throws -> [(day: Day, priority: Priority)] {
    var sql = "SELECT carriedFrom, priority, day FROM todo WHERE carriedFrom IS NOT NULL"
    var arguments: StatementArguments = []
    if let project {
      sql += " AND projectId = ?"
      arguments += [project]
    }
    var result: [(day: Day, priority: Priority)] = []
    // Cached: the dashboard asks twice (its counts, and the streak), in two transactions.
    let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
    while let row = try rows.next() {
      guard let priority = Priority(rank: row[1]) else { continue }
      // Never the todo's own day, where it counts as its own (``DayFigures``).
      let own = Day(iso: row[2] as String? ?? "")
      for day in CarryRecord.days(row[0] as String?) where day != own { result.append((day, priority)) }
    }
    return result
  }
}

/// The views read todos through Core's ``TodoReader``: the renderers stream from it without
/// knowing this is SQLite.
extension AppDatabase: TodoReader {}
