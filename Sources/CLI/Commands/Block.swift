import ArgumentParser
import Core
import Storage

extension Ootd {
  /// `ootd block`: manages task blocks.
  struct Block: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "block",
      abstract: "Manage task blocks: ready-made todos for work you do often.",
      discussion: """
        A fresh database has built-in blocks (algorithm, blog, commit, study, review, docs, \
        refactor, english). Add a todo from one with 'ootd add --block NAME'. Mark blocks as your \
        daily routine and 'ootd plan' adds them to a day.

        Examples:
          ootd block list
          ootd block add leetcode "Solve one LeetCode medium" --priority high
          ootd block routine algorithm
          ootd block rm leetcode
          ootd block restore algorithm   # bring back a built-in block
        """,
      subcommands: [ListBlocks.self, AddBlock.self, RemoveBlock.self, RestoreBlock.self, Routine.self],
      defaultSubcommand: ListBlocks.self)

    struct ListBlocks: OotdCommand {
      static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List task blocks.",
        discussion: """
          Examples:
            ootd block list
            ootd block list --json | jq -r '.[].name'
          """,
        aliases: ["ls"])

      @OptionGroup var output: JSONOption
      @OptionGroup var global: GlobalOptions

      func run(in environment: AppEnvironment) throws {
        let blocks = try global.openDatabase(environment, readOnly: true).blocks()
        if output.json {
          environment.output(try JSONOutput.encode(blocks.map(JSONOutput.BlockJSON.init)) + "\n")
          return
        }
        let table = BlockTable(style: environment.style(noColor: global.noColor), today: environment.today)
        environment.output(table.render(blocks).map { $0 + "\n" }.joined())
      }
    }

    struct AddBlock: OotdCommand {
      static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a task block.",
        discussion: """
          Example:
            ootd block add leetcode "Solve one LeetCode medium" --priority high --routine
          """)

      @Argument(help: "A short name: letters, digits, '-', '_' or '.'.")
      var name: String

      @Argument(help: "The title of todos made from it.")
      var title: String

      @Option(name: [.short, .long], help: "high, mid or low (default: mid).")
      var priority: Priority = .mid

      @Flag(name: .long, help: "Make it part of the daily routine ('ootd plan' adds it).")
      var routine = false

      @OptionGroup var global: GlobalOptions

      func run(in environment: AppEnvironment) throws {
        let block = try TaskBlock(name: name, title: title, priority: priority, isRoutine: routine)
        try global.openDatabase(environment).addBlock(block, now: environment.now)
        environment.print(TerminalText.printable("Added block \(block.name): \(block.title) (\(block.priority))"))
      }
    }

    struct RemoveBlock: OotdCommand {
      static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove a task block (todos made from it stay).",
        discussion: """
          Example:
            ootd block rm leetcode
          """,
        aliases: ["remove"])

      @Argument(help: "The block's name.", completion: NameCompletion.blocks)
      var name: String

      @OptionGroup var global: GlobalOptions

      func run(in environment: AppEnvironment) throws {
        try global.openDatabase(environment).removeBlock(named: name, now: environment.now)
        environment.print(TerminalText.printable("Removed block \(name)"))
      }
    }

    struct RestoreBlock: OotdCommand {
      static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Bring back a built-in block removed with 'ootd block rm'.",
        discussion: """
          The built-in blocks: \(TaskBlock.builtIns.map(\.name).joined(separator: ", ")).

          Example:
            ootd block restore algorithm
          """)

      @Argument(help: "The built-in block's name.")
      var name: String

      @OptionGroup var global: GlobalOptions

      func run(in environment: AppEnvironment) throws {
        let names = TaskBlock.builtIns.map(\.name)
        guard names.contains(name.lowercased()) else {
          throw CLIError.invalidValue(
            "'\(name)' is not a built-in block: they are \(names.joined(separator: ", "))")
        }
        let block = try global.openDatabase(environment).restoreBuiltInBlock(named: name, now: environment.now)
        environment.print(TerminalText.printable("Restored block \(block.name): \(block.title) (\(block.priority))"))
      }
    }

    struct Routine: OotdCommand {
      static let configuration = CommandConfiguration(
        commandName: "routine",
        abstract: "Add a block to the daily routine (or --off to take it out).",
        discussion: """
          'ootd plan' adds every routine block to a day once.

          Examples:
            ootd block routine algorithm
            ootd block routine algorithm --off
          """)

      @Argument(help: "The block's name.", completion: NameCompletion.blocks)
      var name: String

      @Flag(name: .long, help: "Take the block out of the routine.")
      var off = false

      @OptionGroup var global: GlobalOptions

      func run(in environment: AppEnvironment) throws {
        let block = try global.openDatabase(environment).setRoutine(named: name, !off, now: environment.now)
        environment.print(
          block.isRoutine
            ? "\(block.name) is part of the daily routine; 'ootd plan' adds it to a day"
            : "\(block.name) is no longer part of the daily routine")
      }
    }
  }

  /// `ootd plan`: adds the routine blocks to a day.
  struct Plan: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "plan",
      abstract: "Add your routine blocks to a day (today unless --on); safe to run twice.",
      discussion: """
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
      let added = try database.planRoutine(on: day, now: environment.now)
      if added.isEmpty && !output.json {
        let routine = try database.blocks().filter(\.isRoutine)
        environment.print(
          routine.isEmpty
            ? "No routine blocks yet: mark some with 'ootd block routine NAME'."
            : "\(day) already has every routine block.")
        return
      }
      try printTodos(
        added, verb: "Planned", suffix: " for \(day)", json: output.json, noColor: global.noColor,
        environment)
    }
  }
}
