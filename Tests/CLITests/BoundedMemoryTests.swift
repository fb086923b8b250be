import Core
import Foundation
import Storage
import TestTags
import Testing

@testable import CLI

/// Issue 11, item 10: every command stays under 64 MB peak memory whatever the database size.
/// Commands that print a list of rows read them from the database cursor and write them as they
/// go; these tests run the built binary over a large real database and measure its peak
/// resident memory (``InterchangeBinaryTests/peakMemory(_:environment:output:)``).
@Suite(.tags(.binary, .slow)) struct BoundedMemoryTests {
  static let limitKiB = 64 * 1024

  /// This process's folder of fixture databases, removed when it exits.
  static let fixtures: String = {
    atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "/ootd-bounded-memory-\(getpid())") }
    return NSTemporaryDirectory() + "/ootd-bounded-memory-\(getpid())"
  }()

  /// The path of a new fixture database `name` (`ootd.sqlite` in a folder of its own).
  static func fixtureDatabase(_ name: String) throws -> String {
    let folder = fixtures + "/" + name
    try? FileManager.default.removeItem(atPath: folder)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder + "/ootd.sqlite"
  }

  /// A database with the project `big`: 20,000 todos over 2,000 days, every third done, each
  /// with a 2,000-character note and a tag (40 MB of notes), added in one transaction.
  static let bigProject: Result<String, any Error> = Result {
    let path = try fixtureDatabase("big-project")
    let database = try AppDatabase.open(path: path)
    try database.addProject(try Project(name: "big", summary: "A long project"), now: TestClock.now)
    let first = try #require(Day(iso: "2020-01-01"))
    let note = String(repeating: "n", count: 2000)
    var drafts: [(todo: NewTodo, done: Bool)] = []
    for index in 0..<20_000 {
      var todo = try NewTodo(
        title: "todo \(index)", priority: Priority.allCases[index % 3], day: first.adding(days: index / 10),
        project: "big")
      todo.notes = note
      todo.tags = ["t\(index % 5)"]
      drafts.append((todo, index % 3 == 0))
    }
    try database.addTodos(drafts, now: TestClock.now)
    return path
  }

  /// The pinned day (the binaries run at ``TestClock/instant`` with TZ=UTC).
  static var today: Day { TestClock.today }

  /// A database as a 50,000-line todo.txt import without dates leaves it: 50,000 todos on
  /// today, each in a project of its own (50,000 projects), every fourth done, with titles of
  /// 100-odd characters; and 20,000 open todos of yesterday, overdue. Imported in one change.
  static let bigDay: Result<String, any Error> = Result {
    let path = try fixtureDatabase("big-day")
    let database = try AppDatabase.open(path: path)
    let padding = String(repeating: "x", count: 90)
    var todos: [ImportedTodo] = []
    for index in 0..<50_000 {
      todos.append(
        try ImportedTodo(
          uuid: String(format: "00000000-0000-4000-8000-%012d", index), title: "day todo \(index) \(padding)",
          priority: Priority.allCases[index % 3], day: today, dayIsDefault: true, isDone: index % 4 == 0,
          project: String(format: "p%06d", index), tags: ["t\(index % 7)"]))
    }
    for index in 0..<20_000 {
      todos.append(
        try ImportedTodo(
          uuid: String(format: "00000000-0000-4000-9000-%012d", index), title: "late todo \(index) \(padding)",
          priority: Priority.allCases[index % 3], day: today.adding(days: -1)))
    }
    _ = try database.importTodos(ImportPlan(todos: todos), today: TestClock.today, now: TestClock.now)
    return path
  }

  /// Runs `arguments` on the big day's database with the output to a file; expects exit 0 and
  /// a peak under 64 MB, and returns what was printed.
  func boundedRun(_ arguments: [String]) throws -> String {
    let path = try Self.bigDay.get()
    let folder = try TemporaryFolder()
    let output = folder.file("out")
    let (code, kib) = try InterchangeBinaryTests.peakMemory(
      arguments, environment: ["OOTD_DB": path, "TZ": "UTC"], output: output)
    #expect(code == 0, "\(arguments)")
    #expect(kib < Self.limitKiB, "\(arguments.joined(separator: " ")) peaked at \(kib / 1024) MB")
    return try String(contentsOfFile: output, encoding: .utf8)
  }

  /// The dashboard, `list` and `search` over a day of 50,000 todos: every todo printed, under
  /// 64 MB (they held the whole day: 68, 181, 64 and 65 MB here before, with shorter titles).
  @Test func aDayOf50000Todos_isPrintedInBoundedMemory() throws {
    let heading = "\(Self.today.weekday.shortName) \(Self.today) · today  12500/50000 done  25%"
    for arguments in [["today"], ["list"], ["list", "--all"]] {
      let lines = try boundedRun(arguments).split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.contains { $0 == heading }, "\(arguments)")
      #expect(lines.filter { $0.contains(" day todo ") }.count == 50_000, "\(arguments)")
      #expect(lines.filter { $0.hasPrefix("  [x] ") }.count == 12_500, "\(arguments)")
      if arguments == ["list", "--all"] {
        #expect(lines.filter { $0.contains(" late todo ") }.count == 20_000)
      } else {
        // The overdue section: the 10 most recent, and how many more.
        #expect(lines.contains { $0.hasPrefix("Overdue  1000+ open todos from earlier days") })
        #expect(lines.filter { $0.contains(" late todo ") }.count == 10)
      }
    }
    let found = try boundedRun(["search", "todo 1"]).split(separator: "\n")
    #expect(found.filter { $0.contains(" day todo 1") }.count == 11_111)
    #expect(found.filter { $0.contains(" late todo 1") }.count == 11_111)
    let json = try boundedRun(["today", "--json"])
    let dashboard = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let todos = try #require(dashboard["todos"] as? [[String: Any]])
    #expect(todos.count == 50_000)
    #expect(todos.filter { $0["done"] as? Bool == true }.count == 12_500)
    #expect((dashboard["overdue"] as? [[String: Any]])?.count == 20_000)
    #expect(dashboard["total"] as? Int == 50_000)
    #expect(dashboard["done"] as? Int == 12_500)
  }

  /// A database of 60,000 open overdue todos, 100 on each of the 600 days before today, with
  /// titles of 60-odd characters: what a long-neglected list carries. Imported in one change.
  static let manyOverdue: Result<String, any Error> = Result {
    let path = try fixtureDatabase("many-overdue")
    let database = try AppDatabase.open(path: path)
    let padding = String(repeating: "x", count: 50)
    let todos = try (0..<60_000).map { index in
      try ImportedTodo(
        uuid: String(format: "00000000-0000-4000-a000-%012d", index), title: "overdue \(index) \(padding)",
        priority: Priority.allCases[index % 3], day: today.adding(days: -1 - index / 100))
    }
    _ = try database.importTodos(ImportPlan(todos: todos), today: TestClock.today, now: TestClock.now)
    return path
  }

  /// Carrying 60,000 overdue todos, undoing and redoing that carry, and the carry's JSON: each
  /// under 64 MB (the journal held every operation, and carry every todo: 100+ MB here before).
  @Test func carryingSixtyThousandTodos_andUndoingIt_staysBounded() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("ootd.sqlite")
    try FileManager.default.copyItem(atPath: try Self.manyOverdue.get(), toPath: path)
    let output = folder.file("out")
    func run(_ arguments: [String]) throws -> String {
      let (code, kib) = try InterchangeBinaryTests.peakMemory(
        arguments, environment: ["OOTD_DB": path, "TZ": "UTC"], output: output)
      #expect(code == 0, "\(arguments)")
      #expect(kib < Self.limitKiB, "\(arguments.joined(separator: " ")) peaked at \(kib / 1024) MB")
      return try String(contentsOfFile: output, encoding: .utf8)
    }
    let carried = try run(["carry"]).split(separator: "\n")
    #expect(carried.first == "Carried 60000 todos to \(Self.today):")
    #expect(carried.filter { $0.contains(" overdue ") && $0.hasSuffix(" \(Self.today)") }.count == 60_000)
    let undone = try run(["undo"])
    // Back to each of the 600 days, the oldest first, as carry took them.
    #expect(undone.hasPrefix("Undid 'carry': 100 todos moved to \(Self.today.adding(days: -600)) ('overdue 59"))
    #expect(undone.hasSuffix("; and 588 more changes\n"), "\(undone.suffix(200))")
    let redone = try run(["redo"])
    #expect(redone.hasPrefix("Redid 'carry': 60000 todos moved to \(Self.today) ('overdue "))
    _ = try run(["undo"])
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(try run(["carry", "--json"]).utf8)) as? [String: Any])
    #expect((json["carried"] as? [[String: Any]])?.count == 60_000)
    #expect((json["kept"] as? [Any])?.isEmpty == true)
    #expect(json["to"] as? String == Self.today.description)
  }

  /// Deleting a project unlinks its todos a thousand at a time, reading only their uuids: the
  /// project of 20,000 todos with 2,000-character notes is deleted, and brought back by undo,
  /// under 64 MB each (it read every todo whole first: 89 MB here before with 100,000 todos).
  @Test func removingAProjectOf20000Todos_andUndoingIt_staysBounded() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("ootd.sqlite")
    try FileManager.default.copyItem(atPath: try Self.bigProject.get(), toPath: path)
    let output = folder.file("out")
    for (arguments, expected) in [
      (["project", "rm", "big", "--yes"], "Deleted project big; 20000 todos kept, unlinked"),
      (["undo"], "Undid 'project rm big --yes': 20000 todos linked to project big ('todo 0', "),
    ] {
      let (code, kib) = try InterchangeBinaryTests.peakMemory(
        arguments, environment: ["OOTD_DB": path, "TZ": "UTC"], output: output)
      #expect(code == 0, "\(arguments)")
      #expect(kib < Self.limitKiB, "\(arguments.joined(separator: " ")) peaked at \(kib / 1024) MB")
      #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix(expected), "\(arguments)")
    }
  }

  /// Adding a block's todo to that day checks the day for a second todo of the block without
  /// loading the day (it loaded all 50,000: 78 MB here before).
  @Test func addingABlockTodoToABigDay_staysBounded() throws {
    let folder = try TemporaryFolder()
    let path = folder.file("ootd.sqlite")
    try FileManager.default.copyItem(atPath: try Self.bigDay.get(), toPath: path)
    for round in 1...2 {
      let result = try BinaryTests.run(["add", "--block", "algorithm"], environment: ["OOTD_DB": path, "TZ": "UTC"])
      #expect(result.code == 0, "\(result.stderr)")
      #expect(result.stderr.contains("now has 2 todos from block 'algorithm'") == (round == 2), "\(result.stderr)")
    }
    let (code, kib) = try InterchangeBinaryTests.peakMemory(
      ["add", "--block", "algorithm"], environment: ["OOTD_DB": path, "TZ": "UTC"])
    #expect(code == 0)
    #expect(kib < Self.limitKiB, "add --block peaked at \(kib / 1024) MB")
  }

  /// `project list` of 50,000 projects (what an import of as many `+project` names makes):
  /// all of them, under 64 MB (82 MB text, 171 MB JSON here before).
  @Test func fiftyThousandProjects_areListedInBoundedMemory() throws {
    let lines = try boundedRun(["project", "list"]).split(separator: "\n")
    #expect(lines.count == 50_001)
    #expect(lines.first?.hasPrefix("NAME     REPOSITORY  PROGRESS") == true)
    #expect(lines[1].hasPrefix("p000000  -           1/1 done 100%  \(Self.today)"))
    #expect(lines.last == "p049999  -           0/1 done   0%  -")
    let json = try boundedRun(["project", "list", "--json"])
    let projects = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
    #expect(projects.count == 50_000)
    #expect(Set(projects.compactMap { $0["name"] as? String }).count == 50_000)
  }

  /// `project show` prints every todo of a 20,000-todo project, as text and as JSON, in well
  /// under 64 MB (it loaded them all and built the whole document: 170+ MB here before).
  @Test(arguments: [false, true])
  func projectShow_manyTodos_completeInBoundedMemory(json: Bool) throws {
    let path = try Self.bigProject.get()
    let folder = try TemporaryFolder()
    let output = folder.file("out")
    let arguments = ["project", "show", "big"] + (json ? ["--json"] : [])
    let (code, kib) = try InterchangeBinaryTests.peakMemory(
      arguments, environment: ["OOTD_DB": path, "TZ": "UTC"], output: output)
    #expect(code == 0)
    #expect(kib < Self.limitKiB, "project show \(json ? "--json " : "")peaked at \(kib / 1024) MB")
    let data = try Data(contentsOf: URL(fileURLWithPath: output))
    if json {
      let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      #expect(document["name"] as? String == "big")
      #expect(document["total"] as? Int == 20_000)
      #expect(document["done"] as? Int == 6_667)
      #expect(document["commits"] is NSNull)
      let todos = try #require(document["todos"] as? [[String: Any]])
      #expect(todos.count == 20_000)
      #expect(Set(todos.compactMap { $0["title"] as? String }).count == 20_000)
      #expect(todos.allSatisfy { ($0["notes"] as? String)?.count == 2000 && $0["project"] as? String == "big" })
      #expect(todos.first?["date"] as? String == "2020-01-01")
      #expect(todos.last?["date"] as? String == "2025-06-22")
    } else {
      let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines.first == "big")
      #expect(lines.filter { $0.hasPrefix("  [x] ") }.count == 6_667)
      #expect(lines.filter { $0.hasPrefix("  [ ] ") }.count == 13_333)
      #expect(lines.filter { $0.hasSuffix("  3/10 done  30%") || $0.hasSuffix("  4/10 done  40%") }.count == 2_000)
      #expect(lines.contains("Wed 2020-01-01  4/10 done  40%"))
      #expect(lines.contains { $0.hasSuffix("  todo 19999  @big +t4 2025-06-22") }, "\(lines.suffix(4))")
      #expect(lines.last == "")
      #expect(lines.dropLast().last?.hasPrefix("  [") == true)
    }
  }
}

