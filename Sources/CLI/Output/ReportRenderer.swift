import Core
import Foundation
import Zone

/// Renders an ``AchievementReport`` for people (a table of bars or a calendar) and as CSV.
/// Charts come from the shared layer in `Heatmap.swift`.
struct ReportRenderer {
  let style: Style
  let today: Day
  /// The terminal width.
  var width: Int = 80
  /// The project the report is limited to, if any (shown in the heading).
  var project: String? = nil
  /// The GitHub commits of the same days, once any are synced (a commits column and line).
  var commits: CommitCalendar? = nil
  /// When commits were last synced, said under the summary.
  var lastSync: Date? = nil
  /// The zone `lastSync` is shown in.
  var timeZone: any ZoneRules = ZoneInfo.utc

  /// Ranges up to this many days get one row per day; longer ones one row per week.
  static let dailyRowLimit = 62

  // MARK: - Table

  /// The heading, one bar row per day (per week for long ranges), then the summary.
  func table(_ report: AchievementReport) -> [String] {
    let bars = BarTable(style: style, width: width)
    var lines = heading(report) + [""]
    if report.range.count <= Self.dailyRowLimit {
      lines += bars.render(report.days.map(dayRow))
    } else {
      lines += bars.render(weekRows(report))
      lines.append(style.dim("  (one row per week; --csv or --json list every day)"))
    }
    lines.append("")
    lines += summary(report)
    lines.append("")
    lines.append(style.bold("By priority"))
    lines += bars.render(
      report.priorities.map { BarTable.Row(label: $0.priority.rawValue, tally: $0.tally) })
    lines.append("")
    lines.append(style.bold("By weekday"))
    // Every weekday sharing the best (or worst) rate is marked; when all share one, none is.
    let even = report.weekdaysAllTied
    let best = even ? [] : report.bestWeekdays
    let worst = even ? [] : report.worstWeekdays
    lines += bars.render(
      report.weekdays.map { entry in
        var note = ""
        if best.contains(entry.weekday) { note = style.green(best.count > 1 ? "best (tie)" : "best") }
        if worst.contains(entry.weekday) { note = style.red(worst.count > 1 ? "worst (tie)" : "worst") }
        return BarTable.Row(label: entry.weekday.shortName, tally: entry.tally, note: note)
      })
    return lines
  }

  /// `Achievement · 2026-10-26 → 2026-11-22 (28 days) · project ootd`, wrapped between its
  /// parts (never mid-word) on a narrow terminal.
  func heading(_ report: AchievementReport) -> [String] {
    let range = report.range
    let days = counted(range.count, "day")
    let span = range.count == 1 ? "\(range.from)" : "\(range.from) → \(range.to)"
    let whole = "\(span) (\(days))"
    // Narrower than the range and its length together: each on its own line, never `(28` / `days)`.
    var parts = [style.bold("Achievement")] + (DisplayWidth.of(whole) > width ? [span, "(\(days))"] : [whole])
    if let project { parts.append("project " + style.cyan(TerminalText.printable(project))) }
    return wrapFacts(parts)
  }

  /// Totals, perfect days and streaks.
  func summary(_ report: AchievementReport) -> [String] {
    // `  Streak    value`; a value too wide for the terminal goes on between words, under itself.
    func row(_ label: String, _ value: String) -> [String] {
      let values = DisplayWidth.wrapWords(value, to: max(12, width - 12))
      return values.enumerated().map { index, text in
        (index == 0 ? "  " + DisplayWidth.padRight(label, to: 10) : String(repeating: " ", count: 12)) + text
      }
    }
    let total = report.total
    let done = total.percent.map { "\(total.done)/\(total.total) done  \($0)%" } ?? "nothing planned"
    let perfect = "\(report.perfectDays) of \(report.activeDays) days with todos"
    var now = "\(counted(report.streaks.current, "perfect day")) now"
    if let last = report.days.last(where: { $0.tally.hasTodos }), last.day == today,
      !last.tally.isPerfect
    {
      // The current streak ends at today, which is still being worked on: say so.
      now += style.dim(" (today still open)")
    }
    let streak = "\(now) · longest \(report.streaks.longest)"
    var lines =
      row("Total", total.isPerfect ? style.green(done) : done) + row("Perfect", perfect)
      + row("Streak", streak)
    if let best = report.bestWeekday, report.worstWeekday != nil {
      let rate = { (day: Weekday) in
        report.weekdays[day.rawValue - 1].tally.percent.map { " \($0)%" } ?? ""
      }
      // `best Tue, Thu 87% (tie)`: a tie is said, never broken silently.
      let named = { (days: [Weekday]) in
        days.map(\.shortName).joined(separator: ", ") + rate(days[0]) + (days.count > 1 ? " (tie)" : "")
      }
      if report.weekdaysAllTied {
        lines += (row("Weekdays", "all tied at\(rate(best)): no best or worst"))
      } else {
        lines += (row("Weekdays", "best \(named(report.bestWeekdays)) · worst \(named(report.worstWeekdays))"))
      }
    }
    if let commits {
      lines += (row("Commits", commitSummary(commits)))
    }
    return lines
  }

  /// `1,234 on 210 days · last synced 2026-11-22 09:41 (3 hours ago)`.
  private func commitSummary(_ commits: CommitCalendar) -> String {
    let total = commits.total == 1 ? "1 commit" : "\(group(commits.total)) commits"
    var text = "\(total) on \(counted(commits.activeDays, "day"))"
    if let lastSync { text += " · " + style.dim(synced(lastSync)) }
    return text
  }

