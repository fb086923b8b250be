import ArgumentParser
import Core
import Foundation
import Interchange
import Storage
import Glibc

extension Ootd.Import {
  struct TaskwarriorImport: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "taskwarrior",
      abstract: "Import 'task export' output (Taskwarrior 2.6 or 3.x).",
      discussion: """
        description → title; priority H/M/L → high/mid/low (none → mid); project → project; \
        ootdblock (ootd's own UDA, which 'ootd export' writes and 'task import' keeps) → the \
        block the todo was made from (created when missing); ootdid, ootdcarriedfrom, \
        ootddoneby → the number (kept when free), the days it was carried from, who ticked it; \
        the day is scheduled, else due, \
        else end (completed or deleted), else entry (a pending task with neither scheduled nor \
        due goes to the backlog); completed → done at end; deleted → dropped (skipped without \
        scheduled, due or end); recurring templates are skipped (their instances are imported); \
        entry → created time; tags → tags (lowercased; one that is no ootd tag stays in the \
        notes); the annotation stamped with the task's own entry → the notes, the others → \
        annotations; user-defined attributes, depends, wait, until, a due beside scheduled and \
        other fields → attributes, which export writes back.

        Examples:
          task export | ootd import taskwarrior -
          ootd import taskwarrior tasks.json --dry-run
        """)

    @OptionGroup var options: Options

    func run(in environment: AppEnvironment) throws {
      // The file is read inside the import's transaction, object by object.
      let input = try options.input(environment)
      try options.importing(environment, from: input) { writer in
        var reader = Taskwarrior.Reader(timeZone: environment.timeZone)
        try input.stream { chunk in try reader.read(chunk, into: &writer) }
        try reader.finish(into: &writer)
      }
    }
  }
}
