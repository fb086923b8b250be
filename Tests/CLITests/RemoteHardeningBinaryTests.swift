import Core
import Foundation
import PostgresSupport
import Remote
import TestTags
import Testing

/// Issue 21, items 2, 7, 8 and 13 through the built binary against a real PostgreSQL.
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct RemoteHardeningBinaryTests {
  static func json(_ result: BinaryTests.Result) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
  }

  /// Copies `from`'s database file (and its log, when there is one) to `to`.
  static func copy(_ m: SyncMachines, _ from: String, _ to: String) throws {
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: m.folder.file("\(from).sqlite" + suffix)) {
      try FileManager.default.copyItem(
        atPath: m.folder.file("\(from).sqlite" + suffix), toPath: m.folder.file("\(to).sqlite" + suffix))
    }
  }

  @Test("todos added on a copied database before its first sync reach the original: the copy pushes under a new device id, saying so")
  func copyAddsBeforeSync() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "On the original")
    let original = try #require(m.sync("a")["device"] as? String)
    try Self.copy(m, "a", "c")
    // Added on the copy while it still holds the original's device id.
    #expect(try m.run("c", "add", "Added on the copy").code == 0)
    let copySync = try m.run("c", "remote", "sync", "--json")
    #expect(copySync.code == 0, "\(copySync.stderr)")
    let copyDevice = try #require(try Self.json(copySync)["device"] as? String)
    #expect(copyDevice != original)
    #expect(
      copySync.stderr
        == "ootd: note: this database is a copy of another file (device \(original)): it now syncs as a new device, \(copyDevice)\n")
    // The original keeps its id, says nothing, and receives what the copy added.
    let back = try m.run("a", "remote", "sync", "--json")
    #expect(back.code == 0 && back.stderr.isEmpty, "\(back.stderr)")
    #expect(try Self.json(back)["device"] as? String == original)
    #expect(try m.titles("a") == ["Added on the copy", "On the original"])
    // And the original's later changes reach the copy.
    try m.run("a", "add", "Later on the original")
    try m.sync("a")
    try m.sync("c")
    #expect(try m.shapes("a") == m.shapes("c"))
    #expect(try m.shapes("c").count == 3)
    // The copy's next sync keeps its new id, without a note.
    let again = try m.run("c", "remote", "sync", "--json")
    let againDevice = try Self.json(again)["device"] as? String
    #expect(again.stderr.isEmpty && againDevice == copyDevice)
  }

  @Test("changes not yet pushed when the file was copied reach both sides once, without conflicts")
  func copyWithUnpushedChanges() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Read")
    try m.sync("a")
    try m.run("a", "edit", "1", "--title", "Read SICP")
    try Self.copy(m, "a", "c")
    try m.run("c", "add", "Only on the copy")
    let fromCopy = try m.sync("c")
    let fromOriginal = try m.sync("a")
    try m.sync("c")
    #expect(fromCopy["conflicts"] as? Int == 0 && fromOriginal["conflicts"] as? Int == 0)
    #expect(try m.titles("a") == ["Only on the copy", "Read SICP"])
    #expect(try m.shapes("a") == m.shapes("c"))
  }

  @Test("a sync facing another role's locks: the old push key and LOCK TABLE cannot block it")
  func locksOfAnotherMember() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Read")
    try m.sync("a")
    let intruder = m.cluster.uniqueName("intruder")
    try m.cluster.createRole(intruder, password: "pw-intruder", member: true)
    let held = try PostgresConnection(uri: m.cluster.uri(role: intruder, database: m.database))
    try held.execute("BEGIN")
    _ = try held.query("SELECT pg_advisory_xact_lock(hashtext('ootd.ops'), hashtext($1))", [m.role])
    #expect(throws: RemoteError.self) {
      try held.execute("LOCK TABLE ootd.day_figures IN ACCESS EXCLUSIVE MODE")
    }
    try held.execute("ROLLBACK")
    try held.execute("BEGIN")
    _ = try held.query("SELECT pg_advisory_xact_lock(hashtext('ootd.ops'), hashtext($1))", [m.role])
    try m.run("a", "add", "Write")
    let result = try m.run("a", "remote", "sync")
    try held.execute("ROLLBACK")
    #expect(result.code == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("Pushed 1 change"), "\(result.stdout)")
  }

  @Test("a lock the sync cannot avoid ends it with exit 1 and one line saying what it waited for")
  func unavoidableLock() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Read")
    // The schema's owner (another role) holds the figures table.
    let owner = try PostgresConnection(uri: m.cluster.uri(database: m.database))
    try owner.execute("BEGIN")
    try owner.execute("LOCK TABLE ootd.day_figures IN ACCESS EXCLUSIVE MODE")
    let result = try m.run("a", "remote", "sync")
    try owner.execute("ROLLBACK")
    #expect(result.code == 1)
    #expect(
      result.stderr
        == "ootd: error: the server kept ootd.day_figures locked for 10 s (another session holds it); try again later\n")
    // Nothing is lost: the next sync completes.
    let again = try m.run("a", "remote", "sync")
    #expect(again.code == 0, "\(again.stderr)")
  }

  @Test("team board --json marks the viewer's row with you; a second member under a folded-equal name is refused")
  func boardAndNames() throws {
    let m = try SyncMachines()
    let team = m.cluster.uniqueName("study")
    let other = m.cluster.uniqueName("other")
    try m.cluster.createRole(other, password: "pw-other", member: true)
    let otherEnv = [
      "OOTD_DB": m.folder.file("other.sqlite"), "OOTD_REMOTE": m.cluster.uri(role: other, database: m.database),
      "TZ": "UTC",
    ]
    #expect(try m.run("a", "remote", "set", m.uri, "--name", "Alice").code == 0)
    #expect(try m.run("a", "team", "create", team).code == 0)
    #expect(try m.run("a", "team", "invite", team, other).code == 0)
    #expect(try BinaryTests.run(["team", "join", team], environment: otherEnv).code == 0)
    // The other member tries to be "Alice" in full-width capitals.
    // Refused by remote set at once (nothing saved), so the sync after it shares the role's name.
    let impostor = try BinaryTests.run(
      ["remote", "set", m.cluster.uri(role: other, database: m.database), "--name", "ＡＬＩＣＥ"], environment: otherEnv)
    #expect(impostor.code == 1)
    #expect(impostor.stderr.hasPrefix("ootd: error: the name 'ＡＬＩＣＥ' is taken by another member"), "\(impostor.stderr)")
    #expect(impostor.stderr.split(separator: "\n").count == 1)
    let synced = try BinaryTests.run(["remote", "sync"], environment: otherEnv)
    #expect(synced.code == 0, "\(synced.stderr)")
    let board = try m.run("a", "team", "board", team, "--json")
    #expect(board.code == 0, "\(board.stderr)")
    let members = try #require(try Self.json(board)["members"] as? [[String: Any]])
    #expect(members.count == 2)
    #expect(members.filter { $0["you"] as? Bool == true }.map { $0["name"] as? String } == ["Alice"])
    #expect(members.filter { $0["you"] as? Bool == false }.map { $0["name"] as? String } == [other])
    let text = try m.run("a", "team", "board", team)
    #expect(text.stdout.split(separator: "\n").contains { $0.hasPrefix("> Alice") }, "\(text.stdout)")
    #expect(text.stdout.split(separator: "\n").contains { $0.hasPrefix("  \(other)") }, "\(text.stdout)")
  }

  @Test("remote set refuses sslpassword like password: exit 64, nothing stored or printed")
  func sslPasswordRefused() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("db.sqlite")]
    #expect(try BinaryTests.run(["add", "x"], environment: env).code == 0)
    for uri in ["postgresql://alice@db.example.com/ootd?sslpassword=keyphrase9", "host=db user=alice sslpassword=keyphrase9"] {
      let refused = try BinaryTests.run(["remote", "set", uri], environment: env)
      #expect(refused.code == 64)
      #expect(refused.stderr.hasPrefix("ootd: error: the URI holds a password"))
      #expect(!(refused.stdout + refused.stderr).contains("keyphrase9"))
      #expect(refused.stderr.split(separator: "\n").count == 1)
      let variable = try BinaryTests.run(["remote", "status"], environment: env.merging(["OOTD_REMOTE": uri]) { $1 })
      #expect(variable.code == 64 && !(variable.stdout + variable.stderr).contains("keyphrase9"))
    }
    let status = try BinaryTests.run(["remote", "status", "--json"], environment: env)
    #expect(try Self.json(status)["server"] is NSNull)
  }

  @Test("a plaintext connection to this machine syncs without a warning")
  func loopbackNoWarning() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Read")
    let result = try m.run("a", "remote", "sync")
    #expect(result.code == 0 && result.stderr.isEmpty, "\(result.stderr)")
  }
}