/// `project show` prints, byte for byte, what it printed before it streamed (golden files
/// recorded from the version that built the whole document): text plain and coloured at 60
/// columns, JSON with commits null (no repository, never synced) and synced, todos with tags,
/// notes, done, reopened, dropped, carried, a GitHub link's absence and an escape to neutralise.
@Suite struct ProjectShowOutputTests {
  static func harness() async throws -> Harness {
    let h = try Harness()
    for arguments in [
      ["project", "add", "ootd", "--repo", "octo/ootd", "--desc", "Terminal todo tracker", "--tech", "swift,sqlite",
       "--start", "2026-11-01", "--memo", "memo \u{9B}31m"],
      ["project", "add", "quiet", "--repo", "octo/quiet"],
      ["project", "add", "bare"],
      ["add", "Write the README +docs", "--project", "ootd", "--tag", "x", "--note", "a note\nline \"two\"", "--on", "2026-11-20"],
      ["add", "Ship 1.0", "-p", "high", "--project", "ootd"],
      ["add", "Escape \u{1B}]0;PWN\u{07} and \u{9B}31m", "--project", "ootd", "--on", "tomorrow", "-p", "low"],
      ["add", "Reopened", "--project", "ootd"],
      ["add", "Dropped", "--project", "ootd", "--on", "2026-11-19"],
      ["add", "Carried", "--project", "ootd", "--on", "2026-11-18"],
      ["add", "Elsewhere"],
      ["done", "2"], ["done", "4"], ["undone", "4"], ["drop", "5"], ["carry"],
      ["add", "Late", "--project", "ootd", "--on", "2026-11-21", "-p", "high"],
      ["add", "A rather long title that cannot fit in sixty columns, whatever happens", "--project", "ootd"],
    ] + (0..<12).map { index in
      // More overdue todos than a screen shows, over two days and every priority.
      ["add", "old \(index)", "--on", "2026-11-1\(5 + index % 2)", "-p", ["low", "high", "mid"][index % 3]]
    } {
      let result = await h.run(arguments)
      #expect(result.code == 0, "\(arguments): \(result.stderr)")
    }
    let database = try AppDatabase.open(path: h.databasePath)
    let repository = try #require(RepositoryName("octo/ootd"))
    let commits = (0..<3).map { index in
      Commit(
        sha: String(repeating: "\(index + 1)", count: 40), source: .gitHub(repository), authorLogin: "octo",
        authorName: "Octo", authorEmail: "octo@example.com",
        authorDate: h.now.addingTimeInterval(Double(-index) * 86_400 * 20),
        committerDate: h.now.addingTimeInterval(Double(-index) * 86_400 * 20),
        subject: "subject \(index) \u{9B}", htmlURL: nil, parentCount: 1)
    }
    try database.gitHub.storeLocalCommits(
      commits, recordedAs: ListingKey(repository: repository, author: "octo"), now: h.now)
    return h
  }

