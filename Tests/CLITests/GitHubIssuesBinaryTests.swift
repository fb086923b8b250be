import FakeGitHubSupport
import Foundation
import TestTags
import Testing

/// `ootd github issues`, `sync --issues`, `done --close-on-github` and blocks that tick
/// themselves by commits, from the built binary against the fake GitHub.
@Suite("GitHub issues as todos, and blocks done by commits", .tags(.binary, .network), .serialized)
struct GitHubIssuesBinaryTests {
  static let token = "ghp_fakeTOKENthatMustNeverLeak0123456789"
  static let zone = TimeZone(identifier: "Asia/Seoul")!

  /// A fake GitHub serving `issues` (rewritable between runs) and the given extra arguments.
  struct Setup {
    let folder: TemporaryFolder
    let server: FakeGitHubProcess
    let issuesFile: String
    let environment: [String: String]

    init(issues: [[String: Any]], extra: [String: Any] = [:], serverArguments: [String] = []) throws {
      folder = try TemporaryFolder()
      issuesFile = folder.file("issues.json")
      server = try FakeGitHubProcess(
        ["--login", "gr", "--token", GitHubIssuesBinaryTests.token, "--issues", issuesFile]
          + serverArguments)
      environment = [
        "OOTD_DB": folder.file("ootd.sqlite"), "OOTD_GITHUB_API_URL": server.apiURL,
        "TZ": "Asia/Seoul", "GITHUB_TOKEN": GitHubIssuesBinaryTests.token, "GH_TOKEN": "",
        "PATH": "/usr/bin:/bin",
      ]
      try write(issues: issues, extra: extra)
    }

