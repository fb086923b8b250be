import Core
import Foundation
import GRDB

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
      let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
      while let row = try rows.next() {
        let dayText: String = row[0]
        let rank: Int = row[1]
        guard let day = Day(iso: dayText), let priority = Priority(rank: rank) else {
          throw StorageError.sqlite("corrupt todo day '\(dayText)' or priority \(rank)")
        }
        counts.append(
          DayPriorityCount(day: day, priority: priority, tally: DayFigures.own(total: row[2], done: row[3])))
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
  /// after it, a few weeks of day figures at a time, until a day breaks the run or no todo lies
  /// further. `today` as in ``Streaks/step(_:today:)``.
  public func runOutside(
    _ range: DayRange, forward: Bool, today: Day?, project: String? = nil
  ) throws(StorageError) -> Int {
    var counter = RunCounter(today: today)
    let step = 64
    // Days without todos pass: each chunk starts at the nearest day beyond the last that has any.
    var next = try nearestDayWithTodos(beyond: forward ? range.to : range.from, forward: forward)
    while let edge = next {
      let far = edge.adding(days: forward ? step - 1 : -(step - 1))
      guard let chunk = try? DayRange(from: forward ? edge : far, to: forward ? far : edge) else { break }
      let days = AchievementReport(
        range: chunk, counts: try achievementCounts(in: chunk, project: project)
      ).days
      for day in forward ? days : days.reversed() where !counter.take(day) { return counter.run }
      next = try nearestDayWithTodos(beyond: far, forward: forward)
      // A day past 9999 compares as text below the years before it: never go back.
      if let found = next, forward ? found <= far : found >= far { break }
    }
    return counter.run
  }

  /// The nearest day after `day` (before it, when `forward` is false) on which a todo counts:
  /// its own day, or the first or last day it was carried from.
  private func nearestDayWithTodos(beyond day: Day, forward: Bool) throws(StorageError) -> Day? {
    let (pick, compare) = forward ? ("min", ">") : ("max", "<")
    return try read { db in
      try String.fetchOne(
        db,
        sql: """
          SELECT \(pick)(d) FROM (
            SELECT \(pick)(day) AS d FROM todo WHERE day \(compare) ?1
            UNION ALL SELECT \(pick)(substr(carriedFrom, 1, 10)) FROM todo
              WHERE carriedFrom IS NOT NULL AND substr(carriedFrom, 1, 10) \(compare) ?1
            UNION ALL SELECT \(pick)(substr(carriedFrom, -10)) FROM todo
              WHERE carriedFrom IS NOT NULL AND substr(carriedFrom, -10) \(compare) ?1)
          """, arguments: [day.description]
      ).flatMap(Day.init(iso:))
    }
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
      return try Int.fetchOne(
        db,
        sql: """
          SELECT count(DISTINCT day) FROM todo
          WHERE day < ?1
            AND day > max(
              coalesce((SELECT max(day) FROM todo INDEXED BY todo_open_on_day WHERE done = 0 AND day < ?1), ''),
              ?2)
          """,
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
