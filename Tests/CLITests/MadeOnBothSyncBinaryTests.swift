import Foundation
import PostgresSupport
import Testing

/// Issue 24, session 20: one todo.txt imported on two machines (the same todos: uuids from the
/// file's lines), the second before its first sync: the tryout's data loss, through the built
/// binary and a real PostgreSQL.
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct MadeOnBothSyncBinaryTests {
  @Test("a second machine's first sync keeps the first's later tick and title; undoing its import keeps the todos everywhere")
  func sameFileOnBoth() throws {
    let m = try SyncMachines()
    let file = m.folder.file("todo.txt")
    try "(A) Read the GRDB guide\nWrite the README +ootd\nSolve BOJ 1753\n".write(toFile: file, atomically: true, encoding: .utf8)
    #expect(try m.run("a", "import", "todotxt", file).code == 0)
    try m.sync("a")
    #expect(try m.run("b", "import", "todotxt", file).code == 0)
    let titles = try m.todos("a").reduce(into: [String: Int]()) { $0[$1["title"] as? String ?? ""] = $1["id"] as? Int }
    let read = try #require(titles["Read the GRDB guide"])
    let write = try #require(titles["Write the README"])
    #expect(try m.run("a", "done", "\(read)").code == 0)
    #expect(try m.run("a", "edit", "\(write)", "--title", "Write the README, twice").code == 0)
    try m.sync("a")
    try m.sync("b")
    try m.sync("a")
    #expect(try m.shapes("a") == m.shapes("b"))
    let onB = try m.todos("b")
    #expect(onB.first { $0["title"] as? String == "Read the GRDB guide" }?["done"] as? Bool == true)
    #expect(onB.contains { $0["title"] as? String == "Write the README, twice" })

    // b's last change is its import: undoing it keeps a's todos, and says so.
    let undo = try m.run("b", "undo", "--json")
    #expect(undo.code == 0, "\(undo.stderr)")
    let json = try #require(JSONSerialization.jsonObject(with: Data(undo.stdout.utf8)) as? [String: Any])
    // The three todos, and the project the import made, which a kept todo is in.
    let all = json["left"] as? [[String: Any]] ?? []
    let left = all.filter { $0["entity"] as? String == "todo" }
    #expect(left.count == 3)
    #expect(left.allSatisfy { $0["kind"] as? String == "madeToo" })
    #expect(all.filter { $0["entity"] as? String == "project" }.map { $0["kind"] as? String } == ["holding"])
    for row in left {
      let line = row["line"] as? String ?? ""
      #expect(line.hasPrefix("Kept #\(row["number"] as? Int ?? 0) '\(row["name"] as? String ?? "")': "))
      #expect(line.hasSuffix(" made it too (undoing it here would delete it there)"))
    }
    try m.sync("b")
    try m.sync("a")
    #expect(try m.todos("a").count == 3)
    #expect(try m.todos("b").count == 3)
  }
}
