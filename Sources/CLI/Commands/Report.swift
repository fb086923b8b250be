import ArgumentParser
import Core
import Foundation
import Storage
import Zone

extension Ootd {
  /// `ootd report`: how much of each day's plan was done.
  struct Report: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "report",
      abstract: "Show how much of each day's plan you achieved: rates, streaks, a calendar.",
      discussion: """
        For each day: the todos planned, how many were done and the rate (done / total). Then \
        the range's total, its perfect days (at least one todo, all done), the current and \
        longest streak of perfect days (days without todos neither extend nor break a streak), \
        and the rate per priority and per weekday with the best and worst weekday.

        The range is the last 4 weeks (28 days ending today) unless you pick one: \
        --from/--to, --week (the last 7 days), --month (the last 30 days), --year (the last \
        365 days) or --days N, each ending today, as in every command that takes them. With --calendar or --svg the \
        default is the last 26 calendar weeks (about 6 months), which fits an 80-column \
        terminal; narrower terminals wrap.

        The calendar shades each day by its rate: · no todos, ░ under 50%, ▒ 50-79%, \
        ▓ 80-99%, █ 100%.

        Once GitHub commits are synced ('ootd sync'), each day also shows its commits, the \
        summary their total and when they were last synced; --calendar draws the commit \
        heatmap under the achievement one, week by week, and says how much you achieved on \
        days with commits and on days without. Days before the first sync of the shown \
        repositories are "not synced" (- in the calendar, null in JSON, empty in CSV), never \
        0 commits.

        --json prints {"from", "to", "days": [{"date", "total", "done", "rate", "commits"}], \
        "total", "done", "rate", "currentStreak", "longestStreak", ...} with every day of the \
        range; rate is null when nothing was planned, commits until commits are synced; carried \
        counts the todos moved away from the day after it began (they stay in its total, not \
        done). --csv prints date,weekday,total,done,rate,commits,carried.

        Streaks: a perfect day has todos, all done; days without todos neither extend nor \
        break a run; a day in progress (today) counts once it is perfect and never breaks a \
        run while it is open. A run counts in full in every range it overlaps, its days \
        outside the range included: longestStreak is the longest run that overlaps the range, \
        currentStreak the run standing at the range's last day (or the day before, while that \
        day is today and still open), counted back to its first day; perfectDays counts only \
        the range's own days. The current streak of a range ending today is the dashboard's.

        Examples:
          ootd report
          ootd report --week
          ootd report --from 2026-11-01 --to today --project ootd
          ootd report --calendar
          ootd report --year --calendar
          ootd report --year --svg achievement.svg
          ootd report --month --json | jq '.rate'
          ootd report --days 90 --csv > days.csv
        """)

    @OptionGroup var range: ReportRangeOptions

    @Option(name: .long, help: "Only todos of this project.")
    var project: String?

    @Flag(name: .long, help: "Draw a calendar heatmap (weeks as columns) instead of the table.")
    var calendar = false

    @OptionGroup var image: SVGOutputOption<CalendarImage>

    @Flag(name: .long, help: "Print CSV for spreadsheets: date,weekday,total,done,rate,commits,carried.")
    var csv = false

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if output.json && csv { throw ValidationError("--json and --csv cannot be combined") }
      if calendar && (output.json || csv) {
        throw ValidationError("--calendar draws for people; it cannot be combined with --json or --csv")
      }
      try image.validate(
        conflictingWith: "--calendar, --json or --csv", given: calendar || output.json || csv)
    }

    func run(in environment: AppEnvironment) throws {
      let pictures = calendar || image.svg != nil
      let period = try range.period(environment, fallback: pictures ? .calendarWeeks(26) : .standard)
      let days = try period.range(today: environment.today)
      let database = try global.openDatabase(environment, readOnly: true)
      let figures = try ReportFigures.load(
        days, project: project, today: environment.today, timeZone: environment.timeZone,
        database: database)
      let (report, commits, lastSync) = (figures.report, figures.commits, figures.lastSync)

      let wrote = try image.write(
        {
          guard let commits else {
            return HeatmapSVG().render(HeatmapData(report), caption: caption(report))
          }
          return HeatmapSVG().render(
            [("Achievement", HeatmapData(report)), ("Commits", HeatmapData(commits))],
            caption: caption(report),
            footer: CommitAchievementRelation(report, commits: commits).sentence)
        },
        what: "the calendar of \(days.from) → \(days.to) (\(days.count) days)",
        moreOutput: calendar || output.json || csv, environment)
      if wrote { return }
      if output.json {
        var writer = JSONStreamWriter(environment)
        JSONOutput.ReportJSON(report: report, project: project, commits: commits, lastSync: lastSync)
          .write(to: &writer)
        writer.finish()
        return
      }
      if csv {
        environment.output(ReportRenderer.csv(report, commits: commits))
        return
      }
      let renderer = ReportRenderer(
        style: environment.style(noColor: global.noColor), today: environment.today,
        width: environment.terminalWidth, project: project, commits: commits, lastSync: lastSync,
        timeZone: environment.timeZone)
      let lines = calendar ? renderer.calendar(report) : renderer.table(report)
      environment.output(lines.map { $0 + "\n" }.joined())
    }

    /// `ootd · 2026-05-25 → 2026-11-22 · 412/503 done (82%)`.
    private func caption(_ report: AchievementReport) -> String {
      var parts = ["ootd" + (project.map { " · \($0)" } ?? "")]
      parts.append("\(report.range.from) → \(report.range.to)")
      if let percent = report.total.percent {
        parts.append("\(report.total.done)/\(report.total.total) done (\(percent)%)")
      }
      return parts.joined(separator: " · ")
    }
  }
}

/// The image `ootd report --svg` writes.
enum CalendarImage: SVGImageKind {
  static let help = "Also write the calendar heatmap as an SVG image ('-': standard output)."
}
