import ArgumentParser
import Core
import Storage

extension Ootd {
  /// `ootd show`: one todo in full, with its notes, tags and history.
  struct Show: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: "Show one todo in full: its title, day, project, block, tags, notes, annotations, attributes and history.",
      discussion: """
        The uuid line begins with the short uuid (the first 8 hex digits, as git shortens a \
        hash): any unique prefix of 4 or more hex digits names the todo wherever an id does \
        ('ootd done 4fc7'); digits only are always an id.

        The history lists the changes of the journal that touched the todo ('ootd log' lists \
        them all), oldest first.

        --json prints the todo as 'list --json' does, plus "history": [{"id", "at", \
        "command", "summary", "undone", "kind", "target", "fromDevice", "fromDeviceName"}].

        Examples:
          ootd show 12
          ootd show 12 --json
          ootd show 4fc7            # by a prefix of its uuid
        """)

    @Argument(help: TodoIDs.help("The todo's id."), transform: TodoIDs.parse)
    var id: TodoReference

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment, readOnly: true)
      let todo = try database.todos(ids: TodoIDs.resolve([id], in: database))[0]
      let history = try database.history(ofRow: todo.uuid)
      if output.json {
        JSONOutput.print(
          TodoDetailJSON(todo: JSONOutput.TodoJSON(todo, environment), history: history), environment)
        return
      }
      environment.output(
        TodoDetail(environment: environment, style: environment.style(noColor: global.noColor))
          .render(todo, history: history).map { $0 + "\n" }.joined())
    }
  }
}
