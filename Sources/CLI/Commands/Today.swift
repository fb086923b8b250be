import ArgumentParser
import Core
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
      let database = try global.openDatabaseShowingToday(environment)
      let todos = try database.todos(matching: TodoFilter(days: .range(DayRange(day: today))))
      let facts = try DashboardFacts.load(
        today, todos: todos, database: database, timeZone: environment.timeZone)
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
      let overdue = try renderer.overdueSection(database, before: today, limit: 10)
      environment.output(
        DashboardText(renderer: renderer, timeZone: environment.timeZone)
          .render(today, todos: todos, overdue: overdue, facts: facts))
    }
  }
}
