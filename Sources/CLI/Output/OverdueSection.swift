import Core

extension TodoRenderer {
  /// The overdue section under a day's todos, as `list`, `today` and `demo` show it: a blank
  /// line and the latest `limit` open todos planned before `day`; nothing when there are none.
  func overdueSection(_ reader: any TodoReader, before day: Day, limit: Int) throws -> [String] {
    let summary = try reader.overdueSummary(before: day, limit: limit)
    guard summary.count > 0 else { return [] }
    return [""] + overdue(summary.todos, count: summary.count)
  }
}