  @Test func projectShow_printsWhatItPrintedBefore() async throws {
    var h = try await Self.harness()
    for name in ["ootd", "quiet", "bare"] {
      for json in [false, true] {
        let result = await h.run(["project", "show", name] + (json ? ["--json"] : []))
        #expect(result.code == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        try Golden.check(Self.maskingUUIDs(result.stdout), "project-show-\(name).\(json ? "json" : "txt")")
      }
    }
    h.terminal = true
    h.variables["COLUMNS"] = "60"
    let coloured = await h.run(["project", "show", "ootd"])
    #expect(coloured.code == 0)
    try Golden.check(coloured.stdout, "project-show-ootd-colour.txt")
  }

  /// The dashboard and the listings that now stream print what they printed when they held
  /// whole lists (golden files recorded from that version).
  @Test func dashboardAndListings_printWhatTheyPrintedBefore() async throws {
    var h = try await Self.harness()
    let commands: [(String, [String])] = [
      ("today", ["today"]), ("today-json", ["today", "--json"]), ("list", ["list"]),
      ("list-all", ["list", "--all"]), ("list-open", ["list", "--all", "--open"]), ("search", ["search", "e"]),
    ]
    for (name, arguments) in commands {
      let result = await h.run(arguments)
      #expect(result.code == 0, "\(result.stderr)")
      try Golden.check(Self.maskingUUIDs(result.stdout), "stream-\(name).txt")
    }
    h.terminal = true
    h.variables["COLUMNS"] = "60"
    for (name, arguments) in [("today", ["today"]), ("list-all", ["list", "--all"])] {
      let result = await h.run(arguments)
      #expect(result.code == 0)
      try Golden.check(result.stdout, "stream-\(name)-colour.txt")
    }
  }

