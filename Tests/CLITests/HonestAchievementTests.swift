import Foundation
import Testing

/// Carrying, dropping and deleting never rewrite a day's record; one streak everywhere.
/// Today is Sunday 2026-11-22 in Seoul.
@Suite struct HonestAchievementTests {
  static func json(_ text: String) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  static func days(_ h: Harness, from: String, to: String) async throws -> [[String: Any]] {
    let result = await h.run(["report", "--from", from, "--to", to, "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    return try #require(try json(result.stdout)["days"] as? [[String: Any]])
  }

  @Test func carry_keepsTheDayItLeft_asPlannedAndNotDone() async throws {
    let h = try Harness()
    await h.run(["add", "a", "--on", "2026-11-21"])
    await h.run(["add", "b", "--on", "2026-11-21"])
    await h.run(["done", "1"])
    #expect(await h.run(["carry"]).code == 0)
    await h.run(["done", "2"])
    let days = try await Self.days(h, from: "2026-11-21", to: "2026-11-22")
    #expect(days.map { $0["total"] as? Int } == [2, 1])
    #expect(days.map { $0["done"] as? Int } == [1, 1])
    #expect(days.map { $0["carried"] as? Int } == [1, 0])
    let csv = await h.run(["report", "--from", "2026-11-21", "--to", "2026-11-21", "--csv"]).stdout
    #expect(csv.hasSuffix("2026-11-21,Sat,2,1,0.5,,1\n"))
    // The text table says it too, on the day's row: the 1/2 there is explained.
    let table = await h.run(["report", "--from", "2026-11-21", "--to", "2026-11-22"]).stdout
    let rows = table.split(separator: "\n").filter { $0.contains("2026-11-2") && $0.contains("%") }
    #expect(rows.count == 2)
    #expect(rows.first?.hasSuffix("1/2   50%  1 carried") == true, "\(rows)")
    #expect(rows.last?.contains("carried") == false, "\(rows)")
    // edit --on is a move too; a todo planned for a day that has not begun leaves no record.
    await h.run(["add", "c", "--on", "2026-11-24"])
    await h.run(["edit", "3", "--on", "2026-11-25"])
    let later = try await Self.days(h, from: "2026-11-24", to: "2026-11-25")
    #expect(later.map { $0["total"] as? Int } == [0, 1])
  }

  @Test func undoOfACarry_givesTheDayBackItsTodo() async throws {
    let h = try Harness()
    await h.run(["add", "a", "--on", "2026-11-21"])
    await h.run(["carry"])
    #expect(await h.run(["undo"]).code == 0)
    let days = try await Self.days(h, from: "2026-11-21", to: "2026-11-22")
    #expect(days.map { $0["total"] as? Int } == [1, 0])
    #expect(days.map { $0["carried"] as? Int } == [0, 0])
  }

  @Test func drop_leavesOverdue_countsAsNotDoneOnItsDay() async throws {
    let h = try Harness()
    await h.run(["add", "missed", "--on", "2026-11-20"])
    await h.run(["add", "today"])
    let dropped = await h.run(["drop", "1", "--json"])
    #expect(dropped.code == 0, "\(dropped.stderr)")
    let items = try #require(JSONSerialization.jsonObject(with: Data(dropped.stdout.utf8)) as? [[String: Any]])
    #expect(items.count == 1)
    #expect(items[0]["dropped"] as? Bool == true)
    #expect(items[0]["overdue"] as? Bool == false)
    let todos = try await h.allTodos()
    #expect(todos.map { $0["dropped"] as? Bool } == [true, false])
    let today = try Self.json(await h.run(["today", "--json"]).stdout)
    #expect((today["overdue"] as? [Any])?.isEmpty == true)
    let day = try await Self.days(h, from: "2026-11-20", to: "2026-11-20")[0]
    #expect(day["total"] as? Int == 1)
    #expect(day["done"] as? Int == 0)
    #expect(await h.run(["list", "--no-color"]).stdout.contains("Overdue") == false)
    // Dropping twice says so; carrying a dropped todo is refused.
    #expect(await h.run(["drop", "1"]).stdout.contains("Already dropped: #1"))
    let carry = await h.run(["carry", "1"])
    #expect(carry.code == 64)
    #expect(carry.stderr.contains("dropped"))
  }

  @Test func drop_ofADoneTodo_isRefusedAndChangesNothing() async throws {
    let h = try Harness()
    await h.run(["add", "a"])
    await h.run(["add", "b"])
    await h.run(["done", "1"])
    let before = try Data(contentsOf: URL(fileURLWithPath: h.databasePath))
    let result = await h.run(["drop", "2", "1"])
    #expect(result.code == 64)
    #expect(result.stderr == "ootd: error: todo 1 is done: only open todos can be dropped\n")
    #expect(try Data(contentsOf: URL(fileURLWithPath: h.databasePath)) == before)
  }

  @Test func rm_ofAPastDaysTodo_saysItRewritesTheRecord_andPointsToDrop() async throws {
    let h = try Harness()
    await h.run(["add", "old", "--on", "2026-11-20"])
    let result = await h.run(["rm", "1"])
    #expect(result.code == 64)
    #expect(result.stderr.contains("rewrites the record of 2026-11-20"))
    #expect(result.stderr.contains("'ootd drop 1'"))
    #expect(try await h.allTodos().count == 1)
  }

  @Test func overdueHint_pointsToDrop() async throws {
    let h = try Harness()
    await h.run(["add", "old", "--on", "2026-11-20"])
    #expect(await h.run(["list", "--no-color"]).stdout.contains("'ootd drop ID' gives one up"))
  }

  @Test func carry_ofAKeptRoutineTodo_isNotNothingToCarry_andJSONSaysWhatItKept() async throws {
    let h = try Harness()
    await h.run(["block", "routine", "algorithm"])
    await h.run(["plan", "--on", "yesterday"])
    await h.run(["plan"])
    // 'block routine' planned today's todo (#1) itself; #2 is yesterday's.
    let byID = await h.run(["carry", "2"])
    #expect(byID.code == 64)
    #expect(byID.stderr.contains("'ootd drop 2' gives it up"))
    #expect(!byID.stdout.contains("Nothing to carry"))
    let json = try Self.json(await h.run(["carry", "--json"]).stdout)
    #expect((json["carried"] as? [Any])?.count == 0)
    #expect(((json["kept"] as? [[String: Any]])?.map { $0["id"] as? Int }) == [2])
    #expect(json["to"] as? String == "2026-11-22")
  }

  @Test func carryToAPastDay_andADoneTodoIntoTheFuture_areRefused() async throws {
    let h = try Harness()
    await h.run(["add", "old", "--on", "2026-11-20"])
    await h.run(["add", "done"])
    await h.run(["done", "2"])
    let past = await h.run(["carry", "--to", "yesterday"])
    #expect(past.code == 64)
    #expect(past.stderr.contains("before today"))
    let future = await h.run(["edit", "2", "--on", "tomorrow"])
    #expect(future.code == 64)
    #expect(future.stderr.contains("todo 2 is done"))
    #expect(try await h.allTodos().map { $0["date"] as? String } == ["2026-11-20", "2026-11-22"])
  }

  @Test func editSeveralTodos_allOrNone() async throws {
    let h = try Harness()
    for title in ["a", "b", "c"] { await h.run(["add", title, "--on", "2026-11-25"]) }
    #expect(await h.run(["edit", "1", "2", "9", "--on", "2026-11-26"]).code == 1)
    #expect(try await h.allTodos().allSatisfy { $0["date"] as? String == "2026-11-25" })
    let edited = await h.run(["edit", "1", "2", "3", "--on", "2026-11-26", "--priority", "high"])
    #expect(edited.code == 0, "\(edited.stderr)")
    #expect(edited.stdout.hasPrefix("Edited 3 todos"))
    #expect(try await h.allTodos().allSatisfy {
      $0["date"] as? String == "2026-11-26" && $0["priority"] as? String == "high"
    })
  }

