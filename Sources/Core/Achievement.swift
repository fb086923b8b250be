/// The achievement rules: how much of a plan was done, per day, per weekday and per priority,
/// and the streaks of perfect days. Pure functions over counts, so storage can aggregate in SQL
/// and every rule is tested with tables of examples.

// MARK: - Tally

/// How many todos were planned and how many of them were done, for one group of todos
/// (a day, a weekday, a priority, a whole range).
public struct Tally: Hashable, Sendable {
  /// Planned todos.
  public var total: Int
  /// Done todos (never more than `total`).
  public var done: Int
  /// Of `total`, the todos carried away from the day after it began: planned there, not done
  /// there (see ``CarryRecord``).
  public var carried: Int

  /// Creates a tally.
  public init(total: Int = 0, done: Int = 0, carried: Int = 0) {
    self.total = total
    self.done = done
    self.carried = carried
  }

  /// The empty tally.
  public static let zero = Tally()

  /// done / total as a number from 0 to 1, or nil when nothing was planned.
  public var rate: Double? { total == 0 ? nil : Double(done) / Double(total) }

  /// Whether anything was planned.
  public var hasTodos: Bool { total > 0 }

  /// A *perfect* tally has at least one todo and all of them done.
  public var isPerfect: Bool { total > 0 && done == total }

  /// The rate as a whole percentage (rounded), or nil when nothing was planned.
  public var percent: Int? { rate.map { Int(($0 * 100).rounded()) } }

  /// The sum of two tallies.
  public static func + (lhs: Tally, rhs: Tally) -> Tally {
    Tally(total: lhs.total + rhs.total, done: lhs.done + rhs.done, carried: lhs.carried + rhs.carried)
  }

  /// Adds `rhs` into `lhs`.
  public static func += (lhs: inout Tally, rhs: Tally) { lhs = lhs + rhs }
}

/// One day's tally.
public struct DayTally: Hashable, Sendable {
  /// The day.
  public var day: Day
  /// Its todos.
  public var tally: Tally

  /// Creates a day's tally.
  public init(day: Day, tally: Tally) {
    self.day = day
    self.tally = tally
  }

  /// Shorthand for tests and tables: `DayTally(day, total: 3, done: 2)`.
  public init(_ day: Day, total: Int, done: Int) {
    self.init(day: day, tally: Tally(total: total, done: done))
  }
}

/// One row of the aggregate storage computes: the todos of one priority on one day.
public struct DayPriorityCount: Hashable, Sendable {
  /// The day.
  public var day: Day
  /// The priority.
  public var priority: Priority
  /// The todos of that priority on that day.
  public var tally: Tally

  /// Creates a row.
  public init(day: Day, priority: Priority, tally: Tally) {
    self.day = day
    self.priority = priority
    self.tally = tally
  }
}

// MARK: - Streaks

/// Runs of perfect days.
///
/// A *perfect day* has at least one todo and all of them done. Days without todos are rest days:
/// they neither extend nor break a run. A day still in progress (today, or a day after it)
/// counts once it is perfect and never breaks the run while it is open; days before today keep
/// the plain rule (``step(_:today:)``).
///
/// Over a range (`report`, `team board`), the one rule everywhere:
/// - a run counts in full in every range it overlaps: its days before and after the range count
///   too. A run overlaps a range when one of its perfect days lies in it, or when it is still
///   unbroken on one of the range's days (rest days after a run belong to it until a day breaks
///   it), so `longest` over a range of rest days after a run of 3 is 3;
/// - `current` is the run as it stands at the range's last day (or at the day before, while the
///   last day is today and still open), counted in full back to its first day;
/// - perfect days are counted inside the range only (``AchievementReport/perfectDays``).
public struct Streaks: Hashable, Sendable {
  /// The run of perfect days standing at the end of the days given (0 when the last day with
  /// todos is not perfect, or when no day has todos), skipping an open day in progress.
  public var current: Int
  /// The longest run that overlaps the days given, counted in full.
  public var longest: Int

  /// Creates a value.
  public init(current: Int, longest: Int) {
    self.current = current
    self.longest = longest
  }

  /// What one day does to a run.
  public enum Step: Hashable, Sendable {
    /// A perfect day: the run grows by one.
    case extends
    /// A day with open todos that is over: the run ends before it.
    case breaks
    /// A rest day, or an open day still in progress: the run neither grows nor ends.
    case passes
  }

