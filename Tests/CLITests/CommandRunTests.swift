import Foundation
import Testing

@testable import CLI

/// Commands run in-process against a real database file, with a fixed clock (2026-11-22 09:00 in
/// Seoul) and captured output.
@Suite struct CommandRunTests {
  @Test func add_thenListJSON_followsTheContract() async throws {
    let h = try Harness()
    #expect(await h.run(["project", "add", "ootd", "--repo", "octo/ootd"]).code == 0)
    let added = await h.run(["add", "Solve BOJ 1753", "--priority", "high", "--project", "ootd", "--json"])
    #expect(added.code == 0, "\(added.stderr)")
    let todo = try #require(
      JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: Any])
    #expect(todo["title"] as? String == "Solve BOJ 1753")
    #expect(todo["priority"] as? String == "high")
    #expect(todo["done"] as? Bool == false)
    #expect(todo["date"] as? String == "2026-11-22")
    #expect(todo["project"] as? String == "ootd")
    #expect(todo["block"] is NSNull)
    #expect(todo["id"] as? Int == 1)
  }

  @Test func list_ordersByDateThenPriorityThenID() async throws {
    let h = try Harness()
    await h.run(["add", "low today", "-p", "low"])
    await h.run(["add", "high tomorrow", "-p", "high", "--on", "tomorrow"])
    await h.run(["add", "mid today"])
    await h.run(["add", "high today", "-p", "high"])
    await h.run(["add", "high yesterday", "-p", "high", "--on", "yesterday"])
    await h.run(["add", "second high today", "-p", "high"])
    let titles = try await h.allTodos().map { $0["title"] as? String }
    #expect(
      titles == [
        "high yesterday", "high today", "second high today", "mid today", "low today",
        "high tomorrow",
      ])
  }

  @Test(arguments: [
    (["--on", "2026-11-20"], ["a"]),
    (["--from", "2026-11-20", "--to", "2026-11-21"], ["a", "b"]),
    (["--to", "2026-11-21"], ["a", "b"]),
    (["--from", "2026-11-21"], ["b", "c"]),
    ([], ["c"]),
    (["--all"], ["a", "b", "c"]),
    (["--all", "--open"], ["a", "c"]),
    (["--all", "--done"], ["b"]),
    (["--all", "--priority", "high"], ["c"]),
    (["--all", "--project", "p"], ["b"]),
  ])
  func list_filters(arguments: [String], expected: [String]) async throws {
    let h = try Harness()
    await h.run(["project", "add", "p"])
    await h.run(["add", "a", "--on", "2026-11-20"])
    await h.run(["add", "b", "--on", "2026-11-21", "--project", "p"])
    await h.run(["add", "c", "-p", "high"])
    await h.run(["done", "2"])
    let result = await h.run(["list", "--json"] + arguments)
    #expect(result.code == 0, "\(result.stderr)")
    let todos = try #require(
      JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    #expect(todos.compactMap { $0["title"] as? String } == expected)
  }

  /// An empty day or range other than today says what it shows, not "No todos match." with
  /// no filter given.
  @Test func list_ofAnEmptyDayOrRange_saysNothingIsPlannedThere() async throws {
    let h = try Harness()
    #expect(await h.run(["add", "today's"]).code == 0)
    let cases: [([String], String)] = [
      (["list", "tomorrow"], "Nothing planned for Mon 2026-11-23.\n"),
      (["list", "--on", "2026-11-30"], "Nothing planned for Mon 2026-11-30.\n"),
      (["list", "--from", "2026-11-23", "--to", "2026-11-29"], "Nothing planned from 2026-11-23 to 2026-11-29.\n"),
      (["list", "tomorrow", "--open"], "No todos match the filter.\n"),
    ]
    for (arguments, expected) in cases {
      let result = await h.run(arguments)
      #expect(result.code == 0, "\(arguments)")
      #expect(result.stdout == expected, "\(arguments)")
    }
    let empty = try Harness()
    #expect(await empty.run(["list", "--all"]).stdout == "No todos yet. Try: ootd add \"...\" or ootd add --block algorithm\n")
  }

  @Test func doneAndUndone_tickAndUntick() async throws {
    let h = try Harness()
    await h.run(["add", "one"])
    await h.run(["add", "two"])
    #expect(await h.run(["done", "1", "2"]).code == 0)
    #expect(try await h.allTodos().allSatisfy { $0["done"] as? Bool == true })
    #expect(await h.run(["undone", "2"]).code == 0)
    #expect(try await h.allTodos().map { $0["done"] as? Bool } == [true, false])
  }

  @Test func done_withAnUnknownID_failsWithExit1AndChangesNothing() async throws {
    let h = try Harness()
    await h.run(["add", "one"])
    let result = await h.run(["done", "1", "99"])
    #expect(result.code == 1)
    #expect(result.stderr == "ootd: error: no todo with id 99\n")
    #expect(try await h.allTodos().first?["done"] as? Bool == false)
  }

  @Test func edit_changesEachField() async throws {
    let h = try Harness()
    await h.run(["project", "add", "p"])
    await h.run(["add", "old"])
    #expect(await h.run(["edit", "1", "--title", "new", "-p", "low", "--on", "2026-12-01", "--project", "p"]).code == 0)
    var todo = try #require(try await h.allTodos().first)
    #expect(todo["title"] as? String == "new")
    #expect(todo["priority"] as? String == "low")
    #expect(todo["date"] as? String == "2026-12-01")
    #expect(todo["project"] as? String == "p")
    #expect(await h.run(["edit", "1", "--no-project"]).code == 0)
    todo = try #require(try await h.allTodos().first)
    #expect(todo["project"] is NSNull)
  }

  @Test func rm_withoutATerminalAndWithoutYes_refusesAndDeletesNothing() async throws {
    let h = try Harness()
    await h.run(["add", "keep me"])
    let result = await h.run(["rm", "1"])
    #expect(result.code == 64)
    #expect(result.stderr.contains("--yes"))
    #expect(try await h.allTodos().count == 1)
  }

  @Test func rm_onATerminal_asksAndHonoursTheAnswer() async throws {
    var h = try Harness()
    h.terminal = true
    await h.run(["add", "one"])
    let declined = await h.run(["rm", "1"], answers: ["n"])
    #expect(declined.code == 1)
    #expect(declined.stderr.contains("Delete 1 todo? [y/N]"))
    #expect(try await h.allTodos().count == 1)
    #expect(await h.run(["rm", "1"], answers: ["y"]).code == 0)
    #expect(try await h.allTodos().isEmpty)
  }

  @Test func rm_withYes_deletes() async throws {
    let h = try Harness()
    await h.run(["add", "one"])
    await h.run(["add", "two"])
    #expect(await h.run(["rm", "1", "2", "--yes"]).code == 0)
    #expect(try await h.allTodos().isEmpty)
  }

  @Test func addFromBlock_usesTheBlocksTitleAndPriority_overridable() async throws {
    let h = try Harness()
    await h.run(["add", "--block", "algorithm"])
    await h.run(["add", "--block", "algorithm", "BOJ 1753", "-p", "low"])
    let todos = try await h.allTodos()
    #expect(todos[0]["title"] as? String == "Solve an algorithm problem")
    #expect(todos[0]["priority"] as? String == "high")
    #expect(todos[0]["block"] as? String == "algorithm")
    #expect(todos[1]["title"] as? String == "BOJ 1753")
    #expect(todos[1]["priority"] as? String == "low")
  }

  @Test func blocks_listAddRemove() async throws {
    let h = try Harness()
    let builtIn = try #require(
      JSONSerialization.jsonObject(with: Data(await h.run(["block", "list", "--json"]).stdout.utf8))
        as? [[String: Any]])
    let names = Set(builtIn.compactMap { $0["name"] as? String })
    #expect(names.isSuperset(of: ["algorithm", "blog", "commit", "study"]))
    #expect(builtIn.allSatisfy { $0["title"] is String && $0["priority"] is String })
    #expect(await h.run(["block", "add", "leet", "Solve a LeetCode medium", "-p", "high"]).code == 0)
    #expect(await h.run(["block", "add", "LEET", "again"]).code == 1)
    #expect(await h.run(["block", "rm", "leet"]).code == 0)
    #expect(await h.run(["block", "rm", "leet"]).code == 1)
    #expect(await h.run(["add", "--block", "nope"]).code == 1)
  }

  @Test func routine_planAddsEachRoutineBlockOncePerDay() async throws {
    let h = try Harness()
    await h.run(["block", "routine", "algorithm"])
    await h.run(["block", "routine", "commit"])
    #expect(await h.run(["plan"]).code == 0)
    #expect(await h.run(["plan"]).code == 0)
    #expect(await h.run(["plan", "--on", "tomorrow"]).code == 0)
    let todos = try await h.allTodos()
    #expect(todos.count == 4)
    #expect(Set(todos.compactMap { $0["block"] as? String }) == ["algorithm", "commit"])
  }

  /// `plan --on` a day no routine block is due on says so; it said the day "already has every
  /// routine block due that day", of a day that has none.
  @Test func plan_ofADayNoRoutineIsDueOn_saysSo() async throws {
    let h = try Harness()
    await h.run(["block", "routine", "english", "--every", "2d"])  // today, then every 2 days
    #expect(await h.run(["plan"]).stdout == "2026-11-22 already has every routine block due that day.\n")
    let off = await h.run(["plan", "--on", "tomorrow"])
    #expect(off.code == 0)
    #expect(off.stdout == "No routine block is due on 2026-11-23 (see 'ootd block list').\n")
    #expect(await h.run(["plan", "--on", "+2d"]).stdout.hasPrefix("Planned 1 todo for 2026-11-24"))
  }

  @Test func carry_movesOverdueOpenTodosToToday() async throws {
    let h = try Harness()
    await h.run(["add", "old open", "--on", "2026-11-20"])
    await h.run(["add", "old done", "--on", "2026-11-20"])
    await h.run(["done", "2"])
    let listed = await h.run(["list", "--no-color"])
    #expect(listed.stdout.contains("Overdue"))
    #expect(listed.stdout.contains("old open"))
    #expect(!listed.stdout.contains("old done"))
    #expect(await h.run(["carry"]).code == 0)
    let todos = try await h.allTodos()
    #expect(todos.map { $0["date"] as? String } == ["2026-11-20", "2026-11-22"])
    #expect(todos[1]["title"] as? String == "old open")
  }

  @Test func carry_ofATodoThatIsNotOverdue_isRefusedAndMovesNothing() async throws {
    let h = try Harness()
    await h.run(["add", "old", "--on", "2026-11-20"])
    await h.run(["add", "future", "--on", "2026-11-25"])
    let result = await h.run(["carry", "1", "2"])
    #expect(result.code == 64)
    #expect(result.stderr == "ootd: error: todo 2 is not overdue: it is planned for 2026-11-25, not before today\n")
    #expect(try await h.allTodos().map { $0["date"] as? String } == ["2026-11-20", "2026-11-25"])
  }

  @Test func carry_toALaterDay_leavesTodaysTodosAlone() async throws {
    let h = try Harness()
    await h.run(["add", "old", "--on", "2026-11-20"])
    await h.run(["add", "today"])
    #expect(await h.run(["carry", "--to", "2026-11-30"]).code == 0)
    #expect(try await h.allTodos().map { $0["date"] as? String } == ["2026-11-22", "2026-11-30"])
  }

  @Test func planThenCarry_neverDoublesARoutineBlock() async throws {
    let h = try Harness()
    await h.run(["block", "routine", "algorithm"])
    await h.run(["plan", "--on", "yesterday"])
    await h.run(["plan"])
    let carried = await h.run(["carry"])
    #expect(carried.code == 0)
    // The kept todo is named as everywhere else: `#1`, not a bare `1`.
    #expect(carried.stderr.contains("ootd: kept #2 on 2026-11-21: 2026-11-22 already has a todo from block 'algorithm'"))
    #expect(try await h.allTodos().filter { $0["date"] as? String == "2026-11-22" }.count == 1)
  }

  @Test func filteredLists_doNotShowAPartialDayAsTheDaysProgress() async throws {
    let h = try Harness()
    await h.run(["add", "a"])
    await h.run(["add", "b"])
    await h.run(["done", "1"])
    #expect(await h.run(["list", "--no-color"]).stdout.contains("1/2 done  50%"))
    let filtered = await h.run(["list", "--done", "--no-color"]).stdout
    #expect(filtered.contains("[x] 1"))
    #expect(!filtered.contains("done  100%"))
  }

  @Test func titlesWithControlCharacters_areShownVisibly_andStoredExactly() async throws {
    let h = try Harness()
    await h.run(["add", "line1\nline2 \u{1B}[2Jred"])
    let listed = await h.run(["list"]).stdout
    #expect(!listed.contains("\u{1B}"))
    #expect(listed.contains("line1␊line2 ␛[2Jred"))
    #expect(try await h.allTodos().first?["title"] as? String == "line1\nline2 \u{1B}[2Jred")
  }

  @Test func longTitles_areCutOnlyOnATerminal() async throws {
    var h = try Harness()
    let title = String(repeating: "long words ", count: 12) + "end"
    await h.run(["add", title])
    #expect(await h.run(["list"]).stdout.contains("end"))
    h.terminal = true
    h.variables["COLUMNS"] = "60"
    let cut = await h.run(["list", "--no-color"]).stdout
    #expect(!cut.contains("end"))
    #expect(cut.contains("…"))
  }

  @Test func editWithOnlyAMistypedOption_reportsTheTypo() async throws {
    let h = try Harness()
    await h.run(["add", "x"])
    let result = await h.run(["edit", "1", "--titel", "y"])
    #expect(result.code == 64)
    #expect(result.stderr.contains("--titel"))
    #expect(await h.run(["edit", "1"]).stderr.contains("nothing to change"))
  }

  @Test func emptyDbPath_isAnInvalidValue() async throws {
    let h = try Harness()
    let result = await h.run(["list", "--db", ""])
    #expect(result.code == 64)
    #expect(result.stderr == "ootd: error: --db needs a file path\n")
  }

  @Test func projectPath_isStoredAbsolute() async throws {
    let h = try Harness()
    await h.run(["project", "add", "p", "--path", "src/../code/p"])
    let shown = try #require(
      JSONSerialization.jsonObject(with: Data(await h.run(["project", "show", "p", "--json"]).stdout.utf8))
        as? [String: Any])
    let cwd = FileManager.default.currentDirectoryPath
    #expect(shown["path"] as? String == URL(fileURLWithPath: cwd + "/code/p").standardizedFileURL.path)
  }

  @Test func projects_lifecycle() async throws {
    let h = try Harness()
    #expect(await h.run(["project", "add", "ootd", "--repo", "octo/ootd", "--tech", "swift, sqlite"]).code == 0)
    #expect(await h.run(["project", "add", "OOTD"]).code == 1)
    await h.run(["add", "a", "--project", "ootd"])
    await h.run(["add", "b", "--project", "ootd"])
    await h.run(["done", "1"])
    var list = try #require(
      JSONSerialization.jsonObject(with: Data(await h.run(["project", "list", "--json"]).stdout.utf8))
        as? [[String: Any]])
    #expect(list.count == 1)
    #expect(list[0]["name"] as? String == "ootd")
    #expect(list[0]["repo"] as? String == "octo/ootd")
    #expect(list[0]["archived"] as? Bool == false)
    #expect(list[0]["done"] as? Int == 1)
    #expect(list[0]["total"] as? Int == 2)
    #expect(list[0]["tech"] as? [String] == ["swift", "sqlite"])
    #expect(await h.run(["project", "archive", "ootd"]).code == 0)
    list = try #require(
      JSONSerialization.jsonObject(with: Data(await h.run(["project", "list", "--json"]).stdout.utf8))
        as? [[String: Any]])
    #expect(list.isEmpty)
    let archived = await h.run(["project", "list", "--archived", "--json"]).stdout
    #expect(archived.contains("\"archived\" : true"))
    #expect(await h.run(["project", "unarchive", "ootd"]).code == 0)
    let shown = await h.run(["project", "show", "ootd", "--no-color"])
    #expect(shown.code == 0)
    #expect(shown.stdout.contains("1/2 done  50%"))
    #expect(await h.run(["project", "rm", "ootd", "--yes"]).code == 0)
    #expect(try await h.allTodos().allSatisfy { $0["project"] is NSNull })
  }

  @Test(arguments: [
    (["add", "x", "--on", "2024-02-30"], "invalid date '2024-02-30'"),
    (["add", "   "], "the title is empty"),
    (["add", "x", "--project", "nope"], "no project named 'nope'"),
    (["list", "--from", "2026-11-22", "--to", "2026-11-01"], "invalid range"),
    (["project", "add", "p", "--repo", "not a repo"], "invalid repository"),
    (["project", "add", "p", "--start", "2026-02-01", "--end", "2026-01-01"], "ends (2026-01-01) before it starts"),
    (["add", "x", "--priority", "urgent"], "urgent"),
    (["done", "x1"], "x1"),
  ])
  func badInput_isOneLineOnStderr_andWritesNothing(arguments: [String], message: String) async throws {
    let h = try Harness()
    await h.run(["add", "existing"])
    let result = await h.run(arguments)
    #expect(result.code == 64 || result.code == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("ootd: error: "))
    #expect(result.stderr.contains(message))
    #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    #expect(try await h.allTodos().count == 1)
  }

  @Test(arguments: [
    (["add", "x", "--on", "2024-02-30"], 64),
    (["add", "x", "--priority", "urgent"], 64),
    (["list", "--from", "2026-11-22", "--to", "2026-11-01"], 64),
    (["done", "abc"], 64),
    (["done", "42"], 1),
    (["add", "x", "--project", "nope"], 1),
    (["edit", "42", "--title", "y"], 1),
  ] as [([String], Int32)])
  func exitCodes(arguments: [String], expected: Int32) async throws {
    let h = try Harness()
    #expect(await h.run(arguments).code == expected)
  }

  @Test func titles_roundTripExactly() async throws {
    let h = try Harness()
    let titles = [
      "It's \"quoted\" and 'single'", "'); DROP TABLE todo; --", "🚀 ship it 🎉",
      "최단경로 알고리즘 공부하기", "tab\there", "back\\slash %s %d",
    ]
    for title in titles { #expect(await h.run(["add", title]).code == 0) }
    #expect(try await h.allTodos().compactMap { $0["title"] as? String } == titles)
  }

  @Test func today_isTheDayInTheUsersTimeZone() async throws {
    // 2026-11-22T23:30Z is the 23rd in Seoul and still the 22nd in Los Angeles.
    var h = try Harness(now: "2026-11-22T23:30:00Z")
    h.timeZone = TimeZone(identifier: "Asia/Seoul")!
    await h.run(["add", "seoul"])
    h.timeZone = TimeZone(identifier: "America/Los_Angeles")!
    await h.run(["add", "la"])
    #expect(try await h.allTodos().map { $0["date"] as? String } == ["2026-11-22", "2026-11-23"])
  }

  @Test func databasePath_followsDbThenOOTD_DBThenXDGThenHome() async throws {
    let folder = try TemporaryFolder()
    func path(_ option: String?, _ variables: [String: String]) throws -> String {
      let environment = AppEnvironment(
        variables: variables, now: TestClock.now, timeZone: TimeZone(identifier: "UTC")!, stdoutIsTerminal: false,
        stdinIsTerminal: false, output: { _ in }, errorOutput: { _ in }, readLine: { nil })
      return try environment.databasePath(option: option)
    }
    let all = ["OOTD_DB": "/e/db.sqlite", "XDG_DATA_HOME": "/x", "HOME": folder.path]
    #expect(try path("/o.sqlite", all) == "/o.sqlite")
    #expect(try path(nil, all) == "/e/db.sqlite")
    #expect(try path(nil, ["XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/x/ootd/ootd.sqlite")
    #expect(try path(nil, ["HOME": "/h"]) == "/h/.local/share/ootd/ootd.sqlite")
    #expect(try path("~/a.sqlite", ["HOME": "/h"]) == "/h/a.sqlite")
    #expect(throws: CLIError.noDatabasePath) { try path(nil, [:]) }
  }

  @Test func colour_onlyOnATerminalAndNeverWithNO_COLOR() async throws {
    var h = try Harness()
    await h.run(["add", "x", "-p", "high"])
    #expect(await !h.run(["list"]).stdout.contains("\u{1B}["))
    h.terminal = true
    #expect(await h.run(["list"]).stdout.contains("\u{1B}["))
    #expect(await !h.run(["list", "--no-color"]).stdout.contains("\u{1B}["))
    h.variables["NO_COLOR"] = "1"
    #expect(await !h.run(["list"]).stdout.contains("\u{1B}["))
  }

  @Test func help_explainsWithExamples() async throws {
    let h = try Harness()
    let root = await h.run(["--help"])
    #expect(root.code == 0)
    #expect(root.stdout.contains("Examples:"))
    for command in ["add", "list", "done", "edit", "rm", "block", "project", "carry", "plan"] {
      let help = await h.run([command, "--help"])
      #expect(help.code == 0)
      #expect(help.stdout.contains("ootd \(command)"), "\(command)")
    }
  }
}
