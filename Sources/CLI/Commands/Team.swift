import ArgumentParser
import Core
import Foundation
import Remote
import Storage

extension Ootd {
  /// `ootd team`: study groups sharing a board of daily figures through the server.
  struct Team: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "team",
      abstract: "Share a board of daily achievement and commits with a study group.",
      discussion: """
        Teams live on the server ('ootd remote set'); every team command acts there at once. \
        Members share only per-day figures (date, todos planned and done, commits) and a \
        display name, never titles, projects or notes. The server enforces it: a role reads \
        the figures only of teams it has joined.

        Examples:
          ootd team create algo-study
          ootd team invite algo-study bob       # bob's database role
          ootd team join algo-study             # run by bob
          ootd team board algo-study --week
          ootd team leave algo-study
        """,
      subcommands: [Create.self, Invite.self, Join.self, Leave.self, Board.self])
  }
}

/// The team name argument every team command takes.
struct TeamNameArgument: ParsableArguments {
  @Argument(help: ArgumentHelp("The team's name.", valueName: "name"))
  var name: String
}

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

  /// `ootd team invite NAME ROLE`.
  struct Invite: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "invite",
      abstract: "Invite a person's database role into a team (owners and admins).",
      discussion: """
        The role must be a member of ootd_member. It sees nothing until it runs 'ootd team \
        join NAME'. Only the owner may invite an admin; admins invite and remove members too.

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

  /// `ootd team leave NAME`.
  struct Leave: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "leave",
      abstract: "Leave a team (or decline its invitation); it stops seeing your figures.",
      discussion: """
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

  /// `ootd team board NAME [--week | --month | --from D --to D] [--json]`.
  struct Board: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "board",
      abstract: "Show each member's daily rate, current streak and commits side by side.",
      discussion: """
        Without a range: the last 7 days. --week, --month and --year mean the last 7, 30 \
        and 365 days ending today, as in 'ootd report'. The rate is done/total over the range; the streak \
        follows 'ootd report' (perfect days in a row; days without todos neither extend nor \
        break it). Members see figures published by 'ootd remote sync'.

        Your own row is marked with '>' (display names are unique on the server, compared \
        ignoring case and width, so no one can take yours).

        JSON: {"team","from","to","members":[{"name","you","days":[{"date","total","done","rate",\
        "commits"}],"rate","currentStreak"}]}, one day entry per day; "you" is true on your own row.

        Examples:
          ootd team board algo-study
          ootd team board algo-study --month
          ootd team board algo-study --from 2026-11-01 --to 2026-11-14 --json
        """)

    @OptionGroup var team: TeamNameArgument
    @OptionGroup var range: ReportRangeOptions
    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let days = try range.period(environment, fallback: .days(7)).range(today: environment.today)
      let server = try global.remoteAccess(environment).server()
      let members = try server.board(team.name, through: days.to)
      let rows = members.map {
        TeamBoardRow(
          name: $0.name, figures: $0.figures, range: days, today: environment.today, isViewer: $0.isViewer)
      }
      if output.json {
        environment.output(try JSONOutput.encode(TeamBoardJSON(team: team.name, range: days, rows: rows)) + "\n")
      } else {
        let renderer = TeamBoardRenderer(style: environment.style(noColor: global.noColor))
        environment.output(renderer.render(team: team.name, range: days, rows: rows).map { $0 + "\n" }.joined())
      }
    }
  }
}
