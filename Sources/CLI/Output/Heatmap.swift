import Core

// The shared chart layer: calendar heatmaps (terminal and SVG) and bar tables. Commands hand it
// generic per-day values mapped to five levels, so the achievement report and, later, the
// GitHub commit graph draw with the same code.

// MARK: - Data

/// What a calendar heatmap shows: one level (0…4) per day of a range, a description of each
/// day for tooltips, and what each level means for the legend.
struct HeatmapData {
  /// The days drawn.
  let range: DayRange
  /// The shade of a day, 0 (nothing) to 4 (the most); values outside are clamped.
  let level: (Day) -> Int
  /// One line about a day, e.g. `2026-11-22: 4/5 done (80%)` (SVG tooltips).
  let describe: (Day) -> String
  /// Five labels, one per level, e.g. `none`, `<50%`, …, `100%`.
  let legend: [String]
  /// Days whose value is unknown (commits of days before the first sync): drawn apart, never
  /// as level 0.
  var isMissing: (Day) -> Bool = { _ in false }
  /// What the legend calls a missing day, when some can be.
  var missingLabel: String? = nil

  /// The level of `day`, clamped to 0…4.
  func clampedLevel(_ day: Day) -> Int { min(4, max(0, level(day))) }
}

extension HeatmapData {
  /// The achievement heatmap of a report: each day shaded by its rate.
  init(_ report: AchievementReport) {
    let days = report.days
    let from = report.range.from
    self.init(
      range: report.range,
      level: { AchievementLevel(days[from.distance(to: $0)].tally).rawValue },
      describe: { day in
        let tally = days[from.distance(to: day)].tally
        let what = tally.percent.map { "\(tally.done)/\(tally.total) done (\($0)%)" } ?? "no todos"
        return "\(day.weekday.shortName) \(day): \(what)"
      },
      legend: AchievementLevel.allCases.map(\.label))
  }
}

// MARK: - Terminal

/// Draws a heatmap for a terminal: two columns per week, weekday labels on the side, month
/// labels on top, and a legend. Each level has its own character (`· ░ ▒ ▓ █`), so it reads
/// without colour; with colour the cells are shaded too. When the range does not fit `width`,
/// the weeks wrap into several blocks of about the same size, oldest first.
struct TerminalHeatmap {
  let style: Style
  /// The columns available.
  let width: Int

  /// The character of each level.
  static let glyphs: [Character] = ["·", "░", "▒", "▓", "█"]
  /// Columns of the weekday labels (`Mon `).
  static let labelWidth = 4

  /// How many week columns fit in one block.
  var weeksPerBlock: Int { max(1, (width - Self.labelWidth) / 2) }

  /// The glyph of a day whose value is unknown.
  static let missingGlyph = "-"

  /// The grid (possibly in several blocks) followed by the legend.
  func render(_ data: HeatmapData) -> [String] {
    grid(data) + legend(data.legend, missing: data.missingLabel)
  }

  /// Several heatmaps of the same range stacked week by week: each block of weeks shows one
  /// month line, then each panel's seven rows under its title, so a column is the same week
  /// in every panel. Then each panel's legend.
  func renderStacked(_ panels: [(title: String, data: HeatmapData)]) -> [String] {
    guard let first = panels.first else { return [] }
    let layout = HeatmapLayout(range: first.data.range)
    var lines: [String] = []
    for (index, weeks) in blocks(layout).enumerated() {
      if index > 0 { lines.append("") }
      lines.append(monthLine(layout, weeks: weeks))
      for panel in panels {
        lines.append(style.bold(panel.title))
        lines += rows(panel.data, layout: layout, weeks: weeks)
      }
    }
    for panel in panels {
      let legend = legend(panel.data.legend, missing: panel.data.missingLabel, title: panel.title)
      lines += legend
    }
    return lines
  }

