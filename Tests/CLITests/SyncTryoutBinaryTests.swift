import Foundation
import PostgresSupport
import Testing

@testable import Core

/// Issue 24's tryout (session 17): what a tester met running two machines against a real
/// PostgreSQL, each with the built binary (``SyncMachines``).
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct SyncTryoutBinaryTests {
  /// `block list --json`, by name.
  static func blocks(_ m: SyncMachines, _ machine: String) throws -> [String: [String: Any]] {
    let result = try m.run(machine, "block", "list", "--json")
    #expect(result.code == 0, "\(result.stderr)")
    let list = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    return Dictionary(list.map { ($0["name"] as? String ?? "", $0) }) { a, _ in a }
  }

  @Test("a new machine's untouched built-in blocks override nothing: edits, routine switches and removals made before survive; its own later edit wins")
  func builtInBlocks() throws {
    let m = try SyncMachines()
    #expect(try m.run("a", "block", "routine", "algorithm").code == 0)
    #expect(try m.run("a", "block", "edit", "commit", "--done-when", "none").code == 0)
    #expect(try m.run("a", "block", "rm", "docs").code == 0)
    try m.sync("a")
    let joined = try m.sync("b")
    // Its built-in blocks are the defaults: nothing of them to push.
    #expect(joined["pushed"] as? Int == 0)
    try m.sync("a")
    for machine in ["a", "b"] {
      let blocks = try Self.blocks(m, machine)
      #expect(blocks["algorithm"]?["routine"] as? Bool == true, "\(machine)")
      #expect(blocks["commit"]?["doneWhen"] is NSNull, "\(machine)")
      #expect(blocks["docs"] == nil, "\(machine)")
      #expect(blocks.count == 7, "\(machine)")
    }
    // The new machine's own later edits win as any edit does.
    #expect(try m.run("b", "block", "routine", "algorithm", "--off").code == 0)
    #expect(try m.run("b", "block", "edit", "commit", "--done-when", "commits").code == 0)
    try m.sync("b")
    try m.sync("a")
    for machine in ["a", "b"] {
      let blocks = try Self.blocks(m, machine)
      #expect(blocks["algorithm"]?["routine"] as? Bool == false, "\(machine)")
      #expect((blocks["commit"]?["doneWhen"] as? [String: Any])?["rule"] as? String == "commits", "\(machine)")
    }
  }

  @Test("a sync that settled a todo dropped on one machine and done on the other blocks no undo: undo passes over it, saying so, to the user's own changes")
  func droppedAndDone() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "T")
    try m.sync("a")
    try m.sync("b")
    try m.run("b", "add", "B's own work")
    #expect(try m.run("a", "done", "1").code == 0)
    #expect(try m.run("b", "drop", "1").code == 0)
    try m.sync("a")
    let settled = try m.run("b", "remote", "sync")
    #expect(settled.code == 0 && settled.stderr.contains("was both dropped and done"), "\(settled.stderr)")
    let first = try m.run("b", "undo")
    #expect(first.code == 0, "\(first.stderr)")
    #expect(first.stdout.contains("Left 'remote sync' as it is"), "\(first.stdout)")
    var steps = 1
    while try m.titles("b").contains("B's own work"), steps < 4 {
      let undo = try m.run("b", "undo")
      #expect(undo.code == 0, "\(undo.stderr)")
      steps += 1
    }
    #expect(try !m.titles("b").contains("B's own work"))
    // The settled todo stays done and not dropped, here and on the other machine.
    try m.sync("b")
    try m.sync("a")
    for machine in ["a", "b"] {
      let todo = try #require(m.todos(machine).first { $0["title"] as? String == "T" })
      #expect(todo["done"] as? Bool == true && todo["dropped"] as? Bool == false, "\(machine)")
    }
  }

  @Test("undo after a sync renumbered a todo claims nothing it did not do: it passes over the renumbering and undoes the user's own add")
  func renumberingUndo() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Buy milk")
    try m.run("b", "add", "Call mom")
    try m.sync("a")
    let renumbered = try m.sync("b")
    // (Whichever todo moved: "Buy milk" arrived in this sync, so only "Call mom" is reported.)
    #expect((renumbered["renumbered"] as? [[String: Any]])?.allSatisfy { $0["title"] as? String == "Call mom" } == true)
    let before = try m.todos("b").map { "\($0["uuid"] ?? "") \($0["id"] ?? "")" }.sorted()
    let undo = try m.run("b", "undo")
    #expect(undo.code == 0, "\(undo.stderr)")
    #expect(!undo.stdout.contains("Undid 'remote sync'"), "\(undo.stdout)")
    #expect(undo.stdout.contains("Undid 'add 'Call mom'': deleted 1 todo"), "\(undo.stdout)")
    #expect(undo.stdout.contains("Left 'remote sync' as it is"), "\(undo.stdout)")
    let after = try m.todos("b").map { "\($0["uuid"] ?? "") \($0["id"] ?? "")" }.sorted()
    #expect(after.count == 1 && before.count == 2)
    #expect(try m.titles("b") == ["Buy milk"])
    try m.sync("b")
    try m.sync("a")
    #expect(try m.titles("a") == ["Buy milk"])
    #expect(try SameNumberSyncBinaryTests.numbers(m, "a") == SameNumberSyncBinaryTests.numbers(m, "b"))
  }

  @Test("the same todos imported on two machines before they synced: each keeps the smaller of its numbers, the smaller uuid keeps a number two todos claim, the same on both")
  func sharedImport() throws {
    let m = try SyncMachines()
    let (a, b) = ("00000001-0000-4000-8000-000000000000", "00000002-0000-4000-8000-000000000000")
    func task(_ uuid: String, _ title: String) -> String {
      #"{"uuid":"\#(uuid)","status":"pending","entry":"20260101T000000Z","description":"\#(title)"}"#
    }
    let file = m.folder.file("sh.json")
    try ("[" + task(a, "shared A") + "," + task(b, "shared B") + "]").write(toFile: file, atomically: true, encoding: .utf8)
    #expect(try m.run("a", "import", "taskwarrior", file).code == 0)
    try m.run("b", "add", "g2 own")
    #expect(try m.run("b", "import", "taskwarrior", file).code == 0)
    let own = try #require(SameNumberSyncBinaryTests.numbers(m, "b").first { $0.value == 1 }?.key)
    #expect(try SameNumberSyncBinaryTests.numbers(m, "a") == [a: 1, b: 2])
    var reported: [String: [[String: Any]]] = [:]
    for machine in ["a", "b", "a", "b"] {
      reported[machine, default: []] += try m.sync(machine)["renumbered"] as? [[String: Any]] ?? []
    }
    let numbers = try SameNumberSyncBinaryTests.numbers(m, "a")
    #expect(try SameNumberSyncBinaryTests.numbers(m, "b") == numbers)
    // The first machine's numbers stand; the todo only the second had moves off #1 (a larger uuid).
    #expect(numbers[a] == 1 && numbers[b] == 2)
    #expect(numbers[own].map { $0 > 2 } == true)
    #expect(reported["a"]?.isEmpty == true, "\(reported)")
  }

  @Test("a database moved to another role pushes every row to the new account at its next sync, and says so")
  func anotherAccount() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Before")
    try m.sync("a")
    try m.run("a", "add", "After")
    let other = m.cluster.uniqueName("other")
    try m.cluster.createRole(other, password: "pw-other", member: true)
    let otherURI = m.cluster.uri(role: other, database: m.database)
    func onOther(_ machine: String, _ arguments: String...) throws -> BinaryTests.Result {
      try BinaryTests.run(arguments, environment: m.environment(machine).merging(["OOTD_REMOTE": otherURI]) { $1 })
    }
    let moved = try onOther("a", "remote", "sync")
    #expect(moved.code == 0, "\(moved.stderr)")
    #expect(moved.stderr.contains("now syncs with \(other)@"), "\(moved.stderr)")
    #expect(try onOther("c", "remote", "sync").code == 0)
    let list = try onOther("c", "list", "--all", "--json")
    let todos = try #require(JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
    #expect(todos.compactMap { $0["title"] as? String }.sorted() == ["After", "Before"])
    // Said once: the next sync is an ordinary one.
    let again = try onOther("a", "remote", "sync")
    #expect(again.code == 0 && !again.stderr.contains("now syncs with"), "\(again.stderr)")
  }
}
