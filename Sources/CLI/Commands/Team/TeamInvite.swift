import ArgumentParser
import Core
import Foundation
import Remote
import Storage

extension Ootd.Team {
  /// `ootd team invite NAME ROLE`.
  struct Invite: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "invite",
      abstract: "Invite a person's database role into a team (owners and admins).",
      discussion: """
        The role must be a person's login role in ootd_member: never a superuser nor the \
        server's owner. It sees nothing until it runs 'ootd team join NAME'. Only the owner may invite an admin; admins invite and remove members too.

        Examples:
          ootd team invite algo-study bob
          ootd team invite algo-study carol --admin
        """)

    @OptionGroup var team: TeamNameArgument

    @Argument(help: ArgumentHelp("The invited person's database role.", valueName: "role"))
    var role: String

    @Flag(name: .long, help: "Make them an admin (owners only).")
    var admin = false

    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let server = try global.remoteAccess(environment).server()
      try server.invite(role, to: team.name, admin: admin)
      environment.print(TerminalText.printable(
        "Invited \(role) to team \(team.name)\(admin ? " as an admin" : ""); they join with 'ootd team join \(team.name)'."))
    }
  }
}