  /// The grid: for each block of weeks, a month-label line and seven weekday lines.
  func grid(_ data: HeatmapData) -> [String] {
    let layout = HeatmapLayout(range: data.range)
    var lines: [String] = []
    for (index, weeks) in blocks(layout).enumerated() {
      if index > 0 { lines.append("") }
      lines.append(monthLine(layout, weeks: weeks))
      lines += rows(data, layout: layout, weeks: weeks)
    }
    return lines
  }

  /// The weeks of each block. Blocks of even size: 27 weeks in 18 columns wrap as 14 + 13, not
  /// 18 + 9.
  private func blocks(_ layout: HeatmapLayout) -> [Range<Int>] {
    let count = (layout.weekCount + weeksPerBlock - 1) / weeksPerBlock
    let perBlock = (layout.weekCount + count - 1) / count
    return stride(from: 0, to: layout.weekCount, by: perBlock).map {
      $0..<min(layout.weekCount, $0 + perBlock)
    }
  }

  /// Seven weekday lines of `weeks`.
  private func rows(_ data: HeatmapData, layout: HeatmapLayout, weeks: Range<Int>) -> [String] {
    (0..<7).map { row in
      var line = Weekday.allCases[row].shortName + " "
      for week in weeks {
        if let day = layout.day(week: week, row: row) {
          line += data.isMissing(day) ? style.dim(Self.missingGlyph) : cell(data.clampedLevel(day))
        } else {
          line += " "
        }
        if week < weeks.upperBound - 1 { line += " " }
      }
      return trimmingTrailingSpaces(line)
    }
  }

