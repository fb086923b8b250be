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
    let (todos, unchanged, movedFrom) = try database.setDoneTellingUnchanged(
      ids: ids, done: done, today: environment.today, now: environment.now)
    let changed = todos.filter { !unchanged.contains($0.id) }
    defer { sayMoved(todos.filter { movedFrom[$0.id] != nil }, from: movedFrom, database, environment) }
    if output.json || unchanged.isEmpty {
      try printTodos(todos, verb: done ? "Done" : "Reopened", json: output.json,
        noColor: global.noColor, environment)
      return
    }
    // Say what really happened: a todo that already was as asked did not change.
    if !changed.isEmpty {
      try printTodos(changed, verb: done ? "Done" : "Reopened", json: false,
        noColor: global.noColor, environment)
    }
    try printTodos(
      todos.filter { unchanged.contains($0.id) }, verb: "Kept",
      suffix: done ? " (already done)" : " (already open)", json: false, noColor: global.noColor,
      environment)
  }

  /// Says which todos of a later day were done today and so moved to today (on standard error
  /// with --json, whose output stays one document).
  private func sayMoved(
    _ moved: [Todo], from movedFrom: [Int64: Day], _ database: AppDatabase, _ environment: AppEnvironment
  ) {
    for todo in moved {
      guard let day = movedFrom[todo.id] else { continue }
      let line = TerminalText.printable(
        "Moved \(todo.id) '\(todo.title)' from \(day) to today (\(todo.day)): work of a later day done today is done today ('ootd undo' puts it back, open)")
      if output.json { environment.printError("ootd: note: " + line) } else { environment.print(line) }
    }
    // A todo from a task block may now double the block on today: say so, as any move does.
    try? warnAboutPlacement(moved, database, environment)
  }
}

