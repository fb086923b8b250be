import Core
import Foundation
import Zone

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
  func line(commitsWith style: Style, timeZone: any ZoneRules) -> String? {
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
    // Todos carried away from today count there as not done (``DayFigures``): finishing them
    // on their new day cannot make today perfect, so only the todos still on today are named.
    if today.carried > 0 {
      let moved = today.carried == 1 ? "1 todo was" : "\(today.carried) todos were"
      parts.append("\(moved) carried away from today: it cannot be perfect")
    } else if today.hasTodos && !today.isPerfect {
      let open = today.total - today.done
      let todos = "today's \(open) open todo\(open == 1 ? "" : "s")"
      parts.append(streak > 0 ? "finish \(todos) to make it \(streak + 1)" : "finish \(todos) to start one")
    } else if !today.hasTodos {
      parts.append("nothing planned today")
    }
    // The hint only while the line stays short enough for an 80-column terminal.
    if parts.map(DisplayWidth.of).reduce(0, +) < 50 { parts.append(style.dim("'ootd report' for more")) }
    // (`concatenated`, not `joined`: the dashboard's only calls of the standard library's generic
    // one were these, and its first call costs 0.31 M instructions; issue 25.)
    return parts.concatenated(separator: " · ")
  }
}

/// `ootd today --json`: `{"date","todos","overdue","total","done","rate","streak",
/// "currentStreak","carried","commits","backlog","backlogTop"}`; `backlog` counts the todos
/// waiting without a day (open, not dropped), `backlogTop` is the first three of them in
/// backlog order; `currentStreak` (and `streak`, its older name) counts
/// perfect days before today, plus today once it is perfect, as `report --json` does for a range
/// ending today; `carried` counts todos moved away from today (included in `total`); `commits`
/// is today's commit count, null until commits are synced. Written a value at a time, keys
/// sorted, with `todos` and `overdue` streamed from the
/// database: a day of any number of todos in constant memory.
struct DashboardJSON {
  let date: Day
  let facts: DashboardFacts
  let timeZone: any ZoneRules

  /// How many backlog todos the dashboard shows (text and JSON).
  static let backlogShown = 3

  /// Writes the dashboard; `overdue` and `todos` write those arrays of todos (see ``todo(_:)``),
  /// `backlog` is the backlog's summary.
  func write(
    to writer: inout JSONStreamWriter, backlog: (todos: [Todo], count: Int),
    overdue: (inout JSONStreamWriter) throws -> Void, todos: (inout JSONStreamWriter) throws -> Void
  ) rethrows {
    writer.beginObject()
    writer.key("backlog")
    writer.integer(backlog.count)
    writer.key("backlogTop")
    writer.beginArray()
    for todo in backlog.todos { self.todo(todo).write(to: &writer) }
    writer.endArray()
    writer.key("carried")
    writer.integer(facts.today.carried)
    writer.key("commits")
    writer.integer(facts.commits)
    writer.key("currentStreak")
    writer.integer(facts.streak)
    writer.key("date")
    writer.string(date.description)
    writer.key("done")
    writer.integer(facts.today.done)
    writer.key("overdue")
    try overdue(&writer)
    writer.key("rate")
    writer.double(facts.today.rate)
    writer.key("streak")
    writer.integer(facts.streak)
    writer.key("todos")
    try todos(&writer)
    writer.key("total")
    writer.integer(facts.today.total)
    writer.endObject()
  }

  /// A todo as the dashboard shows it: overdue against its day, done on a day of its zone.
  func todo(_ todo: Todo) -> JSONOutput.TodoJSON {
    JSONOutput.TodoJSON(todo: todo, today: date, timeZone: timeZone)
  }

  /// Prints the dashboard of `date`, its todos read from `reader`.
  func print(_ reader: any TodoReader, _ environment: AppEnvironment) throws {
    var writer = JSONStreamWriter(environment)
    try write(
      to: &writer, backlog: try reader.backlogSummary(limit: Self.backlogShown),
      overdue: { writer in
        writer.beginArray()
        try reader.forEachOverdueTodo(before: date) { todo in
          self.todo(todo).write(to: &writer)
          return environment.outputFailed() == nil
        }
        writer.endArray()
      },
      todos: { writer in
        writer.beginArray()
        try reader.forEachTodo(matching: TodoFilter(days: .range(DayRange(day: date)))) { todo in
          self.todo(todo).write(to: &writer)
          return environment.outputFailed() == nil
        }
        writer.endArray()
      })
    writer.finish()
  }
}

/// The dashboard as text: today's heading and todos (or how to plan some), the overdue
/// section, the streak line and, once synced, today's commits. Today's todos are streamed from
/// the database (a day of a 100,000-line import included); `blocks` is read only for an empty
/// day's hint.
struct DashboardText {
  let renderer: TodoRenderer
  let timeZone: any ZoneRules

  func print(
    _ today: Day, reader: any TodoReader, blocks: () throws -> [TaskBlock], overdue: [String],
    facts: DashboardFacts, _ environment: AppEnvironment
  ) throws {
    let printed = try renderer.printDays(
      reader, matching: TodoFilter(days: .range(DayRange(day: today))), showProgress: true,
      fitted: true, environment)
    var lines: [String] = []
    if !printed {
      lines = renderer.dayHeading(today, todos: [])
      let tries = ["ootd add \"...\" --priority high", addBlockHint(try blocks()), "ootd plan"].compactMap { $0 }
      lines.append(renderer.style.dim(
        "  Nothing planned yet. Try: " + Array(tries.dropLast()).concatenated(separator: ", ")
          + (tries.count > 2 ? ", or " : " or ") + tries.last!))
    }
    lines += overdue
    lines += ["", facts.line(renderer.style)]
    if let commits = facts.line(commitsWith: renderer.style, timeZone: timeZone) {
      lines.append(commits)
    }
    environment.output(renderer.fitting(lines).map { $0 + "\n" }.concatenated())
  }
}
