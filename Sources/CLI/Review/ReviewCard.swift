import Core

/// The SVG card of ``ReviewPage``: the review's figures, both heatmaps, the relation and the top
/// projects in one standalone image a GitHub README can show. Colours are written out in the
/// card's own `<style>` (no custom properties, which not every SVG renderer knows), with a dark
/// variant under `prefers-color-scheme`; no script, no external reference, no `foreignObject`.
extension ReviewPage {
  /// The card: an XML declaration, one `<svg>` and a trailing newline.
  func svg(_ review: YearReview) -> String {
    let report = review.report
    let pad = 24
    let heatmap = Self.heatmapSize(report.range)
    let width = max(600, heatmap.width + 2 * pad)
    var body = ""
    var y = 40
    body += "<text class=\"h1\" x=\"\(pad)\" y=\"\(y)\">\(HeatmapSVG.escape(Self.heading(report.range)))</text>\n"
    if let brand = review.brand {
      body += "<text class=\"brand\" x=\"\(width - pad)\" y=\"\(y)\" text-anchor=\"end\">\(brand)</text>\n"
    }
    y += 22
    body += "<text class=\"muted\" x=\"\(pad)\" y=\"\(y)\">\(report.range.from) → \(report.range.to) · "
    body += "days counted in \(HeatmapSVG.escape(Self.clipped(review.zone, 40)))</text>\n"

    // The figures, side by side.
    let stats = Self.headline(review).filter { $0.id != "perfectDays" }
    y += 36
    let column = (width - 2 * pad) / stats.count
    for (index, stat) in stats.enumerated() {
      let x = pad + index * column
      body += "<text class=\"value\" x=\"\(x)\" y=\"\(y)\" data-figure=\"\(stat.id)\">\(stat.value)</text>"
      body += "<text class=\"label\" x=\"\(x)\" y=\"\(y + 17)\">\(stat.label)</text>\n"
    }
    y += 42

    // The heatmaps, achievement above commits.
    let achievement = HeatmapData(report)
    body += section("Achievement", achievement, prefix: "a", x: pad, y: y, width: width - 2 * pad)
    y += 8
    body += heatmapCells(achievement, prefix: "a", x: pad, y: y)
    y += heatmap.height + 24
    if let commits = review.commits {
      let data = HeatmapData(commits)
      body += section("Commits", data, prefix: "c", x: pad, y: y, width: width - 2 * pad)
      y += 8
      body += heatmapCells(data, prefix: "c", x: pad, y: y)
      y += heatmap.height + 14
      if let relation = review.figures.relation {
        y += 6
        body += "<text class=\"line\" x=\"\(pad)\" y=\"\(y)\">"
        body += relation.parts.map { HeatmapSVG.escape($0) }.joined(separator: " · ") + "</text>\n"
        y += 20
      }
    }
    if !review.projects.isEmpty {
      y += 6
      let top = review.projects.prefix(4).map { "\(Self.clipped($0.name, 24)) \($0.done)" }
      body += "<text class=\"line\" x=\"\(pad)\" y=\"\(y)\"><tspan class=\"strong\">Top projects</tspan> "
      body += HeatmapSVG.escape(top.joined(separator: " · ")) + "</text>\n"
      y += 20
    }
    y += 4
    let best = report.weekdaysAllTied ? nil : report.bestWeekday
    var facts = ["\(report.perfectDays) perfect days"]
    if let best, let tally = report.weekdays.first(where: { $0.weekday == best })?.tally {
      facts.append("best weekday \(best.shortName) (\(Self.percent(tally)))")
    }
    if let high = report.priorities.first(where: { $0.priority == .high }), high.tally.hasTodos {
      facts.append("high priority \(Self.percent(high.tally))")
    }
    body += "<text class=\"muted\" x=\"\(pad)\" y=\"\(y)\">\(facts.joined(separator: " · "))</text>\n"
    let height = y + pad - 4

    let title = Self.heading(report.range) + (review.brand.map { " · \($0)" } ?? "")
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
      viewBox="0 0 \(width) \(height)" role="img" aria-labelledby="card-title card-desc">
      <title id="card-title">\(HeatmapSVG.escape(title))</title>
      <desc id="card-desc">\(HeatmapSVG.escape(report.range.from.description + " to " + report.range.to.description + ": " + Self.summary(review) + "."))</desc>
      <style>
      \(Self.cardStyle)</style>
      <rect class="frame" x="0.5" y="0.5" width="\(width - 1)" height="\(height - 1)" rx="10"/>
      \(body)</svg>

      """
  }

  /// A heatmap's title with a compact legend at the right: `less ■■■■■ more`.
  private func section(_ title: String, _ data: HeatmapData, prefix: String, x: Int, y: Int, width: Int) -> String {
    var out = "<text class=\"strong\" x=\"\(x)\" y=\"\(y)\">\(title)</text>"
    let step = Self.step
    let right = x + width
    var cursor = right - 5 * step - 30
    out += "<text class=\"label\" x=\"\(cursor - 4)\" y=\"\(y)\" text-anchor=\"end\">less</text>"
    for level in 0..<5 {
      out += "<rect class=\"\(prefix)\(level)\" x=\"\(cursor)\" y=\"\(y - 9)\" width=\"\(Self.cell)\" height=\"\(Self.cell)\" rx=\"2\">"
      out += "<title>\(HeatmapSVG.escape(data.legend[level]))</title></rect>"
      cursor += step
    }
    out += "<text class=\"label\" x=\"\(cursor + 2)\" y=\"\(y)\">more</text>\n"
    return out
  }

  /// The card's style: every colour written out, light then dark.
  static var cardStyle: String {
    func rules(dark: Bool) -> String {
      let c = { color($0, dark: dark) }
      var rules = """
        .frame{fill:\(c("bg"));stroke:\(c("border"));}
        text{fill:\(c("fg"));}
        .muted,.label,.labels text{fill:\(c("muted"));}
        .missing{fill:\(c("missing"));stroke:\(c("border"));}

        """
      for prefix in ["a", "c"] {
        rules += (0..<5).map { ".\(prefix)\($0){fill:\(c("\(prefix)\($0)"));}" }.joined() + "\n"
      }
      return rules
    }
    return """
      text{font-family:\(fontStack);font-size:12px;}
      .h1{font-size:22px;font-weight:700;}
      .brand{font-size:13px;font-weight:600;}
      .value{font-size:24px;font-weight:700;}
      .label{font-size:11px;}
      .labels text{font-size:10px;}
      .strong{font-weight:600;}
      .line{font-size:12.5px;}
      \(rules(dark: false))@media (prefers-color-scheme: dark){
      \(rules(dark: true))}

      """
  }
}
