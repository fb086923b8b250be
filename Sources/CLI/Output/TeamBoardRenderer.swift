import Core

/// `ootd team board --json`: `{"team","from","to","members":[{"name","you","days":[{"date","total",
/// "done","rate","commits"}],"rate","currentStreak"}]}`. One `days` entry per day of the
/// range; `rate` is null without todos, `commits` null where the member published none.
struct TeamBoardJSON: JSONShape {
  let team: String
  let range: DayRange
  let rows: [TeamBoardRow]

  func write(to writer: inout JSONStreamWriter) {
    writer.beginObject()
    writer.key("from")
    writer.string(range.from.description)
    writer.key("members")
    writer.array(rows.map(Member.init))
    writer.key("team")
    writer.string(team)
    writer.key("to")
    writer.string(range.to.description)
    writer.endObject()
  }

  /// `{"currentStreak","days","done","name","rate","total","you"}`.
  struct Member: JSONShape {
    let row: TeamBoardRow

    func write(to writer: inout JSONStreamWriter) {
      writer.beginObject()
      writer.key("currentStreak")
      writer.integer(row.currentStreak)
      writer.key("days")
      writer.array(row.days.map(Day.init))
      writer.key("done")
      writer.integer(row.total.done)
      writer.key("name")
      writer.string(row.name)
      writer.key("rate")
      writer.double(row.rate)
      writer.key("total")
      writer.integer(row.total.total)
      writer.key("you")
      writer.bool(row.isViewer)
      writer.endObject()
    }
  }

  /// `{"commits","date","done","rate","total"}`.
  struct Day: JSONShape {
    let entry: TeamBoardRow.Entry

    func write(to writer: inout JSONStreamWriter) {
      writer.beginObject()
      writer.key("commits")
      writer.integer(entry.commits)
      writer.key("date")
      writer.string(entry.day.description)
      writer.tallyMembers(entry.tally)
      writer.endObject()
    }
  }
}

/// The text board: a table with one row per member (rate, streak, commits over the range) and a
/// one-line heatmap of the days, shaded as `report --calendar` shades them.
struct TeamBoardRenderer {
  let style: Style

  func render(team: String, range: DayRange, rows: [TeamBoardRow]) -> [String] {
    let days = range.count == 1 ? "1 day" : "\(range.count) days"
    var lines = [TerminalText.printable("Team \(team) · \(range.from) → \(range.to) (\(days))"), ""]
    guard !rows.isEmpty else { return lines + ["No members."] }
    let names = rows.map { TerminalText.printable($0.name) }
    let nameWidth = max(4, names.map(DisplayWidth.of).max() ?? 0)
    // A first column marks the viewer's own row: outside the name, so no name can fake it.
    lines.append(
      style.bold(
        "  " + DisplayWidth.padRight("Name", to: nameWidth) + "  " + "Rate".leftPadded(4) + "  "
          + "Done".leftPadded(7) + "  " + "Streak" + "  " + "Commits" + "  " + "Days"))
    let heatmap = TerminalHeatmap(style: style, width: 80)
    for (row, name) in zip(rows, names) {
      let rate = row.total.percent.map { "\($0)%" } ?? "—"
      let done = "\(row.total.done)/\(row.total.total)"
      let commitDays = row.days.compactMap(\.commits)
      let commits = commitDays.isEmpty ? "—" : String(commitDays.reduce(0, +))
      // The newest days that fit 80 columns; `…` when older ones are left out.
      let room = max(7, 80 - (2 + nameWidth + 2 + 4 + 2 + 7 + 2 + 6 + 2 + 7 + 2))
      let shown = row.days.count > room ? Array(row.days.suffix(room - 1)) : row.days
      let cells = (shown.count < row.days.count ? "…" : "")
        + shown.map { heatmap.cell(AchievementLevel($0.tally).rawValue) }.joined()
      lines.append(
        (row.isViewer ? "> " : "  ") + DisplayWidth.padRight(name, to: nameWidth) + "  " + rate.leftPadded(4) + "  "
          + done.leftPadded(7) + "  " + String(row.currentStreak).leftPadded(6) + "  "
          + commits.leftPadded(7) + "  " + cells)
    }
    lines.append("")
    lines += heatmap.legend(AchievementLevel.allCases.map(\.label))
    return lines
  }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String { DisplayWidth.padLeft(self, to: width) }
}