  /// What `day` does to a run when today is `today` (nil: every day is over).
  public static func step(_ day: DayTally, today: Day?) -> Step {
    guard day.tally.hasTodos else { return .passes }
    if day.tally.isPerfect { return .extends }
    if let today, day.day >= today { return .passes }
    return .breaks
  }

  /// The streaks of `days`, which must be in day order (gaps are allowed: missing days count as
  /// rest days).
  ///
  /// - Parameters:
  ///   - today: days from `today` on are in progress: perfect ones count, open ones pass.
  ///     Nil treats every day as over.
  ///   - runBefore: the run of perfect days still unbroken just before the first of `days`
  ///     (``RunCounter`` walking backwards from the day before the range).
  ///   - runAfter: the perfect days that continue the run after the last of `days`, up to the
  ///     first day that breaks it (``RunCounter`` walking forwards from the day after).
  public init(_ days: [DayTally], today: Day? = nil, runBefore: Int = 0, runAfter: Int = 0) {
    var run = runBefore
    var longest = 0
    // A run still unbroken on a day of the range overlaps it (its rest days reach into it).
    for day in days {
      switch Self.step(day, today: today) {
      case .extends: run += 1
      case .breaks: run = 0
      case .passes: break
      }
      longest = max(longest, run)
    }
    // After the loop `run` stands at the last day; it goes on after the range.
    if run > 0 { longest = max(longest, run + runAfter) }
    self.init(current: run, longest: longest)
  }
}

/// Counts the perfect days of one run, walking away from a range one day at a time (backwards
/// from the day before it, or forwards from the day after it) until a day breaks the run: what
/// ``Streaks/init(_:today:runBefore:runAfter:)`` needs of the days outside a range.
public struct RunCounter: Sendable {
  /// Perfect days counted so far.
  public private(set) var run = 0
  /// Whether a day broke the run (no further day matters).
  public private(set) var isFinished = false
  let today: Day?

  /// A counter for a walk when today is `today`.
  public init(today: Day?) { self.today = today }

  /// Takes the next day of the walk; returns whether further days still matter.
  public mutating func take(_ day: DayTally) -> Bool {
    guard !isFinished else { return false }
    switch Streaks.step(day, today: today) {
    case .extends: run += 1
    case .breaks: isFinished = true
    case .passes: break
    }
    return !isFinished
  }
}

// MARK: - Weekdays

/// The todos of one weekday across a range.
public struct WeekdayTally: Hashable, Sendable {
  /// The weekday.
  public var weekday: Weekday
  /// Every todo planned on that weekday (pooled: the rate is done / total over all those days).
  public var tally: Tally
  /// How many of those days had todos.
  public var activeDays: Int

  /// Creates a value.
  public init(weekday: Weekday, tally: Tally, activeDays: Int) {
    self.weekday = weekday
    self.tally = tally
    self.activeDays = activeDays
  }

  /// Monday…Sunday, each with the pooled tally of its days.
  public static func of(_ days: [DayTally]) -> [WeekdayTally] {
    var result = Weekday.allCases.map { WeekdayTally(weekday: $0, tally: .zero, activeDays: 0) }
    for day in days where day.tally.hasTodos {
      let index = day.day.weekday.rawValue - 1
      result[index].tally += day.tally
      result[index].activeDays += 1
    }
    return result
  }

  /// The weekday with the highest rate, or nil when fewer than two weekdays have todos (a best
  /// of one is no comparison). Ties go to the weekday with more done todos, then the earlier one.
  public static func best(_ weekdays: [WeekdayTally]) -> Weekday? {
    ranked(weekdays)?.first
  }

  /// The weekday with the lowest rate, or nil when fewer than two weekdays have todos. Ties go
  /// to the weekday with more open todos, then the earlier one.
  public static func worst(_ weekdays: [WeekdayTally]) -> Weekday? {
    let candidates = weekdays.filter { $0.tally.hasTodos }
    guard candidates.count >= 2 else { return nil }
    return candidates.min { lhs, rhs in
      let (l, r) = (lhs.tally.rate ?? 0, rhs.tally.rate ?? 0)
      if l != r { return l < r }
      let (lo, ro) = (lhs.tally.total - lhs.tally.done, rhs.tally.total - rhs.tally.done)
      if lo != ro { return lo > ro }
      return lhs.weekday.rawValue < rhs.weekday.rawValue
    }?.weekday
  }