  /// `· none  ░ <50%  ▒ 50-79%  ▓ 80-99%  █ 100%` (and `- not synced` when days can be
  /// missing), after a title when given, wrapped to `width`.
  func legend(_ labels: [String], missing: String? = nil, title: String? = nil) -> [String] {
    var items = labels.prefix(5).enumerated().map { level, label in
      (text: cell(level) + " " + label, columns: 2 + DisplayWidth.of(label))
    }
    if let title { items.insert((style.bold(title) + ":", DisplayWidth.of(title) + 1), at: 0) }
    if let missing {
      items.append((style.dim(Self.missingGlyph) + " " + missing, 2 + DisplayWidth.of(missing)))
    }
    var lines: [String] = []
    var line = ""
    var used = 0
    for item in items {
      if used > 0 && used + 2 + item.columns > width {
        lines.append(line)
        line = ""
        used = 0
      }
      if used > 0 {
        line += "  "
        used += 2
      }
      line += item.text
      used += item.columns
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  /// One cell: the level's character, shaded when colour is on.
  func cell(_ level: Int) -> String {
    style.heat(level, String(Self.glyphs[min(4, max(0, level))]))
  }

  private func monthLine(_ layout: HeatmapLayout, weeks: Range<Int>) -> String {
    var line = String(repeating: " ", count: Self.labelWidth)
    let limit = Self.labelWidth + 2 * weeks.count
    for label in layout.monthLabels(weeks: weeks, minimumGap: 2) {
      let column = Self.labelWidth + 2 * (label.week - weeks.lowerBound)
      let name = HeatmapLayout.monthNames[label.month - 1]
      // Fits inside the grid, and leaves a space after the previous label.
      let free = line.count == Self.labelWidth ? line.count : line.count + 1
      guard column >= free, column + name.count <= limit else { continue }
      line += String(repeating: " ", count: column - line.count) + name
    }
    return trimmingTrailingSpaces(line)
  }

  private func trimmingTrailingSpaces(_ text: String) -> String {
    var text = text
    while text.last == " " { text.removeLast() }
    return text
  }
}

// MARK: - Bar tables

/// Aligned rows of `label  bar  done/total  rate`: the per-day, per-week, per-weekday and
/// per-priority tables of reports.
struct BarTable {
  /// One row.
  struct Row {
    /// The first column.
    var label: String
    /// What the bar shows.
    var tally: Tally
    /// Text after the rate (e.g. `✓`, `best`), already styled.
    var note: String = ""
  }

  let style: Style
  /// The columns available; the bar shrinks (down to 5) to fit.
  let width: Int
  /// The widest bar.
  var maximumBarWidth = 20

  /// The rows, aligned. Rows without todos show a dim `·` and dashes.
  func render(_ rows: [Row]) -> [String] {
    let labelWidth = rows.map { DisplayWidth.of($0.label) }.max() ?? 0
    let counts = rows.map { $0.tally.hasTodos ? "\($0.tally.done)/\($0.tally.total)" : "-" }
    let countWidth = counts.map(\.count).max() ?? 1
    let fixed = 2 + labelWidth + 2 + 2 + countWidth + 2 + 4
    var barWidth = min(maximumBarWidth, max(5, width - fixed - 2))
    // A note (`✓`, `today`, `best`) takes room too: on a narrow terminal the bar gives it
    // (down to 3), so the row does not wrap.
    let notes = rows.map { DisplayWidth.visible($0.note) }.max() ?? 0
    let noteSpace = notes > 0 ? 2 + notes : 0
    if fixed + barWidth + noteSpace >= width {
      barWidth = max(3, width - fixed - noteSpace - 1)
    }
    return zip(rows, counts).map { row, count in
      let rate = row.tally.percent.map { "\($0)%" } ?? "-"
      var line = "  " + DisplayWidth.padRight(row.label, to: labelWidth) + "  "
      line += bar(row.tally, width: barWidth) + "  "
      line += DisplayWidth.padLeft(count, to: countWidth) + "  "
      line += DisplayWidth.padLeft(rate, to: 4)
      if !row.note.isEmpty { line += "  " + row.note }
      return line
    }
  }

  /// `████████░░░░`: the done share filled, shaded by the achievement level. Full only when
  /// everything is done, and never empty when something is.
  func bar(_ tally: Tally, width: Int) -> String {
    guard let rate = tally.rate else {
      return style.dim("·") + String(repeating: " ", count: width - 1)
    }
    var filled = Int((rate * Double(width)).rounded())
    if !tally.isPerfect { filled = min(width - 1, filled) }
    if tally.done > 0 { filled = max(1, filled) }
    let level = AchievementLevel(tally).rawValue
    let full = String(repeating: "█", count: filled)
    let empty = String(repeating: "░", count: width - filled)
    return (filled > 0 ? style.heat(level, full) : "") + (empty.isEmpty ? "" : style.dim(empty))
  }
}

extension HeatmapData {
  /// The commit graph: each day shaded by its commits relative to the busiest day (quarters of
  /// the maximum, like GitHub's contribution graph), the legend saying which counts each shade
  /// stands for.
  init(_ calendar: CommitCalendar) {
    let maximum = calendar.counts.max() ?? 0
    self.init(
      range: calendar.range,
      level: { CommitCalendar.level(of: calendar.count(on: $0), maximum: maximum) },
      describe: { day in
        guard let count = calendar.syncedCount(on: day) else {
          return "\(day.weekday.shortName) \(day): not synced"
        }
        return "\(day.weekday.shortName) \(day): \(counted(count, "commit"))"
      },
      legend: Self.commitLegend(maximum: maximum),
      isMissing: { !calendar.isSynced($0) },
      missingLabel: calendar.syncedFrom.map { $0 > calendar.range.from ? "not synced" : nil } ?? nil)
  }

  /// `0`, `1-2`, `3-5`, `6-8`, `9-11` for a busiest day of 11; `-` for a shade no count gets.
  static func commitLegend(maximum: Int) -> [String] {
    guard maximum > 0 else { return ["0", "-", "-", "-", "-"] }
    var labels = ["0"]
    var lower = 1
    for level in 1...4 {
      var upper = lower - 1
      while upper < maximum && CommitCalendar.level(of: upper + 1, maximum: maximum) <= level {
        upper += 1
      }
      if upper < lower {
        labels.append("-")
      } else {
        labels.append(upper == lower ? "\(lower)" : "\(lower)-\(upper)")
        lower = upper + 1
      }
    }
    return labels
  }
}
