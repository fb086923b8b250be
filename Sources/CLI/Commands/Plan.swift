import ArgumentParser
import Core
import Storage

extension Ootd {
  /// `ootd plan`: adds the routine blocks to a day, or puts todos (from the backlog) on one.
  struct Plan: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "plan",
      abstract: "Put backlog todos on a day (ootd plan ID), or add your routine blocks due on a day; today unless --on.",
      discussion: """
        With ids, plan puts those todos on the day: backlog todos get their day ('ootd backlog' \
        lists them), and a todo of another day moves as 'ootd edit ID --on DAY' moves it \
        ('ootd edit ID --on someday' takes one back to the backlog).

        Without ids, plan adds the routine blocks due on the day. Today's routine is planned by \
        itself (see 'ootd block routine --help'); plan is for another day, or to bring back a \
        routine todo you removed today. A day never gets two todos from one block. Safe to run \
        twice.

        Examples:
          ootd plan 12
          ootd plan 12 14 --on fri
          ootd block routine algorithm && ootd block routine commit
          ootd plan
          ootd plan --on tomorrow
        """)

    @Argument(
      help: TodoIDs.help("Todos to put on the day (see 'ootd backlog'); none: plan the routine."),
      transform: TodoIDs.parse)
    var ids: [TodoReference] = []

    @Option(name: .long, help: ArgumentHelp("The day to plan.", valueName: "date"), completion: NameCompletion.days)
    var on: String?

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      if let on, Placement.namesBacklog(on) {
        throw CLIError.invalidValue(
          "plan puts todos on a day: 'ootd edit ID --on someday' takes one to the backlog")
      }
      let day = try parseDay(on, environment) ?? environment.today
      let database = try global.openDatabase(environment)
      if !ids.isEmpty {
        let ids = try TodoIDs.resolve(ids, in: database)
        // A todo already on the day does not change: said apart, as done says "already done".
        let (todos, already) = try database.editTodosTellingUnchanged(
          ids: ids, try TodoChanges(day: .day(day)), today: environment.today, now: environment.now)
        let planned = todos.filter { !already.contains($0.id) }
        try warnAboutPlacement(planned, database, environment)
        // --json keeps its shape: every todo named, as it now is.
        if output.json || already.isEmpty {
          try printTodos(
            todos, verb: "Planned", suffix: " for \(day)", json: output.json, noColor: global.noColor,
            environment)
          return
        }
        if !planned.isEmpty {
          try printTodos(
            planned, verb: "Planned", suffix: " for \(day)", json: false, noColor: global.noColor, environment)
        }
        try printTodos(
          todos.filter { already.contains($0.id) }, verb: "Kept", suffix: " (already on \(day))", json: false,
          noColor: global.noColor, environment)
        return
      }
      let added = try database.planRoutine(
        on: day, now: environment.now, timeZone: environment.timeZone)
      if added.isEmpty && !output.json {
        let routine = try database.blocks().filter(\.isRoutine)
        // A day none is due on has nothing to plan: not "already has every block" (it has none).
        let due = routine.filter { $0.recurrence.occurs(on: day) }
        environment.print(
          routine.isEmpty
            ? "No routine blocks yet: mark some with 'ootd block routine NAME'."
            : due.isEmpty
              ? "No routine block is due on \(day) (see 'ootd block list')."
              : "\(day) already has every routine block due that day.")
        return
      }
      try printTodos(
        added, verb: "Planned", suffix: " for \(day)", json: output.json, noColor: global.noColor,
        environment)
    }
  }
}
