import ArgumentParser
import Core
import Foundation
import Remote
import Storage

extension Ootd.Team {
  /// `ootd team delete NAME`.
  struct Delete: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete",
      abstract: "Delete a team with its memberships and invitations (owners only; asks first).",
      discussion: """
        Every member's own figures stay theirs: the team only stops sharing them. Asks on a \
        terminal; without one, refuses unless --yes.

        Example:
          ootd team delete algo-study
        """)

    @OptionGroup var team: TeamNameArgument
    @OptionGroup var confirmation: ConfirmOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let server = try global.remoteAccess(environment).server()
      // Ask only someone who may delete it: a member's answer would be refused anyway.
      guard try server.myRole(in: team.name) == .owner else {
        try server.deleteTeam(team.name)
        return
      }
      try confirmation.confirm(
        action: "delete team \(TerminalText.printable(team.name))",
        detail: "Its members stop sharing their figures; each keeps their own.", environment: environment)
      try server.deleteTeam(team.name)
      environment.print(TerminalText.printable("Deleted team \(team.name)."))
    }
  }
}
