import ArgumentParser
import Core
import Storage

extension Ootd {
  /// `ootd show`: one todo in full, with its notes, tags and history.
  struct Show: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: "Show one todo in full: its title, day, project, block, tags, notes and history.",
      discussion: """
        The history lists the changes of the journal that touched the todo ('ootd log' lists \
        them all), oldest first.

        --json prints the todo as 'list --json' does, plus "history": [{"id","at","command",\
        "summary","undone","kind","target"}].

        Examples:
          ootd show 12
          ootd show 12 --json
        """)

    @Argument(help: ArgumentHelp("The todo's id.", valueName: "id"))
    var id: Int64

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment, readOnly: true)
      let todo = try database.todos(ids: [id])[0]
      let history = try database.history(ofRow: todo.uuid)
      if output.json {
        environment.output(
          try JSONOutput.encode(
            TodoDetailJSON(todo: JSONOutput.TodoJSON(todo, environment), history: history)) + "\n")
        return
      }
      environment.output(
        TodoDetail(environment: environment, style: environment.style(noColor: global.noColor))
          .render(todo, history: history).map { $0 + "\n" }.joined())
    }
  }

  /// `ootd note`: adds a line to a todo's notes.
  struct Note: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "note",
      abstract: "Add a line to a todo's notes ('ootd show ID' prints them).",
      discussion: """
        Each note is a new line under the notes the todo has; 'ootd edit ID --note TEXT' \
        replaces them, and 'ootd edit ID --note ""' clears them.

        Examples:
          ootd note 12 "Dijkstra with a binary heap: O(E log V)"
          ootd note 12 Tried BFS first, too slow
        """)

    @Argument(help: ArgumentHelp("The todo's id.", valueName: "id"))
    var id: Int64

    @Argument(help: "The note: quoted, or several words.")
    var text: [String] = []

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if Notes.cleaned(text.joined(separator: " ")) == nil {
        throw ValidationError("give the note some words")
      }
    }

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment)
      let todo = try database.appendNote(id: id, text.joined(separator: " "), now: environment.now)
      try printTodos([todo], verb: "Noted", json: output.json, noColor: global.noColor, environment)
    }
  }
}

/// `ootd show --json`: the todo's fields, then `history`.
struct TodoDetailJSON: Encodable {
  let todo: JSONOutput.TodoJSON
  let history: [JournalEntry]

  enum CodingKeys: String, CodingKey { case history }

  func encode(to encoder: any Encoder) throws {
    try todo.encode(to: encoder)
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(history.map(JournalOutput.EntryJSON.init), forKey: .history)
  }
}