  /// Every weekday sharing the best rate, Monday first: one when there is no tie, empty when
  /// there is no best. `best` picks the first of them by its tie-break.
  public static func tiedForBest(_ weekdays: [WeekdayTally]) -> [Weekday] {
    tied(weekdays, at: best(weekdays))
  }

  /// Every weekday sharing the worst rate, Monday first (see ``tiedForBest(_:)``).
  public static func tiedForWorst(_ weekdays: [WeekdayTally]) -> [Weekday] {
    tied(weekdays, at: worst(weekdays))
  }

  /// Whether every weekday with todos has the same rate (two or more of them): then no weekday
  /// is better or worse than another, and a report says so instead of naming a best and a worst.
  public static func allTied(_ weekdays: [WeekdayTally]) -> Bool {
    let candidates = weekdays.filter { $0.tally.hasTodos }
    return candidates.count >= 2 && tiedForBest(weekdays).count == candidates.count
  }

  private static func tied(_ weekdays: [WeekdayTally], at chosen: Weekday?) -> [Weekday] {
    guard let chosen, let rate = weekdays.first(where: { $0.weekday == chosen })?.tally.rate else {
      return []
    }
    return weekdays.filter { $0.tally.hasTodos && $0.tally.rate == rate }.map(\.weekday)
  }

  private static func ranked(_ weekdays: [WeekdayTally]) -> [Weekday]? {
    let candidates = weekdays.filter { $0.tally.hasTodos }
    guard candidates.count >= 2 else { return nil }
    return candidates.sorted { lhs, rhs in
      let (l, r) = (lhs.tally.rate ?? 0, rhs.tally.rate ?? 0)
      if l != r { return l > r }
      if lhs.tally.done != rhs.tally.done { return lhs.tally.done > rhs.tally.done }
      return lhs.weekday.rawValue < rhs.weekday.rawValue
    }.map(\.weekday)
  }
}

// MARK: - Heat levels

/// The five shades of a calendar heatmap cell, from nothing planned to a perfect day.
public enum AchievementLevel: Int, CaseIterable, Sendable, Comparable {
  /// No todos that day.
  case none = 0
  /// Less than half done (including nothing done).
  case low
  /// Half to 79 % done.
  case medium
  /// 80 % to 99 % done.
  case high
  /// Everything done: a perfect day.
  case perfect

  /// The level of a day with `tally`. Thresholds: < 50 %, 50–79 %, 80–99 %, 100 %.
  public init(_ tally: Tally) {
    // Integer arithmetic so that 4/5 is exactly 80 % (no floating-point edge).
    let done = tally.done * 100
    if tally.total == 0 {
      self = .none
    } else if tally.done >= tally.total {
      self = .perfect
    } else if done >= 80 * tally.total {
      self = .high
    } else if done >= 50 * tally.total {
      self = .medium
    } else {
      self = .low
    }
  }

  /// What the level means, for legends: `none`, `<50%`, `50-79%`, `80-99%`, `100%`.
  public var label: String {
    switch self {
    case .none: "none"
    case .low: "<50%"
    case .medium: "50-79%"
    case .high: "80-99%"
    case .perfect: "100%"
    }
  }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

// MARK: - The report

/// Everything `ootd report` shows for a range: every day's tally (days without todos included),
/// the totals, streaks, weekday and priority breakdowns.
public struct AchievementReport: Hashable, Sendable {
  /// The days reported on.
  public var range: DayRange
  /// One entry per day of the range, in order, including days without todos.
  public var days: [DayTally]
  /// Every todo of the range.
  public var total: Tally
  /// Runs of perfect days inside the range.
  public var streaks: Streaks
  /// High, mid and low, in that order, each with its tally (zero when none was planned).
  public var priorities: [PriorityTally]
  /// Monday…Sunday.
  public var weekdays: [WeekdayTally]
  /// The weekday with the highest rate (nil with fewer than two weekdays with todos).
  public var bestWeekday: Weekday? { WeekdayTally.best(weekdays) }
  /// The weekday with the lowest rate (nil with fewer than two weekdays with todos).
  public var worstWeekday: Weekday? { WeekdayTally.worst(weekdays) }
  /// Every weekday sharing the best rate (several: a tie), Monday first; empty without a best.
  public var bestWeekdays: [Weekday] { WeekdayTally.tiedForBest(weekdays) }
  /// Every weekday sharing the worst rate, Monday first; empty without a worst.
  public var worstWeekdays: [Weekday] { WeekdayTally.tiedForWorst(weekdays) }
  /// Whether every weekday with todos has the same rate: no best and no worst.
  public var weekdaysAllTied: Bool { WeekdayTally.allTied(weekdays) }
  /// Days with at least one todo.
  public var activeDays: Int { days.filter { $0.tally.hasTodos }.count }
  /// Days with todos, all done.
  public var perfectDays: Int { days.filter { $0.tally.isPerfect }.count }

