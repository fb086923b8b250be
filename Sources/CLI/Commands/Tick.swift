import ArgumentParser
import Core
import Storage

/// Shared by `done` and `undone`: ticks or unticks todos by id, all or nothing.
struct TickOptions: ParsableArguments {
  @Argument(help: ArgumentHelp("The ids of the todos (see 'ootd list').", valueName: "id"))
  var ids: [Int64]

  @OptionGroup var output: JSONOption
  @OptionGroup var global: GlobalOptions

  func validate() throws {
    if ids.isEmpty { throw ValidationError("give at least one todo id") }
  }

  func run(done: Bool, in environment: AppEnvironment) throws {
    let database = try global.openDatabase(environment)
    let todos = try database.setDone(ids: ids, done: done, now: environment.now)
    try printTodos(todos, verb: done ? "Done" : "Reopened", json: output.json,
      noColor: global.noColor, environment)
  }
}

extension Ootd {
  /// `ootd done`: ticks todos.
  struct Done: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "done",
      abstract: "Tick todos as done.",
      discussion: """
        Every id must exist, or nothing changes.

        Examples:
          ootd done 12
          ootd done 12 13 14
        """)

    @OptionGroup var options: TickOptions

    func run(in environment: AppEnvironment) throws {
      try options.run(done: true, in: environment)
    }
  }

  /// `ootd undone`: unticks todos.
  struct Undone: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "undone",
      abstract: "Mark done todos as open again.",
      discussion: """
        Every id must exist, or nothing changes.

        Example:
          ootd undone 12
        """)

    @OptionGroup var options: TickOptions

    func run(in environment: AppEnvironment) throws {
      try options.run(done: false, in: environment)
    }
  }

  /// `ootd edit`: changes one todo.
  struct Edit: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit",
      abstract: "Change a todo's title, priority, project or day.",
      discussion: """
        Examples:
          ootd edit 12 --title "Solve BOJ 1753 with Dijkstra"
          ootd edit 12 --priority low --on tomorrow
          ootd edit 12 --project ootd
          ootd edit 12 --no-project
        """)

    @Argument(help: ArgumentHelp("The todo's id.", valueName: "id"))
    var id: Int64

    @Option(name: [.short, .long], help: "A new title.")
    var title: String?

    @Option(name: [.short, .long], help: "A new priority: high, mid or low.")
    var priority: Priority?

    @Option(name: .long, help: "Link the todo to this project.", completion: NameCompletion.projects)
    var project: String?

    @Flag(name: .long, help: "Unlink the todo from its project.")
    var noProject = false

    @Option(
      name: .long, help: ArgumentHelp("Move the todo to this day.", valueName: "date"),
      completion: NameCompletion.days)
    var on: String?

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if project != nil && noProject {
        throw ValidationError("--project and --no-project cannot be combined")
      }
    }

    func run(in environment: AppEnvironment) throws {
      let changes = try TodoChanges(
        title: title, priority: priority,
        day: try parseDay(on, environment),
        project: noProject ? .some(nil) : project.map { .some($0) })
      // Checked here, not in validate(), so that a mistyped option is reported as such first.
      if changes.isEmpty {
        throw CLIError.invalidValue(
          "nothing to change: give --title, --priority, --project, --no-project or --on")
      }
      let database = try global.openDatabase(environment)
      let todo = try database.editTodo(id: id, changes, now: environment.now)
      try printTodos([todo], verb: "Edited", json: output.json, noColor: global.noColor, environment)
    }
  }

  /// `ootd rm`: deletes todos.
  struct Remove: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "rm",
      abstract: "Delete todos (asks first; --yes skips the question).",
      discussion: """
        On a terminal ootd asks before deleting. Without a terminal (a script, a pipe) it \
        refuses unless --yes is given, and deletes nothing. Every id must exist, or nothing is \
        deleted.

        Examples:
          ootd rm 12
          ootd rm 12 13 --yes
        """,
      aliases: ["remove"])

    @Argument(help: ArgumentHelp("The ids of the todos.", valueName: "id"))
    var ids: [Int64]

    @OptionGroup var confirmation: ConfirmOption

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if ids.isEmpty { throw ValidationError("give at least one todo id") }
    }

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment)
      let todos = try database.todos(ids: ids)
      try confirmation.confirm(
        action: "delete \(todos.count) \(todos.count == 1 ? "todo" : "todos")",
        preview: { TodoRenderer(environment, noColor: global.noColor).changed(todos) },
        environment: environment)
      let deleted = try database.deleteTodos(ids: ids, now: environment.now)
      try printTodos(deleted, verb: "Deleted", json: output.json, noColor: global.noColor, environment)
    }
  }

  /// `ootd carry`: moves overdue todos to today.
  struct Carry: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "carry",
      abstract: "Move open todos of earlier days to today (or --to another day).",
      discussion: """
        Without ids, every overdue todo (open, planned before today) moves. Done todos stay on \
        the day they were done. A todo from a task block stays put when the day already has one \
        from that block, so routine blocks are not doubled.

        Examples:
          ootd carry
          ootd carry 7 9
          ootd carry --to tomorrow
        """)

    @Argument(help: ArgumentHelp("Only these overdue todos (default: every one).", valueName: "id"))
    var ids: [Int64] = []

    @Option(name: .long, help: ArgumentHelp("The day to move them to (default: today).", valueName: "date"))
    var to: String?

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let today = environment.today
      let target = try parseDay(to, environment) ?? today
      let database = try global.openDatabase(environment)
      if !ids.isEmpty {
        // Check first, so that a wrong id changes nothing.
        let notOverdue = try database.todos(ids: ids).filter { !$0.isOverdue(today: today) }
        if let todo = notOverdue.first {
          let why = todo.isDone ? "is done" : "is planned for \(todo.day), not before today"
          throw CLIError.invalidValue("todo \(todo.id) is not overdue: it \(why)")
        }
      }
      let result = try database.carryOver(ids: ids.isEmpty ? nil : ids, today: today, to: target, now: environment.now)
      if !output.json {
        for todo in result.duplicates {
          environment.printError(
            "ootd: kept \(todo.id) on \(todo.day): \(target) already has a todo from block '\(todo.block ?? "")'")
        }
        if result.moved.isEmpty {
          environment.print("Nothing to carry: no open todos before \(today) to move.")
          return
        }
      }
      try printTodos(
        result.moved, verb: "Carried", suffix: " to \(target)", json: output.json,
        noColor: global.noColor, environment)
    }
  }
}
