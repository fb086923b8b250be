/// The one rule for a day's figures: how many todos a day planned and how many of them it
/// finished. Every view that states a day's figures (the day headings of `list` and the
/// dashboard, `report` in text, JSON and CSV, the calendar and its SVG, the figures a sync
/// publishes to a team board) counts by this rule, and the property test in
/// `DayFiguresPropertyTests` checks each of them against ``tally(of:todos:)``.
///
/// A todo counts on its own day: planned, and done when it is done. A todo carried away from a
/// day after that day began (its ``Todo/carriedFrom`` names the day) counts there too, as planned
/// and not done, whatever became of it on its new day (see ``CarryRecord``).
public enum DayFigures {
  /// What `todo` adds to the figures of `day`: nothing, its own day's count, or a carried one.
  public static func contribution(of todo: Todo, to day: Day) -> Tally {
    if todo.day == day { return own(total: 1, done: todo.isDone ? 1 : 0) }
    if todo.carriedFrom.contains(day) { return carriedAway(1) }
    return .zero
  }

  /// The figures of `day` over `todos` (any todos: those of other days add nothing).
  public static func tally(of day: Day, todos: some Sequence<Todo>) -> Tally {
    todos.reduce(.zero) { $0 + contribution(of: $1, to: day) }
  }

  /// The figures of todos planned on the day itself: `total` of them, `done` of them done.
  public static func own(total: Int, done: Int) -> Tally { Tally(total: total, done: done) }

  /// The figures of `count` todos carried away from the day: planned there, not done there.
  public static func carriedAway(_ count: Int) -> Tally { Tally(total: count, done: 0, carried: count) }

  /// Whether `todo` was carried away from `day` (it counts there, but lives on another day).
  public static func isCarriedAway(_ todo: Todo, from day: Day) -> Bool {
    todo.day != day && todo.carriedFrom.contains(day)
  }
}