  /// `text` with each `"uuid" : "…"` value (random for each run) as `"uuid" : "UUID"`.
  static func maskingUUIDs(_ text: String) -> String {
    text.replacingOccurrences(
      of: #""uuid" : "[0-9a-f-]{36}""#, with: #""uuid" : "UUID""#, options: .regularExpression)
  }
}

/// The project writer prints the bytes the Encodable form printed through `JSONOutput.encode`
/// before `project show` streamed: that form is kept here, as it was, as the oracle.
@Suite struct ProjectJSONWriterTests {
  /// `JSONOutput.ProjectJSON` as it was encoded before (with `todos` in `project show`).
  struct OracleProject: Encodable {
    let progress: ProjectProgress
    var todos: [JSONOutput.TodoJSON]? = nil

    enum CodingKeys: String, CodingKey {
      case name, uuid, description, repo, path, start, end, tech, memo, archived, total, done, rate
      case lastActivity, todos
    }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      let project = progress.project
      try c.encode(project.name, forKey: .name)
      try c.encode(project.uuid, forKey: .uuid)
      try c.encode(project.summary, forKey: .description)
      try c.encode(project.repository?.description, forKey: .repo)
      try c.encode(project.localPath, forKey: .path)
      try c.encode(project.start?.description, forKey: .start)
      try c.encode(project.end?.description, forKey: .end)
      try c.encode(project.tech, forKey: .tech)
      try c.encode(project.memo, forKey: .memo)
      try c.encode(project.isArchived, forKey: .archived)
      try c.encode(progress.total, forKey: .total)
      try c.encode(progress.done, forKey: .done)
      try c.encode(progress.rate, forKey: .rate)
      try c.encode(progress.lastActivity?.description, forKey: .lastActivity)
      if let todos { try c.encode(todos, forKey: .todos) }
    }
  }

