/// Commit counts for every day of a range, with the figures the commit graph shows:
/// the total, the busiest day and the commit streaks.
public struct CommitCalendar: Hashable, Sendable {
  /// The days counted.
  public let range: DayRange
  /// One count per day of `range`, in order.
  public let counts: [Int]
  /// The first day the shown repositories were synced from: days before it are "not synced"
  /// (their count is unknown, not 0). Nil when every day counts.
  public var syncedFrom: Day? = nil

  /// Whether `day`'s commits are known (it is not before ``syncedFrom``).
  public func isSynced(_ day: Day) -> Bool { syncedFrom.map { day >= $0 } ?? true }

  /// The count on `day`, or nil when the day is not synced.
  public func syncedCount(on day: Day) -> Int? { isSynced(day) ? count(on: day) : nil }

  /// Creates a calendar; `counts` must have one entry per day of `range` (missing days are 0,
  /// extra entries are dropped).
  public init(range: DayRange, counts: [Int]) {
    self.range = range
    var counts = Array(counts.prefix(range.count))
    if counts.count < range.count {
      counts += Array(repeating: 0, count: range.count - counts.count)
    }
    self.counts = counts
  }

  /// Creates a calendar from sparse per-day counts; days outside `range` are ignored.
  public init(range: DayRange, countsByDay: [Day: Int]) {
    self.init(range: range, counts: range.map { countsByDay[$0] ?? 0 })
  }

  /// Each day with its count, in order.
  public var days: [(day: Day, count: Int)] {
    zip(range, counts).map { (day: $0, count: $1) }
  }

  /// The count on `day`, or 0 outside the range.
  public func count(on day: Day) -> Int {
    guard range.contains(day) else { return 0 }
    return counts[range.from.distance(to: day)]
  }

  /// All commits in the range.
  public var total: Int { counts.reduce(0, +) }

  /// How many days have at least one commit.
  public var activeDays: Int { counts.filter { $0 > 0 }.count }

  /// The day with the most commits (the earliest on a tie), or nil when there are none.
  public var busiestDay: (day: Day, count: Int)? {
    var best: (day: Day, count: Int)?
    for (day, count) in days where count > 0 && count > (best?.count ?? 0) {
      best = (day, count)
    }
    return best
  }

  /// The longest run of consecutive days with commits.
  public var longestStreak: Streak? {
    var best: Streak?
    var start: Day?
    for (day, count) in days {
      if count > 0 {
        let first = start ?? day
        start = first
        let length = first.distance(to: day) + 1
        if length > (best?.length ?? 0) { best = Streak(from: first, to: day) }
      } else {
        start = nil
      }
    }
    return best
  }

  /// The run of consecutive days with commits that ends on the range's last day, or on the day
  /// before it when the last day has none yet (today is not over), or nil.
  public var currentStreak: Streak? {
    var end = counts.count - 1
    if end >= 0 && counts[end] == 0 { end -= 1 }
    guard end >= 0, counts[end] > 0 else { return nil }
    var start = end
    while start > 0 && counts[start - 1] > 0 { start -= 1 }
    return Streak(from: range.from.adding(days: start), to: range.from.adding(days: end))
  }

  /// The level (0–4) of a count for a five-shade legend, relative to the busiest day: 0 for no
  /// commits, then quartiles of the maximum.
  public func level(of count: Int) -> Int {
    CommitCalendar.level(of: count, maximum: counts.max() ?? 0)
  }

  /// The level (0–4) of `count` when the busiest day has `maximum`.
  public static func level(of count: Int, maximum: Int) -> Int {
    guard count > 0, maximum > 0 else { return 0 }
    return min(4, max(1, Int((Double(count) * 4 / Double(maximum)).rounded(.up))))
  }
}

/// Consecutive days, each with at least one commit.
public struct Streak: Hashable, Sendable {
  /// The first day.
  public let from: Day
  /// The last day.
  public let to: Day
  /// The number of days.
  public var length: Int { from.distance(to: to) + 1 }

  /// Creates a streak.
  public init(from: Day, to: Day) {
    self.from = from
    self.to = to
  }
}

/// How achievement relates to commits over a range: the plans of days with commits against
/// those of days without (`days with commits: 84% achieved; days without: 52%`). Only days with
/// todos whose commits are known count.
public struct CommitAchievementRelation: Hashable, Sendable {
  /// The todos of days with at least one commit.
  public let withCommits: Tally
  /// The todos of synced days without commits.
  public let withoutCommits: Tally
  /// How many days with todos had commits, and how many had none.
  public let daysWithCommits: Int
  public let daysWithoutCommits: Int

  /// The relation over `report`'s days.
  public init(_ report: AchievementReport, commits: CommitCalendar) {
    var with = Tally.zero
    var without = Tally.zero
    var daysWith = 0
    var daysWithout = 0
    for entry in report.days where entry.tally.hasTodos {
      guard let count = commits.syncedCount(on: entry.day) else { continue }
      if count > 0 {
        with += entry.tally
        daysWith += 1
      } else {
        without += entry.tally
        daysWithout += 1
      }
    }
    withCommits = with
    withoutCommits = without
    daysWithCommits = daysWith
    daysWithoutCommits = daysWithout
  }

  /// `days with commits: 84% achieved (12 days)` and `days without: 52% achieved (9 days)`;
  /// `no days` for a side without any.
  public var parts: [String] {
    func part(_ tally: Tally, _ days: Int) -> String {
      guard let percent = tally.percent else { return "no days" }
      return "\(percent)% achieved (\(counted(days, "day")))"
    }
    return [
      "days with commits: \(part(withCommits, daysWithCommits))",
      "days without: \(part(withoutCommits, daysWithoutCommits))",
    ]
  }

  /// The two parts in one line, joined by `; `.
  public var sentence: String { parts.joined(separator: "; ") }
}
