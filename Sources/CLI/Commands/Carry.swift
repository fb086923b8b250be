import ArgumentParser
import Core
import Storage

extension Ootd {
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

    @Argument(help: TodoIDs.help("Only these overdue todos (default: every one)."), transform: TodoIDs.parse)
    var ids: [TodoReference] = []

    @Option(name: .long, help: ArgumentHelp("The day to move them to (default: today).", valueName: "date"))
    var to: String?

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let today = environment.today
      let target = try parseDay(to, environment) ?? today
      try CarryRecord.checkCarryTarget(target, today: today)
      let database = try global.openDatabase(environment)
      let ids = try TodoIDs.resolve(self.ids, in: database)
      if !ids.isEmpty {
        // Check first, so that a wrong id changes nothing.
        let notOverdue = try database.todos(ids: ids).filter { !$0.isOverdue(today: today) }
        if let todo = notOverdue.first {
          let why =
            todo.isDone ? "is done"
            : todo.isDropped ? "was dropped ('ootd undone \(todo.id)' takes it back up, open)"
            : todo.day.map { "is planned for \($0), not before today" }
              ?? "is in the backlog ('ootd plan \(todo.id)' puts it on today)"
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
          "ootd: kept #\(todo.id) on \(todo.day?.description ?? "its day"): \(target) already has a todo from block '\(TerminalText.printable(todo.block ?? ""))'; 'ootd drop \(todo.id)' gives it up")
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
          environment.print("Carried nothing: kept \(counted(kept, "overdue todo")) (see above).")
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
