import ArgumentParser
import Core
import Foundation
import Remote
import Storage

extension Ootd.Team {
  /// `ootd team create NAME`.
  struct Create: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "create",
      abstract: "Create a team; you become its owner.",
      discussion: """
        A name has letters, digits, '.', '_' and '-' (at most 63), and is unique on the server.

        Example:
          ootd team create algo-study
        """)

    @OptionGroup var team: TeamNameArgument
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let access = try global.remoteAccess(environment)
      let server = try access.server()
      try server.createTeam(team.name)
      try access.shareDisplayName(server)
      environment.print(TerminalText.printable(
        "Created team \(team.name); you are its owner. Invite others with 'ootd team invite \(team.name) ROLE'."))
    }
  }
}