  /// `last synced 2026-11-22 09:41`.
  private func synced(_ date: Date) -> String {
    "last synced \(syncStamp(date, timeZone: timeZone))"
  }

  /// `  3 commits` in a column as wide as the range's busiest day needs; blank for none.
  private func commitNote(_ count: Int) -> String {
    guard let commits else { return "" }
    let width = String(commits.counts.max() ?? 0).count
    let number = String(repeating: " ", count: max(0, width - String(count).count)) + "\(count)"
    let text = number + (count == 1 ? " commit " : " commits")
    return count == 0 ? style.dim(text) : style.cyan(text)
  }

  private func dayRow(_ entry: DayTally) -> BarTable.Row {
    var notes: [String] = []
    if let commits {
      if let count = commits.syncedCount(on: entry.day) {
        notes.append(commitNote(count))
      } else {
        notes.append(style.dim("not synced"))
      }
    }
    if entry.tally.isPerfect { notes.append(style.green("✓")) }
    // What the day counts as not done because it was carried away (JSON and CSV: `carried`).
    if entry.tally.carried > 0 { notes.append(style.dim("\(entry.tally.carried) carried")) }
    if entry.day == today { notes.append(style.dim("today")) }
    return BarTable.Row(
      label: "\(entry.day.weekday.shortName) \(entry.day)", tally: entry.tally,
      note: notes.joined(separator: " "))
  }

  /// One row per calendar week (Monday to Sunday, cut to the range), labelled by its first day.
  private func weekRows(_ report: AchievementReport) -> [BarTable.Row] {
    var rows: [BarTable.Row] = []
    var index = 0
    while index < report.days.count {
      let first = report.days[index].day
      let length = min(report.days.count - index, 7 - (first.weekday.rawValue - 1))
      let week = report.days[index..<index + length]
      let tally = week.reduce(Tally.zero) { $0 + $1.tally }
      let perfect = week.filter { $0.tally.isPerfect }.count
      var note = perfect == 0 ? "" : style.dim("\(perfect)✓")
      if let commits {
        let count = week.reduce(0) { $0 + commits.count(on: $1.day) }
        note = style.cyan("\(group(count)) \(count == 1 ? "commit" : "commits")") + (note.isEmpty ? "" : " " + note)
      }
      rows.append(BarTable.Row(label: "week of \(first)", tally: tally, note: note))
      index += length
    }
    return rows
  }

  // MARK: - Calendar

  /// The heading, the calendar heatmap with its legend, and a one-line summary.
  func calendar(_ report: AchievementReport) -> [String] {
    var lines = heading(report) + [""]
    let heatmap = TerminalHeatmap(style: style, width: width)
    if let commits {
      // Achievement and commits week by week, one above the other, and how they relate.
      lines += heatmap.renderStacked([
        ("Achievement", HeatmapData(report)), ("Commits", HeatmapData(commits)),
      ])
      lines.append("")
      lines += wrapFacts(CommitAchievementRelation(report, commits: commits).parts)
    } else {
      lines += heatmap.render(HeatmapData(report))
    }
    lines.append("")
    let total = report.total
    var facts = [total.percent.map { "\(total.done)/\(total.total) done (\($0)%)" } ?? "nothing planned"]
    facts.append(counted(report.perfectDays, "perfect day"))
    facts.append("streak \(report.streaks.current), longest \(report.streaks.longest)")
    if let commits {
      facts.append(commits.total == 1 ? "1 commit" : "\(group(commits.total)) commits")
      if let from = commits.syncedFrom, from > report.range.from {
        facts.append(style.dim("not synced before \(from)"))
      }
      if let lastSync { facts.append(style.dim(synced(lastSync))) }
    }
    lines += wrapFacts(facts)
    return lines
  }

  /// Joins facts with ` · `, wrapping to the width.
  private func wrapFacts(_ facts: [String]) -> [String] {
    var lines: [String] = []
    var line = ""
    for fact in facts {
      let candidate = line.isEmpty ? fact : line + " · " + fact
      if !line.isEmpty && DisplayWidth.visible(candidate) > width {
        lines.append(line)
        line = fact
      } else {
        line = candidate
      }
    }
    if !line.isEmpty { lines.append(line) }
    // A fact wider than the terminal by itself (`2026-10-27 → 2026-11-23 (28 days)` at 24
    // columns) goes on between its words.
    return lines.flatMap { DisplayWidth.wrapWords($0, to: width) }
  }

  // MARK: - CSV

  /// `date,weekday,total,done,rate,commits,carried`, one row per day; `rate` is empty when
  /// nothing was planned, `commits` when no commits were ever synced or the day is before the
  /// first sync (not synced, never 0); `carried` counts the
  /// todos moved away after the day began (included in `total`).
  static func csv(_ report: AchievementReport, commits: CommitCalendar? = nil) -> String {
    var text = "date,weekday,total,done,rate,commits,carried\n"
    for entry in report.days {
      let rate = entry.tally.rate.map { "\($0)" } ?? ""
      let count = commits?.syncedCount(on: entry.day).map { String($0) } ?? ""
      text += "\(entry.day),\(entry.day.weekday.shortName),\(entry.tally.total),\(entry.tally.done),\(rate),\(count),\(entry.tally.carried)\n"
    }
    return text
  }

}
