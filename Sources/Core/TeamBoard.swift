/// The figures a member shares with its teams for one day: nothing but counts. Titles,
/// projects and notes never leave the member's machine.
public struct DayFigure: Hashable, Sendable {
  /// The day (in the member's time zone).
  public var date: Day
  /// Todos planned that day.
  public var total: Int
  /// Of them, done.
  public var done: Int
  /// Commits that day, when known.
  public var commits: Int?

  public init(date: Day, total: Int, done: Int, commits: Int?) {
    self.date = date
    self.total = total
    self.done = done
    self.commits = commits
  }

  /// Figures as one line each, `2026-11-22 3 1 -` (date, total, done, commits or `-`): how a
  /// machine remembers what it published (``decode(_:)`` reads them back).
  public static func encode(_ figures: [DayFigure]) -> String {
    figures.sorted { $0.date < $1.date }
      .map { "\($0.date) \($0.total) \($0.done) \($0.commits.map(String.init) ?? "-")" }
      .joined(separator: "\n")
  }

  /// The figures of ``encode(_:)``; a line that is not one is skipped (published again).
  public static func decode(_ text: String) -> [DayFigure] {
    text.split(separator: "\n").compactMap { line in
      let parts = line.split(separator: " ")
      guard parts.count == 4, let day = Day(iso: String(parts[0])), let total = Int(parts[1]),
        let done = Int(parts[2])
      else { return nil }
      return DayFigure(date: day, total: total, done: done, commits: parts[3] == "-" ? nil : Int(parts[3]))
    }
  }
}

/// One member's row of a team board over a range: each day's figures, the rate over the range
/// and the current streak, by the same rules as `report` (``Tally``, ``Streaks``).
public struct TeamBoardRow: Hashable, Sendable {
  /// One day of the row.
  public struct Entry: Hashable, Sendable {
    public var day: Day
    /// What was planned and done (zero when the member published nothing that day).
    public var tally: Tally
    /// Commits, when the member published them.
    public var commits: Int?
  }

  /// The member's display name.
  public var name: String
  /// Whether this is the row of the person viewing the board.
  public var isViewer: Bool
  /// One entry per day of the range, in order.
  public var days: [Entry]
  /// Everything planned and done over the range.
  public var total: Tally
  /// The run of perfect days ending at the member's last day with todos up to the range's end.
  public var currentStreak: Int

  /// done / total over the range, nil without todos.
  public var rate: Double? { total.rate }

  /// Builds the row of `name` over `range` from the figures it published.
  ///
  /// The streak follows `report` (``Streaks``): the run standing at the range's last day,
  /// counted in full from the days before the range. `today` is the viewer's: days from it on
  /// are in progress.
  public init(name: String, figures: [DayFigure], range: DayRange, today: Day, isViewer: Bool = false) {
    self.name = name
    self.isViewer = isViewer
    var byDay: [Day: DayFigure] = [:]
    for figure in figures where figure.date <= range.to { byDay[figure.date] = figure }
    days = range.map { day in
      let figure = byDay[day]
      return Entry(
        day: day, tally: Tally(total: figure?.total ?? 0, done: min(figure?.done ?? 0, figure?.total ?? 0)),
        commits: figure?.commits)
    }
    total = days.reduce(.zero) { $0 + $1.tally }
    // The run standing at the range's last day, counted in full (``Streaks``): it goes on from
    // the days the member published before the range.
    var before = RunCounter(today: today)
    let earlier = byDay.values.filter { $0.date < range.from }.sorted { $0.date > $1.date }
    for figure in earlier
    where !before.take(DayTally(figure.date, total: figure.total, done: min(figure.done, figure.total))) {
      break
    }
    currentStreak = Streaks(
      days.map { DayTally(day: $0.day, tally: $0.tally) }, today: today, runBefore: before.run
    ).current
  }
}
