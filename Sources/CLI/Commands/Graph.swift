import ArgumentParser
import Core
import Foundation
import Storage

extension Ootd {
  /// `ootd graph`: the daily commit graph, from the local database (no network).
  struct Graph: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "graph",
      abstract: "Draw the daily commit graph of the synced commits (works offline).",
      discussion: """
        Counts each commit once (by SHA, across forks) on the day of its author date in the \
        display time zone (--tz, else $TZ, else the system's). Merge commits count. As on \
        GitHub's profile, commits found only in forks do not count (--include-forks counts \
        them). Run 'ootd sync' first; the graph says when that last happened.

        --json prints {"from", "to", "days": [{"date", "count"}], "total", ...} with every day \
        of the range, plus the busiest day, the streaks ({"from", "to", "days"}: 0 days and null \
        dates when there is none), the repositories and lastSync.

        Examples:
          ootd graph
          ootd graph --weeks 12 --repo groue/GRDB.swift
          ootd graph --from 2026-01-01 --to 2026-06-30 --json
          ootd graph --csv > commits.csv
          ootd graph --svg commits.svg
        """)

    @OptionGroup var range: GraphRangeOptions

    @Option(
      name: .long,
      help: ArgumentHelp(
        "Whose commits (default: the saved login, else every synced commit).", valueName: "login"))
    var user: String?

    @Option(name: .long, help: ArgumentHelp("Only this repository.", valueName: "owner/name"))
    var repo: String?

    @Option(
      name: .long,
      help: ArgumentHelp(
        "Display time zone, an IANA name such as Asia/Seoul.", valueName: "zone"))
    var tz: String?

    @Flag(name: .long, help: "Print comma-separated values: date,count.")
    var csv = false

    @Flag(name: .long, help: "Also count commits found only in forks (GitHub's profile does not).")
    var includeForks = false

    @OptionGroup var image: SVGOutputOption<CommitGraphImage>
    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if let repo, RepositoryName(repo) == nil {
        throw ValidationError(
          "'\(repo)' is not a repository: use OWNER/NAME, e.g. groue/GRDB.swift")
      }
      if let tz, AppEnvironment.zone(named: tz) == nil {
        throw ValidationError("'\(tz)' is not a time zone: use an IANA name such as Europe/Paris")
      }
      if csv && output.json { throw ValidationError("give --json or --csv, not both") }
      try image.validate(conflictingWith: "--json or --csv", given: csv || output.json)
    }

    func run(in environment: AppEnvironment) throws {
      let zone = tz.flatMap { AppEnvironment.zone(named: $0) } ?? environment.timeZone
      let today = Day(environment.now, in: zone)
      let days = try range.range(today: today)
      let database = try global.openDatabase(environment, readOnly: true)
      let graph = try CommitGraphReport.load(
        days, user: user, repository: repo.flatMap(RepositoryName.init), timeZone: zone,
        today: today, includeForks: includeForks, database: database)
      let wrote = try image.write(
        { HeatmapSVG().render(HeatmapData(graph.calendar), caption: graph.caption) },
        what: "the commit graph of \(days.from) → \(days.to) (\(group(graph.calendar.total)) commits)",
        moreOutput: output.json || csv, environment)
      if wrote { return }
      if output.json {
        var writer = JSONStreamWriter(environment)
        graph.write(to: &writer)
        writer.finish()
      } else if csv {
        environment.output(graph.csv())
      } else {
        let style = environment.style(noColor: global.noColor)
        environment.output(
          graph.text(style: style, width: environment.terminalWidth, now: environment.now))
      }
    }
  }
}

/// The image `ootd graph --svg` writes.
enum CommitGraphImage: SVGImageKind {
  static let help = "Also write the graph as an SVG image ('-': standard output)."
}
