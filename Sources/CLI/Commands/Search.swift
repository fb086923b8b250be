import ArgumentParser
import Core
import Storage

extension Ootd {
  /// `ootd search TEXT`: the todos of every day whose title contains a text.
  struct Search: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "search",
      abstract: "Find todos whose title contains a text, ignoring case, on every day.",
      discussion: """
        Matches any script: 'wal' finds "WAL mode", '알고' finds "알고리즘", emoji match as \
        written. The same as 'ootd list --all --grep TEXT'; --json prints the same array as \
        'ootd list --json', in the same order (date, priority, then id).

        Examples:
          ootd search wal
          ootd search "code review" --project ootd --open
          ootd search 알고리즘 --from 2026-11-01 --to today --json
        """)

    @Argument(help: ArgumentHelp("The text to find in titles.", valueName: "text"))
    var text: String

    @OptionGroup var filters: TodoFilterOptions

    @OptionGroup var range: DayRangeOptions

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if text.isEmpty { throw ValidationError("give a text to search for") }
    }

    func run(in environment: AppEnvironment) throws {
      let bounds = range.bounds
      let days: TodoFilter.Days = bounds.isEmpty ? .all : .range(try bounds.openRange(today: environment.today))
      let filter = filters.filter(days: days, text: text)
      let database = try global.openDatabase(environment, readOnly: true)
      if output.json {
        try printTodosJSON(database, matching: filter, environment)
        return
      }
      // Streamed as list does (issue 11: constant memory for any number of matches).
      let renderer = TodoRenderer(environment, noColor: global.noColor)
      let idWidth = try database.largestTodoID(matching: filter).map { String($0).count } ?? 1
      // The lines go out in chunks of about 64 KB (not one write a todo): still constant memory.
      let chunk = TextChunk()
      var list = TodoRenderer.DayList(renderer: renderer, idWidth: idWidth, showProgress: false) { lines in
        for line in lines {
          chunk.text += line
          chunk.text += "\n"
        }
      }
      try database.forEachTodo(matching: filter) { todo in
        list.add(todo)
        guard chunk.text.utf8.count >= 65_536 else { return true }
        environment.output(chunk.text)
        chunk.text.removeAll(keepingCapacity: true)
        return environment.outputFailed() == nil
      }
      list.finish()
      if !chunk.text.isEmpty { environment.output(chunk.text) }
      if list.isEmpty {
        environment.output(renderer.style.dim("No todos match '\(TerminalText.printable(text))'.") + "\n")
      }
    }
  }
}

/// Text gathered for standard output until it is long enough to write (a search's lines).
private final class TextChunk {
  var text = ""
}
