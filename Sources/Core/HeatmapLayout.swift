import Foundation

/// Weeks as columns (Monday first), weekdays as rows: the geometry every heatmap shares (the
/// terminal's and the SVG's in the CLI, the TUI's Calendar tab).
public struct HeatmapLayout: Sendable {
  /// The days drawn; cells outside it stay empty.
  public let range: DayRange
  /// The Monday of the first column.
  public let firstMonday: Day
  /// How many week columns.
  public let weekCount: Int

  public init(range: DayRange) {
    self.range = range
    firstMonday = range.from.adding(days: -(range.from.weekday.rawValue - 1))
    weekCount = firstMonday.distance(to: range.to) / 7 + 1
  }

  /// The day at `week` (column) and `row` (0 = Monday), or nil outside the range.
  public func day(week: Int, row: Int) -> Day? {
    let day = firstMonday.adding(days: week * 7 + row)
    return range.contains(day) ? day : nil
  }

  /// Month labels over `weeks`: a label where a month starts (its 1st is in the column), and
  /// one over the first column for the month already under way. Labels never overlap: the
  /// leading one gives way to a month starting within `minimumGap` columns.
  public func monthLabels(weeks: Range<Int>, minimumGap: Int) -> [(week: Int, month: Int)] {
    var labels: [(week: Int, month: Int)] = []
    for week in weeks {
      let days = (0..<7).compactMap { day(week: week, row: $0) }
      if let first = days.first(where: { $0.dayOfMonth == 1 }) {
        labels.append((week, first.month))
      } else if week == weeks.lowerBound, let first = days.first {
        labels.append((week, first.month))
      }
    }
    if labels.count >= 2, labels[1].week - labels[0].week < minimumGap { labels.removeFirst() }
    return labels
  }

  public static let monthNames = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]
}
