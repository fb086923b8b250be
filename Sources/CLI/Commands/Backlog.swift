import ArgumentParser
import Core
import Storage

extension Ootd {
  /// `ootd backlog`: lists the todos that have no day yet.
  struct Backlog: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "backlog",
      abstract: "List the backlog: todos with no day yet, by priority, then the oldest first.",
      discussion: """
        A backlog todo counts in no day's figures and is never overdue; 'ootd carry' leaves it \
        alone. 'ootd add TITLE --someday' puts a new todo there, 'ootd edit ID --on someday' \
        takes one off its day, and 'ootd plan ID [--on DAY]' puts one on a day (today unless \
        --on). Undated imports (a todo.txt line without due:, a Taskwarrior task without \
        scheduled or due, a GitHub issue without a milestone date) arrive here. --json prints \
        the todos in the shape of 'ootd list --json', with "date": null.

        Examples:
          ootd backlog
          ootd plan 12 --on fri
          ootd backlog --json
        """)

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment, readOnly: true)
      if output.json {
        try printTodosJSON(environment) { body in try database.forEachBacklogTodo(body) }
        return
      }
      let renderer = TodoRenderer(environment, noColor: global.noColor)
      let idWidth = String(max(try database.largestTodoID(matching: TodoFilter(days: .backlog)) ?? 0, 1)).count
      var first = true
      try database.forEachBacklogTodo { todo in
        if first {
          environment.output(renderer.backlogHeading().map { $0 + "\n" }.joined())
          first = false
        }
        environment.output(renderer.line(todo, idWidth: idWidth) + "\n")
        return environment.outputFailed() == nil
      }
      if first {
        environment.print(renderer.emptyBacklog)
      }
    }
  }
}
