import Foundation
import PostgresSupport
import TestTags
import Testing

@testable import CLI

/// Issue 20 §2: the todo rules (a done todo is never on a day after today; a dropped todo is
/// not done) hold after every write path, and a path that cannot refuse says how it resolved.
/// Now is pinned to 2026-11-22 09:00 in Seoul: today is 2026-11-22.
@Suite("The rules hold on every write path", .tags(.binary, .postgres))
struct RulesOnEveryPathTests {
  static func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
  }

  static func todo(_ h: Harness, id: Int) async throws -> [String: Any] {
    try #require(try await h.allTodos().first { $0["id"] as? Int == id })
  }

  // MARK: - done of a later day's todo

  @Test func done_ofTomorrowsTodo_movesItToToday_done_andSaysSo_andUndoPutsItBack() async throws {
    let h = try Harness()
    await h.run(["add", "Write", "--on", "2026-11-28"])
    let result = await h.run(["done", "1"])
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Done 1 todo:"))
    #expect(result.stdout.contains("Moved #1 'Write' from 2026-11-28 to today (2026-11-22)"))
    var todo = try await Self.todo(h, id: 1)
    #expect(todo["date"] as? String == "2026-11-22")
    #expect(todo["done"] as? Bool == true)
    #expect((todo["carriedFrom"] as? [String])?.isEmpty == true)
    #expect(await h.run(["undo"]).code == 0)
    todo = try await Self.todo(h, id: 1)
    #expect(todo["date"] as? String == "2026-11-28")
    #expect(todo["done"] as? Bool == false)
  }

  @Test func done_ofSeveralIds_movesOnlyThoseOfLaterDays() async throws {
    let h = try Harness()
    await h.run(["add", "today"])
    await h.run(["add", "tomorrow", "--on", "2026-11-23"])
    await h.run(["add", "earlier", "--on", "2026-11-20"])
    let result = await h.run(["done", "1", "2", "3", "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    let printed = try #require(try Self.json(result.stdout) as? [[String: Any]])
    #expect(printed.map { $0["date"] as? String } == ["2026-11-20", "2026-11-22", "2026-11-22"])
    #expect(printed.allSatisfy { $0["done"] as? Bool == true })
    // JSON stays one document; the move is said on stderr.
    #expect(result.stderr.contains("Moved #2 'tomorrow' from 2026-11-23 to today (2026-11-22)"))
    #expect(!result.stderr.contains("Moved #1") && !result.stderr.contains("Moved #3"))
    #expect(try await h.allTodos().map { $0["date"] as? String ?? "" }.sorted()
      == ["2026-11-20", "2026-11-22", "2026-11-22"])
    #expect(await h.run(["undo"]).code == 0)
    #expect(try await Self.todo(h, id: 2)["date"] as? String == "2026-11-23")
    #expect(try await h.allTodos().allSatisfy { $0["done"] as? Bool == false })
  }

  // MARK: - rm advice

  @Test func rm_ofADoneTodoOfAnEarlierDay_doesNotAdviseDrop_andWhatItAdvisesWorks() async throws {
    let h = try Harness()
    await h.run(["add", "old", "--on", "2026-11-20"])
    await h.run(["done", "1"])
    let result = await h.run(["rm", "1"])
    #expect(result.code == 64)
    #expect(result.stderr.contains("rewrites the record of 2026-11-20"))
    #expect(!result.stderr.contains("ootd drop"), "\(result.stderr)")
    #expect(result.stderr.contains("1 is done: keeping it keeps the record"))
    #expect(try await h.allTodos().count == 1)
  }

  @Test func rm_ofOpenAndDoneTodos_advisesDropOnlyForTheOpenOnes_andDropAcceptsThem() async throws {
    let h = try Harness()
    await h.run(["add", "done one", "--on", "2026-11-20"])
    await h.run(["add", "open one", "--on", "2026-11-21"])
    await h.run(["done", "1"])
    let result = await h.run(["rm", "1", "2"])
    #expect(result.code == 64)
    #expect(result.stderr.contains("'ootd drop 2' gives it up and keeps the record"), "\(result.stderr)")
    #expect(!result.stderr.contains("'ootd drop 1"))
    #expect(result.stderr.contains("1 is done"))
    // The advice works: drop takes the open one.
    #expect(await h.run(["drop", "2"]).code == 0)
  }

  @Test func carry_ofADroppedTodo_advisesWhatCarryThenAccepts() async throws {
    let h = try Harness()
    await h.run(["add", "old", "--on", "2026-11-20"])
    await h.run(["drop", "1"])
    let refused = await h.run(["carry", "1"])
    #expect(refused.code == 64)
    #expect(refused.stderr.contains("'ootd undone 1' takes it back up"), "\(refused.stderr)")
    #expect(await h.run(["undone", "1"]).code == 0)
    #expect(await h.run(["carry", "1"]).code == 0)
    #expect(try await Self.todo(h, id: 1)["date"] as? String == "2026-11-22")
  }

  // MARK: - import

  static func taskwarrior(_ tasks: [String]) -> String { "[" + tasks.joined(separator: ",") + "]" }

  /// A done task of a later day is where the commands would have left it (`ootd done` of a
  /// later day's todo: done now, on today), said in words: done in the future, it is done today,
  /// on today; done on an earlier day than its own, it is on the day it was done (it stayed on
  /// today, done a day before it, and a future `end` gave a future `doneOn`).
  @Test func import_ofADoneTaskDatedInTheFuture_isDoneOnToday_andReportsTheConflict() async throws {
    let h = try Harness()
    let file = h.folder.file("tasks.json")
    try Self.taskwarrior([
      #"{"uuid":"0b6c0c5e-3c55-4d1b-9a53-0b8f4f0a1c01","description":"Future done","status":"completed","scheduled":"20261125T000000Z","end":"20261121T030000Z","entry":"20261101T000000Z"}"#,
      #"{"uuid":"0b6c0c5e-3c55-4d1b-9a53-0b8f4f0a1c02","description":"Future open","status":"pending","scheduled":"20261125T000000Z","entry":"20261101T000000Z"}"#,
      #"{"uuid":"0b6c0c5e-3c55-4d1b-9a53-0b8f4f0a1c05","description":"Done later","status":"completed","scheduled":"20261230T000000Z","end":"20261201T000000Z","entry":"20261101T000000Z"}"#,
      #"{"uuid":"0b6c0c5e-3c55-4d1b-9a53-0b8f4f0a1c06","description":"Done tomorrow","status":"completed","scheduled":"20261120T000000Z","end":"20261123T080000Z","entry":"20261101T000000Z"}"#,
    ]).write(toFile: file, atomically: true, encoding: .utf8)
    let json = await h.run(["import", "taskwarrior", file, "--dry-run", "--json"])
    #expect(json.code == 0, "\(json.stderr)")
    let report = try #require(try Self.json(json.stdout) as? [String: Any])
    let conflicts = report["conflicts"] as? [String] ?? []
    #expect(conflicts == [
      "'Future done' was done on 2026-11-21 but planned for 2026-11-25, a later day: it stays done, moved to the day it was done (2026-11-21)",
      "'Done later' was done but planned for 2026-12-30, a day after today: it stays done, moved to today (2026-11-22)",
      "'Done later' was done on 2026-12-01, a day after today: it is done today (2026-11-22)",
      "'Done tomorrow' was done on 2026-11-23, a day after today: it is done today (2026-11-22)",
    ])
    #expect(try await h.allTodos().isEmpty)
    let text = await h.run(["import", "taskwarrior", file])
    #expect(text.code == 0, "\(text.stderr)")
    #expect(text.stdout.contains("  conflict: 'Future done' was done on 2026-11-21 but planned for 2026-11-25"))
    let todos = try await h.allTodos()
    func todo(_ title: String) throws -> [String: Any] { try #require(todos.first { $0["title"] as? String == title }) }
    #expect(try todo("Future done")["date"] as? String == "2026-11-21")
    #expect(try todo("Future done")["doneOn"] as? String == "2026-11-21")
    #expect(try todo("Future done")["done"] as? Bool == true)
    // Done in the future: done now, on today; a day of its own before it is kept (done late).
    #expect(try todo("Done later")["date"] as? String == "2026-11-22")
    #expect(try todo("Done later")["doneOn"] as? String == "2026-11-22")
    #expect(try todo("Done tomorrow")["date"] as? String == "2026-11-20")
    #expect(try todo("Done tomorrow")["doneOn"] as? String == "2026-11-22")
    // An open todo of a later day breaks no rule: it stays on its day.
    #expect(try todo("Future open")["date"] as? String == "2026-11-25")
    // Importing again changes nothing and reports nothing: the todo is already as resolved.
    let again = try #require(try Self.json(await h.run(["import", "taskwarrior", file, "--json"]).stdout) as? [String: Any])
    #expect(again["conflicts"] as? [String] == [])
    #expect(again["unchanged"] as? Int == 4, "\(again)")
  }

  /// The same for todo.txt: a line completed the day before its `due:` is on the day it was done
  /// (it stayed on today, a day after its completion date).
  @Test func import_ofATodoTxtLineDoneBeforeItsDay_isOnTheDayItWasDone() async throws {
    let h = try Harness()
    let file = h.folder.file("todo.txt")
    try "x 2026-11-21 early bird due:2026-12-25\nx 2026-11-21 on time due:2026-11-21\n"
      .write(toFile: file, atomically: true, encoding: .utf8)
    let report = try #require(try Self.json(await h.run(["import", "todotxt", file, "--json"]).stdout) as? [String: Any])
    #expect(report["conflicts"] as? [String] == [
      "'early bird' was done on 2026-11-21 but planned for 2026-12-25, a later day: it stays done, moved to the day it was done (2026-11-21)"
    ])
    let early = try await Self.todo(h, id: 1)
    #expect(early["date"] as? String == "2026-11-21" && early["doneOn"] as? String == "2026-11-21", "\(early)")
    let again = try #require(try Self.json(await h.run(["import", "todotxt", file, "--json"]).stdout) as? [String: Any])
    #expect(again["conflicts"] as? [String] == [] && again["unchanged"] as? Int == 2, "\(again)")
    // A backlog todo (no due:) the file later says was done: on the day it was done, not today.
    try "2026-11-01 some day\n".write(toFile: file, atomically: true, encoding: .utf8)
    #expect(await h.run(["import", "todotxt", file]).code == 0)
    try "x 2026-11-20 2026-11-01 some day\n".write(toFile: file, atomically: true, encoding: .utf8)
    let done = try #require(try Self.json(await h.run(["import", "todotxt", file, "--json"]).stdout) as? [String: Any])
    #expect(done["conflicts"] as? [String] == [
      "#3 'some day' was done on 2026-11-20 but in the backlog: it stays done, moved to the day it was done (2026-11-20)"
    ])
    let someDay = try await Self.todo(h, id: 3)
    #expect(someDay["date"] as? String == "2026-11-20" && someDay["doneOn"] as? String == "2026-11-20", "\(someDay)")
  }

  @Test func import_neverLeavesATodoBothDroppedAndDone() async throws {
    let h = try Harness()
    let file = h.folder.file("tasks.json")
    let uuid = "0b6c0c5e-3c55-4d1b-9a53-0b8f4f0a1c03"
    try Self.taskwarrior([
      #"{"uuid":"\#(uuid)","description":"Given up","status":"pending","scheduled":"20261120T000000Z","entry":"20261101T000000Z"}"#
    ]).write(toFile: file, atomically: true, encoding: .utf8)
    #expect(await h.run(["import", "taskwarrior", file]).code == 0)
    #expect(await h.run(["drop", "1"]).code == 0)
    // The newer export says it was completed: done wins, and it is no longer dropped.
    try Self.taskwarrior([
      #"{"uuid":"\#(uuid)","description":"Given up","status":"completed","scheduled":"20261120T000000Z","end":"20261121T000000Z","entry":"20261101T000000Z"}"#,
      // Deleted in Taskwarrior (which sets its end too): dropped on its day, never done.
      #"{"uuid":"0b6c0c5e-3c55-4d1b-9a53-0b8f4f0a1c04","description":"Deleted","status":"deleted","scheduled":"20261120T000000Z","end":"20261121T000000Z","entry":"20261101T000000Z"}"#,
    ]).write(toFile: file, atomically: true, encoding: .utf8)
    let result = await h.run(["import", "taskwarrior", file, "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    let todos = try await h.allTodos()
    #expect(todos.count == 2)
    #expect(todos.first?["done"] as? Bool == true)
    #expect(todos.first?["dropped"] as? Bool == false)
    #expect(todos.last?["title"] as? String == "Deleted")
    #expect(todos.last?["done"] as? Bool == false && todos.last?["dropped"] as? Bool == true)
    #expect(todos.allSatisfy { !($0["done"] as? Bool == true && $0["dropped"] as? Bool == true) })
  }

  /// A todo.txt line both done and `dropped:yes` is mended as every path mends it (done wins)
  /// and says so in the words a sync merge uses; it was mended without a word before.
  @Test func import_ofATodoTxtLineDoneAndDropped_reportsTheConflict() async throws {
    let h = try Harness()
    let file = h.folder.file("todo.txt")
    try "x 2026-11-21 both dropped and done due:2026-11-20 dropped:yes\n".write(toFile: file, atomically: true, encoding: .utf8)
    let sentence = "'both dropped and done' was both dropped and done: it stays done and is no longer dropped"
    let dry = try #require(try Self.json(await h.run(["import", "todotxt", file, "--dry-run", "--json"]).stdout) as? [String: Any])
    #expect(dry["conflicts"] as? [String] == [sentence])
    let text = await h.run(["import", "todotxt", file])
    #expect(text.code == 0, "\(text.stderr)")
    #expect(text.stdout.contains("  conflict: " + sentence), "\(text.stdout)")
    let todo = try await Self.todo(h, id: 1)
    #expect(todo["done"] as? Bool == true && todo["dropped"] as? Bool == false)
    // Importing again changes nothing and reports nothing: the todo is already as resolved.
    let again = try #require(try Self.json(await h.run(["import", "todotxt", file, "--json"]).stdout) as? [String: Any])
    #expect(again["conflicts"] as? [String] == [] && again["unchanged"] as? Int == 1, "\(again)")
  }

  // MARK: - sync merge

  /// Two machines syncing through a real PostgreSQL, in-process, with now pinned.
  static func machines() throws -> (Harness, Harness) {
    let m = try SyncMachines()
    var a = try Harness()
    var b = try Harness()
    a.variables["OOTD_REMOTE"] = m.uri
    b.variables["OOTD_REMOTE"] = m.uri
    return (a, b)
  }

  static func sync(_ h: Harness) async throws -> (json: [String: Any], stderr: String) {
    let result = await h.run(["remote", "sync", "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    return (try #require(try json(result.stdout) as? [String: Any]), result.stderr)
  }

  static func expectDoneToday(_ h: Harness) async throws {
    let todo = try await todo(h, id: 1)
    #expect(todo["date"] as? String == "2026-11-22")
    #expect(todo["done"] as? Bool == true)
    #expect((todo["carriedFrom"] as? [String])?.isEmpty == true)
  }

  @Test(
    "done on A today, moved to tomorrow on B: both end with it done on today, and the merge says so",
    .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
  func sync_doneHereMovedThere_resolvesToDoneToday() async throws {
    let (a, b) = try Self.machines()
    await a.run(["add", "Read"])
    _ = try await Self.sync(a)
    _ = try await Self.sync(b)
    #expect(await a.run(["done", "1"]).code == 0)
    // Open on b, so b may move it on.
    #expect(await b.run(["edit", "1", "--on", "2026-11-23"]).code == 0)
    _ = try await Self.sync(a)
    let merged = try await Self.sync(b)
    let sentence =
      "#1 'Read' was done but planned for 2026-11-23, a day after today: it stays done, moved to today (2026-11-22)"
    #expect(merged.json["ruleConflicts"] as? [String] == [sentence])
    #expect(merged.stderr.contains("ootd: conflict: " + sentence))
    let back = try await Self.sync(a)
    #expect(back.json["ruleConflicts"] as? [String] == [])
    try await Self.expectDoneToday(a)
    try await Self.expectDoneToday(b)
    // Nothing is left to resolve on either side.
    #expect(try await Self.sync(b).json["ruleConflicts"] as? [String] == [])
    // The resolution stands (undoing it would put the done todo back on tomorrow): undo passes
    // over it, saying so, to b's own move, which the resolution took back already: nothing
    // changes, and nothing stays in the way of b's earlier changes (issue 24's tryout).
    let undo = await b.run(["undo"])
    #expect(undo.code == 0, "\(undo.stderr)")
    #expect(undo.stdout == "Undid 'edit 1 --on 2026-11-23': no change\nLeft 'remote sync' as it is: what a sync settles stands on every machine\n", "\(undo.stdout)")
    try await Self.expectDoneToday(b)
  }

  @Test(
    "the move synced first: the machine that did it resolves, in text, and both converge",
    .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
  func sync_movedThereFirst_resolvesOnTheOtherMachine() async throws {
    let (a, b) = try Self.machines()
    await a.run(["add", "Read"])
    _ = try await Self.sync(a)
    _ = try await Self.sync(b)
    #expect(await a.run(["done", "1"]).code == 0)
    #expect(await b.run(["edit", "1", "--on", "2026-11-23"]).code == 0)
    _ = try await Self.sync(b)
    let text = await a.run(["remote", "sync"])
    #expect(text.code == 0, "\(text.stderr)")
    #expect(text.stderr.contains("ootd: conflict: #1 'Read' was done but planned for 2026-11-23"), "\(text.stderr)")
    _ = try await Self.sync(b)
    _ = try await Self.sync(a)
    try await Self.expectDoneToday(a)
    try await Self.expectDoneToday(b)
  }

  @Test(
    "dropped on A, done on B: both end with it done and not dropped",
    .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
  func sync_droppedHereDoneThere_resolvesToDone() async throws {
    let (a, b) = try Self.machines()
    await a.run(["add", "Old", "--on", "2026-11-20"])
    _ = try await Self.sync(a)
    _ = try await Self.sync(b)
    #expect(await a.run(["drop", "1"]).code == 0)
    #expect(await b.run(["done", "1"]).code == 0)
    _ = try await Self.sync(a)
    let merged = try await Self.sync(b)
    _ = try await Self.sync(a)
    for h in [a, b] {
      let todo = try await Self.todo(h, id: 1)
      #expect(todo["done"] as? Bool == true)
      #expect(todo["dropped"] as? Bool == false)
      #expect(todo["date"] as? String == "2026-11-20")
    }
    // b merged a's drop into its done: b resolved it, and said so.
    #expect(merged.json["ruleConflicts"] as? [String] == [
      "#1 'Old' was both dropped and done: it stays done and is no longer dropped"
    ])
  }
}
