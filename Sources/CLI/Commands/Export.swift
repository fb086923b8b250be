import ArgumentParser
import Core
import Foundation
import Interchange
import Storage

extension Ootd {
  /// `ootd export`: writes todos as Taskwarrior JSON, todo.txt, iCalendar or ootd's JSON.
  struct Export: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "export",
      abstract: "Write todos as Taskwarrior JSON, todo.txt, iCalendar (VTODO) or ootd JSON.",
      discussion: """
        Every todo, unless --from/--to or --project narrow it. Taskwarrior: the day is \
        'scheduled', done → completed at 'end', dropped → deleted, tags → 'tags', notes → an \
        annotation stamped with 'entry', then the annotations and the attributes. todo.txt: \
        high/mid/low → (A)/(B)/(C), the day as due:, the project as +project, tags as @tag, \
        attributes as key:value, dropped:yes, and ootd:UUID, which a re-import matches on. \
        iCalendar: PRIORITY 1/5/9, the day as DUE, project, block and tags as CATEGORIES.

        Examples:
          ootd export --format taskwarrior | task import
          ootd export --format todotxt --output todo.txt
          ootd export --format ical --from 2026-01-01 --to eom --project ootd > ootd.ics
        """)

    /// The formats `--format` takes.
    enum Format: String, ExpressibleByArgument, CaseIterable {
      case taskwarrior, todotxt, ical, json
    }

    @Option(name: .long, help: "taskwarrior, todotxt, ical or json.")
    var format: Format

    @Option(name: .long, help: ArgumentHelp("The first day (inclusive).", valueName: "date"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("The last day (inclusive).", valueName: "date"))
    var to: String?

    @Option(name: .long, help: "Only this project's todos.", completion: NameCompletion.projects)
    var project: String?

    @Option(name: .long, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let bounds = DayBounds(from: from, to: to)
      var days = TodoFilter.Days.all
      if !bounds.isEmpty {
        let (first, last) = try bounds.days(
          today: environment.today, missingTo: Day(year: 9999, month: 12, day: 31)!,
          missingFrom: { _ in Day(year: 1, month: 1, day: 1)! })
        days = .range(try DayRange(from: first, to: last))
      }
      let database = try global.openDatabase(environment, readOnly: true)
      let filter = TodoFilter(days: days, project: project)
      if let output {
        // A file is replaced whole (AtomicFile: a temporary file renamed over it), written as
        // the todos are read.
        try environment.writeFileStreamed(output) { writeText in
          var chunk = ""
          var failure: (any Error)? = nil
          try write(database, filter, environment) { piece in
            chunk += piece
            guard chunk.utf8.count >= 65_536 else { return true }
            do {
              try writeText(chunk)
            } catch {
              failure = error
              return false
            }
            chunk = ""
            return true
          }
          if let failure { throw failure }
          try writeText(chunk)
        }
        return
      }
      // Standard output gets the todos as they are read: any number in constant memory.
      var chunk = ""
      func flush() {
        guard !chunk.isEmpty else { return }
        // A file or a pipe gets the exact bytes; a terminal never gets a title's controls.
        environment.output(environment.stdoutIsTerminal ? TerminalText.printableLines(chunk) : chunk)
        chunk = ""
      }
      try write(database, filter, environment) { piece in
        chunk += piece
        if chunk.utf8.count >= 65_536 { flush() }
        return environment.outputFailed() == nil
      }
      flush()
    }

    /// Hands the export to `body` a piece at a time (the pieces in order are the whole
    /// document; none splits a line end), reading the todos one at a time. `body` returns
    /// false to stop (its output failed).
    func write(
      _ database: AppDatabase, _ filter: TodoFilter, _ environment: AppEnvironment,
      _ body: (String) -> Bool
    ) throws {
      switch format {
      case .taskwarrior:
        var writer = Taskwarrior.ExportWriter(timeZone: environment.timeZone, now: environment.now)
        // (DEL and C1 as \u escapes, as in every JSON ootd writes: the writer escapes them.)
        try database.forEachTodo(matching: filter) { body(writer.next($0)) }
        _ = body(writer.end())
      case .todotxt:
        try database.forEachTodo(matching: filter) { body(TodoTxt.line($0, timeZone: environment.timeZone) + "\n") }
      case .ical:
        guard body(ICalendar.header(productVersion: Ootd.version)) else { return }
        let stamp = Timestamp.string(environment.now, .compact)
        try database.forEachTodo(matching: filter) { body(ICalendar.vtodo($0, stamp: stamp)) }
        _ = body(ICalendar.footer)
      case .json:
        // The bytes of list --json, streamed.
        try withoutActuallyEscaping(body) { body in
          var failed = false
          var writer = JSONStreamWriter(output: { text in if !failed { failed = !body(text) } })
          writer.beginArray()
          try database.forEachTodo(matching: filter) { todo in
            JSONOutput.TodoJSON(todo, environment).write(to: &writer)
            return !failed
          }
          writer.endArray()
          writer.finish()
        }
      }
    }
  }
}
