import Core
import Foundation
import Storage
import Zone

/// Everything `ootd graph` prints, in each of its formats.
struct CommitGraphReport: JSONShape {
  let calendar: CommitCalendar
  let author: String?
  let repository: RepositoryName?
  let timeZone: any ZoneRules
  let today: Day
  let repositories: [RepositoryCommitCount]
  let lastSync: Date?

  static func iso(_ date: Date) -> String { Timestamp.string(date, .iso8601) }

  /// `Commits by gr · 2025-11-23 → 2026-11-22 · 1,234 commits`: the SVG's caption.
  var caption: String {
    var parts = [
      "Commits" + (author.map { " by \($0)" } ?? "") + (repository.map { " in \($0)" } ?? "")
    ]
    parts.append("\(calendar.range.from) → \(calendar.range.to)")
    parts.append(counted(calendar.total, "commit", digits: group))
    return parts.joined(separator: " · ")
  }

  /// `date,count` with a header line.
  func csv() -> String {
    "date,count\n" + calendar.days.map { "\($0.day),\($0.count)\n" }.joined()
  }

  /// The terminal report: headline figures, the grid, the repositories, the last sync.
  func text(style: Style, width: Int, now: Date) -> String {
    var lines: [String] = []
    let who = author.map { " by \(TerminalText.printable($0))" } ?? ""
    let where_ = repository.map { " in \($0)" } ?? ""
    lines.append(
      style.bold("Commits\(who)\(where_)")
        + style.dim(" · \(calendar.range.from) → \(calendar.range.to) · \(timeZone.identifier)"))
    let total = calendar.total
    var figures = [
      "\(counted(total, "commit", digits: group)) on \(counted(calendar.activeDays, "day", digits: group))"
    ]
    if let busiest = calendar.busiestDay {
      figures.append("busiest \(busiest.day) (\(group(busiest.count)))")
    }
    figures.append("current streak \(streakText(calendar.currentStreak))")
    figures.append("longest \(streakText(calendar.longestStreak, showingDays: true))")
    lines.append(figures.joined(separator: " · "))
    lines.append("")
    lines += TerminalHeatmap(style: style, width: width).render(HeatmapData(calendar))
    let shown = repositories.filter { $0.commits > 0 }
    if !shown.isEmpty && repository == nil {
      lines.append("")
      lines.append(style.bold("By repository"))
      let nameWidth = shown.prefix(10).map { DisplayWidth.of($0.repository) }.max() ?? 0
      let countWidth = shown.prefix(10).map { group($0.commits).count }.max() ?? 0
      for entry in shown.prefix(10) {
        lines.append(
          "  " + DisplayWidth.padRight(entry.repository, to: nameWidth) + "  "
            + DisplayWidth.padLeft(group(entry.commits), to: countWidth))
      }
      if shown.count > 10 { lines.append(style.dim("  … and \(shown.count - 10) more")) }
    }
    lines.append("")
    lines.append(style.dim(lastSyncLine(lastSync, now: now, timeZone: timeZone)))
    return lines.map { $0 + "\n" }.joined()
  }

  private func streakText(_ streak: Streak?, showingDays: Bool = false) -> String {
    guard let streak else { return "0 days" }
    let days = counted(streak.length, "day")
    return showingDays && streak.length > 1 ? "\(days) (\(streak.from) – \(streak.to))" : days
  }
}

/// "Last synced 2026-11-22 09:41 (3 hours ago)", or how to sync when nothing ever was.
func lastSyncLine(_ lastSync: Date?, now: Date, timeZone: any ZoneRules) -> String {
  guard let lastSync else { return "Never synced with GitHub: run 'ootd sync'." }
  let seconds = max(0, now.timeIntervalSince(lastSync))
  let ago: String
  switch seconds {
  case ..<90: ago = "just now"
  case ..<5400: ago = "\(Int((seconds / 60).rounded())) minutes ago"
  case ..<(36 * 3600): ago = "\(Int((seconds / 3600).rounded())) hours ago"
  default: ago = "\(Int((seconds / 86_400).rounded())) days ago"
  }
  return "Last synced \(syncStamp(lastSync, timeZone: timeZone)) (\(ago))."
}

extension CommitGraphReport {
  /// Writes the graph (`graph --json`): `{"from","to","days":[{"date","count"}],"total","user",
  /// "repository","timeZone","activeDays","busiestDay","currentStreak","longestStreak",
  /// "repositories","lastSync"}`; a missing streak is one of 0 days, as the text says.
  func write(to writer: inout JSONStreamWriter) {
    func day(_ day: Day, _ count: Int) {
      writer.beginObject()
      writer.key("count")
      writer.integer(count)
      writer.key("date")
      writer.string(day.description)
      writer.endObject()
    }
    func streak(_ streak: Streak?) {
      writer.beginObject()
      writer.key("days")
      writer.integer(streak?.length ?? 0)
      writer.key("from")
      writer.string(streak?.from.description)
      writer.key("to")
      writer.string(streak?.to.description)
      writer.endObject()
    }
    writer.beginObject()
    writer.key("activeDays")
    writer.integer(calendar.activeDays)
    writer.key("busiestDay")
    if let busiest = calendar.busiestDay { day(busiest.day, busiest.count) } else { writer.null() }
    writer.key("currentStreak")
    streak(calendar.currentStreak)
    writer.key("days")
    writer.beginArray()
    for (date, count) in calendar.days { day(date, count) }
    writer.endArray()
    writer.key("from")
    writer.string(calendar.range.from.description)
    writer.key("lastSync")
    writer.string(lastSync.map(Self.iso))
    writer.key("longestStreak")
    streak(calendar.longestStreak)
    writer.key("repositories")
    writer.beginArray()
    for entry in repositories {
      writer.beginObject()
      writer.key("commits")
      writer.integer(entry.commits)
      writer.key("lastSync")
      writer.string(entry.lastSyncAt.map(Self.iso))
      writer.key("repository")
      writer.string(entry.repository)
      writer.endObject()
    }
    writer.endArray()
    writer.key("repository")
    writer.string(repository?.description)
    writer.key("timeZone")
    writer.string(timeZone.identifier)
    writer.key("to")
    writer.string(calendar.range.to.description)
    writer.key("total")
    writer.integer(calendar.total)
    writer.key("user")
    writer.string(author)
    writer.endObject()
  }
}
