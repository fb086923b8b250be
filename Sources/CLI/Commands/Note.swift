import ArgumentParser
import Core
import Storage

extension Ootd {
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

    @Argument(help: TodoIDs.help("The todo's id."), transform: TodoIDs.parse)
    var id: TodoReference

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
      let todo = try database.appendNote(id: TodoIDs.resolve([id], in: database)[0], text.joined(separator: " "), now: environment.now)
      try printTodos([todo], verb: "Noted", json: output.json, noColor: global.noColor, environment)
    }
  }
}