  /// `ProjectCommits` as it was encoded.
  struct OracleCommits: Encodable {
    let commits: ProjectCommits

    enum CodingKeys: String, CodingKey { case total, last30Days, latest, lastSync }
    enum LatestKeys: String, CodingKey { case sha, date, subject }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(commits.commits.total, forKey: .total)
      try c.encode(commits.last30Days, forKey: .last30Days)
      if let latest = commits.commits.latest {
        var l = c.nestedContainer(keyedBy: LatestKeys.self, forKey: .latest)
        try l.encode(latest.sha, forKey: .sha)
        try l.encode(Timestamp.string(latest.authoredAt, .iso8601), forKey: .date)
        try l.encode(latest.subject, forKey: .subject)
      } else {
        try c.encodeNil(forKey: .latest)
      }
      try c.encode(commits.commits.lastSyncAt.map { Timestamp.string($0, .iso8601) }, forKey: .lastSync)
    }
  }

  /// `project show --json` as it was encoded.
  struct OracleShow: Encodable {
    let project: OracleProject
    let commits: ProjectCommits?

    enum CodingKeys: String, CodingKey { case commits }

    func encode(to encoder: any Encoder) throws {
      try project.encode(to: encoder)
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(commits.flatMap { $0.isSynced ? OracleCommits(commits: $0) : nil }, forKey: .commits)
    }
  }

  static func projects() throws -> [ProjectProgress] {
    var full = try Project(
      name: "work.client", summary: "say \"hi\" / \u{9B}31m", repository: RepositoryName("octo/ootd"),
      localPath: "/home/me/src/ootd", start: Day(iso: "2026-01-02"), end: Day(iso: "2026-12-31"),
      tech: ["swift", "sqlite", "日本語"], memo: "line\nbreak\u{7F}", isArchived: true)
    full.uuid = "7c1e3c9e-1b5a-4a44-9b7f-5d8e2a1f0c11"
    var bare = try Project(name: "bare")
    bare.uuid = "00000000-0000-4000-8000-000000000000"
    return [
      ProjectProgress(project: full, total: 3, done: 2, lastActivity: Day(iso: "2026-11-20")),
      ProjectProgress(project: full, total: 7, done: 0, lastActivity: nil),
      ProjectProgress(project: bare, total: 0, done: 0, lastActivity: nil),
    ]
  }

  static func commits() -> [ProjectCommits?] {
    let sync = Date(timeIntervalSince1970: 1_790_000_000)
    return [
      nil,
      ProjectCommits(commits: RepositoryCommits(total: 0, latest: nil, lastSyncAt: nil), last30Days: 0),
      ProjectCommits(commits: RepositoryCommits(total: 0, latest: nil, lastSyncAt: sync), last30Days: 0),
      ProjectCommits(
        commits: RepositoryCommits(
          total: 1234, latest: (sha: String(repeating: "ab", count: 20), authoredAt: sync, subject: "v1 \u{9B} \"q\""),
          lastSyncAt: nil), last30Days: 12),
    ]
  }

  @Test func project_matchesTheEncodableForm() throws {
    for progress in try Self.projects() {
      var text = ""
      var writer = JSONStreamWriter(chunkSize: 16) { text += $0 }
      JSONOutput.ProjectJSON(progress: progress).write(to: &writer)
      writer.finish()
      #expect(text == (try JSONOutput.encode(OracleProject(progress: progress))) + "\n")
    }
    // `project list --json`: an array of them.
    var text = ""
    var writer = JSONStreamWriter(chunkSize: 16) { text += $0 }
    writer.beginArray()
    for progress in try Self.projects() { JSONOutput.ProjectJSON(progress: progress).write(to: &writer) }
    writer.endArray()
    writer.finish()
    #expect(text == (try JSONOutput.encode(try Self.projects().map { OracleProject(progress: $0) })) + "\n")
  }

  @Test func projectShow_matchesTheEncodableForm() throws {
    let todos = JSONStreamWriterTests.todos()
    for progress in try Self.projects() {
      for commits in Self.commits() {
        for shown in [[], todos] {
          let json = shown.map {
            JSONOutput.TodoJSON(todo: $0, today: JSONStreamWriterTests.today, timeZone: JSONStreamWriterTests.zone)
          }
          var text = ""
          var writer = JSONStreamWriter(chunkSize: 100) { text += $0 }
          JSONOutput.ProjectJSON(progress: progress).write(to: &writer, commits: commits) { writer in
            writer.beginArray()
            for todo in json { todo.write(to: &writer) }
            writer.endArray()
          }
          writer.finish()
          let oracle = OracleShow(project: OracleProject(progress: progress, todos: json), commits: commits)
          #expect(text == (try JSONOutput.encode(oracle)) + "\n")
        }
      }
    }
  }
}

