import Core

/// The commit graph's GitHub-style grid: a column per week (Monday first), a row per weekday,
/// five shades with a legend, and month labels. Readable without colour: each level has its
/// own character.
///
/// This is the seam for the shared heatmap renderer: `ootd graph` only calls ``render(_:style:width:)``.
enum CommitGridRenderer {
  /// The characters for levels 0–4.
  static let shades = ["·", "░", "▒", "▓", "█"]

  static func render(_ calendar: CommitCalendar, style: Style, width: Int) -> [String] {
    let range = calendar.range
    // Weeks from the Monday on or before the first day, trimmed to the terminal width.
    let firstMonday = range.from.adding(days: -(range.from.weekday.rawValue - 1))
    var weeks = (firstMonday.distance(to: range.to) / 7) + 1
    let available = max(4, (width - 6) / 1)
    var start = firstMonday
    if weeks > available {
      start = firstMonday.adding(days: 7 * (weeks - available))
      weeks = available
    }
    let maximum = calendar.counts.max() ?? 0
    var monthLine = Array(repeating: Character(" "), count: weeks)
    var lastMonth = -1
    for week in 0..<weeks {
      let day = start.adding(days: 7 * week)
      let month = max(day, range.from).month
      if month != lastMonth {
        let name = Array(monthNames[month - 1])
        if week + name.count <= weeks, monthLine[week] == " " {
          for (i, c) in name.enumerated() { monthLine[week + i] = c }
        }
        lastMonth = month
      }
    }
    var lines = ["     " + String(monthLine)]
    for weekday in Weekday.allCases {
      let label = weekday == .monday || weekday == .wednesday || weekday == .friday
        ? weekday.shortName : "   "
      var row = label + "  "
      for week in 0..<weeks {
        let day = start.adding(days: 7 * week + weekday.rawValue - 1)
        guard range.contains(day) else {
          row += " "
          continue
        }
        let level = CommitCalendar.level(of: calendar.count(on: day), maximum: maximum)
        row += paint(shades[level], level: level, style: style)
      }
      lines.append(row)
    }
    let legend = (0...4).map { paint(shades[$0], level: $0, style: style) }.joined(separator: " ")
    lines.append("     less " + legend + " more")
    return lines
  }

  static let monthNames = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  private static func paint(_ text: String, level: Int, style: Style) -> String {
    switch level {
    case 0: return style.dim(text)
    default: return style.green(text)
    }
  }
}
