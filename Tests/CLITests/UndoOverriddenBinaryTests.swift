import Foundation
import PostgresSupport
import Testing

@testable import Core

/// Issue 24, session 18 (tryout S5): each machine undoes only its own changes. A field another
/// machine set since is left as it set it and the rest of the change is undone; a todo it worked
/// on since is kept; nothing blocks the user's older changes. Two machines, real PostgreSQL,
/// the built binary.
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct UndoOverriddenBinaryTests {
  /// The one todo of `machine` with `title`.
  static func todo(_ m: SyncMachines, _ machine: String, _ title: String) throws -> [String: Any] {
    try #require(m.todos(machine).first { $0["title"] as? String == title }, "\(machine): no '\(title)'")
  }

  @Test("undo of an edit whose title another machine changed since: the priority goes back, the title stays as desktop set it, said in one line; redo re-applies only the priority; both machines converge")
  func partialUndo() throws {
    let m = try SyncMachines()
    #expect(try m.run("y", "remote", "name", "desktop").code == 0)
    try m.run("x", "add", "Original")
    try m.sync("x")
    try m.sync("y")
    #expect(try m.run("x", "edit", "1", "--title", "X title", "--priority", "high").code == 0)
    try m.sync("x")
    try m.sync("y")
    #expect(try m.run("y", "edit", "1", "--title", "Y title").code == 0)
    try m.sync("y")
    try m.sync("x")
    let priorityBefore = try Self.todo(m, "y", "Y title")["priority"] as? String
    #expect(priorityBefore == "high")

    // When x undoes its edit
    let undo = try m.run("x", "undo")
    // Then the priority is back, the title is y's, and one line says so
    #expect(undo.code == 0, "\(undo.stderr)")
    #expect(undo.stdout.contains("Undid 'edit 1 --title 'X title' --priority high'"), "\(undo.stdout)")
    #expect(undo.stdout.contains("Left the title of #1 'Y title' as desktop set it\n"), "\(undo.stdout)")
    #expect(!undo.stdout.contains("retitled"), "\(undo.stdout)")
    var todo = try Self.todo(m, "x", "Y title")
    #expect(todo["priority"] as? String == "mid")
    // The log says the undo was partial; the edit counts as undone
    let log = try #require(
      JSONSerialization.jsonObject(with: Data(m.run("x", "log", "--json").stdout.utf8)) as? [[String: Any]])
    #expect((log[0]["summary"] as? String)?.hasSuffix("; left the title of #1 'Y title' as desktop set it") == true, "\(log)")
    let edit = try #require(log.first { $0["command"] as? String == "edit 1 --title 'X title' --priority high" })
    #expect(edit["undone"] as? Bool == true)

    // Redo re-applies what was undone, only that
    let redo = try m.run("x", "redo")
    #expect(redo.code == 0, "\(redo.stderr)")
    todo = try Self.todo(m, "x", "Y title")
    #expect(todo["priority"] as? String == "high")
    #expect(try m.run("x", "undo").code == 0)
    #expect(try Self.todo(m, "x", "Y title")["priority"] as? String == "mid")

    // The undo syncs: both machines hold the same todos, title 'Y title', priority mid
    try m.sync("x")
    try m.sync("y")
    try m.sync("x")
    #expect(try m.shapes("x") == m.shapes("y"))
    for machine in ["x", "y"] {
      let converged = try Self.todo(m, machine, "Y title")
      #expect(converged["priority"] as? String == "mid", "\(machine)")
    }

    // Nothing older is blocked: the next undo takes x's add, keeping the todo desktop worked on
    let older = try m.run("x", "undo")
    #expect(older.code == 0, "\(older.stderr)")
    #expect(older.stdout.contains("Undid 'add Original': nothing left to undo"), "\(older.stdout)")
    #expect(older.stdout.contains("Kept #1 'Y title': desktop has changed it since"), "\(older.stdout)")
    #expect(try m.titles("x") == ["Y title"])
    let none = try m.run("x", "undo")
    #expect(none.code == 1 && none.stderr.contains("nothing to undo"), "\(none.stderr)")
  }

  @Test("undo of an import after another machine ticked one of its todos: the others go, the ticked one is kept and said so (--json too), on both machines")
  func importUndo() throws {
    let m = try SyncMachines()
    #expect(try m.run("y", "remote", "name", "desktop").code == 0)
    let file = m.folder.file("imp.txt")
    try "First\nSecond\nThird\n".write(toFile: file, atomically: true, encoding: .utf8)
    #expect(try m.run("x", "import", "todotxt", file).code == 0)
    try m.sync("x")
    try m.sync("y")
    let second = try Self.todo(m, "y", "Second")
    #expect(try m.run("y", "done", "\(second["id"] ?? "")").code == 0)
    try m.sync("y")
    try m.sync("x")

    // When x undoes the import
    let undo = try m.run("x", "undo", "--json")
    #expect(undo.code == 0, "\(undo.stderr)")
    let step = try #require(JSONSerialization.jsonObject(with: Data(undo.stdout.utf8)) as? [String: Any])
    #expect((step["command"] as? String)?.hasPrefix("import todotxt") == true && step["undone"] as? Bool == true, "\(step)")
    #expect(step["leftCount"] as? Int == 1 && (step["passedOver"] as? [Any])?.isEmpty == true, "\(step)")
    let left = try #require((step["left"] as? [[String: Any]])?.first)
    #expect(left["kind"] as? String == "kept" && left["name"] as? String == "Second", "\(left)")
    #expect(left["fromDeviceName"] as? String == "desktop" && left["uuid"] as? String == second["uuid"] as? String)
    #expect((left["line"] as? String)?.hasPrefix("Kept #\(second["id"] ?? "") 'Second': desktop has changed it since") == true)
    // Then only the ticked todo is left, done, here and on the other machine
    #expect(try m.titles("x") == ["Second"])
    try m.sync("x")
    try m.sync("y")
    #expect(try m.shapes("x") == m.shapes("y"))
    #expect(try Self.todo(m, "y", "Second")["done"] as? Bool == true)
  }
}
