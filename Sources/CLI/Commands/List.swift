import ArgumentParser
import Core
import Storage

/// The day-selection options `list` and similar commands share.
struct DaySelectionOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp("One day: YYYY-MM-DD, today, tomorrow or yesterday.", valueName: "date"),
    completion: NameCompletion.days)
  var on: String?

  @Option(
    name: .long, help: ArgumentHelp("The first day of a range (inclusive).", valueName: "date"),
    completion: NameCompletion.days)
  var from: String?

  @Option(
    name: .long, help: ArgumentHelp("The last day of a range (inclusive).", valueName: "date"),
    completion: NameCompletion.days)
  var to: String?

  @Flag(name: .long, help: "Every day.")
  var all = false

  func validate() throws {
    if on != nil && (from != nil || to != nil || all) {
      throw ValidationError("--on cannot be combined with --from, --to or --all")
    }
    if all && (from != nil || to != nil) {
      throw ValidationError("--all cannot be combined with --from or --to")
    }
  }

  /// The days asked for; today when nothing is given.
  func days(_ environment: AppEnvironment) throws -> TodoFilter.Days {
    if all { return .all }
    if let on { return .range(DayRange(day: try parseDay(on, environment))) }
    if from == nil && to == nil { return .range(DayRange(day: environment.today)) }
    let start = try from.map { try parseDay($0, environment) } ?? Day(year: 1, month: 1, day: 1)!
    let end = try to.map { try parseDay($0, environment) } ?? Day(year: 9999, month: 12, day: 31)!
    return .range(try DayRange(from: start, to: end))
  }
}

extension Ootd {
  /// `ootd list`: shows todos.
  struct List: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List todos: today's by default, grouped by day and ordered by priority.",
      discussion: """
        Open todos of earlier days are shown under "Overdue" when listing today; 'ootd carry' \
        moves them to today. --json prints an array ordered by date, priority, then id.

        Examples:
          ootd list
          ootd list --on yesterday
          ootd list --from 2026-11-01 --to today --project ootd --open
          ootd list --all --priority high --json
        """,
      aliases: ["ls"])

    @OptionGroup var selection: DaySelectionOptions

    @Option(name: .long, help: "Only todos of this project.", completion: NameCompletion.projects)
    var project: String?

    @Option(name: [.short, .long], help: "Only todos of this priority: high, mid or low.")
    var priority: Priority?

    @Flag(name: .long, help: "Only todos not done yet.")
    var open = false

    @Flag(name: .long, help: "Only done todos.")
    var done = false

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if open && done { throw ValidationError("--open and --done cannot be combined") }
    }

    func run(in environment: AppEnvironment) throws {
      let days = try selection.days(environment)
      let filter = TodoFilter(
        days: days, project: project, priority: priority,
        status: open ? .open : done ? .done : .any)
      let database = try global.openDatabase(environment)
      let todos = try database.todos(matching: filter)
      let today = environment.today
      if output.json {
        let items = todos.map {
          JSONOutput.TodoJSON(todo: $0, today: today, timeZone: environment.timeZone)
        }
        environment.output(try JSONOutput.encode(items) + "\n")
        return
      }
      let renderer = TodoRenderer(environment, noColor: global.noColor)
      let unfiltered = project == nil && priority == nil && !open && !done
      var lines = renderer.days(todos, showProgress: unfiltered)
      if todos.isEmpty {
        lines.append(emptyMessage(days, today: today, style: renderer.style))
      }
      if case .range(let range) = days, range == DayRange(day: today), !done,
        project == nil, priority == nil
      {
        let overdue = try database.overdueSummary(before: today, limit: 10)
        if overdue.count > 0 { lines += [""] + renderer.overdue(overdue.todos, count: overdue.count) }
      }
      environment.output(lines.map { $0 + "\n" }.joined())
    }

    private func emptyMessage(_ days: TodoFilter.Days, today: Day, style: Style) -> String {
      if case .range(let range) = days, range == DayRange(day: today) {
        return style.dim("Nothing planned for today. Try: ootd add \"...\" or ootd add --block algorithm")
      }
      return style.dim("No todos match.")
    }
  }
}
