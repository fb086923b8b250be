import Foundation
import PostgresSupport
import TestTags
import Testing

/// Issue 24 §1: a fresh machine whose pull commits between the record where two todos clash on
/// a number and the record that settled the clash replays that settling, and has no
/// renumbering of its own to report or push (three machines, real PostgreSQL, the binary).
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct SyncNumbersAcrossCommitsBinaryTests {
  /// A Taskwarrior export of one pending task.
  static func task(_ uuid: String, _ title: String) -> String {
    #"[{"uuid":"\#(uuid)","description":"\#(title)","status":"pending","entry":"20261120T090000Z"}]"#
  }

  @Test("a's #1 and b's #1: b settles the clash; c, fresh, pulling a record a commit, reports no renumbering and pushes nothing")
  func freshMachine() throws {
    let m = try SyncMachines()
    // b's todo has the smaller uuid: it keeps #1, a's moves, as b's change.
    for (machine, uuid) in [("a", "20000000-0000-4000-8000-000000000000"), ("b", "10000000-0000-4000-8000-000000000000")] {
      let file = m.folder.file("\(machine).json")
      try Self.task(uuid, "from \(machine)").write(toFile: file, atomically: true, encoding: .utf8)
      let imported = try m.run(machine, "import", "taskwarrior", file)
      #expect(imported.code == 0, "\(imported.stderr)")
    }
    try m.sync("a")
    try m.sync("b")
    let settled = try SameNumberSyncBinaryTests.numbers(m, "b")
    #expect(
      settled == ["10000000-0000-4000-8000-000000000000": 1, "20000000-0000-4000-8000-000000000000": 2], "\(settled)")

    // c: a commit after each record, so that one falls between b's first sync and its settling.
    let paged = m.environment("c").merging(["OOTD_PULL_PAGE": "1"]) { $1 }
    let result = try BinaryTests.run(["remote", "sync", "--json"], environment: paged)
    #expect(result.code == 0, "\(result.stderr)")
    let c = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect((c["renumbered"] as? [Any])?.isEmpty == true, "\(c)")
    #expect(c["pushed"] as? Int == 0, "\(c)")
    #expect(try SameNumberSyncBinaryTests.numbers(m, "c") == settled)
    let status = try #require(
      try JSONSerialization.jsonObject(with: Data(try m.run("c", "remote", "status", "--json").stdout.utf8))
        as? [String: Any])
    #expect(status["waitingChanges"] as? Int == 0, "\(status)")
    // Nothing of c's own in its log.
    #expect(try LogFromDeviceBinaryTests.log(m, "c").allSatisfy { !($0["fromDevice"] is NSNull) })
  }
}
