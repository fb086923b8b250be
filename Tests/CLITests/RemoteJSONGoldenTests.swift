import Core
import Foundation
import PostgresSupport
import Remote
import TestTags
import Testing

/// The JSON shapes that need a server, byte for byte, from the built binary against a real
/// PostgreSQL: `remote sync --json` (a conflict and a row set aside) and `team board --json`.
/// Golden files in `Tests/CLITests/Golden/json/`, recorded from the `JSONEncoder` version, as
/// ``JSONGoldenTests`` does for the others. Each command runs at a pinned instant in UTC
/// (``SyncMachines``), on a fresh server database, so the server's positions are the same on
/// every run. Masked, each by its exact value: a todo's uuid (``JSONGoldenTests/maskingUUIDs(_:)``)
/// and the syncing machine's own device id (random at its first sync), and the clock skew the
/// sync measured (the real clocks of this machine and the server: a few microseconds, shown as
/// 0). Nothing else varies.
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct RemoteJSONGoldenTests {
  /// `output` with the uuids and the device id `device` masked.
  static func masking(_ output: String, device: String) -> String {
    JSONGoldenTests.maskingUUIDs(output)
      .replacingOccurrences(of: "\"device\" : \"\(device)\"", with: "\"device\" : \"DEVICE\"")
      .replacingOccurrences(
        of: "\"clockSkewSeconds\" : -?[0-9.e-]+", with: "\"clockSkewSeconds\" : 0", options: .regularExpression)
  }

  @Test func remoteSync_withAConflictAndARowSetAside_printsItsGoldenBytes() throws {
    let m = try SyncMachines()
    // Named, not by the host name: the name travels in each record, and pulledBytes counts it.
    try m.run("a", "remote", "name", "laptop")
    try m.run("b", "remote", "name", "desktop")
    try m.run("a", "add", "Read")
    try m.sync("a")
    try m.sync("b")
    // The same field edited on both machines: b edits later, so b's sync reports the conflict.
    try m.run("a", "edit", "1", "--title", "From a")
    try m.sync("a")
    try m.run("b", "edit", "1", "--title", "From b")
    // A record no ootd makes (its device id is not one): b sets it aside.
    let bad = SyncRecord(
      opID: "00000000-0000-4000-8000-000000000001", device: "laptop", clock: "1", payload: "{}")
    #expect(try m.server().push([bad]) == 1)
    let result = try m.run("b", "remote", "sync", "--json")
    #expect(result.code == 0, "\(result.stderr)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let device = try #require(json["device"] as? String)
    #expect((json["conflictList"] as? [Any])?.count == 1)
    #expect((json["setAside"] as? [Any])?.count == 1)
    try Golden.check(Self.masking(result.stdout, device: device), "json/remote-sync.json")
  }

  @Test func teamBoard_printsItsGoldenBytes() throws {
    let m = try SyncMachines()
    let team = "study"
    let other = m.cluster.uniqueName("other")
    try m.cluster.createRole(other, password: "pw-other", member: true)
    let otherEnvironment = [
      "OOTD_DB": m.folder.file("other.sqlite"), "OOTD_REMOTE": m.cluster.uri(role: other, database: m.database),
      "TZ": "UTC",
    ]
    func runOther(_ arguments: String...) throws {
      let result = try BinaryTests.run(arguments, environment: otherEnvironment)
      #expect(result.code == 0, "\(arguments): \(result.stderr)")
    }
    #expect(try m.run("a", "remote", "set", m.uri, "--name", "Alice").code == 0)
    #expect(try m.run("a", "team", "create", team).code == 0)
    #expect(try m.run("a", "team", "invite", team, other).code == 0)
    try runOther("team", "join", team)
    try runOther("remote", "set", m.cluster.uri(role: other, database: m.database), "--name", "Bob")
    // Alice: yesterday perfect, today one of two; Bob: three today, one done, none yesterday.
    try m.run("a", "add", "Yesterday's", "--on", TestClock.day(-1))
    try m.run("a", "done", "1")
    try m.run("a", "add", "Today's")
    try m.run("a", "add", "Also today's")
    try m.run("a", "done", "3")
    for title in ["One", "Two", "Three"] { try runOther("add", title) }
    try runOther("done", "2")
    try m.sync("a")
    try runOther("remote", "sync")
    let board = try m.run(
      "a", "team", "board", team, "--from", TestClock.day(-2), "--to", TestClock.day(), "--json")
    #expect(board.code == 0, "\(board.stderr)")
    try Golden.check(board.stdout, "json/team-board.json")
  }
}
