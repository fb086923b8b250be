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
        routine (every day, some weekdays, or every N days) and each day gets their todos by \
        itself.

        Examples:
          ootd block list
          ootd block add leetcode "Solve one LeetCode medium" --priority high
          ootd block routine algorithm
          ootd block routine blog --on mon,wed,fri
          ootd block rm leetcode
          ootd block restore algorithm   # bring back a built-in block
          ootd block edit commit --done-when commits --repo me/app
        """,
      subcommands: [
        ListBlocks.self, AddBlock.self, RemoveBlock.self, RestoreBlock.self, Routine.self,
        EditBlock.self,
      ],
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

      @Flag(name: .long, help: "Make it part of your routine, every day (see 'ootd block routine').")
      var routine = false

      @OptionGroup var global: GlobalOptions

      func run(in environment: AppEnvironment) throws {
        let block = try TaskBlock(name: name, title: title, priority: priority, isRoutine: routine)
        let planned = try global.openDatabase(environment).addBlock(block, now: environment.now)
        environment.print(TerminalText.printable("Added block \(block.name): \(block.title) (\(block.priority))"))
        for todo in planned { environment.print("Planned #\(todo.id) for today") }
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

    struct EditBlock: OotdCommand {
      static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Set what ticks a block's todos by itself (--done-when).",
        discussion: """
          With --done-when commits, an open todo of the block is done as soon as a sync ('ootd \
          sync', 'ootd sync --local') stores at least one commit authored on its day (in your \
          time zone), in the --repo repository when given; it says "doneBy": "commits" in JSON. \
          A todo added (add --block, plan) for a day that already has commits is done at once. \
          Reopen one with 'ootd undone ID' and no sync ticks it again. --done-when none takes the rule away. \
          The built-in commit block has the rule from the start.

          Examples:
            ootd block edit commit --done-when commits
            ootd block edit oss --done-when commits --repo apple/swift
            ootd block edit commit --done-when none
          """)

      @Argument(help: "The block's name.", completion: NameCompletion.blocks)
      var name: String

      @Option(
        name: .long,
        help: ArgumentHelp("commits (done by a commit on its day) or none.", valueName: "rule"))
      var doneWhen: String

      @Option(
        name: .long,
        help: ArgumentHelp("With --done-when commits: only commits in this repository count.",
          valueName: "owner/name"))
      var repo: String?

      @OptionGroup var global: GlobalOptions

      func validate() throws {
        guard ["commits", "none"].contains(doneWhen.lowercased()) else {
          throw ValidationError("--done-when is 'commits' or 'none', not '\(doneWhen)'")
        }
        if let repo {
          guard doneWhen.lowercased() == "commits" else {
            throw ValidationError("--repo goes with --done-when commits")
          }
          guard RepositoryName(repo) != nil else {
            throw ValidationError("'\(repo)' is not a repository: use OWNER/NAME, e.g. apple/swift")
          }
        }
      }

      func run(in environment: AppEnvironment) throws {
        let rule = doneWhen.lowercased() == "commits" ? DoneRule(repository: repo.flatMap(RepositoryName.init)) : nil
        let block = try global.openDatabase(environment).setDoneRule(named: name, rule, now: environment.now)
        environment.print(TerminalText.printable(
          block.doneWhen.map { "\(block.name) todos are done by \($0) on their day" }
            ?? "\(block.name) todos are ticked by hand only"))
      }
    }

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
