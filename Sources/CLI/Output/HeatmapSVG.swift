import Core
import Formats

/// Draws a heatmap as a standalone SVG image (for a README or a blog post): one `<rect>` per
/// day with a `<title>` tooltip, month labels on top, weekday labels on the side, a caption and
/// a legend naming each level as the terminal legend does. Same layout and levels as
/// ``TerminalHeatmap``. Several heatmaps of one range (achievement, then commits) stack week
/// by week under one month row, each with its title and legend.
struct HeatmapSVG {
  /// The fill of each level, GitHub's light palette.
  var colors = ["#ebedf0", "#9be9a8", "#40c463", "#30a14e", "#216e39"]
  /// The fill and outline of a day whose value is unknown ("not synced").
  var missingFill = "#ffffff"
  var missingStroke = "#d0d7de"
  /// The side of a cell, in pixels.
  var cellSize = 11
  /// The space between cells.
  var gap = 3

  private var step: Int { cellSize + gap }
  /// The weekday labels start here, clear of the edge; the grid after them.
  private let margin = 8
  private let left = 44
  /// The month labels' baseline is above the first grid.
  private let top = 40
  /// A panel's title line above its grid (stacked panels only).
  private let titleHeight = 16
  /// A legend line under a grid.
  private let legendHeight = 22

  /// Approximate widths of the fonts used, in pixels per character (a generous average, so
  /// text is never cut off).
  private static let captionCharacterWidth = 7.5
  private static let labelCharacterWidth = 6.5

  /// The whole document for one heatmap, with an XML declaration and a trailing newline.
  func render(_ data: HeatmapData, caption: String, footer: String? = nil) -> String {
    render([(nil, data)], caption: caption, footer: footer)
  }

  /// The whole document for heatmaps of the same range stacked week by week.
  func render(_ panels: [(title: String?, data: HeatmapData)], caption: String, footer: String? = nil)
    -> String
  {
    guard let first = panels.first else { return "" }
    let layout = HeatmapLayout(range: first.data.range)
    let gridWidth = layout.weekCount * step - gap
    let gridHeight = 7 * step - gap
    let legendWidths = panels.map { legendWidth($0.data, title: panels.count > 1 ? $0.title : nil) }
    let textWidths = [caption, footer ?? ""].map { Int((Double($0.count) * Self.captionCharacterWidth).rounded(.up)) }
    let width = max(left + gridWidth, margin + (legendWidths.max() ?? 0), margin + (textWidths.max() ?? 0)) + margin
    let panelHeight = (panels.count > 1 ? titleHeight : 0) + gridHeight + legendHeight
    let height = top + panels.count * panelHeight + (footer == nil ? 4 : 22)
    var out = """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
      viewBox="0 0 \(width) \(height)" role="img" aria-label="\(escape(caption))">
      <title>\(escape(caption))</title>
      <style>text { font: 10px -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, \
      sans-serif; fill: #57606a; } .caption { font-size: 12px; fill: #24292f; } \
      .panel { font-size: 11px; fill: #24292f; }</style>
      <rect width="100%" height="100%" fill="#ffffff"/>
      <text class="caption" x="\(margin)" y="16">\(escape(caption))</text>

      """
    out += "<g class=\"months\">\n"
    for label in layout.monthLabels(weeks: 0..<layout.weekCount, minimumGap: 3) {
      let name = HeatmapLayout.monthNames[label.month - 1]
      out += "  <text x=\"\(left + label.week * step)\" y=\"\(top - 6)\">\(name)</text>\n"
    }
    out += "</g>\n"
    var y = top
    for (index, panel) in panels.enumerated() {
      if panels.count > 1, let title = panel.title {
        out += "<text class=\"panel\" x=\"\(margin)\" y=\"\(y + 11)\">\(escape(title))</text>\n"
        y += titleHeight
      }
      out += "<g class=\"weekdays\">\n"
      for (row, weekday) in Weekday.allCases.enumerated() {
        out += "  <text x=\"\(margin)\" y=\"\(y + row * step + cellSize - 2)\">\(weekday.shortName)</text>\n"
      }
      out += "</g>\n<g class=\"days\">\n"
      let dayClass = index == 0 ? "day" : "day secondary"
      for week in 0..<layout.weekCount {
        for row in 0..<7 {
          guard let day = layout.day(week: week, row: row) else { continue }
          let missing = panel.data.isMissing(day)
          let level = panel.data.clampedLevel(day)
          out += "  <rect class=\"\(dayClass)\" x=\"\(left + week * step)\" y=\"\(y + row * step)\" "
          out += "width=\"\(cellSize)\" height=\"\(cellSize)\" rx=\"2\" "
          out += missing
            ? "fill=\"\(missingFill)\" stroke=\"\(missingStroke)\" data-date=\"\(day)\" data-level=\"none\">"
            : "fill=\"\(colors[level])\" data-date=\"\(day)\" data-level=\"\(level)\">"
          out += "<title>\(escape(panel.data.describe(day)))</title></rect>\n"
        }
      }
      out += "</g>\n"
      y += gridHeight + 8
      out += legend(panel.data, title: panels.count > 1 ? panel.title : nil, y: y)
      y += legendHeight - 8
    }
    if let footer {
      out += "<text class=\"caption\" x=\"\(margin)\" y=\"\(y + 14)\">\(escape(footer))</text>\n"
    }
    out += "</svg>\n"
    return out
  }

  /// The legend: each level's cell followed by its label (`none`, `<50%`, …), then the
  /// unknown days' cell when some can be.
  private func legend(_ data: HeatmapData, title: String?, y: Int) -> String {
    var out = "<g class=\"legend\">\n"
    var x = margin
    let baseline = y + cellSize - 2
    if let title {
      out += "  <text x=\"\(x)\" y=\"\(baseline)\">\(escape(title)):</text>\n"
      x += textWidth(title + ":") + 6
    }
    for (level, label) in data.legend.prefix(5).enumerated() {
      out += "  <rect class=\"legend\" x=\"\(x)\" y=\"\(y)\" width=\"\(cellSize)\" "
      out += "height=\"\(cellSize)\" rx=\"2\" fill=\"\(colors[level])\">"
      out += "<title>\(escape(label))</title></rect>\n"
      out += "  <text x=\"\(x + step)\" y=\"\(baseline)\">\(escape(label))</text>\n"
      x += step + textWidth(label) + 8
    }
    if let missing = data.missingLabel {
      out += "  <rect class=\"legend-missing\" x=\"\(x)\" y=\"\(y)\" width=\"\(cellSize)\" "
      out += "height=\"\(cellSize)\" rx=\"2\" fill=\"\(missingFill)\" stroke=\"\(missingStroke)\">"
      out += "<title>\(escape(missing))</title></rect>\n"
      out += "  <text x=\"\(x + step)\" y=\"\(baseline)\">\(escape(missing))</text>\n"
    }
    return out + "</g>\n"
  }

  /// How wide the legend is, in pixels.
  private func legendWidth(_ data: HeatmapData, title: String?) -> Int {
    var width = title.map { textWidth($0 + ":") + 6 } ?? 0
    for label in data.legend.prefix(5) { width += step + textWidth(label) + 8 }
    if let missing = data.missingLabel { width += step + textWidth(missing) }
    return width
  }

  private func textWidth(_ text: String) -> Int {
    Int((Double(text.count) * Self.labelCharacterWidth).rounded(.up))
  }

  /// Escapes text for XML content and attribute values (`Formats.XMLText`).
  func escape(_ text: String) -> String { XMLText.escaped(text) }
}
