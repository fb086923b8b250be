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
        'scheduled', done → completed at 'end', dropped → deleted, the block → the 'ootdblock' \
        UDA, the number, carried days and who ticked it → ootdid, ootdcarriedfrom, ootddoneby, \
        tags → 'tags', notes → an annotation stamped with 'entry', then the annotations \
        and the attributes as members. todo.txt: high/mid/low → (A)/(B)/(C), the day as due:, \
        the project as +project, tags as @tag, attributes as key:value, the block as \
        ootdblock:NAME, dropped:yes, ootd:UUID, which a re-import matches on, and \
        ootdcarriedfrom:DAYS ootddoneby:WHO ootdid:N; what a line \
        cannot hold in the title is escaped \\uXXXX. iCalendar: the title as SUMMARY, notes as \
        DESCRIPTION (a title or notes with a CR or another control character, which TEXT cannot \
        hold, also exactly as X-OOTD-SUMMARY / X-OOTD-DESCRIPTION), PRIORITY 1/5/9, the day as \
        DTSTART and DUE the next day, project, block and tags as CATEGORIES. Taskwarrior and \
        todo.txt exports import back unchanged.

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
          var failure: (any Error)? = nil
          try write(database, filter, environment) { chunk in
            do {
              try writeText(String(decoding: chunk, as: UTF8.self))
            } catch {
              failure = error
              return false
            }
            return true
          }
          if let failure { throw failure }
        }
        return
      }
      // Standard output gets the todos as they are read: any number in constant memory.
      try write(database, filter, environment) { chunk in
        if environment.stdoutIsTerminal {
          // A terminal never gets a title's controls.
          environment.output(TerminalText.printableLines(String(decoding: chunk, as: UTF8.self)))
        } else if let outputBytes = environment.outputBytes {
          // A file or a pipe gets the exact bytes.
          outputBytes(chunk)
        } else {
          environment.output(String(decoding: chunk, as: UTF8.self))
        }
        return environment.outputFailed() == nil
      }
    }

    /// The size of the chunks ``write(_:_:_:_:)`` hands out.
    static let chunkSize = 65_536

    /// Hands the export to `emit` in chunks of UTF-8 (the chunks in order are the whole
    /// document; each ends after a whole todo, so none splits a line end or a character), reading
    /// the todos one at a time and writing each straight into the chunk's bytes. `emit` returns
    /// false to stop (its output failed).
    func write(
      _ database: AppDatabase, _ filter: TodoFilter, _ environment: AppEnvironment,
      _ emit: (UnsafeBufferPointer<UInt8>) -> Bool
    ) throws {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(Self.chunkSize + 16_384)
      /// Hands the chunk over once it is full (`force`: whatever it holds); false once `emit`
      /// failed.
      func flush(force: Bool = false) -> Bool {
        guard force ? !bytes.isEmpty : bytes.count >= Self.chunkSize else { return true }
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes.withUnsafeBufferPointer(emit)
      }
      /// Appends every todo of the filter with `append`, handing out full chunks; false once
      /// `emit` failed (the document is then left unfinished).
      func eachTodo(_ append: (Todo, inout [UInt8]) -> Void) throws -> Bool {
        var failed = false
        try database.forEachTodo(matching: filter) { todo in
          append(todo, &bytes)
          failed = !flush()
          return !failed
        }
        return !failed
      }
      switch format {
      case .taskwarrior:
        var writer = Taskwarrior.ExportWriter(timeZone: environment.timeZone, now: environment.now)
        // (DEL and C1 as \u escapes, as in every JSON ootd writes: the writer escapes them.)
        guard try eachTodo({ writer.next($0, to: &$1) }) else { return }
        bytes.append(contentsOf: writer.end().utf8)
      case .todotxt:
        let timeZone = environment.timeZone
        guard try eachTodo({ TodoTxt.appendLine($0, timeZone: timeZone, to: &$1) }) else { return }
      case .ical:
        bytes.append(contentsOf: ICalendar.header(productVersion: Ootd.version).utf8)
        let stamp = Timestamp.string(environment.now, .compact)
        var line: [UInt8] = []
        line.reserveCapacity(256)
        guard try eachTodo({ ICalendar.appendVTODO($0, stamp: stamp, to: &$1, line: &line) }) else { return }
        bytes.append(contentsOf: ICalendar.footer.utf8)
      case .json:
        // The bytes of list --json, streamed.
        try withoutActuallyEscaping(emit) { emit in
          var failed = false
          var writer = JSONStreamWriter(
            chunkSize: Self.chunkSize, bytes: { chunk in if !failed { failed = !emit(chunk) } })
          let today = environment.today
          let timeZone = environment.timeZone
          writer.beginArray()
          try database.forEachTodo(matching: filter) { todo in
            JSONOutput.TodoJSON.write(todo, today: today, timeZone: timeZone, to: &writer)
            return !failed
          }
          writer.endArray()
          writer.finish()
        }
        return
      }
      _ = flush(force: true)
    }
  }
}