    func write(issues: [[String: Any]], extra: [String: Any] = [:]) throws {
      var document = extra
      document["issues"] = issues
      try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: issuesFile))
    }

    func run(_ arguments: [String], _ more: [String: String] = [:]) throws -> BinaryTests.Result {
      try BinaryTests.run(arguments, environment: environment.merging(more) { $1 })
    }

    /// The PATCH requests the fake received, as it received them.
    func patches() throws -> [[String: Any]] {
      guard let text = try? String(contentsOfFile: issuesFile + ".patches.jsonl", encoding: .utf8) else {
        return []
      }
      return try text.split(separator: "\n").map {
        try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
      }
    }

    func url(_ path: String) -> String { server.apiURL + "/" + path }
  }

  static func todos(_ text: String) throws -> [[String: Any]] {
    try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text)")
  }

  static func todo(_ list: [[String: Any]], titled prefix: String) -> [String: Any]? {
    list.first { ($0["title"] as? String)?.hasPrefix(prefix) == true }
  }

  /// The pinned day in Seoul (``TestClock/now`` is 21:00 there).
  static func today() -> String { day(TestClock.now) }

  static func day(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = zone
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: date)
  }

  static var openIssues: [[String: Any]] { [
    ["repo": "gr/app", "number": 1, "title": "Fix the crash", "state": "open", "labels": ["P1"], "assignees": ["gr"]],
    ["repo": "gr/app", "number": 2, "title": "Write the docs", "state": "open", "labels": ["priority: low"],
     "assignees": ["gr"], "milestone_due": "2030-01-04T20:00:00Z"],
    ["repo": "gr/app", "number": 3, "title": "Tidy up", "state": "open", "labels": ["needs love"], "assignees": ["gr"]],
    ["repo": "other/lib", "number": 7, "title": "Add a cache", "state": "open", "pull_request": true,
     "review_requested": ["gr"]],
    ["repo": "gr/app", "number": 4, "title": "Someone else's", "state": "open", "assignees": ["al"]],
    ["repo": "gr/app", "number": 5, "title": "Already closed", "state": "closed",
     "closed_at": "2026-01-01T00:00:00Z", "assignees": ["gr"]],
  ] }

  @Test func importsAssignedIssuesAndReviewRequests_byTheRules_andASecondRunCreatesNothing() throws {
    // Given
    let setup = try Setup(issues: Self.openIssues)
    #expect(try setup.run(["project", "add", "app", "--repo", "gr/app"]).code == 0)
    #expect(try setup.run(["add", "Plain todo"]).code == 0)
    // When
    let first = try setup.run(["github", "issues", "--json", "--priority-label", "needs love=high"])
    // Then
    #expect(first.code == 0, "\(first.stderr)")
    let created = try Self.todos(first.stdout)
    #expect(created.count == 4)
    // Issues without a milestone day wait in the backlog: today's total does not change.
    let dashboard = try #require(
      try JSONSerialization.jsonObject(with: Data(try setup.run(["today", "--json"]).stdout.utf8)) as? [String: Any])
    #expect(dashboard["total"] as? Int == 1)
    #expect(dashboard["backlog"] as? Int == 3)
    let crash = try #require(Self.todo(created, titled: "gr/app#1 "))
    #expect(crash["title"] as? String == "gr/app#1 Fix the crash")
    #expect(crash["priority"] as? String == "high")
    #expect(crash["project"] as? String == "app")
    #expect(crash["date"] is NSNull, "no milestone due day: the backlog")
    #expect(crash["done"] as? Bool == false)
    #expect(crash["doneBy"] is NSNull)
    let link = try #require(crash["github"] as? [String: Any])
    #expect(link["url"] as? String == setup.url("gr/app/issues/1"))
    #expect(link["state"] as? String == "open")
    let docs = try #require(Self.todo(created, titled: "gr/app#2 "))
    #expect(docs["priority"] as? String == "low")
    #expect(docs["date"] as? String == "2030-01-05", "the milestone's due day in the user's zone")
    #expect(Self.todo(created, titled: "gr/app#3 ")?["priority"] as? String == "high", "the user's label rule")
    let review = try #require(Self.todo(created, titled: "other/lib#7 "))
    #expect(review["priority"] as? String == "mid")
    #expect(review["project"] is NSNull)
    #expect((review["github"] as? [String: Any])?["url"] as? String == setup.url("other/lib/pull/7"))
    #expect(Self.todo(created, titled: "gr/app#4") == nil && Self.todo(created, titled: "gr/app#5") == nil)

    // The saved rule is shown, and can be forgotten.
    let status = try setup.run(["github", "status", "--offline", "--json"])
    let statusJSON = try #require(
      try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
    let rules = try #require(statusJSON["issueLabelRules"] as? [[String: Any]], "\(status.stdout)")
    #expect(rules.count == 1 && rules.first?["label"] as? String == "needs love"
      && rules.first?["priority"] as? String == "high")
    #expect(try setup.run(["github", "status", "--offline"]).stdout.contains("'needs love' → high"))

    // A second run creates nothing and prints an empty array.
    let second = try setup.run(["github", "issues", "--json"])
    #expect(second.code == 0, "\(second.stderr)")
    #expect(try Self.todos(second.stdout).isEmpty)
    let forget = try setup.run(["github", "issues", "--priority-label", "Needs Love=default"])
    #expect(forget.stdout.hasPrefix("Forgot your rule for the label 'Needs Love'"), "\(forget.stdout)")
    let after = try setup.run(["github", "status", "--offline", "--json"]).stdout
    let afterJSON = try #require(try JSONSerialization.jsonObject(with: Data(after.utf8)) as? [String: Any])
    #expect((afterJSON["issueLabelRules"] as? [Any])?.isEmpty == true, "\(after)")
    let list = try Self.todos(try setup.run(["list", "--all", "--json"]).stdout)
    #expect(list.count == 5)
    // Every todo carries "github" and "doneBy"; the plain one has nulls.
    let plain = try #require(Self.todo(list, titled: "Plain todo"))
    #expect(plain["github"] is NSNull && plain["doneBy"] is NSNull)
    #expect(list.allSatisfy { $0.keys.contains("github") && $0.keys.contains("doneBy") })

    // Another machine importing the same issues creates the same todos (same uuids).
    let other = setup.folder.file("other.sqlite")
    let elsewhere = try setup.run(["github", "issues", "--json"], ["OOTD_DB": other])
    #expect(elsewhere.code == 0, "\(elsewhere.stderr)")
    let uuids = Set(created.compactMap { $0["uuid"] as? String })
    #expect(Set(try Self.todos(elsewhere.stdout).compactMap { $0["uuid"] as? String }) == uuids)
    #expect(uuids.allSatisfy { Array($0)[14] == "5" }, "name-based (version 5) uuids")
  }

  @Test func closedRetitledDeletedAndTransferredIssues_updateTheirTodos() throws {
    // Given: three issues imported
    let setup = try Setup(issues: [
      ["repo": "gr/app", "number": 1, "title": "Fix the crash", "state": "open", "assignees": ["gr"]],
      ["repo": "gr/app", "number": 2, "title": "Old title", "state": "open", "assignees": ["gr"]],
      ["repo": "gr/app", "number": 3, "title": "Will vanish", "state": "open", "assignees": ["gr"]],
      ["repo": "gr/app", "number": 4, "title": "Will move", "state": "open", "assignees": ["gr"]],
    ])
    #expect(try setup.run(["project", "add", "app", "--repo", "gr/app"]).code == 0)
    #expect(try setup.run(["project", "add", "docs", "--repo", "gr/docs"]).code == 0)
    #expect(try setup.run(["github", "issues"]).code == 0)
    // When: on GitHub #1 is closed (late on Nov 20 UTC: Nov 21 in Seoul), #2 retitled,
    // #3 deleted, #4 transferred to gr/docs#9
    try setup.write(issues: [
      ["repo": "gr/app", "number": 1, "title": "Fix the crash", "state": "closed",
       "closed_at": "2026-11-20T23:30:00Z", "assignees": ["gr"]],
      ["repo": "gr/app", "number": 2, "title": "New title", "state": "open", "assignees": ["gr"]],
      ["repo": "gr/app", "number": 3, "title": "Will vanish", "state": "open", "assignees": ["gr"], "deleted": true],
      ["repo": "gr/app", "number": 4, "title": "Will move", "state": "open", "assignees": ["gr"], "moved_to": "gr/docs#9"],
      ["repo": "gr/docs", "number": 9, "title": "Will move", "state": "open", "assignees": ["gr"]],
    ])
    let run = try setup.run(["github", "issues", "--json"])
    // Then
    #expect(run.code == 0, "\(run.stderr)")
    let updated = try Self.todos(run.stdout)
    #expect(updated.count == 4)
    let closed = try #require(Self.todo(updated, titled: "gr/app#1 "))
    #expect(closed["done"] as? Bool == true)
    #expect(closed["doneOn"] as? String == "2026-11-21", "done on the day it was closed")
    #expect(closed["doneBy"] as? String == "github")
    #expect((closed["github"] as? [String: Any])?["state"] as? String == "closed")
    #expect(Self.todo(updated, titled: "gr/app#2 ")?["title"] as? String == "gr/app#2 New title")
    let gone = try #require(Self.todo(updated, titled: "gr/app#3 "))
    #expect(gone["done"] as? Bool == false)
    #expect((gone["notes"] as? String)?.contains("is gone") == true)
    #expect(run.stderr.contains("gr/app#3 is gone from GitHub"))
    let moved = try #require(Self.todo(updated, titled: "gr/docs#9 "))
    #expect((moved["github"] as? [String: Any])?["url"] as? String == setup.url("gr/docs/issues/9"))
    #expect(moved["project"] as? String == "docs", "the project whose repository it is now")
    #expect(Self.todo(updated, titled: "gr/app#2 ")?["project"] as? String == "app")
    // Nothing new the next time, and no duplicate for the moved issue.
    let again = try setup.run(["github", "issues", "--json"])
    #expect(try Self.todos(again.stdout).isEmpty, "\(again.stdout)")
    #expect(!again.stderr.contains("is gone"), "warned once")
    #expect(try Self.todos(try setup.run(["list", "--all", "--json"]).stdout).count == 4)
  }

  @Test func undoTakesBackARun_andRedoBringsItBack() throws {
    let setup = try Setup(issues: Self.openIssues)
    let before = try UndoRedoTests.state(setup.environment)
    #expect(try setup.run(["github", "issues"]).code == 0)
    let after = try UndoRedoTests.state(setup.environment)
    #expect(after != before)
    let undo = try setup.run(["undo"])
    #expect(undo.code == 0 && undo.stdout.hasPrefix("Undid 'github issues"), "\(undo.stdout)")
    #expect(try UndoRedoTests.state(setup.environment) == before)
    #expect(try setup.run(["redo"]).code == 0)
    #expect(try UndoRedoTests.state(setup.environment) == after)
    // An undone run is imported again by the next run; a todo the user deleted is not.
    #expect(try setup.run(["undo"]).code == 0)
    let again = try Self.todos(try setup.run(["github", "issues", "--json"]).stdout)
    #expect(again.count == 4)
    let id = try #require(again.first?["id"] as? Int)
    #expect(try setup.run(["rm", "\(id)", "--yes"]).code == 0)
    #expect(try Self.todos(try setup.run(["github", "issues", "--json"]).stdout).isEmpty)
  }

  @Test func closeOnGitHub_sendsOnePatch_andATimedOutOneIsNotResent() throws {
    // Given
    let setup = try Setup(issues: [
      ["repo": "gr/app", "number": 1, "title": "One", "state": "open", "assignees": ["gr"]],
      ["repo": "gr/app", "number": 2, "title": "Two", "state": "open", "assignees": ["gr"]],
    ])
    #expect(try setup.run(["github", "issues"]).code == 0)
    let ids = try Self.todos(try setup.run(["list", "--all", "--json"]).stdout).reduce(into: [String: Int]()) {
      $0[$1["title"] as! String] = $1["id"] as? Int
    }
    // A plain done sends nothing.
    #expect(try setup.run(["done", "\(ids["gr/app#2 Two"]!)"]).code == 0)
    #expect(try setup.patches().isEmpty)
    #expect(try setup.run(["undone", "\(ids["gr/app#2 Two"]!)"]).code == 0)
    // When
    let done = try setup.run(["done", "\(ids["gr/app#1 One"]!)", "--close-on-github", "--json"])
    // Then
    #expect(done.code == 0, "\(done.stderr)")
    let todo = try #require(try Self.todos(done.stdout).first)
    #expect(todo["done"] as? Bool == true && todo["doneBy"] as? String == "manual")
    #expect((todo["github"] as? [String: Any])?["state"] as? String == "closed")
    var patches = try setup.patches()
    #expect(patches.count == 1)
    #expect(patches.first?["path"] as? String == "/repos/gr/app/issues/1")
    #expect(patches.first?["body"] as? String == #"{"state":"closed"}"#)

    // When the server answers too late, the PATCH is not resent and the todo stays done.
    try setup.write(
      issues: [["repo": "gr/app", "number": 2, "title": "Two", "state": "open", "assignees": ["gr"]]],
      extra: ["patch_delay": 5])
    let late = try setup.run(
      ["done", "\(ids["gr/app#2 Two"]!)", "--close-on-github"], ["OOTD_GITHUB_TIMEOUT": "1"])
    #expect(late.code == 1)
    #expect(late.stderr.contains("may or may not have been applied"), "\(late.stderr)")
    #expect(late.stderr.split(separator: "\n").count == 1)
    patches = try setup.patches()
    #expect(patches.count == 2, "sent once, never resent")
    let list = try Self.todos(try setup.run(["list", "--all", "--json"]).stdout)
    #expect(Self.todo(list, titled: "gr/app#2")?["done"] as? Bool == true)
  }

  @Test func manyIssues_followTheLinkPages() throws {
    let issues: [[String: Any]] = (1...130).map {
      ["repo": "gr/app", "number": $0, "title": "Issue \($0)", "state": "open", "assignees": ["gr"]]
    }
    let setup = try Setup(issues: issues)
    let run = try setup.run(["github", "issues", "--json"])
    #expect(run.code == 0, "\(run.stderr)")
    #expect(try Self.todos(run.stdout).count == 130)
    let pages = try setup.server.log(as: FakeGitHubProcess.Logged.self).filter { $0.path.hasPrefix("/issues") }
    #expect(pages.count == 2)
    #expect(pages.first?.path.contains("per_page=100") == true)
  }

  @Test func searchMissing_warnsAndStillImportsAssignedIssues() throws {
    let setup = try Setup(issues: Self.openIssues, extra: ["search_missing": true])
    let run = try setup.run(["github", "issues", "--json"])
    #expect(run.code == 0, "\(run.stderr)")
    #expect(try Self.todos(run.stdout).count == 3)
    #expect(run.stderr.contains("no issue search (404)"))
  }

  @Test func withoutAToken_saysSo() throws {
    let setup = try Setup(issues: Self.openIssues)
    let run = try setup.run(["github", "issues"], ["GITHUB_TOKEN": ""])
    #expect(run.code == 1)
    #expect(run.stderr.hasPrefix("ootd: error: reading your issues needs a GitHub token"))
  }

  // MARK: - Blocks done by commits

  /// A TSV commit line authored (and committed) at `date` by gr.
  static func commitLine(_ sha: String, _ date: Date, subject: String = "work") -> String {
    let formatter = ISO8601DateFormatter()
    let text = formatter.string(from: date)
    return [sha, "", "Gr", "gr@example.com", text, "Gr", "gr@example.com", text, subject]
      .joined(separator: "\t")
  }

  @Test func commitBlockTodo_isDoneByCommitsAfterSync_andAnUntickIsRespected() throws {
    // Given: gr/app holds a commit authored a minute before the pinned now; today has a commit-block todo, a
    // review-block todo, and a docs-block todo whose rule wants commits in another repository
    let folder = try TemporaryFolder()
    let tsv = folder.file("app.tsv")
    // A minute before the pinned now (20:59 in Seoul, the same day).
    let authored = TestClock.now.addingTimeInterval(-60)
    try (Self.commitLine(String(repeating: "a", count: 40), authored) + "\n")
      .write(toFile: tsv, atomically: true, encoding: .utf8)
    let setup = try Setup(
      issues: [], serverArguments: ["--repo", "gr/app=\(tsv)", "--link-email", "gr@example.com=gr"])
    #expect(try setup.run(["add", "--block", "commit"]).code == 0)
    #expect(try setup.run(["add", "--block", "review"]).code == 0)
    #expect(try setup.run(["block", "edit", "docs", "--done-when", "commits", "--repo", "other/x"]).code == 0)
    #expect(try setup.run(["add", "--block", "docs"]).code == 0)
    let open = try Self.todos(try setup.run(["list", "--json"]).stdout)
    #expect(open.allSatisfy { $0["done"] as? Bool == false }, "no commit synced yet")
    // When
    let sync = try setup.run(["sync", "--repo", "gr/app"])
    // Then
    #expect(sync.code == 0, "\(sync.stderr)")
    #expect(sync.stdout.contains("Ticked 1 todo by commits"), "\(sync.stdout)")
    var list = try Self.todos(try setup.run(["list", "--json"]).stdout)
    let commit = try #require(list.first { $0["block"] as? String == "commit" })
    #expect(commit["done"] as? Bool == true)
    #expect(commit["doneBy"] as? String == "commits")
    #expect(commit["doneOn"] as? String == Self.today())
    #expect(list.first { $0["block"] as? String == "review" }?["done"] as? Bool == false)
    #expect(list.first { $0["block"] as? String == "docs" }?["done"] as? Bool == false, "other repository only")
    // The user unticks it: the next sync leaves it open.
    let id = try #require(commit["id"] as? Int)
    #expect(try setup.run(["undone", "\(id)"]).code == 0)
    #expect(try setup.run(["sync", "--repo", "gr/app"]).code == 0)
    list = try Self.todos(try setup.run(["list", "--json"]).stdout)
    let reopened = try #require(list.first { $0["id"] as? Int == id })
    #expect(reopened["done"] as? Bool == false && reopened["doneBy"] is NSNull)
    // A commit-block todo added now, for a day that has a commit, is done at once.
    let added = try setup.run(["add", "--block", "commit", "--json"])
    let addedTodo = try #require(
      try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: Any])
    #expect(addedTodo["done"] as? Bool == true && addedTodo["doneBy"] as? String == "commits")
    // So is a routine block planned for it.
    #expect(try setup.run(["block", "routine", "commit"]).code == 0)
    #expect(try setup.run(["rm", "\(addedTodo["id"] as! Int)", "\(id)", "--yes"]).code == 0)
    let planned = try Self.todos(try setup.run(["plan", "--json"]).stdout)
    #expect(planned.count == 1 && planned.first?["doneBy"] as? String == "commits", "\(planned)")
    // And the rule can be taken away.
    #expect(try setup.run(["block", "edit", "commit", "--done-when", "none"]).code == 0)
    let blocks = try Self.todos(try setup.run(["block", "list", "--json"]).stdout)
    #expect(blocks.first { $0["name"] as? String == "commit" }?["doneWhen"] is NSNull)
    #expect(
      (blocks.first { $0["name"] as? String == "docs" }?["doneWhen"] as? [String: Any])?["repo"] as? String
        == "other/x")
  }

  @Test func badInput_isOneLine_exit64_andChangesNothing() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite"), "GITHUB_TOKEN": "", "GH_TOKEN": ""]
    #expect(try BinaryTests.run(["add", "x"], environment: env).code == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: folder.file("ootd.sqlite")))
    for arguments in [
      ["block", "edit", "commit", "--done-when", "sometimes"],
      ["block", "edit", "commit", "--done-when", "commits", "--repo", "not a repo"],
      ["block", "edit", "commit", "--done-when", "none", "--repo", "a/b"],
      ["github", "issues", "--priority-label", "bug"],
      ["github", "issues", "--priority-label", "bug=urgent"],
    ] {
      let result = try BinaryTests.run(arguments, environment: env)
      #expect(result.code == 64, "\(arguments)")
      #expect(result.stderr.hasPrefix("ootd: error: ") && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
    let unknown = try BinaryTests.run(["block", "edit", "nope", "--done-when", "commits"], environment: env)
    #expect(unknown.code == 1 && unknown.stderr.hasPrefix("ootd: error: "))
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("ootd.sqlite"))) == before)
  }

  @Test func restoredCommitBlock_getsItsRuleBack() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite")]
    #expect(try BinaryTests.run(["block", "rm", "commit"], environment: env).code == 0)
    #expect(try BinaryTests.run(["block", "restore", "commit"], environment: env).code == 0)
    let blocks = try Self.todos(try BinaryTests.run(["block", "list", "--json"], environment: env).stdout)
    let rule = try #require(blocks.first { $0["name"] as? String == "commit" }?["doneWhen"] as? [String: Any])
    #expect(rule["rule"] as? String == "commits" && rule["repo"] is NSNull)
    #expect(blocks.first { $0["name"] as? String == "blog" }?["doneWhen"] is NSNull)
    let text = try BinaryTests.run(["block", "list"], environment: env).stdout
    #expect(text.contains("(built-in, done by commits)"), "\(text)")
  }

  @Test func commitBlockTodo_isDoneByCommitsAfterLocalSync() throws {
    // Given: a real clone with a commit made by the clone's user at the pinned now (git's dates
    // are pinned by LocalGitSafetyTests.git)
    let folder = try TemporaryFolder()
    let repository = folder.file("repo")
    try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
    try LocalGitSafetyTests.git(["init", "-q"], in: repository)
    try LocalGitSafetyTests.git(["config", "user.email", "me@example.com"], in: repository)
    try LocalGitSafetyTests.git(["config", "user.name", "Me"], in: repository)
    try LocalGitSafetyTests.git(["commit", "-q", "--allow-empty", "-m", "first"], in: repository)
    let env = [
      "OOTD_DB": folder.file("ootd.sqlite"), "GITHUB_TOKEN": "", "GH_TOKEN": "", "TZ": "Asia/Seoul",
      "PATH": "/usr/bin:/bin",
    ]
    #expect(try BinaryTests.run(["project", "add", "app", "--path", repository, "--repo", "me/app"], environment: env).code == 0)
    #expect(try BinaryTests.run(["block", "edit", "commit", "--done-when", "commits", "--repo", "me/app"], environment: env).code == 0)
    #expect(try BinaryTests.run(["add", "--block", "commit"], environment: env).code == 0)
    // When
    let sync = try BinaryTests.run(["sync", "--local"], environment: env)
    // Then
    #expect(sync.code == 0, "\(sync.stderr)")
    let list = try Self.todos(try BinaryTests.run(["list", "--json"], environment: env).stdout)
    #expect(list.first?["done"] as? Bool == true)
    #expect(list.first?["doneBy"] as? String == "commits")
    // And undo takes the tick back, for good: the next sync does not tick it again.
    #expect(try BinaryTests.run(["undo"], environment: env).code == 0)
    #expect(try Self.todos(try BinaryTests.run(["list", "--json"], environment: env).stdout).first?["done"] as? Bool == false)
    let again = try BinaryTests.run(["sync", "--local"], environment: env)
    #expect(again.code == 0, "\(again.stderr)")
    #expect(!again.stdout.contains("Ticked"), "\(again.stdout)")
    #expect(try Self.todos(try BinaryTests.run(["list", "--json"], environment: env).stdout).first?["done"] as? Bool == false)
    // A redo brings the tick back.
    #expect(try BinaryTests.run(["redo"], environment: env).code == 0)
    #expect(try Self.todos(try BinaryTests.run(["list", "--json"], environment: env).stdout).first?["doneBy"] as? String == "commits")
  }

  @Test func syncIssues_importsAfterTheCommits() throws {
    let setup = try Setup(issues: Self.openIssues, serverArguments: ["--empty-repo", "gr/app"])
    let run = try setup.run(["sync", "--repo", "gr/app", "--issues"])
    #expect(run.code == 0, "\(run.stderr)")
    #expect(run.stdout.contains("Synced 1 repository"))
    #expect(run.stdout.contains("Added 4 todos from GitHub"), "\(run.stdout)")
  }
}
