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
        'scheduled', done → completed at 'end', tags → 'tags', notes → an annotation. todo.txt: \
        high/mid/low → (A)/(B)/(C), the day as due:, the project as +project, tags as @tag. \
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
      let todos = try database.todos(matching: TodoFilter(days: days, project: project))
      let text: String
      switch format {
      case .taskwarrior: text = Taskwarrior.export(todos, timeZone: environment.timeZone, now: environment.now)
      case .todotxt: text = TodoTxt.export(todos, timeZone: environment.timeZone)
      case .ical: text = ICalendar.export(todos, now: environment.now, productVersion: Ootd.version)
      case .json: text = try JSONOutput.encode(todos.map { JSONOutput.TodoJSON($0, environment) }) + "\n"
      }
      if let output {
        try environment.writeFile(output, text)
      } else {
        // A file or a pipe gets the exact bytes; a terminal never gets a title's controls.
        environment.output(environment.stdoutIsTerminal ? TerminalText.printableLines(text) : text)
      }
    }
  }
}
