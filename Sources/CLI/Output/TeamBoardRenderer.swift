import Core

/// `ootd team board --json`: `{"team","from","to","members":[{"name","you","days":[{"date","total",
/// "done","rate","commits"}],"rate","currentStreak"}]}`. One `days` entry per day of the
/// range; `rate` is null without todos, `commits` null where the member published none.
struct TeamBoardJSON: Encodable {
  let team: String
  let range: DayRange
  let rows: [TeamBoardRow]

  enum CodingKeys: String, CodingKey { case team, from, to, members }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(team, forKey: .team)
    try c.encode(range.from.description, forKey: .from)
    try c.encode(range.to.description, forKey: .to)
    try c.encode(rows.map(Member.init), forKey: .members)
  }

  struct Member: Encodable {
    let row: TeamBoardRow

    enum CodingKeys: String, CodingKey { case name, you, days, rate, total, done, currentStreak }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(row.name, forKey: .name)
      try c.encode(row.isViewer, forKey: .you)
      try c.encode(row.days.map(Day.init), forKey: .days)
      try c.encode(row.rate, forKey: .rate)
      try c.encode(row.total.total, forKey: .total)
      try c.encode(row.total.done, forKey: .done)
      try c.encode(row.currentStreak, forKey: .currentStreak)
    }
  }

  struct Day: Encodable {
    let entry: TeamBoardRow.Entry

    enum CodingKeys: String, CodingKey { case date, total, done, rate, commits }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(entry.day.description, forKey: .date)
      try c.encode(entry.tally.total, forKey: .total)
      try c.encode(entry.tally.done, forKey: .done)
      try c.encode(entry.tally.rate, forKey: .rate)
      try c.encode(entry.commits, forKey: .commits)
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
