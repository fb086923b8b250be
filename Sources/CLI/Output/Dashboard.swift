import Core
import Foundation
import Storage

/// What the dashboard says about today beyond its todos. Each fact comes from one cheap query,
/// so `ootd` stays instant.
struct DashboardFacts {
  /// Today's todos.
  let today: Tally
  /// The run of perfect days ending at the last day before today that has todos.
  let streakBefore: Int
  /// Today's commits, once GitHub commits are synced (nil before).
  var commits: Int? = nil
  /// When commits were last synced.
  var lastSync: Date? = nil

  /// The facts of `today`, whose todos are `todos`: the streak before it and, once commits are
  /// synced, today's commits by the saved login (a cheap EXISTS check otherwise).
  static func load(
    _ today: Day, todos: [Todo], database: AppDatabase, timeZone: TimeZone
  ) throws -> DashboardFacts {
    // Today's tally as the report counts it: todos carried away from today still count.
    let counts = try database.achievementCounts(in: DayRange(day: today))
    var facts = DashboardFacts(
      today: counts.map(\.tally).reduce(.zero, +),
      streakBefore: try database.perfectDayStreak(before: today))
    if try database.hasCommits() {
      facts.commits = try database.commitCalendar(
        DayRange(day: today), timeZone: timeZone,
        filter: database.commitFilter(author: database.gitHubSetting(.login))
      ).total
      facts.lastSync = try database.lastCommitSync()
    }
    return facts
  }

  /// `Commits today: 3 (synced 2026-11-22 09:41)`, or nil before the first sync.
  func line(commitsWith style: Style, timeZone: TimeZone) -> String? {
    guard let commits else { return nil }
    let synced = lastSync.map { style.dim(" (synced \(syncStamp($0, timeZone: timeZone)))") } ?? ""
    return "Commits today: \(commits)" + synced
  }

  /// The streak including today once today is perfect (an unfinished today does not break it).
  var streak: Int { Streaks.ongoing(perfectDaysBefore: streakBefore, today: today) }

  /// `Streak: 3 perfect days · finish today's 2 open todos to make it 4 · 'ootd report' for more`.
  func line(_ style: Style) -> String {
    let days = streak == 1 ? "1 perfect day" : "\(streak) perfect days"
    var parts: [String] = []
    if today.isPerfect {
      parts.append(style.green("Streak: \(days), today included"))
    } else if streak > 0 {
      parts.append("Streak: \(days)")
    } else {
      parts.append("No streak yet")
    }
    if today.hasTodos && !today.isPerfect {
      let open = today.total - today.done
      let todos = "today's \(open) open todo\(open == 1 ? "" : "s")"
      parts.append(streak > 0 ? "finish \(todos) to make it \(streak + 1)" : "finish \(todos) to start one")
    } else if !today.hasTodos {
      parts.append("nothing planned today")
    }
    // The hint only while the line stays short enough for an 80-column terminal.
    if parts.map(DisplayWidth.of).reduce(0, +) < 50 { parts.append(style.dim("'ootd report' for more")) }
    return parts.joined(separator: " · ")
  }
}

/// `ootd today --json`: `{"date","todos","overdue","total","done","rate","streak",
/// "currentStreak","carried","commits"}`; `currentStreak` (and `streak`, its older name) counts
/// perfect days before today, plus today once it is perfect, as `report --json` does for a range
/// ending today; `carried` counts todos moved away from today (included in `total`); `commits`
/// is today's commit count, null until commits are synced.
struct DashboardJSON: Encodable {
  let date: Day
  let todos: [Todo]
  let overdue: [Todo]
  let facts: DashboardFacts
  let timeZone: TimeZone

  enum CodingKeys: String, CodingKey {
    case date, todos, overdue, total, done, rate, streak, commits, currentStreak, carried
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    let json = { (todo: Todo) in JSONOutput.TodoJSON(todo: todo, today: date, timeZone: timeZone) }
    try c.encode(date.description, forKey: .date)
    try c.encode(todos.map(json), forKey: .todos)
    try c.encode(overdue.map(json), forKey: .overdue)
    try c.encode(facts.today.total, forKey: .total)
    try c.encode(facts.today.done, forKey: .done)
    try c.encode(facts.today.rate, forKey: .rate)
    try c.encode(facts.streak, forKey: .streak)
    try c.encode(facts.streak, forKey: .currentStreak)
    try c.encode(facts.today.carried, forKey: .carried)
    try c.encode(facts.commits, forKey: .commits)
  }
}

/// The dashboard as text: today's heading and todos (or how to plan some), the overdue
/// section, the streak line and, once synced, today's commits.
struct DashboardText {
  let renderer: TodoRenderer
  let timeZone: TimeZone

  func render(_ today: Day, todos: [Todo], overdue: [String], facts: DashboardFacts) -> String {
    var lines = renderer.dayHeading(today, todos: todos)
    if todos.isEmpty {
      lines.append(renderer.style.dim(
        "  Nothing planned yet. Try: ootd add \"...\" --priority high, ootd add --block algorithm, or ootd plan"))
    } else {
      let idWidth = todos.map { String($0.id).count }.max() ?? 1
      lines += todos.map { renderer.line($0, idWidth: idWidth) }
    }
    lines += overdue
    lines += ["", facts.line(renderer.style)]
    if let commits = facts.line(commitsWith: renderer.style, timeZone: timeZone) {
      lines.append(commits)
    }
    return renderer.fitting(lines).map { $0 + "\n" }.joined()
  }
}