/// `TodoRenderer.DayList` prints what grouping whole days prints, whatever the number of todos
/// it may hold and however the output is cut: a table of hold limits, with and without figures.
@Suite struct DayListTests {
  /// Days of 0 to 7 todos, some done, some dropped, one day of 23.
  static func todos() -> [Todo] {
    let first = Day(year: 2026, month: 11, day: 1)!
    var todos: [Todo] = []
    var id: Int64 = 1
    for (offset, count) in [3, 1, 0, 7, 23, 2, 1].enumerated() where count > 0 {
      for index in 0..<count {
        var todo = Todo(
          id: id, title: "todo \(id)", priority: Priority.allCases[index % 3], day: first.adding(days: offset),
          isDone: (index + offset) % 3 == 0, createdAt: Date(timeIntervalSince1970: 0), uuid: "u\(id)")
        todo.isDropped = index == 4
        todos.append(todo)
        id += 1
      }
    }
    return todos.sorted(by: Todo.listOrder)
  }

  /// The days as they were printed when each was held whole: a blank line between days, the
  /// heading counted from the day's todos, then its lines.
  static func wholeDays(_ todos: [Todo], _ renderer: TodoRenderer, showProgress: Bool) -> [String] {
    let idWidth = todos.map { String($0.id).count }.max() ?? 1
    var lines: [String] = []
    for day in Set(todos.compactMap(\.day)).sorted() {
      let group = todos.filter { $0.day == day }
      if !lines.isEmpty { lines.append("") }
      lines += renderer.dayHeading(day, todos: group, showProgress: showProgress)
      lines += group.map { renderer.line($0, idWidth: idWidth) }
    }
    return lines
  }

