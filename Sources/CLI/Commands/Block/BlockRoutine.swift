import ArgumentParser
import Core
import Storage

extension Ootd.Block {
  struct Routine: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "routine",
      abstract: "Put a block in your routine: every day, on some weekdays, or every N days.",
      discussion: """
        A routine block gets its todo by itself on each day it is due: the first command of \
        the day that changes data, or shows today ('ootd', 'ootd list'), plans it, once, even \
        with several ootd processes at once ('ootd undo' and 'ootd redo' never plan). A \
        routine todo you remove or drop stays away that day; 'ootd plan' adds the day's \
        routine again explicitly. Running it again replaces the block's days.

        --every counts from today: today, then every N days.

        Examples:
          ootd block routine algorithm                 # every day
          ootd block routine blog --on mon,wed,fri
          ootd block routine review --on weekdays
          ootd block routine english --every 2d
          ootd block routine docs --every 1w           # today's weekday, weekly
          ootd block routine algorithm --off
        """)

    @Argument(help: "The block's name.", completion: NameCompletion.blocks)
    var name: String

    @Option(
      name: .long,
      help: ArgumentHelp("Only on these weekdays: mon,wed,fri (or weekdays, weekends).", valueName: "days"))
    var on: String?

    @Option(name: .long, help: ArgumentHelp("Every N days or weeks from today: 2d, 1w.", valueName: "interval"))
    var every: String?

    @Flag(name: .long, help: "Take the block out of the routine.")
    var off = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if off && (on != nil || every != nil) {
        throw ValidationError("--off cannot be combined with --on or --every")
      }
    }

    func run(in environment: AppEnvironment) throws {
      let recurrence = try Recurrence.parse(on: on, every: every, today: environment.today)
      let (block, planned) = try global.openDatabase(environment).setRoutine(
        named: name, !off, recurrence: recurrence, now: environment.now)
      environment.print(
        block.isRoutine
          ? TerminalText.printable(
            "\(block.name) is part of your routine (\(block.recurrence)): each day it is due gets its todo by itself")
          : TerminalText.printable("\(block.name) is no longer part of your routine"))
      for todo in planned { environment.print("Planned #\(todo.id) for today") }
    }
  }
}
