import ArgumentParser
import Core
import Storage

extension Ootd {
  /// `ootd plan`: adds the routine blocks to a day.
  struct Plan: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "plan",
      abstract: "Add your routine blocks due on a day (today unless --on); safe to run twice.",
      discussion: """
        Today's routine is planned by itself (see 'ootd block routine --help'); plan is for \
        another day, or to bring back a routine todo you removed today. A day never gets two \
        todos from one block.

        Examples:
          ootd block routine algorithm && ootd block routine commit
          ootd plan
          ootd plan --on tomorrow
        """)

    @Option(name: .long, help: ArgumentHelp("The day to plan.", valueName: "date"))
    var on: String?

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let day = try parseDay(on, environment) ?? environment.today
      let database = try global.openDatabase(environment)
      let added = try database.planRoutine(
        on: day, now: environment.now, timeZone: environment.timeZone)
      if added.isEmpty && !output.json {
        let routine = try database.blocks().filter(\.isRoutine)
        environment.print(
          routine.isEmpty
            ? "No routine blocks yet: mark some with 'ootd block routine NAME'."
            : "\(day) already has every routine block due that day.")
        return
      }
      try printTodos(
        added, verb: "Planned", suffix: " for \(day)", json: output.json, noColor: global.noColor,
        environment)
    }
  }
}
