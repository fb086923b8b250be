import ArgumentParser
import Core
import Foundation
import Remote
import Storage

extension Ootd.Team {
  /// `ootd team promote NAME MEMBER`.
  struct Promote: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "promote",
      abstract: "Make a member of a team an owner of it (owners only).",
      discussion: """
        A team always keeps an owner: its last owner cannot leave until another member is one. \
        The member must have joined the team.

        Example:
          ootd team promote algo-study bob
          ootd team leave algo-study          # now possible for the old owner
        """)

    @OptionGroup var team: TeamNameArgument

    @Argument(help: ArgumentHelp("The member's database role.", valueName: "member"))
    var member: String

    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let server = try global.remoteAccess(environment).server()
      let promoted = try server.promote(member, in: team.name)
      environment.print(TerminalText.printable(
        promoted
          ? "\(member) is now an owner of team \(team.name)."
          : "\(member) already is an owner of team \(team.name): nothing changed."))
    }
  }
}
