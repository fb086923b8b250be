import Core
import Foundation
import GitHubSync
import Storage
import Testing

@testable import CLI

/// Names and server text echoed on standard output (not only in errors) never drive the
/// terminal. Project and repository names cannot hold controls (``Name``, ``RepositoryName``),
/// so the text comes from where the input rules do not reach: a sync error from a server, a
/// login stored in an edited database.
@Suite struct EchoedTextSafetyTests {
  static let attack = "\u{1B}]0;PWN\u{07}"

  @Test func githubStatus_showsServerTextAndStoredLoginAsSymbols() async throws {
    let harness = try Harness()
    do {
      let database = try AppDatabase.open(path: harness.databasePath)
      let repository = try #require(RepositoryName("mona/app"))
      try database.gitHub.recordSyncError("gone \(Self.attack)", repository: repository, author: "mona")
      try database.settings.setGitHubSetting(.login, to: "mona\(Self.attack)")
    }
    let status = await harness.run(["github", "status", "--offline"])
    #expect(status.code == 0, "\(status.stderr)")
    #expect(!status.stdout.contains("\u{1B}]"), "\(status.stdout)")
    #expect(!status.stdout.contains("\u{07}"), "\(status.stdout)")
    #expect(status.stdout.contains("gone ␛]0;PWN␇"), "\(status.stdout)")
    #expect(status.stdout.contains("mona␛]0;PWN␇ (saved)"), "\(status.stdout)")
    let login = await harness.run(["github", "login"])
    #expect(login.stdout == "mona␛]0;PWN␇\n")
  }

  @Test func syncSummary_showsTheLoginAsSymbols() {
    let summary = CommitSync.Summary(login: "mona\(Self.attack)")
    let line = Ootd.Sync.summaryLine(summary, cached: 0)
    #expect(!line.contains("\u{1B}"), "\(line)")
    #expect(line.contains("mona␛]0;PWN␇"), "\(line)")
  }

  @Test func projectAdd_rejectsAControlInTheName_soItsConfirmationIsPlain() async throws {
    let harness = try Harness()
    let added = await harness.run(["project", "add", "x\(Self.attack)"])
    #expect(added.code == 64, "\(added.stderr)")
    #expect(added.stdout.isEmpty)
    #expect(!added.stderr.contains("\u{1B}"), "\(added.stderr)")
  }

  /// The audit of what reaches standard output (issue 11): a path typed for `--svg` or
  /// `demo --db`, a `graph --user` name, and an export shown on a terminal.
  @Test func typedPathsAndNames_echoedOnStdout_showControlsAsSymbols() async throws {
    var harness = try Harness()
    #expect(await harness.run(["add", "title \(Self.attack) and \u{9B}31m"]).code == 0)
    let svg = harness.folder.file("calendar\(Self.attack).svg")
    let report = await harness.run(["report", "--svg", svg])
    #expect(report.code == 0, "\(report.stderr)")
    #expect(FileManager.default.fileExists(atPath: svg))
    #expect(!report.stdout.contains("\u{1B}") && report.stdout.contains("calendar␛]0;PWN␇.svg"), "\(report.stdout)")

    let graph = await harness.run(["graph", "--user", "mona\(Self.attack)"])
    #expect(graph.code == 0, "\(graph.stderr)")
    #expect(!graph.stdout.contains("\u{1B}") && graph.stdout.contains("mona␛]0;PWN␇"), "\(graph.stdout)")

    let demoPath = harness.folder.file("demo\(Self.attack).sqlite")
    let demo = await harness.run(["demo", "--db", demoPath, "--quiet", "--todos", "5"])
    #expect(demo.code == 0, "\(demo.stderr)")
    #expect(demo.stdout == TerminalText.printable(demoPath) + "\n")
    #expect(!demo.stdout.contains("\u{1B}"))

    // An export shows symbols on a terminal (lines and CR LF line ends kept), and holds no raw
    // control in a pipe or a file either (issue 21, item 11: a todo.txt export wrote the
    // title's ESC and BEL as they were): todo.txt's escapes, which its import reads back
    // (TodoTxtTitleRoundTripTests), iCalendar's symbols, or JSON's escapes.
    let written = [
      "todotxt": #"title \u001B]0;PWN\u0007 and \u009B31m"#, "ical": #"title ␛]0\;PWN␇ and \#u{FFFD}31m"#,
      "taskwarrior": #"title \u001b]0;PWN\u0007 and \u009b31m"#,
    ]
    for format in ["todotxt", "ical", "taskwarrior"] {
      let piped = await harness.run(["export", "--format", format])
      #expect(piped.code == 0)
      #expect(!piped.stdout.unicodeScalars.contains { ControlCharacters.isControl($0) && !"\r\n\t".unicodeScalars.contains($0) }, "\(format): \(piped.stdout)")
      #expect(piped.stdout.contains(written[format]!), "\(format): \(piped.stdout)")
      let file = harness.folder.file("export.\(format)")
      #expect(await harness.run(["export", "--format", format, "--output", file]).code == 0)
      #expect(try String(contentsOfFile: file, encoding: .utf8).contains(written[format]!), "\(format)")
      harness.terminal = true
      let shown = await harness.run(["export", "--format", format])
      harness.terminal = false
      #expect(shown.code == 0)
      #expect(!shown.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 }, "\(format): \(shown.stdout)")
      #expect(shown.stdout.split(separator: "\n").count == piped.stdout.split(separator: "\n").count, "\(format)")
      if format == "ical" { #expect(shown.stdout.contains("\r\n")) }
    }
  }

  @Test(arguments: [
    ("plain\nlines\r\nand\ttabs", "plain\nlines\r\nand\ttabs"),
    ("esc \u{1B}[31m bel \u{07} lone\rcr", "esc ␛[31m bel ␇ lone␍cr"),
    ("c1 \u{9B}31m del \u{7F}", "c1 \u{FFFD}31m del ␡"),
  ])
  func printableLines_keepsLineEndsAndTabsOnly(text: String, shown: String) {
    #expect(TerminalText.printableLines(text) == shown)
  }
}
