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
      let facts = try DashboardFacts.load(today, database: database, timeZone: environment.timeZone)
      // Today's todos (and, in JSON, the overdue ones) are streamed from the database to the
      // output: constant memory for any number.
      if output.json {
        try DashboardJSON(date: today, facts: facts, timeZone: environment.timeZone).print(database, environment)
        return
      }
      let renderer = TodoRenderer(environment, noColor: global.noColor)
      let overdue =
        try renderer.overdueSection(database, before: today, limit: 10)
        + renderer.backlogSection(database, limit: DashboardJSON.backlogShown)
      try DashboardText(renderer: renderer, timeZone: environment.timeZone)
        .print(today, reader: database, blocks: { try database.blocks() }, overdue: overdue, facts: facts, environment)
    }
  }
}
