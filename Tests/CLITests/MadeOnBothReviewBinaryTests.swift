import Foundation
import PostgresSupport
import Testing

/// Review 20: one todo.txt imported on two machines, one of its todos deleted on the first
/// before the second's first sync; through the built binary and a real PostgreSQL.
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct MadeOnBothReviewBinaryTests {
  @Test("a todo deleted on one machine, imported and retitled on the other: no line says it stays deleted; undoing the import deletes it again")
  func deletedThereImportedHere() throws {
    let m = try SyncMachines()
    let file = m.folder.file("todo.txt")
    try "Read the GRDB guide\nSolve BOJ 1753\n".write(toFile: file, atomically: true, encoding: .utf8)
    #expect(try m.run("a", "import", "todotxt", file).code == 0)
    try m.sync("a")
    let onA = try m.todos("a").reduce(into: [String: Int]()) { $0[$1["title"] as? String ?? ""] = $1["id"] as? Int }
    #expect(try m.run("a", "rm", "\(try #require(onA["Read the GRDB guide"]))", "--yes").code == 0)
    try m.sync("a")

    #expect(try m.run("b", "import", "todotxt", file).code == 0)
    let onB = try m.todos("b").reduce(into: [String: Int]()) { $0[$1["title"] as? String ?? ""] = $1["id"] as? Int }
    let read = try #require(onB["Read the GRDB guide"])
    #expect(try m.run("b", "edit", "\(read)", "--title", "Read the GRDB guide twice").code == 0)
    let first = try m.run("b", "remote", "sync")
    #expect(first.code == 0, "\(first.stderr)")
    try m.sync("a")
    // The todo comes back on both (known): then no line may say it stays deleted.
    let kept = try m.todos("b").contains { $0["title"] as? String == "Read the GRDB guide twice" }
    #expect(kept)
    #expect(!(kept && (first.stdout + first.stderr).contains("it stays deleted")), "\(first.stdout)")

    // Undo the retitle, then the import: A had deleted 'Read', which only the import brought
    // back; 'Solve' A made too, and it stays.
    #expect(try m.run("b", "undo").code == 0)
    let undo = try m.run("b", "undo", "--json")
    #expect(undo.code == 0, "\(undo.stderr)")
    let json = try #require(JSONSerialization.jsonObject(with: Data(undo.stdout.utf8)) as? [String: Any])
    let left = (json["left"] as? [[String: Any]] ?? []).filter { $0["entity"] as? String == "todo" }
    #expect(left.map { $0["name"] as? String } == ["Solve BOJ 1753"], "\(left.map { $0["line"] ?? "" })")
    try m.sync("b")
    try m.sync("a")
    for machine in ["a", "b"] {
      #expect(try m.todos(machine).map { $0["title"] as? String } == ["Solve BOJ 1753"], "\(machine)")
    }
  }
}
