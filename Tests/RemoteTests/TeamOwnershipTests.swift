import Core
import Foundation
import PostgresSupport
import Remote
import TestTags
import Testing

/// A team cannot be orphaned: it always keeps a joined owner, enforced by the server (schema
/// step 4) for this client and for any other that calls the schema's functions directly.
@Suite(.tags(.postgres), .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct TeamOwnershipTests {
  /// The team's joined members and their roles, as the schema's owner sees them.
  static func members(_ fixture: ServerFixture, _ team: String) throws -> [String] {
    try fixture.cluster.psql(
      "SELECT member || ':' || role || ':' || joined FROM ootd.team_members WHERE team = '\(team)' ORDER BY member",
      database: fixture.database
    ).split(separator: "\n").map(String.init)
  }

  @Test("the last owner cannot leave, through the client or by calling the server's function; nothing changes")
  func lastOwnerStays() throws {
    let fixture = try ServerFixture()
    let (alice, _, team) = try fixture.teamOfTwo()
    let before = try Self.members(fixture, team)
    #expect(throws: RemoteError.self) { try alice.leave(team) }
    // An old client (or psql) calling the function directly is refused by the server itself.
    let direct = try fixture.psql("SELECT ootd.remove_from_team('\(team)', current_user)", as: fixture.alice)
    #expect(direct.contains { $0.trimmingCharacters(in: .whitespaces) == "f" })
    #expect(try Self.members(fixture, team) == before)
    // Alone in a team, the owner cannot leave either: deleting the team is the way out.
    let solo = fixture.cluster.uniqueName("solo")
    try alice.createTeam(solo)
    #expect(throws: RemoteError.self) { try alice.leave(solo) }
    #expect(try alice.myRole(in: solo) == .owner)
  }

  @Test("an owner promotes a joined member; then the old owner may leave, and the team keeps an owner")
  func promoteThenLeave() throws {
    let fixture = try ServerFixture()
    let (alice, bob, team) = try fixture.invitedTeam()
    // An invitation not yet joined cannot be made an owner.
    #expect(throws: RemoteError.self) { try alice.promote(fixture.bob, in: team) }
    try bob.join(team)
    // Bob, a member, cannot promote himself.
    #expect(throws: RemoteError.self) { try bob.promote(fixture.bob, in: team) }
    #expect(try bob.myRole(in: team) == .member)
    // Alice makes Bob an owner (twice: the second changes nothing), then leaves.
    #expect(try alice.promote(fixture.bob, in: team) == true)
    #expect(try alice.promote(fixture.bob, in: team) == false)
    #expect(try bob.myRole(in: team) == .owner)
    try alice.leave(team)
    #expect(try alice.myRole(in: team) == nil)
    #expect(throws: RemoteError.self) { try bob.leave(team) }
  }

  @Test("only an owner deletes a team; the members' own figures stay")
  func deleteTeam() throws {
    let fixture = try ServerFixture()
    let (alice, bob, team) = try fixture.teamOfTwo()
    try bob.publishDayFigures([DayFigure(date: Day(iso: "2026-11-20")!, total: 2, done: 1, commits: nil)], displayName: nil)
    #expect(throws: RemoteError.self) { try bob.deleteTeam(team) }
    #expect(try Self.members(fixture, team).count == 2)
    try alice.deleteTeam(team)
    #expect(try Self.members(fixture, team).isEmpty)
    #expect(try alice.myRole(in: team) == nil && bob.myRole(in: team) == nil)
    #expect(try fixture.psql("SELECT count(*) FROM ootd.day_figures", as: fixture.bob).contains { $0.trimmingCharacters(in: .whitespaces) == "1" })
  }

  @Test("the board before joining says there is an invitation and how to accept it")
  func boardBeforeJoining() throws {
    let fixture = try ServerFixture()
    let (alice, bob, team) = try fixture.invitedTeam()
    do {
      _ = try bob.board(team, through: Day(iso: "2026-11-20")!)
      Issue.record("the board of a team not joined must be refused")
    } catch {
      #expect("\(error)".contains("ootd team join \(team)"), "\(error)")
    }
  }
}