  @Test(arguments: [1, 2, 3, 5, 22, 23, 24, 1000])
  func streamed_matchesWholeDays(holdLimit: Int) throws {
    let todos = Self.todos()
    let renderer = TodoRenderer(style: Style(colored: true), today: Day(year: 2026, month: 11, day: 4)!)
    for showProgress in [true, false] {
      var lines: [String] = []
      var outputs = 0
      var asked: [Day] = []
      var list = TodoRenderer.DayList(
        renderer: renderer, idWidth: 2, showProgress: showProgress, holdLimit: holdLimit
      ) {
        lines += $0
        outputs += 1
      }
      for todo in todos {
        list.add(todo) { day in
          asked.append(day)
          let group = todos.filter { $0.day == day }
          return (done: group.count { $0.isDone }, total: group.count)
        }
      }
      list.finish()
      #expect(lines == Self.wholeDays(todos, renderer, showProgress: showProgress), "\(holdLimit) \(showProgress)")
      #expect(!list.isEmpty)
      // Figures are asked only for a day longer than the limit, once.
      let long = Set(todos.compactMap(\.day)).filter { day in todos.count { $0.day == day } >= holdLimit }
      #expect(asked == (showProgress ? long.sorted() : []), "\(holdLimit) \(showProgress)")
      // Nothing waits longer than the limit: a long day comes out in several pieces.
      if holdLimit < 23 { #expect(outputs > 6) }
    }
  }

  @Test func noTodos_printNothing() {
    var lines: [String] = []
    var list = TodoRenderer.DayList(
      renderer: TodoRenderer(style: Style(colored: true), today: Day(year: 2026, month: 11, day: 4)!),
      idWidth: 1, showProgress: true) { lines += $0 }
    list.finish()
    #expect(lines.isEmpty)
    #expect(list.isEmpty)
  }
}

/// `today --json`, written a value at a time, prints the bytes its former Encodable form (kept
/// here as it was, as the oracle) printed through `JSONOutput.encode`.
@Suite struct DashboardJSONWriterTests {
  struct OracleDashboard: Encodable {
    let date: Day
    let todos: [Todo]
    let overdue: [Todo]
    let backlog: (todos: [Todo], count: Int)
    let facts: DashboardFacts
    let timeZone: TimeZone

