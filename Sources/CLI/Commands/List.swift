import ArgumentParser
import Core
import Storage

extension Ootd {
  /// `ootd list`: shows todos.
  struct List: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List todos: today's by default, grouped by day and ordered by priority.",
      discussion: """
        Open todos of earlier days are shown under "Overdue" when listing today; 'ootd carry' \
        moves them to today. --json prints an array ordered by date, priority, then id.

        A day's heading counts its todos as 'ootd report' does: a todo carried away from a \
        day after it began still counts there, as planned and not done. Such todos are listed \
        after the day's own, marked [>] with the day they went to (in --json they follow the \
        listed days' todos; their carriedFrom names the day). A filtered list shows only the \
        todos that match, without figures.

        Examples:
          ootd list
          ootd list --on yesterday
          ootd list tomorrow
          ootd list mon
          ootd list --from 2026-11-01 --to today --project ootd --open
          ootd list --all --priority high --json
          ootd list someday
          ootd list --long          # with each todo's short uuid
        """,
      aliases: ["ls"])

    @OptionGroup var selection: DaySelectionOptions

    @OptionGroup var filters: TodoFilterOptions

    @Option(name: .long, help: ArgumentHelp("Only todos whose title contains this text, ignoring case (as 'ootd search').", valueName: "text"))
    var grep: String?

    @Flag(
      name: .long,
      help: "Also show each todo's short uuid (its first 8 hex digits, as git shortens a hash; 'ootd done PREFIX' takes any unique prefix of 4 or more).")
    var long = false

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let days = try selection.days(environment)
      let filter = filters.filter(days: days, text: grep)
      let today = environment.today
      let showsToday: Bool
      if case .range(let range) = days, range == DayRange(day: today) { showsToday = true } else { showsToday = false }
      let database = try showsToday
        ? global.openDatabaseShowingToday(environment) : global.openDatabase(environment, readOnly: true)
      // Rows are streamed from the database to the output: constant memory for any number.
      let unfiltered = filters.isEmpty && grep == nil
      if output.json {
        var range: DayRange?
        if unfiltered, case .range(let days) = days { range = days }
        try printTodosJSON(database, matching: filter, carriedAwayFrom: range, environment)
        return
      }
      var renderer = TodoRenderer(environment, noColor: global.noColor)
      renderer.showsUUID = long
      // The backlog has no day, so no figures (nor todos carried away from it) to show.
      let printed = try renderer.printDays(
        database, matching: filter, showProgress: unfiltered && days != .backlog, fitted: false, environment)
      var lines: [String] = []
      if !printed {
        lines.append(
          unfiltered
            ? try emptyMessage(days, today: today, renderer: renderer, database)
            : renderer.style.dim("No todos match the filter."))
      }
      if case .range(let range) = days, range == DayRange(day: today), !filters.done,
        filters.project == nil, filters.priority == nil, grep == nil
      {
        lines += try renderer.overdueSection(database, before: today, limit: 10)
      }
      environment.output(renderer.fitting(lines).map { $0 + "\n" }.concatenated())
    }

    private func emptyMessage(
      _ days: TodoFilter.Days, today: Day, renderer: TodoRenderer, _ database: AppDatabase
    ) throws -> String {
      let style = renderer.style
      func tryAdding() throws -> String {
        "Try: ootd add \"...\"" + (addBlockHint(try database.blocks()).map { " or " + $0 } ?? "")
      }
      if case .range(let range) = days, range == DayRange(day: today) {
        return style.dim("Nothing planned for today. " + (try tryAdding()))
      }
      switch days {
      case .range(let range) where range.count == 1:
        return style.dim("Nothing planned for \(range.from.weekday.shortName) \(range.from).")
      case .range(let range):
        return style.dim("Nothing planned from \(range.from) to \(range.to).")
      case .backlog:
        return renderer.emptyBacklog
      case .all:
        return style.dim("No todos yet. " + (try tryAdding()))
      }
    }
  }
}
