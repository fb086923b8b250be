import Core

/// Everything `ootd review` shows for a range, as a value: the report's figures (the same
/// ``ReportFigures`` `ootd report` states), the done todos ranked by project and block, the
/// busiest commit days, the months, and, with `--titles`, a few done todos. ``ReviewPage`` turns
/// it into HTML and SVG without any I/O.
///
/// Private by default: only figures and project and block names; titles only with
/// ``Privacy/titles``; ``Privacy/redacted`` replaces every title, project and block name by a
/// neutral label (`Project 1`, `Block 1`, `Todo 1`).
struct YearReview {
  /// What user text the page may carry.
  enum Privacy: Hashable, Sendable {
    /// Figures, project and block names (the default).
    case names
    /// Names and the titles of a few done todos (`--titles`).
    case titles
    /// Neutral labels for every name and title (`--redact`).
    case redacted
  }

  /// A project or block with how many of its todos were done in the range.
  struct Ranked: Hashable, Sendable {
    let name: String
    let done: Int
  }

  /// A done todo the page names (`--titles`).
  struct Highlight: Hashable, Sendable {
    let day: Day
    let title: String
    let priority: Priority
    let project: String?
  }

  /// One calendar month of the range (only its days in the range count).
  struct Month: Hashable, Sendable {
    let year: Int
    let month: Int
    /// The days of the range in this month.
    let days: Int
    /// Its todos, by ``DayFigures``.
    let tally: Tally
    /// Its days with todos, all done.
    let perfectDays: Int
    /// Its commits on synced days; nil when none of its days is synced (or no commit is).
    let commits: Int?
  }

  /// The report's figures: the one truth the page shows.
  let figures: ReportFigures
  /// The time zone the days are counted in (its identifier).
  let zone: String
  /// What user text the page carries.
  let privacy: Privacy
  /// The product's name on the page and the card, nil with `--redact`: a redacted page names
  /// nothing, not even the tool (a project may be called `ootd`).
  var brand: String? { privacy == .redacted ? nil : "ootd" }
  /// Projects by done todos, most first (ties by name), at most ``rankLimit``.
  let projects: [Ranked]
  /// Blocks by done todos, most first (ties by name), at most ``rankLimit``.
  let blocks: [Ranked]
  /// Done todos named on the page (``Privacy/titles`` and ``Privacy/redacted`` only): high
  /// priority first, then the latest day, at most ``highlightLimit``.
  let highlights: [Highlight]
  /// The days with the most commits, most first (ties: the earlier day), at most
  /// ``busiestLimit``.
  let busiestDays: [(day: Day, count: Int)]
  /// Each calendar month of the range, in order.
  let months: [Month]

  static let rankLimit = 8
  static let highlightLimit = 10
  static let busiestLimit = 5

  var report: AchievementReport { figures.report }
  var commits: CommitCalendar? { figures.commits }

  /// The review of `figures`, with `doneTodos` (the done todos of the range's days, in any
  /// order) ranked by project and block.
  init(figures: ReportFigures, doneTodos: [Todo], zone: String, privacy: Privacy) {
    self.figures = figures
    self.zone = zone
    self.privacy = privacy
    let range = figures.report.range
    let done = doneTodos.filter { todo in todo.isDone && todo.day.map(range.contains) == true }

    let projectRanking = Self.rank(done.compactMap(\.project))
    let blockRanking = Self.rank(done.compactMap(\.block))
    // Labels follow the full ranking, so a redacted name is the same label everywhere.
    let projectLabel = Self.labels(projectRanking, "Project", redacted: privacy == .redacted)
    let blockLabel = Self.labels(blockRanking, "Block", redacted: privacy == .redacted)
    projects = projectRanking.prefix(Self.rankLimit).map { Ranked(name: projectLabel[$0.name]!, done: $0.done) }
    blocks = blockRanking.prefix(Self.rankLimit).map { Ranked(name: blockLabel[$0.name]!, done: $0.done) }

    if privacy == .names {
      highlights = []
    } else {
      let chosen = done.sorted { lhs, rhs in
        if lhs.priority.rank != rhs.priority.rank { return lhs.priority.rank < rhs.priority.rank }
        if lhs.day != rhs.day { return lhs.day! > rhs.day! }
        return lhs.id < rhs.id
      }.prefix(Self.highlightLimit)
      highlights = chosen.enumerated().map { index, todo in
        Highlight(
          day: todo.day!,
          title: privacy == .redacted ? "Todo \(index + 1)" : todo.title,
          priority: todo.priority,
          project: todo.project.map { projectLabel[$0] ?? (privacy == .redacted ? "Project" : $0) })
      }
    }

    if let commits = figures.commits {
      busiestDays = Array(
        commits.days.filter { $0.count > 0 && commits.isSynced($0.day) }
          .sorted { $0.count != $1.count ? $0.count > $1.count : $0.day < $1.day }
          .prefix(Self.busiestLimit))
    } else {
      busiestDays = []
    }
    months = Self.months(figures.report, commits: figures.commits)
  }

  /// Names by how often they occur, most first, ties by name (byte order: the same in every
  /// locale).
  static func rank(_ names: [String]) -> [Ranked] {
    var counts: [String: Int] = [:]
    for name in names { counts[name, default: 0] += 1 }
    return counts.map { Ranked(name: $0.key, done: $0.value) }.sorted {
      $0.done != $1.done ? $0.done > $1.done : Array($0.name.utf8).lexicographicallyPrecedes($1.name.utf8)
    }
  }

  /// Each ranked name's label: itself, or `Project 1`… in ranking order when redacted.
  private static func labels(_ ranking: [Ranked], _ noun: String, redacted: Bool) -> [String: String] {
    var labels: [String: String] = [:]
    for (index, entry) in ranking.enumerated() {
      labels[entry.name] = redacted ? "\(noun) \(index + 1)" : entry.name
    }
    return labels
  }

  /// The range's days grouped by calendar month, each with the sum of its days' figures.
  static func months(_ report: AchievementReport, commits: CommitCalendar?) -> [Month] {
    var months: [Month] = []
    var index = 0
    let days = report.days
    while index < days.count {
      let first = days[index].day
      var end = index
      while end < days.count && days[end].day.month == first.month && days[end].day.year == first.year {
        end += 1
      }
      let slice = days[index..<end]
      let synced = slice.compactMap { commits?.syncedCount(on: $0.day) }
      months.append(
        Month(
          year: first.year, month: first.month, days: slice.count,
          tally: slice.map(\.tally).reduce(.zero, +),
          perfectDays: slice.filter { $0.tally.isPerfect }.count,
          commits: synced.isEmpty ? nil : synced.reduce(0, +)))
      index = end
    }
    return months
  }
}
