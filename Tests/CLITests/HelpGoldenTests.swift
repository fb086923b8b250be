import ArgumentParser
import Foundation
import Testing

@testable import CLI

/// The help text of every command and subcommand, as `ootd help …` prints it at 80 columns, kept
/// as golden files in `Tests/CLITests/Golden/help/` (named by the command path:
/// `ootd-project-add.txt`). After an intended change, re-record them with
/// `OOTD_UPDATE_GOLDEN=1 swift test --skip-build --filter HelpGoldenTests` and review the diff.
@Suite struct HelpGoldenTests {
  /// Every command reachable from `ootd`, with its path of names.
  static func commands(
    _ command: any ParsableCommand.Type = Ootd.self, path: [String] = ["ootd"]
  ) -> [(path: [String], command: any ParsableCommand.Type)] {
    [(path, command)]
      + command.configuration.subcommands.flatMap { sub in
        commands(sub, path: path + [sub._commandName])
      }
  }

  static func fileName(_ path: [String]) -> String { "help/\(path.joined(separator: "-")).txt" }

  @Test func everyHelpText_matchesItsGoldenFile() throws {
    for (path, command) in Self.commands() {
      try Golden.check(Ootd.helpMessage(for: command, columns: 80), Self.fileName(path))
    }
  }

  /// The help of each import and export format names how ootd's fields travel in it (its
  /// UDA, keys and properties), as README's tables do: `import taskwarrior --help` did not
  /// name the `ootdblock` UDA, `import todotxt --help` nor `export --help` the block at all,
  /// nor `export --help` the properties that carry an iCalendar title exactly.
  @Test func formatHelp_namesWhatTravels_asTheReadmeDoes() throws {
    let readme = try String(
      contentsOf: Golden.folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md"), encoding: .utf8)
    let names: [(command: any ParsableCommand.Type, names: [String])] = [
      (Ootd.Import.TaskwarriorImport.self, ["ootdblock", "ootdid", "ootdcarriedfrom", "ootddoneby", "scheduled", "entry", "annotations", "attributes"]),
      (Ootd.Import.TodoTxtImport.self, ["ootdblock:", "ootdid:N", "ootdcarriedfrom:DAYS", "ootddoneby:WHO", "ootd:UUID", "dropped:yes", "due:", "pri:", "\\uXXXX"]),
      (Ootd.Export.self, [
        "ootdblock", "ootdblock:NAME", "ootdid", "ootdid:N", "ootdcarriedfrom", "ootddoneby", "ootd:UUID", "dropped:yes", "SUMMARY", "X-OOTD-SUMMARY", "DESCRIPTION",
        "X-OOTD-DESCRIPTION", "CATEGORIES", "DTSTART", "\\uXXXX",
      ]),
    ]
    for (command, names) in names {
      // Unwrapped, so no name is cut at a line's end.
      let help = Ootd.helpMessage(for: command, columns: 10_000)
      for name in names {
        #expect(help.contains(name), "\(command) --help does not name \(name)")
        #expect(readme.contains(name), "README does not name \(name)")
      }
    }
  }

  @Test func everyGoldenHelpFile_belongsToACommand() throws {
    let names = Set(Self.commands().map { Self.fileName($0.path) })
    let folder = Golden.folder.appendingPathComponent("help")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    for file in files { #expect(names.contains("help/" + file), "stale golden file help/\(file)") }
  }
}
