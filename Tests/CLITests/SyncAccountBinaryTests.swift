import Foundation
import GRDB
import PostgresSupport
import TestTags
import Testing

/// Issue 24's tryout, session 18: `localhost` and `127.0.0.1` were two accounts to a database's
/// sync state, so switching the URI's spelling cost a full first push. The account is now what
/// the server holds for the role (its key record's identity), read in the opening round trip.
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct SyncAccountBinaryTests {
  @Test("another spelling of the same server's URI is the same account: no note, no first push again, both ways; a state an older ootd recorded by the URI's name takes the server's identity without starting over")
  func anotherSpelling() throws {
    let m = try SyncMachines()
    try RemoteSyncBinaryTests.fill(m.folder.file("a.sqlite"), count: 300)
    let first = try m.sync("a")
    #expect(first["pushed"] as? Int ?? 0 >= 300)
    // `localhost` resolved to the same address: another spelling, the same server, database and role.
    let spelled = "postgresql://\(m.role)@localhost:\(m.cluster.port)/\(m.database)?hostaddr=127.0.0.1"
    func syncSpelled() throws -> (stderr: String, json: [String: Any]) {
      let environment = m.environment("a").merging(["OOTD_REMOTE": spelled, "PGPASSWORD": "pw-me"]) { $1 }
      let result = try BinaryTests.run(["remote", "sync", "--json"], environment: environment)
      #expect(result.code == 0, "\(result.stderr)")
      return (result.stderr, try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:])
    }
    try m.run("a", "add", "Later")
    let other = try syncSpelled()
    #expect(!other.stderr.contains("now syncs with"), "\(other.stderr)")
    #expect(other.json["pushed"] as? Int ?? 0 < 300, "\(other.json)")
    let back = try m.run("a", "remote", "sync")
    #expect(back.code == 0 && !back.stderr.contains("now syncs with"), "\(back.stderr)")
    #expect(back.stdout.hasPrefix("Pushed 0 changes"), "\(back.stdout)")

    // The state as an older ootd recorded it: the account's name (this URI's) alone.
    let queue = try DatabaseQueue(path: m.folder.file("a.sqlite"))
    try queue.write { try $0.execute(sql: "DELETE FROM syncState WHERE key = 'accountIdentity'") }
    try queue.close()
    let migrated = try m.run("a", "remote", "sync")
    #expect(migrated.code == 0 && !migrated.stderr.contains("now syncs with"), "\(migrated.stderr)")
    #expect(migrated.stdout.hasPrefix("Pushed 0 changes"), "\(migrated.stdout)")
    let spelledAgain = try syncSpelled()
    #expect(!spelledAgain.stderr.contains("now syncs with"), "\(spelledAgain.stderr)")
    #expect(spelledAgain.json["pushed"] as? Int == 0, "\(spelledAgain.json)")
    try m.sync("b")
    #expect(try m.shapes("b") == m.shapes("a"))
  }
}
