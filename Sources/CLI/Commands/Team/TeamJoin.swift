import ArgumentParser
import Core
import Foundation
import Remote
import Storage

extension Ootd.Team {
  /// `ootd team join NAME`.
  struct Join: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "join",
      abstract: "Accept an invitation to a team.",
      discussion: """
        Example:
          ootd team join algo-study
        """)

    @OptionGroup var team: TeamNameArgument
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let access = try global.remoteAccess(environment)
      let server = try access.server()
      let joined = try server.join(team.name)
      try access.shareDisplayName(server)
      environment.print(TerminalText.printable(
        joined ? "Joined team \(team.name)." : "You are already in team \(team.name)."))
    }
  }
}
