import ArgumentParser
import Core
import Foundation
import Storage

extension Ootd {
  /// `ootd` alone: today at a glance.
  struct Today: EnvironmentCommand {
    static let configuration = CommandConfiguration(
      commandName: "today",
      abstract: "Show today: the day's todos by priority, what is overdue, and the day's progress.",
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
      if output.json {
        let overdue = try database.overdueTodos(before: today)
        environment.output(
          try JSONOutput.encode(
            DashboardJSON(
              date: today, todos: todos, overdue: overdue, done: done, timeZone: environment.timeZone)
          ) + "\n")
        return
      }
      let renderer = TodoRenderer(
        style: environment.style(noColor: global.noColor), today: today,
        width: environment.terminalWidth)
      var lines = [renderer.dayHeading(today, todos: todos)]
      if todos.isEmpty {
        lines.append(renderer.style.dim(
          "  Nothing planned yet. Try: ootd add \"...\" --priority high, ootd add --block algorithm, or ootd plan"))
      } else {
        let idWidth = todos.map { String($0.id).count }.max() ?? 1
        lines += todos.map { renderer.line($0, idWidth: idWidth) }
      }
      let overdue = try database.overdueSummary(before: today, limit: 10)
      if overdue.count > 0 { lines += [""] + renderer.overdue(overdue.todos, count: overdue.count) }
      environment.output(lines.map { $0 + "\n" }.joined())
    }
  }
}

/// `ootd today --json`: `{"date","todos","overdue","total","done","rate"}`.
struct DashboardJSON: Encodable {
  let date: Day
  let todos: [Todo]
  let overdue: [Todo]
  let done: Int
  let timeZone: TimeZone

  enum CodingKeys: String, CodingKey { case date, todos, overdue, total, done, rate }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    let json = { (todo: Todo) in JSONOutput.TodoJSON(todo: todo, today: date, timeZone: timeZone) }
    try c.encode(date.description, forKey: .date)
    try c.encode(todos.map(json), forKey: .todos)
    try c.encode(overdue.map(json), forKey: .overdue)
    try c.encode(todos.count, forKey: .total)
    try c.encode(done, forKey: .done)
    try c.encode(todos.isEmpty ? nil : Double(done) / Double(todos.count), forKey: .rate)
  }
}
