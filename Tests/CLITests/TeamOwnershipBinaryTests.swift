import Core
import Foundation
import PostgresSupport
import TestTags
import Testing

/// `team leave` by the last owner, `team promote` and `team delete`, through the built binary
/// against a real PostgreSQL initialised by `ootd remote init`.
@Suite(.tags(.binary, .postgres), .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct TeamOwnershipBinaryTests {
  @Test("the last owner's leave exits 1 and changes nothing; promote, then leave; delete asks, refuses without a terminal, and only an owner may")
  func ownership() throws {
    let world = try RemoteBinaryTests.World()
    let team = world.cluster.uniqueName("algo")
    #expect(try world.run(as: world.alice, ["team", "create", team]).code == 0)
    #expect(try world.run(as: world.alice, ["team", "invite", team, world.bob]).code == 0)
    // Before joining, the board names the invitation and the way in.
    let early = try world.run(as: world.bob, ["team", "board", team])
    #expect(early.code == 1)
    #expect(early.stderr.contains("you are invited; 'ootd team join \(team)'"), "\(early.stderr)")
    #expect(try world.run(as: world.bob, ["team", "join", team]).code == 0)
    // The last owner cannot leave: one line, exit 1, and the team is as it was.
    let refused = try world.run(as: world.alice, ["team", "leave", team])
    #expect(refused.code == 1)
    #expect(refused.stderr.split(separator: "\n").count == 1)
    #expect(refused.stderr.contains("ootd team promote \(team)"))
    #expect(try world.run(as: world.alice, ["team", "board", team]).code == 0)
    // A member cannot promote nor delete.
    #expect(try world.run(as: world.bob, ["team", "promote", team, world.bob]).code == 1)
    let memberDelete = try world.run(as: world.bob, ["team", "delete", team, "--yes"])
    #expect(memberDelete.code == 1 && memberDelete.stderr.contains("only an owner"))
    // The owner promotes Bob, and may then leave; Bob, the last owner now, may not.
    let promoted = try world.run(as: world.alice, ["team", "promote", team, world.bob])
    #expect(promoted.code == 0 && promoted.stdout.contains("now an owner"), "\(promoted.stderr)")
    #expect(try world.run(as: world.alice, ["team", "leave", team]).code == 0)
    #expect(try world.run(as: world.bob, ["team", "leave", team]).code == 1)
    // Delete without a terminal and without --yes: refused (64), nothing deleted; with --yes, gone.
    let unconfirmed = try world.run(as: world.bob, ["team", "delete", team])
    #expect(unconfirmed.code == 64)
    #expect(try world.run(as: world.bob, ["team", "board", team]).code == 0)
    let deleted = try world.run(as: world.bob, ["team", "delete", team, "--yes"])
    #expect(deleted.code == 0 && deleted.stdout == "Deleted team \(team).\n", "\(deleted.stderr)")
    #expect(try world.run(as: world.bob, ["team", "board", team]).code == 1)
  }

  @Test("team invite of the server's superuser exits 1 with one line and invites no one; a person's role is invited as before")
  func inviteSuperuser() throws {
    let world = try RemoteBinaryTests.World()
    let team = world.cluster.uniqueName("algo")
    #expect(try world.run(as: world.alice, ["team", "create", team]).code == 0)
    let rows = {
      try world.cluster.psql(
        "SELECT member || ':' || joined FROM ootd.team_members WHERE team = '\(team)' ORDER BY member", database: world.database)
    }
    let before = try rows()
    let refused = try world.run(as: world.alice, ["team", "invite", team, PostgresCluster.admin])
    #expect(refused.code == 1)
    #expect(refused.stdout.isEmpty)
    #expect(
      refused.stderr
        == "ootd: error: '\(PostgresCluster.admin)' is a superuser of the server, not a person's role: invite the role the person connects with\n")
    #expect(try rows() == before)
    #expect(try world.run(as: world.alice, ["team", "invite", team, world.bob]).code == 0)
  }
}