  /// Builds the report from storage's per-day, per-priority counts. Rows outside `range` are
  /// ignored; rows for the same day and priority add up.
  ///
  /// `today`, `runBefore` and `runAfter` are passed on to
  /// ``Streaks/init(_:today:runBefore:runAfter:)``.
  public init(
    range: DayRange, counts: [DayPriorityCount], today: Day? = nil, runBefore: Int = 0,
    runAfter: Int = 0
  ) {
    self.range = range
    var perDay = [Tally](repeating: .zero, count: range.count)
    var perPriority = [Tally](repeating: .zero, count: Priority.allCases.count)
    for row in counts where range.contains(row.day) {
      perDay[range.from.distance(to: row.day)] += row.tally
      perPriority[row.priority.rank] += row.tally
    }
    days = zip(range, perDay).map { DayTally(day: $0, tally: $1) }
    total = perDay.reduce(.zero, +)
    streaks = Streaks(days, today: today, runBefore: runBefore, runAfter: runAfter)
    weekdays = WeekdayTally.of(days)
    priorities = Priority.allCases.map { PriorityTally(priority: $0, tally: perPriority[$0.rank]) }
  }
}

/// The todos of one priority across a range: did I finish my `high` todos?
public struct PriorityTally: Hashable, Sendable {
  /// The priority.
  public var priority: Priority
  /// Its todos.
  public var tally: Tally

  /// Creates a value.
  public init(priority: Priority, tally: Tally) {
    self.priority = priority
    self.tally = tally
  }
}

// MARK: - Periods

/// The range a report covers, as the user names it on the command line.
public enum ReportPeriod: Hashable, Sendable {
  /// `--from D --to D`: exactly these days.
  case between(Day, Day)
  /// `--week`: the 7 days ending today (as in every command that takes it).
  case week
  /// `--month`: the 30 days ending today.
  case month
  /// `--year`: the 365 days ending today.
  case year
  /// `--days N`: the `N` days ending today.
  case days(Int)
  /// `--weeks N` of whole calendar weeks ending with this one (Monday N-1 weeks ago to today):
  /// what a calendar grid shows.
  case calendarWeeks(Int)

  /// The longest range a report accepts: 100 years.
  public static let maximumDays = 36_525

  /// The default range of `ootd report`: the last 4 weeks (28 days) ending today.
  public static let standard = ReportPeriod.days(28)

