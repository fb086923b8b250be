/// What the views read todos through, a listing at a time: the database implements it (as it
/// implements ``CommitStore`` for the commit sync), and the renderers take it, so a renderer
/// streams todos in constant memory without knowing SQL or opening a database.
public protocol TodoReader {
  /// The todos matching `filter` in listing order (day, priority, id), handed to `body` one at
  /// a time until it returns false.
  func forEachTodo(matching filter: TodoFilter, _ body: (Todo) -> Bool) throws

  /// The todos with these ids that exist, in listing order, until `body` returns false.
  func forEachTodo(ids: [Int64], _ body: (Todo) throws -> Bool) throws

  /// As ``forEachTodo(matching:_:)``, with the counts of the listing's todos of a day, read on
  /// the same snapshot: what a day's heading says before the day's todos.
  func forEachTodo(
    matching filter: TodoFilter, withDayCounts body: (Todo, any DayCounts) throws -> Bool
  ) throws

  /// The open todos planned before `day`, in listing order, until `body` returns false.
  func forEachOverdueTodo(before day: Day, _ body: (Todo) -> Bool) throws

  /// How many open todos lie before `day` (counted up to `countLimit`) and the most recent
  /// `limit` of them.
  func overdueSummary(before day: Day, limit: Int, countLimit: Int) throws
    -> (todos: [Todo], count: Int)

  /// The backlog's todos (no day yet) in backlog order (``Todo/backlogOrder(_:_:)``), until
  /// `body` returns false.
  func forEachBacklogTodo(_ body: (Todo) -> Bool) throws

  /// How many backlog todos wait to be planned (open, not dropped) and the first `limit` of
  /// them in backlog order.
  func backlogSummary(limit: Int) throws -> (todos: [Todo], count: Int)

  /// The largest id among the todos matching `filter`: the width of a list's id column.
  func largestTodoID(matching filter: TodoFilter) throws -> Int64?

  /// The todos carried away from the days of `range` (every day when nil), only `project`'s
  /// when given, in listing order (``DayFigures``).
  func todosCarriedAway(from range: DayRange?, project: String?) throws -> [Todo]
}

/// The counts of one listing's todos on a day (see ``TodoReader``).
public protocol DayCounts {
  /// How many of the listing's todos are planned on `day`, and how many of them are done.
  func counts(on day: Day) throws -> (done: Int, total: Int)
}

extension TodoReader {
  /// The overdue summary, counting at most 1,000.
  public func overdueSummary(before day: Day, limit: Int) throws -> (todos: [Todo], count: Int) {
    try overdueSummary(before: day, limit: limit, countLimit: 1000)
  }

  /// The todos carried away from the days of `range`, every project's.
  public func todosCarriedAway(from range: DayRange?) throws -> [Todo] {
    try todosCarriedAway(from: range, project: nil)
  }
}
