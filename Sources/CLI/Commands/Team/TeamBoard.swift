import ArgumentParser
import Core
import Foundation
import Remote
import Storage

extension Ootd.Team {
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
        JSONOutput.print(TeamBoardJSON(team: team.name, range: days, rows: rows), environment)
      } else {
        let renderer = TeamBoardRenderer(style: environment.style(noColor: global.noColor))
        environment.output(renderer.render(team: team.name, range: days, rows: rows).map { $0 + "\n" }.joined())
      }
    }
  }
}
