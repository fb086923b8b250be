import ArgumentParser
import Core
import Foundation
import Remote
import Storage

extension Ootd.Team {
  /// `ootd team list [--json]`: the teams you are in and the invitations you have not accepted.
  struct List: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List the teams you are in and the invitations waiting for you.",
      discussion: """
        Each team with your role there (owner, admin, member); an invitation you have not \
        accepted says who invited you and how to join.

        JSON: [{"team","role","joined","invitedBy"}], by team name; "joined" is false for an \
        invitation ("role" is then the role you are invited as).

        Examples:
          ootd team list
          ootd team list --json
        """)

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let memberships = try global.remoteAccess(environment).server().memberships()
      if output.json {
        JSONOutput.print(memberships.map(MembershipJSON.init), environment)
        return
      }
      let style = environment.style(noColor: global.noColor)
      guard !memberships.isEmpty else {
        environment.print(style.dim("No teams yet: 'ootd team create NAME' makes one; an invitation to one shows here."))
        return
      }
      let width = memberships.map { DisplayWidth.of(TerminalText.printable($0.team)) }.max() ?? 0
      for membership in memberships {
        let name = DisplayWidth.padRight(TerminalText.printable(membership.team), to: width)
        let what =
          membership.joined
          ? membership.role.rawValue
          : style.yellow(
            "invited as \(membership.role.rawValue) by \(TerminalText.printable(membership.invitedBy)): 'ootd team join \(TerminalText.printable(membership.team))'"
          )
        environment.print(style.bold(name) + "  " + what)
      }
    }
  }

  /// `{"invitedBy","joined","role","team"}`.
  struct MembershipJSON: JSONShape {
    let membership: RemoteServer.Membership

    func write(to writer: inout JSONStreamWriter) {
      writer.beginObject()
      writer.key("invitedBy")
      writer.string(membership.invitedBy)
      writer.key("joined")
      writer.bool(membership.joined)
      writer.key("role")
      writer.string(membership.role.rawValue)
      writer.key("team")
      writer.string(membership.team)
      writer.endObject()
    }
  }
}
