import ArgumentParser
import Core
import Foundation
import Interchange
import Storage
import Glibc

extension Ootd.Import {
  struct TodoTxtImport: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "todotxt",
      abstract: "Import a todo.txt (or done.txt) file.",
      discussion: """
        (A) → high, (B) → mid, (C)–(Z) → low, none → mid; the day is due:, else the creation \
        date, else today; 'x DATE' → done on DATE; dropped:yes → dropped; ootd:UUID → that \
        todo; the first +project → project; other +projects and @contexts → tags (one that is \
        no ootd tag stays in the notes); other key:values (t:, rec:…) → attributes.

        Examples:
          ootd import todotxt ~/todo.txt
          cat done.txt | ootd import todotxt - --json
        """)

    @OptionGroup var options: Options

    func run(in environment: AppEnvironment) throws {
      // The text, not the bytes as well, is held while importing.
      guard let text = String(data: try options.read(environment, .lines), encoding: .utf8) else {
        throw CLIError.invalidValue("input: not UTF-8 text")
      }
      try options.importing(environment) { writer in
        try TodoTxt.read(text, today: environment.today, timeZone: environment.timeZone, into: &writer)
      }
    }
  }
}
