import ArgumentParser
import Core
import Foundation
import Remote
import Storage

extension Ootd.Team {
  /// `ootd team leave NAME`.
  struct Leave: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "leave",
      abstract: "Leave a team (or decline its invitation); it stops seeing your figures.",
      discussion: """
        The last owner cannot leave: make another member an owner first ('ootd team promote \
        NAME MEMBER'), or delete the team ('ootd team delete NAME').

        Example:
          ootd team leave algo-study
        """)

    @OptionGroup var team: TeamNameArgument
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let server = try global.remoteAccess(environment).server()
      try server.leave(team.name)
      environment.print(TerminalText.printable("Left team \(team.name)."))
    }
  }
}