  /// The days this period covers when today is `today`.
  ///
  /// - Throws: ``CoreError/invertedRange(from:to:)`` when `--to` is before `--from`,
  ///   ``CoreError/invalidRangeLength(_:limit:)`` for a count below 1 or a range longer than
  ///   ``maximumDays``.
  public func range(today: Day) throws(CoreError) -> DayRange {
    let range: DayRange
    switch self {
    case .between(let from, let to):
      range = try DayRange(from: from, to: to)
    case .week:
      range = try DayRange(from: today.adding(days: -6), to: today)
    case .month:
      range = try DayRange(from: today.adding(days: -29), to: today)
    case .year:
      range = try DayRange(from: today.adding(days: -364), to: today)
    case .days(let count):
      guard (1...Self.maximumDays).contains(count) else {
        throw .invalidRangeLength(count, limit: Self.maximumDays)
      }
      range = try DayRange(from: today.adding(days: -(count - 1)), to: today)
    case .calendarWeeks(let count):
      guard (1...Self.maximumDays / 7).contains(count) else {
        throw .invalidRangeLength(count * 7, limit: Self.maximumDays)
      }
      let monday = today.adding(days: -(today.weekday.rawValue - 1))
      range = try DayRange(from: monday.adding(days: -7 * (count - 1)), to: today)
    }
    guard range.count <= Self.maximumDays else {
      throw .invalidRangeLength(range.count, limit: Self.maximumDays)
    }
    return range
  }
}

// MARK: - Today's streak

extension Streaks {
  /// The streak the dashboard shows on `today`: the run of perfect days before today, plus today
  /// once it is perfect. An unfinished today does not break the streak yet (the day is not over).
  /// The same rule as ``init(_:today:runBefore:)`` for a range ending today.
  ///
  /// - Parameters:
  ///   - perfectDaysBefore: the run of perfect days ending at the last day before today that has
  ///     todos.
  ///   - today: today's tally.
  public static func ongoing(perfectDaysBefore: Int, today: Tally) -> Int {
    perfectDaysBefore + (today.isPerfect ? 1 : 0)
  }
}

// MARK: - Carrying and dropping

/// The rules that keep a day's record when its todos move or are given up.
///
/// A todo moved away from a day that had already begun (that day is today or earlier) while it
/// was still open is *carried* from that day: the day keeps counting it as planned and not done,
/// and its new day counts it too. Moving it back onto a day it was carried from makes it
/// planned there again (counted once). A done todo never moves into the future, and carrying
/// only moves work forward (never to a day before today).
public enum CarryRecord {
  /// The days `todo` is carried from after moving to `target` (nil: into the backlog) on
  /// `today`, oldest first.
  public static func days(after todo: Todo, movesTo target: Day?, today: Day) -> [Day] {
    days(carriedFrom: todo.carriedFrom, day: todo.day, isDone: todo.isDone, movesTo: target, today: today)
  }

  /// The same rule for a todo given by its fields: planned on `day` (nil: in the backlog),
  /// carried from `carriedFrom`, done or not. Moving into the backlog from a day that had
  /// begun carries the todo from that day, as any move does; the backlog itself is no day.
  public static func days(
    carriedFrom: [Day], day: Day?, isDone: Bool, movesTo target: Day?, today: Day
  ) -> [Day] {
    var days = carriedFrom.filter { $0 != target }
    if !isDone, let day, day <= today, day != target, !days.contains(day) {
      days.append(day)
    }
    return days.sorted()
  }

  /// Refuses moving a done todo off its day (work cannot be done in the future, and a day's
  /// record keeps the work done on it: moved to another day it would leave its own day and count
  /// where it was not done) or into the backlog (done work was done on a day), and moving a
  /// dropped todo (given up on its day: `ootd undone` takes it back up first). Moving a todo onto
  /// the day it has is no move.
  public static func checkMove(_ todo: Todo, to target: Day?, today: Day) throws(CoreError) {
    if todo.isDone {
      guard let target else {
        throw .refusedMove(
          "todo \(todo.id) is done: it cannot go to the backlog, done work keeps its day (ootd undone \(todo.id) first)")
      }
      if target > today {
        throw .refusedMove(
          "todo \(todo.id) is done: it cannot move to \(target), a day after today (ootd undone \(todo.id) first)")
      }
      if target != todo.day {
        throw .refusedMove(
          "todo \(todo.id) is done: it cannot move to \(target), done work keeps its day (ootd undone \(todo.id) first)")
      }
    } else if todo.isDropped, target != todo.day {
      let to = target.map { "move to \($0)" } ?? "go to the backlog"
      throw .refusedMove(
        "todo \(todo.id) was dropped: it cannot \(to) (ootd undone \(todo.id) takes it back up first)")
    }
  }

  /// Refuses carrying to a day before today.
  public static func checkCarryTarget(_ target: Day, today: Day) throws(CoreError) {
    if target < today {
      throw .refusedMove(
        "cannot carry to \(target): it is before today (\(today)); carry moves open work forward")
    }
  }

  /// Why `todo` cannot be dropped (it is done), or nil.
  public static func dropRefusal(_ todo: Todo) -> String? {
    todo.isDone ? "todo \(todo.id) is done: only open todos can be dropped" : nil
  }

  /// The stored form of carried-from days: `2025-09-14,2025-09-15`, nil for none.
  public static func text(_ days: [Day]) -> String? {
    days.isEmpty ? nil : days.map(\.description).joined(separator: ",")
  }

  /// The days of ``text(_:)``; unreadable parts are skipped.
  public static func days(_ text: String?) -> [Day] {
    guard let text, !text.isEmpty else { return [] }
    return text.split(separator: ",").compactMap { Day(iso: String($0)) }
  }
}