    enum CodingKeys: String, CodingKey {
      case date, todos, overdue, total, done, rate, streak, commits, currentStreak, carried
      case backlog, backlogTop
    }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      let json = { (todo: Todo) in JSONOutput.TodoJSON(todo: todo, today: date, timeZone: timeZone) }
      try c.encode(date.description, forKey: .date)
      try c.encode(todos.map(json), forKey: .todos)
      try c.encode(overdue.map(json), forKey: .overdue)
      try c.encode(facts.today.total, forKey: .total)
      try c.encode(facts.today.done, forKey: .done)
      try c.encode(facts.today.rate, forKey: .rate)
      try c.encode(facts.streak, forKey: .streak)
      try c.encode(facts.streak, forKey: .currentStreak)
      try c.encode(facts.today.carried, forKey: .carried)
      try c.encode(facts.commits, forKey: .commits)
      try c.encode(backlog.count, forKey: .backlog)
      try c.encode(backlog.todos.map(json), forKey: .backlogTop)
    }
  }

  @Test func dashboard_matchesTheEncodableForm() throws {
    let all = JSONStreamWriterTests.todos()
    let today = JSONStreamWriterTests.today
    let zone = JSONStreamWriterTests.zone
    let facts = [
      DashboardFacts(today: Tally(total: 0, done: 0), streakBefore: 0),
      DashboardFacts(today: Tally(total: 3, done: 3, carried: 1), streakBefore: 4, commits: 0, lastSync: TestClock.now),
      DashboardFacts(today: Tally(total: 7, done: 2), streakBefore: 2, commits: 12),
    ]
    for fact in facts {
      for (todos, overdue) in [([Todo](), [Todo]()), (all.filter { $0.day == today }, all.filter { $0.isPlanned(before: today) }), (all, all)] {
        // The backlog: none, or two of the todos taken off their day, of five waiting.
        let backlog: (todos: [Todo], count: Int) = todos.isEmpty ? ([], 0) : (Array(all.prefix(2)).map { todo in
          var todo = todo
          todo.day = nil
          return todo
        }, 5)
        var text = ""
        var writer = JSONStreamWriter(chunkSize: 50) { text += $0 }
        let dashboard = DashboardJSON(date: today, facts: fact, timeZone: zone)
        dashboard.write(
          to: &writer, backlog: backlog,
          overdue: { writer in
            writer.beginArray()
            for todo in overdue { dashboard.todo(todo).write(to: &writer) }
            writer.endArray()
          },
          todos: { writer in
            writer.beginArray()
            for todo in todos { dashboard.todo(todo).write(to: &writer) }
            writer.endArray()
          })
        writer.finish()
        let oracle = OracleDashboard(
          date: today, todos: todos, overdue: overdue, backlog: backlog, facts: fact, timeZone: zone)
        #expect(text == (try JSONOutput.encode(oracle)) + "\n")
      }
    }
  }
}
