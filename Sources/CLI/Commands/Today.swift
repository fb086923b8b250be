import ArgumentParser
import Core
import Foundation
import Storage

extension Ootd {
  /// `ootd` alone: today at a glance.
  struct Today: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "today",
      abstract: "Show today: the day's todos by priority, what is overdue, the day's rate and streak.",
      discussion: """
        This is what 'ootd' with no subcommand runs.

        Examples:
          ootd
          ootd today --json
        """)

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let today = environment.today
      let database = try global.openDatabase(environment)
      let todos = try database.todos(matching: TodoFilter(days: .range(DayRange(day: today))))
      let done = todos.filter(\.isDone).count
      var facts = DashboardFacts(
        today: Tally(total: todos.count, done: done),
        streakBefore: try database.perfectDayStreak(before: today))
      // Today's commits, once any are synced (a cheap EXISTS check otherwise).
      if try database.hasCommits() {
        facts.commits = try database.commitCalendar(
          DayRange(day: today), timeZone: environment.timeZone,
          filter: database.commitFilter(author: database.gitHubSetting(.login))
        ).total
        facts.lastSync = try database.lastCommitSync()
      }
      if output.json {
        let overdue = try database.overdueTodos(before: today)
        environment.output(
          try JSONOutput.encode(
            DashboardJSON(
              date: today, todos: todos, overdue: overdue, facts: facts,
              timeZone: environment.timeZone)
          ) + "\n")
        return
      }
      let renderer = TodoRenderer(environment, noColor: global.noColor)
      var lines = [renderer.dayHeading(today, todos: todos)]
      if todos.isEmpty {
        lines.append(renderer.style.dim(
          "  Nothing planned yet. Try: ootd add \"...\" --priority high, ootd add --block algorithm, or ootd plan"))
      } else {
        let idWidth = todos.map { String($0.id).count }.max() ?? 1
        lines += todos.map { renderer.line($0, idWidth: idWidth) }
      }
      lines += try renderer.overdueSection(database, before: today, limit: 10)
      lines += ["", facts.line(renderer.style)]
      if let commits = facts.line(commitsWith: renderer.style, timeZone: environment.timeZone) {
        lines.append(commits)
      }
      environment.output(lines.map { $0 + "\n" }.joined())
    }
  }
}

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

/// `ootd today --json`: `{"date","todos","overdue","total","done","rate","streak","commits"}`;
/// `streak` counts perfect days before today, plus today once it is perfect; `commits` is
/// today's commit count, null until commits are synced.
struct DashboardJSON: Encodable {
  let date: Day
  let todos: [Todo]
  let overdue: [Todo]
  let facts: DashboardFacts
  let timeZone: TimeZone

  enum CodingKeys: String, CodingKey {
    case date, todos, overdue, total, done, rate, streak, commits
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
    try c.encode(facts.commits, forKey: .commits)
  }
}
