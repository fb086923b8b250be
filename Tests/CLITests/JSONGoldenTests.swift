import Core
import Foundation
import Storage
import TestTags
import Testing

/// Every JSON shape ootd prints, byte for byte, from the built binary (pinned clock and zone) on
/// one small fixed database: golden files in `Tests/CLITests/Golden/json/`, recorded from the
/// version that still wrote each shape twice (`JSONEncoder` and the stream writer), so the one
/// writer each shape has now is proved to print the same bytes. UUIDs (random for each run) are
/// masked; nothing else varies.
@Suite(.tags(.binary)) struct JSONGoldenTests {
  /// A database with projects, blocks, todos (tags, notes, done, reopened, dropped, carried, a
  /// terminal escape to neutralise), journal entries and synced commits, then each command.
  @Test func everyJSONShape_printsItsGoldenBytes() throws {
    let folder = try TemporaryFolder()
    let database = folder.file("ootd.sqlite")
    // No gh on the PATH: `gh auth token` must not reach the machine's login.
    let environment = ["OOTD_DB": database, "PATH": folder.path]
    func run(_ arguments: [String], stdin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws
      -> String
    {
      let result = try BinaryTests.run(arguments, environment: environment, stdin: stdin)
      #expect(result.code == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
      return result.stdout
    }
    func check(_ name: String, _ arguments: [String], stdin: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
      let output = try run(arguments, stdin: stdin, sourceLocation: sourceLocation)
      try Golden.check(Self.maskingUUIDs(output), "json/\(name).json", sourceLocation: sourceLocation)
    }

    // Projects: add/edit print one project.
    try check(
      "project-add",
      ["project", "add", "ootd", "--repo", "octo/ootd", "--desc", "Terminal todo tracker", "--tech", "swift,sqlite",
       "--start", "2026-11-01", "--memo", "memo \u{9B}31m", "--json"])
    try check("project-edit", ["project", "add", "bare", "--json"])
    // Todos.
    try check(
      "add",
      ["add", "Write the README +docs", "--project", "ootd", "--tag", "x", "--note", "a note\nline \"two\"",
       "--on", "2026-11-20", "--json"])
    for arguments in [
      ["add", "Ship 1.0", "-p", "high", "--project", "ootd"],
      ["add", "Escape \u{1B}]0;PWN\u{07} and \u{9B}31m / \\ \t", "--on", "tomorrow", "-p", "low"],
      ["add", "Reopened", "--project", "ootd"],
      ["add", "Dropped", "--on", "2026-11-19"],
      ["add", "Carried", "--on", "2026-11-18"],
      ["add", "Elsewhere", "--on", "2026-11-10"],
      ["done", "2"], ["done", "4"], ["undone", "4"],
    ] {
      _ = try run(arguments)
    }
    try check("drop", ["drop", "5", "--json"])
    try check("carry", ["carry", "6", "--json"])
    try check("edit", ["edit", "3", "--title", "Escape again \u{9B}", "--json"])
    try check("note", ["note", "1", "another line", "--json"])
    try check("undo", ["undo", "--json"])
    try check("redo", ["redo", "--json"])
    // Blocks: a routine one with a done rule, a plain one.
    _ = try run(["block", "add", "standup", "Post the standup", "-p", "high", "--routine"])
    _ = try run(["block", "edit", "standup", "--done-when", "commits", "--repo", "octo/ootd"])
    _ = try run(["block", "add", "gym", "Go to the gym"])
    _ = try run(["block", "routine", "gym", "--on", "mon,wed,fri"])
    _ = try run(["block", "routine", "docs", "--every", "2d"])
    try check("block-list", ["block", "list", "--json"])
    try check("plan", ["plan", "--on", "2026-11-23", "--json"])
    try check("log", ["log", "--json"])
    try check("show", ["show", "1", "--json"])
    try check("show-reopened", ["show", "4", "--json"])

    // Synced commits for the graph, the report, the dashboard and `project show`.
    do {
      let store = try AppDatabase.open(path: database)
      let repository = try #require(RepositoryName("octo/ootd"))
      let commits = (0..<3).map { index in
        Commit(
          sha: String(repeating: "\(index + 1)", count: 40), source: .gitHub(repository), authorLogin: "octo",
          authorName: "Octo", authorEmail: "octo@example.com",
          authorDate: TestClock.now.addingTimeInterval(Double(-index) * 86_400 * 3),
          committerDate: TestClock.now.addingTimeInterval(Double(-index) * 86_400 * 3),
          subject: "subject \(index) \u{9B}", htmlURL: nil, parentCount: 1)
      }
      _ = try store.gitHub.storeLocalCommits(
        commits, recordedAs: ListingKey(repository: repository, author: "octo"), now: TestClock.now)
    }

    try check("list", ["list", "--json"])
    try check("list-all", ["list", "--all", "--json"])
    try check("list-empty", ["list", "--on", "2026-12-25", "--json"])
    try check("search", ["search", "e", "--json"])
    try check("today", ["today", "--json"])
    try check("report", ["report", "--week", "--json"])
    try check("report-project", ["report", "--from", "2026-11-15", "--to", "2026-11-23", "--project", "ootd", "--json"])
    try check("graph", ["graph", "--weeks", "2", "--json"])
    try check("graph-empty", ["graph", "--from", "2020-01-01", "--to", "2020-01-03", "--repo", "octo/none", "--json"])
    try check("project-list", ["project", "list", "--json"])
    try check("project-show", ["project", "show", "ootd", "--json"])
    try check("project-show-bare", ["project", "show", "bare", "--json"])
    try check("export", ["export", "--format", "json"])
    let todoText = "(A) 2026-11-21 Call mom +family @phone due:2026-11-24\nx 2026-11-20 2026-11-19 Paid bills\n"
    try check("import-dry-run", ["import", "todotxt", "-", "--dry-run", "--json"], stdin: todoText)
    try check("import", ["import", "todotxt", "-", "--json"], stdin: todoText)
    try check("github-status", ["github", "status", "--offline", "--json"])
    try check("github-doctor", ["github", "doctor", "--json"])
    // Named: the default would be the host name of the machine the tests run on.
    _ = try run(["remote", "name", "golden"])
    try check("remote-status", ["remote", "status", "--json"])
    // An import that skips rows (two deleted tasks, a recurring template) and mends a todo the
    // rules refuse (done, planned after today): `skippedReasons` and `conflicts` filled.
    let tasks = folder.file("tasks.json")
    try """
      [{"uuid":"0b6c0c5e-3c55-4d1b-9a53-0b8f4f0a1c01","description":"Future done","status":"completed","scheduled":"20261125T000000Z","end":"20261121T030000Z","entry":"20261101T000000Z","project":"home"},
      {"uuid":"0b6c0c5e-3c55-4d1b-9a53-0b8f4f0a1c02","description":"Gone","status":"deleted","entry":"20261101T000000Z"},
      {"uuid":"0b6c0c5e-3c55-4d1b-9a53-0b8f4f0a1c03","description":"Weekly","status":"recurring","recur":"weekly","due":"20261120T000000Z","entry":"20261101T000000Z"},
      {"uuid":"0b6c0c5e-3c55-4d1b-9a53-0b8f4f0a1c04","description":"Also gone","status":"deleted","entry":"20261101T000000Z"},
      {"uuid":"0b6c0c5e-3c55-4d1b-9a53-0b8f4f0a1c05","description":"Plain","status":"pending","entry":"20261101T000000Z"}]
      """.write(toFile: tasks, atomically: true, encoding: .utf8)
    try check("import-skipped-conflicts", ["import", "taskwarrior", tasks, "--json"])
  }

  /// `text` with each `"uuid" : "…"` value as `"uuid" : "UUID"`.
  static func maskingUUIDs(_ text: String) -> String {
    text.replacingOccurrences(
      of: #""uuid" : "[0-9a-fA-F-]{36}""#, with: #""uuid" : "UUID""#, options: .regularExpression)
  }
}
