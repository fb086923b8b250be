import Core
import Foundation
import PostgresSupport
import Remote
import TestTags
import Testing

/// Issue 21, items 7, 8 and 13 on a real server: no member can take a lock that blocks another,
/// every statement is bounded, display names are unique after folding, and the URI refuses
/// secrets.
@Suite(.tags(.postgres), .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct ServerHardeningTests {
  static let tables = [
    "ops", "devices", "members", "day_figures", "teams", "team_members", "push_turns", "schema_version",
  ]

  @Test("a member can lock no ootd table in a mode that blocks another member's statements")
  func noBlockingTableLocks() throws {
    let fixture = try ServerFixture()
    let bob = try fixture.connect(fixture.bob)
    for table in Self.tables {
      for mode in ["ACCESS EXCLUSIVE", "EXCLUSIVE", "SHARE ROW EXCLUSIVE", "SHARE"] {
        let error = #expect(throws: RemoteError.self, "\(table) \(mode)") {
          try bob.transaction { try bob.execute("LOCK TABLE ootd.\(table) IN \(mode) MODE") }
        }
        #expect(error?.description.hasPrefix("permission denied by the server") == true, "\(table) \(mode): \(String(describing: error))")
      }
    }
    // Nor delete (the table privilege that would allow those locks) where it once could.
    for table in ["devices", "members", "day_figures", "team_members"] {
      #expect(throws: RemoteError.self, "\(table)") { try bob.execute("DELETE FROM ootd.\(table)") }
    }
  }

  @Test("the old push key, held by another member, does not hold up a push; nor can a member lock another's push turn")
  func pushTurnIsPrivate() throws {
    let fixture = try ServerFixture()
    let alice = try fixture.server(fixture.alice)
    #expect(try alice.push([record(1)]) == 1)
    let bob = try fixture.connect(fixture.bob)
    try bob.execute("BEGIN")
    _ = try bob.query(
      "SELECT pg_advisory_xact_lock(hashtext('ootd.ops'), hashtext($1))", [fixture.alice])
    // Bob sees (and so can lock) no row of Alice's push turns.
    #expect(try bob.query("SELECT owner FROM ootd.push_turns FOR UPDATE").rows.isEmpty)
    #expect(try alice.push([record(2), record(3)]) == 2)
    #expect(try alice.operationCount() == 3)
    try bob.execute("ROLLBACK")
  }

  @Test("a lock the member cannot avoid fails the statement with one line naming the table, not a silent wait")
  func lockTimeoutIsOneLine() throws {
    let fixture = try ServerFixture()
    let alice = try fixture.server(fixture.alice)
    // The schema's owner can still lock its tables (a maintenance window, say).
    let owner = try PostgresConnection(uri: fixture.cluster.uri(database: fixture.database))
    try owner.execute("BEGIN")
    try owner.execute("LOCK TABLE ootd.day_figures IN ACCESS EXCLUSIVE MODE")
    let day = try #require(Day(year: 2026, month: 11, day: 2))
    let error = #expect(throws: RemoteError.self) {
      try alice.publishDayFigures([DayFigure(date: day, total: 1, done: 1, commits: nil)], displayName: nil)
    }
    try owner.execute("ROLLBACK")
    #expect(error == .lockTimeout("ootd.day_figures"))
    #expect(
      error?.description
        == "the server kept ootd.day_figures locked for 10 s (another session holds it); try again later")
    // The connection is usable again afterwards.
    try alice.publishDayFigures([DayFigure(date: day, total: 1, done: 1, commits: nil)], displayName: nil)
  }

  @Test("every connection carries lock_timeout and statement_timeout")
  func timeoutsAreSet() throws {
    let fixture = try ServerFixture()
    let alice = try fixture.connect(fixture.alice)
    let rows = try alice.query("SELECT current_setting('lock_timeout'), current_setting('statement_timeout')")
    #expect(rows.rows.first == ["\(PostgresConnection.lockTimeout)s", "\(PostgresConnection.statementTimeout)s"])
    // A statement past the timeout (made short here) is one line too.
    try alice.execute("SET statement_timeout = '1s'")
    let error = #expect(throws: RemoteError.self) { try alice.execute("SELECT pg_sleep(3)") }
    #expect(error == .statementTimeout("what ootd asked for"))
  }

  @Test("leaving a team goes through the schema's function and takes out only the caller")
  func leaveThroughFunction() throws {
    let fixture = try ServerFixture()
    let (alice, bob, team) = try fixture.teamOfTwo()
    // A plain member takes no one else out, even through the function.
    #expect(try fixture.psql("SELECT ootd.remove_from_team('\(team)', '\(fixture.alice)')", as: fixture.bob) == ["f"])
    try bob.leave(team)
    #expect(throws: RemoteError.refused(RemoteServer.notAMember(team))) { try bob.leave(team) }
    #expect(try alice.myRole(in: team) == .owner)
  }

  @Test("display names fold by NFKC and case: a second member under the same name is refused, by the server too")
  func uniqueNames() throws {
    let fixture = try ServerFixture()
    // The fold is the server's (schema version 6), asked as a member may ask it.
    let fold = { (name: String) throws -> String in
      try #require(try fixture.connect(fixture.bob).query("SELECT ootd.name_key($1)", [name]).rows.first?.first ?? nil)
    }
    #expect(try fold("Ａｌｉｃｅ") == "alice")
    #expect(try fold("ALICE") == fold("alice"))
    #expect(try fold("  Alice \t\u{3000}  K. ") == "alice k.")
    #expect(try fold("ﬁona") == "fiona")
    #expect(try fold("ÉMILE") == "émile")  // not ASCII only, though the test cluster's collation is C
    #expect(try fold("Alice") != fold("Alicia"))
    let alice = try fixture.server(fixture.alice)
    let bob = try fixture.server(fixture.bob)
    try alice.setDisplayName("Alice")
    for impostor in ["ALICE", "Ａｌｉｃｅ", " alice "] {
      let error = #expect(throws: RemoteError.self, "\(impostor)") { try bob.setDisplayName(impostor) }
      #expect(error?.description.hasPrefix("the name '\(impostor)' is taken by another member") == true)
    }
    // Another member's role name is taken too (a member without a display name shows it).
    #expect(throws: RemoteError.self) { try bob.setDisplayName(fixture.alice.uppercased()) }
    try bob.setDisplayName("Bob")
    // Alice may change the case of her own name.
    try alice.setDisplayName("ALICE")
    // The server holds the keys unique whatever a client sends.
    #expect(throws: (any Error).self) {
      try fixture.psql("UPDATE ootd.members SET name_key = 'alice' WHERE owner = current_user", as: fixture.bob)
    }
  }

  @Test("the board marks the viewer's own row")
  func boardMarksViewer() throws {
    let fixture = try ServerFixture()
    let (alice, bob, team) = try fixture.teamOfTwo()
    let day = try #require(Day(year: 2026, month: 11, day: 2))
    let seenByBob = try bob.board(team, through: day)
    #expect(seenByBob.filter(\.isViewer).map(\.role) == [fixture.bob])
    let seenByAlice = try alice.board(team, through: day)
    #expect(seenByAlice.filter(\.isViewer).map(\.role) == [fixture.alice])
    #expect(seenByAlice.count == 2)
  }

  @Test("sslpassword in a URI counts as a password; loopback hosts are told apart from others")
  func uriSecretsAndLoopback() throws {
    #expect(try ConnectionURI("postgresql://alice@db.example.com/ootd?sslpassword=s3cret").hasPassword)
    #expect(try ConnectionURI("host=db.example.com user=alice sslpassword=s3cret").hasPassword)
    #expect(try !ConnectionURI("postgresql://alice@db.example.com/ootd?sslmode=verify-full").hasPassword)
    for host in ["", "/run/postgresql", "/tmp", "@abstract", "localhost", "LOCALHOST", "127.0.0.1", "127.9.8.7", "::1"] {
      #expect(PostgresConnection.isLoopback(host: host), "\(host)")
    }
    for host in ["db.example.com", "10.0.0.5", "128.0.0.1", "127.0.0.1.example.com", "::2", "localhost.example.com", "1270.0.0.1"] {
      #expect(!PostgresConnection.isLoopback(host: host), "\(host)")
    }
  }

  @Test("a loopback test connection reports its host and encryption")
  func connectionReportsHost() throws {
    let fixture = try ServerFixture()
    let alice = try fixture.connect(fixture.alice)
    #expect(!alice.host.isEmpty)
    #expect(alice.isLoopback)
  }
}