  @Test func oneStreak_todayAndReportAgree() async throws {
    let h = try Harness()
    // Perfect 2026-11-10 (outside --week), 11-18, 11-20, 11-21; today open.
    for day in ["2026-11-10", "2026-11-18", "2026-11-20", "2026-11-21"] {
      await h.run(["add", "x", "--on", day])
    }
    await h.run(["done", "1", "2", "3", "4"])
    await h.run(["add", "today"])
    let today = try Self.json(await h.run(["today", "--json"]).stdout)
    #expect(today["currentStreak"] as? Int == 4)
    #expect(today["streak"] as? Int == 4)
    for range in [["--week"], ["--days", "1"], ["--month"], ["--days", "28"]] {
      let report = try Self.json(await h.run(["report", "--json"] + range).stdout)
      #expect(report["currentStreak"] as? Int == 4, "\(range)")
    }
    // A carried day breaks it, in both.
    await h.run(["add", "late", "--on", "2026-11-21"])
    await h.run(["carry"])
    let after = try Self.json(await h.run(["today", "--json"]).stdout)
    #expect(after["currentStreak"] as? Int == 0)
    #expect(try Self.json(await h.run(["report", "--week", "--json"]).stdout)["currentStreak"] as? Int == 0)
  }
}

/// Relative days on the command line, `list DAY` and `add --done`.
@Suite struct DailyDriverTests {
  @Test func relativeDays_everywhereADayIsAccepted() async throws {
    let h = try Harness()
    await h.run(["add", "a", "--on", "mon"])
    await h.run(["add", "b", "--on", "+1w"])
    await h.run(["add", "c", "--on", "eom"])
    #expect(try await h.allTodos().map { $0["date"] as? String } == ["2026-11-23", "2026-11-29", "2026-11-30"])
    #expect(await h.run(["list", "mon", "--no-color"]).stdout.contains(" a"))
    let tomorrow = await h.run(["list", "tomorrow", "--json"]).stdout
    #expect(tomorrow.contains("\"title\" : \"a\"") && !tomorrow.contains("\"title\" : \"b\""))
    await h.run(["edit", "1", "--on", "fri"])
    #expect(try await h.allTodos()[0]["date"] as? String == "2026-11-27")
    #expect(await h.run(["list", "mon", "--on", "tue"]).code == 64)
  }

  @Test func add_done_recordsWorkAlreadyDone_neverInTheFuture() async throws {
    let h = try Harness()
    let added = await h.run(["add", "Fixed the flaky test", "--done", "--on", "yesterday", "--json"])
    #expect(added.code == 0, "\(added.stderr)")
    let todo = try #require(try await h.allTodos().first)
    #expect(todo["done"] as? Bool == true)
    #expect(todo["date"] as? String == "2026-11-21")
    let future = await h.run(["add", "x", "--done", "--on", "tomorrow"])
    #expect(future.code == 64)
    #expect(try await h.allTodos().count == 1)
  }
}
