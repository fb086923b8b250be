import Core

/// Draws a heatmap as a standalone SVG image (for a README or a blog post): one `<rect>` per
/// day with a `<title>` tooltip, month labels on top, weekday labels on the side, a caption and
/// a legend. Same layout and levels as ``TerminalHeatmap``.
struct HeatmapSVG {
  /// The fill of each level, GitHub's light palette.
  var colors = ["#ebedf0", "#9be9a8", "#40c463", "#30a14e", "#216e39"]
  /// The side of a cell, in pixels.
  var cellSize = 11
  /// The space between cells.
  var gap = 3

  private var step: Int { cellSize + gap }
  private let left = 36
  private let top = 38

  /// The whole document, with an XML declaration and a trailing newline.
  func render(_ data: HeatmapData, caption: String) -> String {
    let layout = HeatmapLayout(range: data.range)
    let gridWidth = layout.weekCount * step - gap
    let legendWidth = 5 * step + 70
    let width = left + max(gridWidth, legendWidth) + 10
    let gridBottom = top + 7 * step - gap
    let height = gridBottom + 34
    var out = """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
      viewBox="0 0 \(width) \(height)" role="img" aria-label="\(escape(caption))">
      <title>\(escape(caption))</title>
      <style>text { font: 10px -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, \
      sans-serif; fill: #57606a; } .caption { font-size: 12px; fill: #24292f; }</style>
      <rect width="100%" height="100%" fill="#ffffff"/>
      <text class="caption" x="\(left)" y="14">\(escape(caption))</text>

      """
    out += "<g class=\"months\">\n"
    for label in layout.monthLabels(weeks: 0..<layout.weekCount, minimumGap: 3) {
      let name = HeatmapLayout.monthNames[label.month - 1]
      out += "  <text x=\"\(left + label.week * step)\" y=\"\(top - 6)\">\(name)</text>\n"
    }
    out += "</g>\n<g class=\"weekdays\">\n"
    for (row, weekday) in Weekday.allCases.enumerated() {
      let y = top + row * step + cellSize - 2
      out += "  <text x=\"0\" y=\"\(y)\">\(weekday.shortName)</text>\n"
    }
    out += "</g>\n<g class=\"days\">\n"
    for week in 0..<layout.weekCount {
      for row in 0..<7 {
        guard let day = layout.day(week: week, row: row) else { continue }
        let level = data.clampedLevel(day)
        out += "  <rect class=\"day\" x=\"\(left + week * step)\" y=\"\(top + row * step)\" "
        out += "width=\"\(cellSize)\" height=\"\(cellSize)\" rx=\"2\" fill=\"\(colors[level])\" "
        out += "data-date=\"\(day)\" data-level=\"\(level)\">"
        out += "<title>\(escape(data.describe(day)))</title></rect>\n"
      }
    }
    out += "</g>\n<g class=\"legend\">\n"
    let legendY = gridBottom + 12
    var x = left
    out += "  <text x=\"\(x)\" y=\"\(legendY + cellSize - 2)\">Less</text>\n"
    x += 28
    for (level, label) in data.legend.prefix(5).enumerated() {
      out += "  <rect class=\"legend\" x=\"\(x)\" y=\"\(legendY)\" width=\"\(cellSize)\" "
      out += "height=\"\(cellSize)\" rx=\"2\" fill=\"\(colors[level])\">"
      out += "<title>\(escape(label))</title></rect>\n"
      x += step
    }
    out += "  <text x=\"\(x + 2)\" y=\"\(legendY + cellSize - 2)\">More</text>\n"
    out += "</g>\n</svg>\n"
    return out
  }

  /// Escapes text for XML content and attribute values.
  func escape(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&apos;"
      default: result.append(character)
      }
    }
    return result
  }
}
