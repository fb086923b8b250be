import Foundation
import PostgresSupport
import TestTags
import Testing

/// Issue 24 §3: `ootd log` marks the changes that came from another machine, the first sync's
/// entry says what it brought, and identical built-in blocks are not "applied" (two machines,
/// real PostgreSQL, the built binary).
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct LogFromDeviceBinaryTests {
  /// `log --json` on `machine`, decoded.
  static func log(_ m: SyncMachines, _ machine: String) throws -> [[String: Any]] {
    let result = try m.run(machine, "log", "--json", "--limit", "50")
    #expect(result.code == 0, "\(result.stderr)")
    return try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
  }

  /// This machine's device id, from `remote status --json`.
  static func device(_ m: SyncMachines, _ machine: String) throws -> String {
    let result = try m.run(machine, "remote", "status", "--json")
    let status = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    return try #require(status["device"] as? String)
  }

  @Test("on B, the changes pulled from A say 'from' A's device, B's own do not; the first sync's entry says what all its records brought")
  func fromAnotherMachine() throws {
    let m = try SyncMachines()
    try m.run("a", "remote", "name", "desktop")
    try m.run("a", "project", "add", "ootd")
    for title in ["One", "Two", "Three"] { try m.run("a", "add", title, "--project", "ootd") }
    try m.sync("a")
    let deviceA = try Self.device(m, "a")
    try m.run("b", "add", "From b")
    try m.sync("b")
    try m.run("a", "done", "1")
    try m.sync("a")
    try m.sync("b")

    let log = try Self.log(m, "b")
    // Every entry has the field; only the pulled ones name A.
    #expect(log.allSatisfy { $0.keys.contains("fromDevice") })
    let pulled = log.filter { $0["fromDevice"] as? String == deviceA }
    let local = log.filter { $0["fromDevice"] is NSNull }
    #expect(pulled.count + local.count == log.count)
    let pulledCommands = pulled.compactMap { $0["command"] as? String }
    #expect(pulledCommands.first == "done 1")
    // A's first sync is one change there (its project's record and its todos'): one entry here.
    #expect(pulledCommands.filter { $0 == "(first sync)" }.count == 1, "\(pulledCommands)")
    // A's todo given its own number here says so, without the number it held meanwhile.
    #expect(
      !log.contains { ($0["summary"] as? String)?.contains("#-") == true }, "\(log)")
    #expect(local.contains { $0["command"] as? String == "add 'From b'" })
    // The first sync's entry says what all its records brought, never "no change".
    let firstSync = pulled.filter { $0["command"] as? String == "(first sync)" }.compactMap { $0["summary"] as? String }
    // (A first sync sends its todos in uuid order, the cursor of a resumable first push.)
    let threeTodos = { (summary: String) in
      summary.hasPrefix("pulled 3 todos, 1 project; added project 'ootd'; added 3 todos (")
        && ["'One'", "'Two'", "'Three'"].allSatisfy { summary.contains($0) }
    }
    #expect(firstSync.contains(where: threeTodos), "\(firstSync)")
    #expect(!log.contains { $0["summary"] as? String == "no change" }, "\(log)")
    // B's own #1 'From b' and A's #1 'One' met: the smaller uuid keeps #1 (so which one moves
    // is random here). 'One' held a provisional number until then: its entry from A names the
    // number it got, never the provisional one; when 'From b' moved, B's entry says so.
    #expect(pulled.contains { ($0["summary"] as? String)?.hasPrefix("'One' got number #") == true }, "\(pulled)")
    let numbers = try SameNumberSyncBinaryTests.numbers(m, "b")
    let fromB = try #require(try m.todos("b").first { $0["title"] as? String == "From b" }?["id"] as? Int)
    if fromB != 1 {
      #expect(local.contains { $0["summary"] as? String == "renumbered 'From b' from #1 to #\(fromB)" }, "\(local)")
    }
    #expect(numbers.count == 4)

    // The text: the pulled entries say "from" and A's name, B's own do not.
    let text = try m.run("b", "log", "--no-color")
    #expect(text.code == 0)
    let lines = text.stdout.split(separator: "\n").map(String.init)
    #expect(pulled.allSatisfy { $0["fromDeviceName"] as? String == "desktop" }, "\(pulled)")
    #expect(lines.contains { $0.hasSuffix("(first sync)  from desktop") }, "\(text.stdout)")
    #expect(lines.contains { $0.hasSuffix("done 1  from desktop") }, "\(text.stdout)")
    #expect(lines.contains { $0.hasSuffix("add 'From b'") }, "\(text.stdout)")
    #expect(lines.contains { threeTodos($0.trimmingCharacters(in: .whitespaces)) }, "\(text.stdout)")

    // On A, nothing of its own says "from"; what it pulled from B does.
    let logA = try Self.log(m, "a")
    let deviceB = try Self.device(m, "b")
    // B's first sync pushed its rows as one record: A's entry for it says what it brought.
    #expect(
      logA.contains {
        $0["fromDevice"] as? String == deviceB && $0["command"] as? String == "(first sync)"
          && $0["summary"] as? String == "pulled 1 todo; added 1 todo ('From b')"
      }, "\(logA)")
    #expect(logA.filter { $0["fromDevice"] is NSNull }.count >= 5)
    #expect(logA.allSatisfy { $0["fromDevice"] is NSNull || $0["fromDevice"] as? String == deviceB })
  }

  @Test("identical built-in blocks pulled from another machine are not applied, counted or journaled")
  func identicalBuiltInBlocks() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "x")
    try m.sync("a")
    // B has only its built-in blocks, made at another time than A's.
    try m.run("b", "block", "list")
    try m.sync("b")
    let second = try m.sync("a")
    // B pushed none of them: a built-in block as ootd ships it never travels.
    #expect(second["pulled"] as? Int == 0, "\(second)")
    #expect(second["changed"] as? Int == 0, "\(second)")
    #expect(try Self.log(m, "a").map { $0["command"] as? String } == ["add x"])
    // A block B changed is applied as ever.
    try m.run("b", "block", "routine", "algorithm")
    try m.sync("b")
    let third = try m.sync("a")
    #expect((third["changed"] as? Int ?? 0) > 0, "\(third)")
    let text = try m.run("a", "log", "--no-color").stdout
    #expect(text.contains("block routine algorithm  from "), "\(text)")
  }
}
