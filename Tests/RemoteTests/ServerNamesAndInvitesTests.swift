import Core
import Foundation
import PostgresSupport
import Remote
import TestTags
import Testing

/// Issue 24 §5, as a tester found it with psql against a real server: a member cannot put
/// another member's display name on a board by writing the name key itself (schema version 6
/// derives it on the server), and `team invite` invites people's roles only: never a superuser
/// or the schema's owner, and each other odd role gets its own one-line answer.
@Suite(.tags(.postgres), .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct ServerNamesAndInvitesTests {
  /// Every member's row as the schema's owner (a superuser) sees it: `owner|display|key`.
  static func memberRows(_ fixture: ServerFixture) throws -> [String] {
    try fixture.cluster.psql(
      "SELECT owner || '|' || coalesce(display_name, '-') || '|' || coalesce(name_key, '-') FROM ootd.members ORDER BY owner",
      database: fixture.database
    ).split(separator: "\n").map(String.init)
  }

  /// The rows of `team` as the schema's owner sees them: `member:role:joined`.
  static func teamRows(_ fixture: ServerFixture, _ team: String) throws -> [String] {
    try fixture.cluster.psql(
      "SELECT member || ':' || role || ':' || joined FROM ootd.team_members WHERE team = '\(team)' ORDER BY member",
      database: fixture.database
    ).split(separator: "\n").map(String.init)
  }

  @Test("a member writing SQL on its own connection cannot take another member's name: the server derives the key; the board shows one Ana")
  func forgedNameKey() throws {
    let fixture = try ServerFixture()
    let (alice, bob, team) = try fixture.teamOfTwo()
    try alice.setDisplayName("Ana")
    try bob.setDisplayName("Ben")
    let before = try Self.memberRows(fixture)
    // The tester's statement: a different key beside the same name.
    #expect(throws: (any Error).self) {
      try fixture.psql("UPDATE ootd.members SET display_name = 'Ana', name_key = 'something-else'", as: fixture.bob)
    }
    // The name alone: the server's key is Ana's, which the unique index refuses.
    for forged in ["Ana", "ANA", "Ａｎａ", " ana "] {
      #expect(throws: (any Error).self, "\(forged)") {
        try fixture.psql("UPDATE ootd.members SET display_name = '\(forged)'", as: fixture.bob)
      }
    }
    // Nor on a first row, naming the key (the table-wide INSERT privilege allowed it).
    let carol = fixture.cluster.uniqueName("carol")
    try fixture.cluster.createRole(carol, password: "\(carol)-pw", member: true)
    #expect(throws: (any Error).self) {
      try fixture.psql("INSERT INTO ootd.members (display_name, name_key) VALUES ('Ana', 'carol-key')", as: carol)
    }
    #expect(throws: (any Error).self) {
      try fixture.psql("INSERT INTO ootd.members (display_name) VALUES ('ana')", as: carol)
    }
    // Another member's role name is taken too, by the server's rule (it was the client's only).
    #expect(throws: (any Error).self) {
      try fixture.psql("UPDATE ootd.members SET display_name = upper('\(fixture.alice)')", as: fixture.bob)
    }
    #expect(try Self.memberRows(fixture) == before)
    let board = try alice.board(team, through: Day(iso: "2026-11-20")!)
    #expect(board.map(\.name) == ["Ana", "Ben"])
    // Through the client the refusal is the one line it always was.
    let error = #expect(throws: RemoteError.self) { try bob.setDisplayName("ａｎａ") }
    #expect(error?.description.hasPrefix("the name 'ａｎａ' is taken by another member of this server") == true)
    let roleName = #expect(throws: RemoteError.self) { try bob.setDisplayName(fixture.alice.uppercased()) }
    #expect(roleName?.description.hasPrefix("the name '\(fixture.alice.uppercased())' is taken") == true)
    // An honest rename still works, and the key follows it.
    try bob.setDisplayName("Benjamin")
    #expect(try Self.memberRows(fixture).contains("\(fixture.bob)|Benjamin|benjamin"))
  }

  @Test("an older server's keys are derived again on migration; a forged clash loses its name, and nothing fails")
  func migrationResolvesClashes() throws {
    let fixture = try ServerFixture(initialise: false)
    let admin = try fixture.connect(PostgresCluster.admin)
    #expect(try RemoteSchema.migrate(admin, to: 5) == [1, 2, 3, 4, 5])
    // Rows as clients of version 5 could write them: Alice honestly, Bob with a forged key for
    // the same name, Carol a name folding like Alice's role name, Dave a name no one else has.
    let carol = fixture.cluster.uniqueName("carol"), dave = fixture.cluster.uniqueName("dave")
    for role in [carol, dave] { try fixture.cluster.createRole(role, password: "\(role)-pw", member: true) }
    let rows = [
      (fixture.alice, "Ana", "ana"), (fixture.bob, "ANA", "forged"),
      (carol, fixture.alice.uppercased(), "x-\(carol)"), (dave, "Ｄａｖｅ", "dave"),
    ]
    for (role, name, key) in rows {
      _ = try fixture.psql("INSERT INTO ootd.members (display_name, name_key) VALUES ('\(name)', '\(key)')", as: role)
    }
    #expect(try RemoteSchema.migrate(admin) == [6])
    #expect(
      try Self.memberRows(fixture).sorted() == [
        "\(fixture.alice)|Ana|ana", "\(fixture.bob)|-|\(fixture.bob)", "\(carol)|-|\(carol)", "\(dave)|Ｄａｖｅ|dave",
      ].sorted())
    // Bob's forged name cannot come back.
    #expect(throws: (any Error).self) {
      try fixture.psql("UPDATE ootd.members SET display_name = 'ANA', name_key = 'forged'", as: fixture.bob)
    }
    try fixture.server(fixture.bob).setDisplayName("Bob")
  }

  @Test("a superuser, the schema's owner, a role that cannot log in or bypasses row-level security is never invited: one line each, nothing written")
  func invitePeopleOnly() throws {
    let fixture = try ServerFixture()
    let alice = try fixture.server(fixture.alice)
    let team = fixture.cluster.uniqueName("study")
    try alice.createTeam(team)
    try alice.invite(fixture.bob, to: team)
    let before = try Self.teamRows(fixture, team)

    // The schema's owner, when it is not a superuser, and a role bypassing row-level security.
    let keeper = fixture.cluster.uniqueName("keeper"), auditor = fixture.cluster.uniqueName("auditor")
    for role in [keeper, auditor] { try fixture.cluster.createRole(role, password: "\(role)-pw", member: true) }
    try fixture.cluster.psql("ALTER ROLE \(auditor) BYPASSRLS")
    let owner = try fixture.cluster.psql("SELECT nspowner::regrole FROM pg_namespace WHERE nspname = 'ootd'", database: fixture.database)
    try fixture.cluster.psql("ALTER SCHEMA ootd OWNER TO \(keeper)", database: fixture.database)
    defer {
      _ = try? fixture.cluster.psql(
        "ALTER SCHEMA ootd OWNER TO \(owner.trimmingCharacters(in: .whitespacesAndNewlines))", database: fixture.database)
    }
    // A role of 63 bytes, PostgreSQL's longest, asked for with one more character: a `name`
    // parameter would cut it to the existing role.
    let long = fixture.cluster.uniqueName("long").padding(toLength: 63, withPad: "x", startingAt: 0)
    try fixture.cluster.createRole(long, password: "long-pw", member: true)

    let refusals: [(String, String)] = [
      (PostgresCluster.admin, "'\(PostgresCluster.admin)' is a superuser of the server, not a person's role"),
      (keeper, "'\(keeper)' owns the server's ootd schema, not a person's role"),
      (auditor, "'\(auditor)' bypasses row-level security"),
      ("ootd_member", "the role 'ootd_member' cannot log in (NOLOGIN)"),
      (fixture.stranger, "the role '\(fixture.stranger)' is not a member of ootd_member"),
      ("nobody_\(team)", "there is no database role 'nobody_\(team)'"),
      (long + "z", "there is no database role '\(long)z'"),
      ("bob'; DROP TABLE ootd.teams; --", "there is no database role 'bob'; DROP TABLE ootd.teams; --'"),
      ("", "there is no database role ''"),
      (fixture.alice, "you are already in team '\(team)'"),
      (fixture.bob, "'\(fixture.bob)' is already invited to team '\(team)'"),
    ]
    for (role, message) in refusals {
      let error = #expect(throws: RemoteError.self, "\(role)") { try alice.invite(role, to: team) }
      #expect(error?.description.hasPrefix(message) == true, "\(role): \(String(describing: error))")
      #expect(error?.description.contains("\n") == false)
    }
    #expect(try Self.teamRows(fixture, team) == before)

    // The server refuses them too, whatever the client: Alice's own connection, as psql.
    for role in [PostgresCluster.admin, keeper, auditor, "ootd_member"] {
      #expect(throws: (any Error).self, "\(role)") {
        try fixture.psql("INSERT INTO ootd.team_members (team, member) VALUES ('\(team)', '\(role)')", as: fixture.alice)
      }
    }
    #expect(try Self.teamRows(fixture, team) == before)

    // A person's role is invited as before; once joined, it is "already a member".
    try alice.invite(long, to: team)
    try fixture.server(fixture.bob).join(team)
    let joined = #expect(throws: RemoteError.self) { try alice.invite(fixture.bob, to: team) }
    #expect(joined?.description == "'\(fixture.bob)' is already a member of team '\(team)'")
  }
}
