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
        (A) → high, (B) → mid, (C)–(Z) → low, none → mid (pri:A on done lines); the day is \
        due: (an open line without it goes to the backlog, a done one keeps its creation date, \
        else its completion date); 'x DATE' → done on DATE; dropped:yes → dropped; ootd:UUID → \
        that todo; ootdblock:NAME → the block the todo was made from (created when missing); \
        ootdid:N, ootdcarriedfrom:DAYS, ootddoneby:WHO → the number (kept when free), the days \
        it was carried from, who ticked it; \
        the first +project → project; other +projects and @contexts → tags (one that is no \
        ootd tag stays in the notes); other key:values (t:, rec:…) → attributes; a \\uXXXX in \
        the text (what the export escapes: a line end, a control character, a word that would \
        read as a project, context or key) → that character.

        Examples:
          ootd import todotxt ~/todo.txt
          cat done.txt | ootd import todotxt - --json
        """)

    @OptionGroup var options: Options

    func run(in environment: AppEnvironment) throws {
      // The file is read inside the import's transaction, line by line.
      let input = try options.input(environment)
      try options.importing(environment, from: input) { writer in
        var lines = LineItems()
        var reader = TodoTxt.Reader(timeZone: environment.timeZone)
        func take(_ number: Int, _ bytes: UnsafeBufferPointer<UInt8>) throws {
          // A byte order mark opens the first line only.
          let start = number == 1 && bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
          // UTF-16 (a Windows editor's "Unicode") is half NUL bytes, each valid UTF-8: refused,
          // not imported as titles full of U+FFFD.
          if let base = bytes.baseAddress, memchr(base, 0, bytes.count) != nil { throw InterchangeError("line \(number)", "not UTF-8 text (it has NUL bytes: UTF-16?)") }
          guard let text = String(validating: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self) else {
            throw InterchangeError("line \(number)", "not UTF-8 text")
          }
          try reader.read(text, line: number, into: &writer)
        }
        try input.stream { chunk in try lines.read(chunk, take) }
        try lines.finish(take)
      }
    }
  }
}
