import ArgumentParser
import Core
import Foundation
import Testing

@testable import CLI

@Suite struct ParsingTests {
  @Test func add_parsesTitleWordsPriorityProjectDayAndBlock() throws {
    let command = try #require(
      try Ootd.parseAsRoot([
        "add", "Solve", "BOJ", "1753", "--priority", "high", "--project", "algo", "--on", "tomorrow",
        "--block", "algorithm", "--json",
      ]) as? Ootd.Add)
    #expect(command.title == ["Solve", "BOJ", "1753"])
    #expect(command.priority == .high)
    #expect(command.project == "algo")
    #expect(command.on == "tomorrow")
    #expect(command.block == "algorithm")
    #expect(command.output.json)
  }

  @Test(arguments: [
    (["add", "x", "-p", "low"], Priority.low),
    (["add", "x", "--priority", "HIGH"], .high),
    (["add", "x", "--priority", "medium"], .mid),
  ])
  func add_acceptsPrioritySpellings(arguments: [String], expected: Priority) throws {
    let command = try #require(try Ootd.parseAsRoot(arguments) as? Ootd.Add)
    #expect(command.priority == expected)
  }

  @Test(arguments: [
    (["add", "x", "--priority", "urgent"], "The value 'urgent' is invalid for '--priority <priority>'. Please provide one of 'high', 'mid' or 'low'."),
    (["add"], "give the todo a title, or a task block with --block NAME"),
    (["done"], "Missing expected argument '<id> ...'"),
    (["done", "abc"], "The value 'abc' is invalid for '<id>': use the number 'ootd list' shows, or 4 or more hex digits of the todo's uuid (one a-f at least)"),
    (["show", "4fcg"], "The value '4fcg' is invalid for '<id>': use the number 'ootd list' shows, or 4 or more hex digits of the todo's uuid (one a-f at least)"),
    (["list", "--open", "--done"], "--open and --done cannot be combined"),
    (["list", "--on", "today", "--from", "2026-01-01"], "--on cannot be combined with --from, --to or --all"),
    (["list", "--all", "--to", "today"], "--all cannot be combined with --from or --to"),
    (["edit", "3", "--project", "a", "--no-project"], "--project and --no-project cannot be combined"),
    (["project", "list", "--archived", "--all"], "--archived and --all cannot be combined"),
    (["rm"], "Missing expected argument '<id> ...'"),
    (["frobnicate"], "Unexpected argument 'frobnicate'"),
  ])
  func invalidCommandLines_areRejectedWithTheirReason(arguments: [String], message: String) {
    do {
      _ = try Ootd.parseAsRoot(arguments)
      Issue.record("\(arguments) was accepted")
    } catch {
      #expect(Ootd.message(for: error) == message)
    }
  }

  @Test func noArguments_runsTheDashboard() throws {
    #expect(try Ootd.parseAsRoot([]) is Ootd.Today)
  }

  @Test func globalOptions_areAcceptedBeforeOrAfterTheSubcommand() throws {
    let after = try #require(try Ootd.parseAsRoot(["list", "--db", "/tmp/a.sqlite"]) as? Ootd.List)
    #expect(after.global.db == "/tmp/a.sqlite")
    let moved = GlobalOptions.movingLeadingGlobals(["--db", "/tmp/b.sqlite", "--no-color", "list", "--", "-x"])
    #expect(moved == ["list", "--db", "/tmp/b.sqlite", "--no-color", "--", "-x"])
    let before = try #require(
      try Ootd.parseAsRoot(GlobalOptions.movingLeadingGlobals(["--db", "/tmp/b.sqlite", "list"]))
        as? Ootd.List)
    #expect(before.global.db == "/tmp/b.sqlite")
    #expect(GlobalOptions.movingLeadingGlobals(["--db"]) == ["--db"])
    #expect(try Ootd.parseAsRoot(GlobalOptions.movingLeadingGlobals(["--db", "/x.sqlite"])) is Ootd.Today)
  }

  /// `ootd --db X import` (a group with no command of its own, named with a global option
  /// before it) shows the group's help as `ootd import` does, not "unknown option '--db'".
  @Test func globalOptionsBeforeAGroupAlone_showItsHelp() async throws {
    let h = try Harness()
    for group in ["import", "remote", "team", "caldav"] {
      let plain = await h.run([group])
      #expect(plain.code == 0, "\(group)")
      for globals in [["--db", h.databasePath], ["--no-color"], ["--db=\(h.databasePath)", "--no-color"]] {
        let result = await h.run(globals + [group])
        #expect(result.code == 0, "\(globals) \(group): \(result.stderr)")
        #expect(result.stderr == "", "\(globals) \(group)")
        #expect(result.stdout == plain.stdout, "\(globals) \(group)")
      }
    }
    // The globals still reach a subcommand named after the group.
    let moved = GlobalOptions.movingLeadingGlobals(["--db", "/tmp/b.sqlite", "import", "todotxt", "f"])
    #expect(moved == ["import", "todotxt", "f", "--db", "/tmp/b.sqlite"])
    #expect(!FileManager.default.fileExists(atPath: h.databasePath))
  }

  /// Every command takes the global options, before or after its name: `completions` and
  /// argument-parser's `help` refused them ("unknown option '--no-color'", "'--db'").
  @Test func globalOptions_reachCompletionsAndHelpToo() async throws {
    let h = try Harness()
    let plainScript = await h.run(["completions", "bash"])
    let plainHelp = await h.run(["help", "add"])
    #expect(plainHelp.stdout.contains("USAGE: ootd add"))
    for globals in [["--db", h.databasePath], ["--no-color"]] {
      let script = await h.run(globals + ["completions", "bash"])
      #expect(script.code == 0, "\(globals): \(script.stderr)")
      #expect(script.stdout == plainScript.stdout, "\(globals)")
      #expect(await h.run(["completions", "bash"] + globals).code == 0, "\(globals)")
      let help = await h.run(globals + ["help", "add"])
      #expect(help.code == 0, "\(globals): \(help.stderr)")
      #expect(help.stdout == plainHelp.stdout, "\(globals)")
    }
    // `ootd --db X --help` is ootd's help, not the default command's (`today`).
    let rootHelp = await h.run(["--help"])
    #expect(rootHelp.stdout.contains("SUBCOMMANDS:"))
    for globals in [["--db", h.databasePath], ["--no-color"]] {
      #expect(await h.run(globals + ["--help"]).stdout == rootHelp.stdout, "\(globals)")
    }
    // And `ootd completions <TAB>` offers the shells.
    #expect(plainScript.stdout.contains("'bash'$'\\n''zsh'$'\\n''fish'"))
    #expect(!FileManager.default.fileExists(atPath: h.databasePath))
  }

  /// Completion after a global option written before the command: `ootd --db F block rou<TAB>`
  /// offered the command names (the script's top level took `--db` for the command) instead of
  /// `routine`. Run in a real bash; zsh's and fish's scripts name the globals at their top
  /// level too (neither shell is on every machine the tests run on).
  @Test func completion_afterGlobalOptionsBeforeTheCommand_completesTheCommandsWords() async throws {
    let h = try Harness()
    let file = h.folder.file("ootd.bash")
    try await h.run(["completions", "bash"]).stdout.write(toFile: file, atomically: true, encoding: .utf8)
    func completions(_ words: [String]) throws -> [String] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/bash")
      let line = words.joined(separator: " ")
      let script = """
        source "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
        _ootd ootd "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
        printf '%s\n' "${COMPREPLY[@]}"
        """
      process.arguments = ["-c", script, "bash", file] + words
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "\(line)")
      return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
    #expect(try completions(["ootd", "block", "rou"]) == ["routine"])
    #expect(try completions(["ootd", "--db", h.databasePath, "block", "rou"]) == ["routine"])
    #expect(try completions(["ootd", "--no-color", "block", "rou"]) == ["routine"])
    #expect(try completions(["ootd", "--db", h.databasePath, "--no-color", "bl"]) == ["block"])
    let zsh = await h.run(["completions", "zsh"]).stdout
    let zshTop = try #require(zsh.range(of: "\n_ootd() {\n")).upperBound
    let zshEnd = try #require(zsh.range(of: "_arguments", range: zshTop..<zsh.endIndex)).lowerBound
    let zshSpecs = zsh[zshTop..<zshEnd]
    #expect(zshSpecs.contains("'--db[") && zshSpecs.contains("'--no-color["), "\(zshSpecs)")
    let fish = await h.run(["completions", "fish"]).stdout
    #expect(fish.contains("case 'ootd'\n        __ootd_parse_subcommand 0 'db=' 'no-color' 'version' 'h/help'"))
  }

  @Test func projectAdd_parsesEveryField() throws {
    let command = try #require(
      try Ootd.parseAsRoot([
        "project", "add", "ootd", "--repo", "octo/ootd", "--desc", "Tracker", "--start", "2026-01-01",
        "--end", "2026-12-31", "--tech", "swift,sqlite", "--path", "~/src/ootd", "--memo", "m",
      ]) as? Ootd.AddProject)
    #expect(command.name == "ootd")
    #expect(command.fields.repo == "octo/ootd")
    #expect(command.fields.tech == "swift,sqlite")
  }
}