extension Ootd {
  /// `ootd done`: ticks todos.
  struct Done: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "done",
      abstract: "Tick todos as done.",
      discussion: """
        Every id must exist, or nothing changes. A todo of a later day is done today: it moves \
        to today, done ('ootd undo' puts it back on its day, open).

        Examples:
          ootd done 12
          ootd done 12 13 14
          ootd done 12 --close-on-github   # also close its GitHub issue
        """)

    @OptionGroup var options: TickOptions

    @Flag(
      name: .customLong("close-on-github"),
      help: "Also close each todo's GitHub issue or pull request (sent once; never resent).")
    var closeOnGitHub = false

    func run(in environment: AppEnvironment) async throws {
      guard closeOnGitHub else { return try options.run(done: true, in: environment) }
      try await CloseOnGitHub(options: options).run(in: environment)
    }
  }

  /// `ootd undone`: unticks todos.
  struct Undone: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "undone",
      abstract: "Mark done (or dropped) todos as open again.",
      discussion: """
        Every id must exist, or nothing changes. A dropped todo is taken back up: open again, \
        and overdue when its day has passed.

        Example:
          ootd undone 12
        """)

    @OptionGroup var options: TickOptions

    func run(in environment: AppEnvironment) throws {
      try options.run(done: false, in: environment)
    }
  }

  /// `ootd edit`: changes one todo, or several at once.
  struct Edit: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit",
      abstract: "Change the title, priority, project, day, notes or tags of one or more todos.",
      discussion: """
        Several ids get the same change, all or none. Moving an open todo away from a day that \
        has begun keeps it on that day's record as planned and not done (carried); a done todo \
        cannot move to a day after today.

        Examples:
          ootd edit 12 --title "Solve BOJ 1753 with Dijkstra"
          ootd edit 12 --priority low --on tomorrow
          ootd edit 3 4 5 --on fri
          ootd edit 12 --project ootd
          ootd edit 12 --no-project
          ootd edit 12 --note "Use a binary heap" --tag algo --untag later
          ootd edit 12 --note ""      # clear the notes
        """)

    // Read as text and checked in validate(), so that a mistyped option after the ids
    // (`edit 1 --titel x`) is reported as the typo, not as a bad id.
    @Argument(help: ArgumentHelp("The ids of the todos.", valueName: "id"))
    var ids: [String]

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

    @Option(name: .long, help: ArgumentHelp("New notes (\"\" clears them).", valueName: "text"))
    var note: String?

    @Option(name: .long, help: ArgumentHelp("Add this tag (repeatable).", valueName: "name"))
    var tag: [String] = []

    @Option(name: .long, help: ArgumentHelp("Take this tag away (repeatable).", valueName: "name"))
    var untag: [String] = []

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    /// The ids as numbers. Checked in run(), not validate(), so that a mistyped option is
    /// reported as such first.
    private func todoIDs() throws -> [Int64] {
      try ids.map { text in
        guard let id = Int64(text) else {
          throw CLIError.invalidValue("invalid todo id '\(text)': use the number 'ootd list' shows")
        }
        return id
      }
    }

    func validate() throws {
      if ids.isEmpty { throw ValidationError("give at least one todo id") }
      if project != nil && noProject {
        throw ValidationError("--project and --no-project cannot be combined")
      }
    }

    func run(in environment: AppEnvironment) throws {
      let todoIDs = try todoIDs()
      let changes = try TodoChanges(
        title: title, priority: priority,
        day: try parseDay(on, environment),
        project: noProject ? .some(nil) : project.map { .some($0) },
        notes: note.map { .some($0) }, addTags: tag, removeTags: untag)
      // Checked here, not in validate(), so that a mistyped option is reported as such first.
      if changes.isEmpty {
        throw CLIError.invalidValue(
          "nothing to change: give --title, --priority, --project, --no-project, --on, --note, --tag or --untag")
      }
      let database = try global.openDatabase(environment)
      let todos = try database.editTodos(
        ids: todoIDs, changes, today: environment.today, now: environment.now)
      if changes.day != nil { try warnAboutPlacement(todos, database, environment) }
      try printTodos(todos, verb: "Edited", json: output.json, noColor: global.noColor, environment)
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
        deleted. Deleting a todo of a day before today rewrites that day's record: to give up \
        missed work and keep the record, use 'ootd drop'.

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
      // Deleting a todo of a day before today, or one carried away from a day that had begun,
      // rewrites that day's record: say so, and offer what keeps it (drop only takes open
      // todos: advice the next command refuses is none).
      let past = todos.filter { $0.day < environment.today || !$0.carriedFrom.isEmpty }
      let rewrites = past.isEmpty ? nil : Self.rewriteAdvice(past, today: environment.today)
      try confirmation.confirm(
        action: "delete \(todos.count) \(todos.count == 1 ? "todo" : "todos")"
          + (rewrites.map { " (\($0))" } ?? ""),
        preview: { TodoRenderer(environment, noColor: global.noColor).changed(todos) },
        environment: environment)
      let deleted = try database.deleteTodos(ids: ids, now: environment.now)
      try printTodos(deleted, verb: "Deleted", json: output.json, noColor: global.noColor, environment)
    }

    /// What deleting `past` (todos of days before today) does to the record, and what keeps it
    /// instead: drop for open todos; keeping a done or dropped one as it is (drop refuses them).
    static func rewriteAdvice(_ past: [Todo], today: Day) -> String {
      func ids(_ todos: [Todo]) -> String { todos.map { String($0.id) }.joined(separator: " ") }
      func them(_ todos: [Todo]) -> String { todos.count == 1 ? "it" : "them" }
      let recorded = past.flatMap { ($0.day < today ? [$0.day] : []) + $0.carriedFrom }
      let days = Set(recorded).sorted().map(\.description).joined(separator: ", ")
      var parts = ["this rewrites the record of \(days)"]
      let open = past.filter { !$0.isDone && !$0.isDropped }
      if !open.isEmpty {
        parts.append("'ootd drop \(ids(open))' gives \(them(open)) up and keeps the record")
      }
      let done = past.filter(\.isDone)
      if !done.isEmpty {
        parts.append(
          "\(ids(done)) \(done.count == 1 ? "is" : "are") done: keeping \(them(done)) keeps the record")
      }
      let dropped = past.filter { $0.isDropped && !$0.isDone }
      if !dropped.isEmpty {
        parts.append(
          "\(ids(dropped)) \(dropped.count == 1 ? "is" : "are") already dropped: keeping \(them(dropped)) keeps the record")
      }
      return parts.joined(separator: "; ")
    }
  }

  /// `ootd carry`: moves overdue todos to today.
  struct Carry: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "carry",
      abstract: "Move open todos of earlier days to today (or --to a later day).",
      discussion: """
        Without ids, every overdue todo (open, not dropped, planned before today) moves. Done \
        todos stay on the day they were done. A carried todo still counts on the day it left, \
        as planned and not done: carrying never rewrites a day's record. A todo from a task \
        block is kept where it is when the day already has one from that block, so routine \
        blocks are not doubled; 'ootd drop ID' gives such a todo up. --to a day before today is \
        refused.

        --json prints {"to", "carried": [todos], "kept": [todos]}.

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
      try CarryRecord.checkCarryTarget(target, today: today)
      let database = try global.openDatabase(environment)
      if !ids.isEmpty {
        // Check first, so that a wrong id changes nothing.
        let notOverdue = try database.todos(ids: ids).filter { !$0.isOverdue(today: today) }
        if let todo = notOverdue.first {
          let why =
            todo.isDone ? "is done"
            : todo.isDropped ? "was dropped ('ootd undone \(todo.id)' takes it back up, open)"
            : "is planned for \(todo.day), not before today"
          throw CLIError.invalidValue("todo \(todo.id) is not overdue: it \(why)")
        }
      }
      let result = try database.carryOver(ids: ids.isEmpty ? nil : ids, today: today, to: target, now: environment.now)
      if output.json {
        try printCarryJSON(database, to: target, carried: result.moved, kept: result.duplicates, environment)
        return
      }
      try database.forEachTodo(ids: result.duplicates) { todo in
        environment.printError(
          "ootd: kept \(todo.id) on \(todo.day): \(target) already has a todo from block '\(TerminalText.printable(todo.block ?? ""))'; 'ootd drop \(todo.id)' gives it up")
        return true
      }
      if result.moved.isEmpty {
        if !result.duplicates.isEmpty {
          // Nothing moved because every candidate was kept: that is not "nothing to carry".
          let kept = result.duplicates.count
          if !ids.isEmpty {
            throw CLIError.invalidValue(
              "carried nothing: \(kept == 1 ? "the todo stays" : "the todos stay") overdue (see above)")
          }
          environment.print("Carried nothing: kept \(kept) overdue \(kept == 1 ? "todo" : "todos") (see above).")
          return
        }
        environment.print("Nothing to carry: no open todos before \(today) to move.")
        return
      }
      try printTodos(
        database, ids: result.moved, verb: "Carried", suffix: " to \(target)", noColor: global.noColor,
        environment)
    }

    /// `{"carried": [todos], "kept": [todos], "to"}`, streamed from the database.
    private func printCarryJSON(
      _ database: AppDatabase, to target: Day, carried: [Int64], kept: [Int64], _ environment: AppEnvironment
    ) throws {
      var writer = JSONStreamWriter(environment)
      writer.beginObject()
      for (key, ids) in [("carried", carried), ("kept", kept)] {
        writer.key(named: key)
        writer.beginArray()
        try database.forEachTodo(ids: ids) { todo in
          JSONOutput.TodoJSON(todo, environment).write(to: &writer)
          return environment.outputFailed() == nil
        }
        writer.endArray()
      }
      writer.key("to")
      writer.string(target.description)
      writer.endObject()
      writer.finish()
    }
  }
}


