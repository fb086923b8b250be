import Foundation
import PostgresSupport
import Testing

@testable import Core

/// Issue 24, point 1: the same todo has the same number (`id`) on every machine, two machines
/// (real PostgreSQL, the built binary).
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct SameNumberSyncBinaryTests {
  /// uuid → number, from `list --all --json`.
  static func numbers(_ m: SyncMachines, _ machine: String) throws -> [String: Int] {
    var numbers: [String: Int] = [:]
    for todo in try m.todos(machine) {
      if let uuid = todo["uuid"] as? String, let id = todo["id"] as? Int { numbers[uuid] = id }
    }
    return numbers
  }

  @Test("a fresh machine's numbers are the origin's, gaps included; an undone rm comes back under its number everywhere")
  func freshMachine() throws {
    let m = try SyncMachines()
    for title in ["One", "Two", "Three", "Four", "Five"] { try m.run("a", "add", title) }
    #expect(try m.run("a", "rm", "2", "--yes").code == 0)
    try m.run("a", "add", "Six")
    let first = try m.sync("a")
    #expect((first["renumbered"] as? [Any])?.isEmpty == true)
    let pulled = try m.sync("b")
    #expect((pulled["renumbered"] as? [Any])?.isEmpty == true)
    let a = try Self.numbers(m, "a")
    #expect(a.count == 5 && Set(a.values) == [1, 3, 4, 5, 6])
    #expect(try Self.numbers(m, "b") == a)
    // rm on b, undone on b: back as #4 on both.
    #expect(try m.run("b", "rm", "4", "--yes").code == 0)
    try m.sync("b")
    try m.sync("a")
    #expect(try Self.numbers(m, "a").count == 4)
    #expect(try m.run("b", "undo").code == 0)
    try m.sync("b")
    try m.sync("a")
    #expect(try Self.numbers(m, "a") == a)
    #expect(try Self.numbers(m, "b") == a)
  }

  @Test("one number given to two todos offline: the smaller uuid keeps it on both, the other is renumbered and said so; undo still works")
  func clash() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Shared")
    try m.sync("a")
    try m.sync("b")
    try m.run("a", "add", "From a")
    try m.run("b", "add", "From b")
    let fromA = try #require(Self.numbers(m, "a").first { $0.value == 2 }?.key)
    let fromB = try #require(Self.numbers(m, "b").first { $0.value == 2 }?.key)
    var reported: [[String: Any]] = []
    for machine in ["a", "b", "a", "b"] {
      reported += try m.sync(machine)["renumbered"] as? [[String: Any]] ?? []
    }
    let a = try Self.numbers(m, "a")
    #expect(try Self.numbers(m, "b") == a)
    let (keeper, moved) = fromA < fromB ? (fromA, fromB) : (fromB, fromA)
    #expect(a[keeper] == 2 && a[moved] == 3)
    // Only the todo that moved is reported, from its number to its new one.
    #expect(!reported.isEmpty)
    for entry in reported {
      #expect(entry["uuid"] as? String == moved)
      #expect(entry["from"] as? Int == 2 && entry["to"] as? Int == 3)
      #expect(entry["title"] as? String == (moved == fromA ? "From a" : "From b"))
    }
    // The text names the todo renumbered.
    try m.run("a", "add", "Again a")
    try m.run("b", "add", "Again b")
    // The line is the sync's of the machine the moved todo was made on (there it had #4).
    var texts = ""
    for machine in ["a", "b", "a"] {
      let text = try m.run(machine, "remote", "sync")
      #expect(text.code == 0)
      texts += text.stdout
    }
    #expect(texts.components(separatedBy: "renumbered: #4 'Again ").count == 2, "\(texts)")
    #expect(try Self.numbers(m, "a") == Self.numbers(m, "b"))
    // b's own todos, whatever numbers they have now, are undone without a complaint.
    var steps = 0
    while try m.titles("b").contains(where: { $0 == "Again b" || $0 == "From b" }), steps < 4 {
      let undo = try m.run("b", "undo")
      #expect(undo.code == 0, "\(undo.stderr)")
      steps += 1
    }
    #expect(try !m.titles("b").contains { $0 == "Again b" || $0 == "From b" })
  }

  @Test("a todo is reported renumbered only on the machine where it had its number before the sync, never where it arrives, never on a fresh machine")
  func reportedWhereItChanged() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Shared")
    try m.sync("a")
    try m.sync("b")
    // Six clashes: whichever uuid is smaller, each machine's todo loses some (1 in 32 not).
    for index in 1...6 {
      try m.run("a", "add", "a\(index)")
      try m.run("b", "add", "b\(index)")
    }
    let born = try Self.numbers(m, "a").merging(Self.numbers(m, "b")) { a, _ in a }
    var reported: [String: [[String: Any]]] = ["a": [], "b": []]
    for machine in ["a", "b", "a", "b"] {
      reported[machine, default: []] += try m.sync(machine)["renumbered"] as? [[String: Any]] ?? []
    }
    let final = try Self.numbers(m, "a")
    #expect(try Self.numbers(m, "b") == final)
    let moved = Set(final.filter { born[$0.key] != $0.value }.map(\.key))
    #expect(moved.count == 6)
    // Each moved todo once, by the machine it was made on, from its first number to its last.
    for machine in ["a", "b"] {
      for entry in reported[machine]! {
        let uuid = try #require(entry["uuid"] as? String)
        #expect((entry["title"] as? String)?.hasPrefix(machine) == true, "\(machine): \(entry)")
        #expect(entry["from"] as? Int == born[uuid] && entry["to"] as? Int == final[uuid])
      }
    }
    let all = (reported["a"]! + reported["b"]!).compactMap { $0["uuid"] as? String }
    #expect(all.count == moved.count && Set(all) == moved)
    // A fresh machine saw none of it happen: nothing renumbered there.
    let fresh = try m.sync("c")
    #expect((fresh["renumbered"] as? [Any])?.isEmpty == true, "\(fresh["renumbered"] ?? "")")
    #expect(try Self.numbers(m, "c") == final)
  }

  @Test("remote status's count of changes to push is the sync's, what the sync settled itself counted apart")
  func statusCountIsTheSyncs() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Shared")
    try m.sync("a")
    try m.sync("b")
    try m.run("a", "add", "xa")
    try m.run("b", "add", "ya")
    try m.sync("a")
    let status = try m.run("b", "remote", "status")
    #expect(status.stdout.contains("To push:    1 change (1 row-level)"), "\(status.stdout)")
    // The clash on #2 is settled by b's sync (whichever todo moves), a change of b's pushed too.
    let sync = try m.run("b", "remote", "sync")
    #expect(sync.code == 0)
    #expect(sync.stdout.hasPrefix("Pushed 1 change (1 row-level; +1 this sync settled), "), "\(sync.stdout)")
  }
}
