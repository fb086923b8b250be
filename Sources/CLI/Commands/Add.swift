import ArgumentParser
import Core
import Storage

extension Ootd {
  /// `ootd add`: plans a todo.
  struct Add: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Plan a todo (for today unless --on says otherwise, or --someday for the backlog).",
      discussion: """
        The title may be quoted or given as several words. With --block, the block supplies the \
        title and priority; a title or --priority given here overrides them. A word '+name' in \
        the title is a tag (it leaves the title, as in Taskwarrior and todo.txt); '+3', '+3d' or \
        'C++' stay words of the title. A todo with --someday (or --on someday) has no day yet: \
        it waits in the backlog ('ootd backlog') until 'ootd plan ID' puts it on one.

        Examples:
          ootd add "Solve BOJ 1753" --priority high
          ootd add Write the migration test --project ootd --on tomorrow
          ootd add --block algorithm
          ootd add --block blog "TIL: GRDB migrations" --json
          ootd add "Review the PR" --on fri
          ootd add "Fixed the flaky test" --done
          ootd add "Fix the login page +bug +web" --note "Safari only"
          ootd add "Read the GRDB docs" --tag reading
          ootd add "Read the SQLite docs" --someday
        """)

    @Argument(help: "What to do (optional with --block).")
    var title: [String] = []

    @Option(name: [.short, .long], help: "high, mid or low (default: mid, or the block's).")
    var priority: Priority?

    @Option(
      name: .long, help: "Link the todo to this project (see 'ootd project list').",
      completion: NameCompletion.projects)
    var project: String?

    @Option(
      name: .long,
      help: ArgumentHelp("The day: YYYY-MM-DD, today, tomorrow, yesterday, a weekday (mon), +3d, +1w, eow or eom; someday for the backlog.", valueName: "date"),
      completion: NameCompletion.placements)
    var on: String?

    @Flag(name: .long, help: "Put the todo in the backlog: no day yet ('ootd plan ID' gives it one).")
    var someday = false

    @Option(
      name: [.short, .long], help: "Make the todo from this task block (see 'ootd block list').",
      completion: NameCompletion.blocks)
    var block: String?

    @Flag(name: .long, help: "Record work already done (today or an earlier day).")
    var done = false

    @Option(name: .long, help: ArgumentHelp("Notes kept with the todo ('ootd show ID' prints them).", valueName: "text"))
    var note: String?

    @Option(name: .long, help: ArgumentHelp("Tag the todo (repeatable; or write +name in the title).", valueName: "name"))
    var tag: [String] = []

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if title.isEmpty && block == nil {
        throw ValidationError("give the todo a title, or a task block with --block NAME")
      }
    }

    func run(in environment: AppEnvironment) throws {
      let (database, draft) = try draft(on: environment.today, environment) { try global.openDatabase(environment) }
      let todo = try database.addTodo(
        draft, done: done, now: environment.now, timeZone: environment.timeZone)
      if todo.block != nil { try warnAboutPlacement([todo], database, environment) }
      if let project, try database.isArchived(project: project) {
        environment.printError(TerminalText.printable(
          "ootd: note: project '\(project)' is archived ('ootd project unarchive \(project)' brings it back)"))
      }
      if output.json {
        JSONOutput.print(JSONOutput.TodoJSON(todo, environment), environment)
      } else {
        let renderer = TodoRenderer(environment, noColor: global.noColor)
        if let day = todo.day {
          let relative: String
          switch environment.today.distance(to: day) {
          case 0: relative = " (today)"
          case 1: relative = " (tomorrow)"
          case -1: relative = " (yesterday)"
          default: relative = ""
          }
          environment.print("Added #\(todo.id) for \(day)\(relative)")
        } else {
          environment.print("Added #\(todo.id) to the backlog ('ootd plan \(todo.id)' puts it on today)")
        }
        environment.print(renderer.line(todo, idWidth: String(todo.id).count))
      }
    }

    /// The todo this command line plans, checked as `add` checks it: on `defaultDay` unless
    /// --on or --someday says otherwise (`ootd tui` adds to the day it shows). `open` opens the
    /// database once the line is checked (a task block is read from it).
    func draft(on defaultDay: Day, _ environment: AppEnvironment, open: () throws -> AppDatabase) throws
      -> (database: AppDatabase, todo: NewTodo)
    {
      let placement = try Placement.parse(on: on, someday: someday, environment) ?? .day(defaultDay)
      let day = placement.day
      if done, let day, day > environment.today {
        throw CLIError.invalidValue("--done records work already done: \(day) is after today")
      }
      if done && day == nil {
        throw CLIError.invalidValue("--done records work already done on a day: a backlog todo has no day")
      }
      let words = Tag.split(title: title.joined(separator: " "))
      let tags = try words.tags + tag.map { name throws(CoreError) in try Tag.validate(name) }
      if !title.isEmpty && (block == nil || !words.title.isEmpty) { _ = try Title.validate(words.title) }
      let database = try open()
      let source = try block.map { try database.block(named: $0) }
      var draft = try NewTodo(
        title: words.title.isEmpty ? (source?.title ?? "") : words.title,
        priority: priority ?? source?.priority ?? .mid,
        day: day, project: project, block: source?.name)
      draft.notes = note
      draft.tags = Tag.normalized(tags)
      return (database, draft)
    }
  }
}
