import Core

/// Turns a ``YearReview`` into the page and the card `ootd review` writes: pure string building, no
/// I/O, no clock, no locale. The same review gives the same bytes.
///
/// - ``html(_:)``: one self-contained HTML file: inline CSS and SVG, no script, no web font, no
///   reference to anything outside the file (the only URI is the SVG namespace's). Light and
///   dark themes through `prefers-color-scheme`.
/// - ``svg(_:)``: one standalone SVG card (no script, no external reference, no
///   `foreignObject`), as a GitHub README shows it.
///
/// Every piece of user text (project and block names, titles, the zone) goes through
/// ``HeatmapSVG/escape(_:)``. The heatmaps take their levels, tooltips and legends from
/// ``HeatmapData`` and their geometry from Core's ``HeatmapLayout``, as `report --svg`, `graph`
/// and the TUI's Calendar do.
struct ReviewPage {
  /// The side of a heatmap cell, and the gap between cells.
  static let cell = 11
  static let gap = 3
  static var step: Int { cell + gap }
  /// Room for the weekday labels left of a heatmap, and the month labels above it.
  static let labelWidth = 30
  static let labelHeight = 16

  static let fontStack = "-apple-system, BlinkMacSystemFont, \"Segoe UI\", \"Noto Sans\", Helvetica, Arial, sans-serif"

  /// The colours by name, light and dark: GitHub's green scale for achievement (`a0`…`a4`), a
  /// blue one for commits (`c0`…`c4`).
  static let palette: [(name: String, light: String, dark: String)] = [
    ("bg", "#ffffff", "#0d1117"), ("fg", "#1f2328", "#e6edf3"), ("muted", "#59636e", "#9198a1"),
    ("card", "#f6f8fa", "#151b23"), ("border", "#d1d9e0", "#3d444d"), ("track", "#eaeef2", "#262c36"),
    ("a0", "#ebedf0", "#262c36"), ("a1", "#9be9a8", "#0e4429"), ("a2", "#40c463", "#006d32"),
    ("a3", "#30a14e", "#26a641"), ("a4", "#216e39", "#39d353"),
    ("c0", "#ebedf0", "#262c36"), ("c1", "#b6e3ff", "#0c2d6b"), ("c2", "#54aeff", "#1158c7"),
    ("c3", "#0969da", "#388bfd"), ("c4", "#0a3069", "#a5d6ff"), ("missing", "#ffffff", "#0d1117"),
  ]

  /// The palette as CSS custom properties, light or dark.
  static func variables(dark: Bool) -> String {
    palette.map { "--\($0.name):\(dark ? $0.dark : $0.light);" }.joined()
  }

  /// One colour of the palette.
  static func color(_ name: String, dark: Bool = false) -> String {
    let entry = palette.first { $0.name == name }!
    return dark ? entry.dark : entry.light
  }

  private func escape(_ text: String) -> String { HeatmapSVG.escape(text) }

  // MARK: - Words

  /// `2026 in review` for a whole calendar year, else `2026-03-01 → 2026-11-22 in review`.
  static func heading(_ range: DayRange) -> String {
    if let year = wholeYear(range) { return "\(year) in review" }
    return "\(range.from) → \(range.to) in review"
  }

  /// The year `range` covers exactly (1 January to 31 December), or nil.
  static func wholeYear(_ range: DayRange) -> Int? {
    let (from, to) = (range.from.components, range.to.components)
    guard from.year == to.year, from.month == 1, from.day == 1, to.month == 12, to.day == 31 else {
      return nil
    }
    return from.year
  }

  /// `82%`, or `–` when nothing was planned.
  static func percent(_ tally: Tally) -> String { tally.percent.map { "\($0)%" } ?? "–" }

  /// `412/503 done`.
  static func doneOf(_ tally: Tally) -> String { "\(tally.done)/\(tally.total) done" }

  /// At most `limit` characters of `text`, an ellipsis marking a cut.
  static func clipped(_ text: String, _ limit: Int) -> String {
    text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
  }

  /// What a screen reader hears for the whole review.
  static func summary(_ review: YearReview) -> String {
    let report = review.report
    var parts = [
      "\(report.total.done) of \(report.total.total) planned todos done (\(percent(report.total)))",
      "longest streak \(counted(report.streaks.longest, "perfect day"))",
      "current streak \(counted(report.streaks.current, "perfect day"))",
    ]
    if let commits = review.commits { parts.append(counted(commits.total, "commit")) }
    return parts.joined(separator: ", ")
  }

  // MARK: - Heatmaps

  /// One heatmap's month labels, weekday labels and day cells, drawn from (`x`, `y`), cells
  /// filled through the classes `PREFIX0`…`PREFIX4` (and `missing` for unknown days).
  func heatmapCells(_ data: HeatmapData, prefix: String, x: Int, y: Int) -> String {
    let layout = HeatmapLayout(range: data.range)
    let step = Self.step
    let left = x + Self.labelWidth
    let top = y + Self.labelHeight
    var out = "<g class=\"labels\">"
    for label in layout.monthLabels(weeks: 0..<layout.weekCount, minimumGap: 3) {
      out += "<text x=\"\(left + label.week * step)\" y=\"\(top - 5)\">\(HeatmapLayout.monthNames[label.month - 1])</text>"
    }
    for row in [0, 2, 4] {
      out += "<text x=\"\(x)\" y=\"\(top + row * step + Self.cell - 2)\">\(Weekday.allCases[row].shortName)</text>"
    }
    out += "</g>\n<g class=\"cells\">\n"
    for week in 0..<layout.weekCount {
      for row in 0..<7 {
        guard let day = layout.day(week: week, row: row) else { continue }
        let fill = data.isMissing(day) ? "missing" : "\(prefix)\(data.clampedLevel(day))"
        out += "<rect class=\"\(fill)\" x=\"\(left + week * step)\" y=\"\(top + row * step)\" "
        out += "width=\"\(Self.cell)\" height=\"\(Self.cell)\" rx=\"2\" data-date=\"\(day)\">"
        out += "<title>\(escape(data.describe(day)))</title></rect>\n"
      }
    }
    return out + "</g>\n"
  }

  /// The size of a heatmap of `range` with its labels.
  static func heatmapSize(_ range: DayRange) -> (width: Int, height: Int) {
    let layout = HeatmapLayout(range: range)
    return (labelWidth + layout.weekCount * step - gap + 1, labelHeight + 7 * step - gap + 1)
  }

  /// One heatmap as an inline SVG of the page, with its `<title>` and `<desc>`.
  private func inlineHeatmap(_ data: HeatmapData, prefix: String, id: String, title: String, desc: String)
    -> String
  {
    let (width, height) = Self.heatmapSize(data.range)
    return """
      <svg xmlns="http://www.w3.org/2000/svg" class="heatmap" viewBox="0 0 \(width) \(height)" \
      width="\(width)" height="\(height)" style="max-width:\(width * 5 / 4)px" role="img" \
      aria-labelledby="\(id)-title \(id)-desc">
      <title id="\(id)-title">\(escape(title))</title>
      <desc id="\(id)-desc">\(escape(desc))</desc>
      \(heatmapCells(data, prefix: prefix, x: 0, y: 0))</svg>

      """
  }

  /// The legend under a heatmap: each shade and what it stands for.
  private func legend(_ data: HeatmapData, prefix: String) -> String {
    var out = "<p class=\"legend\">"
    for (level, label) in data.legend.prefix(5).enumerated() where label != "-" {
      out += "<span><i class=\"swatch \(prefix)\(level)\"></i>\(escape(label))</span>"
    }
    if let missing = data.missingLabel {
      out += "<span><i class=\"swatch missing\"></i>\(escape(missing))</span>"
    }
    return out + "</p>\n"
  }

  // MARK: - HTML

  /// The page: one self-contained HTML document ending with a newline.
  func html(_ review: YearReview) -> String {
    let report = review.report
    let heading = Self.heading(report.range)
    var out = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light dark">
      \(review.brand.map { "<meta name=\"generator\" content=\"\($0) review\">\n" } ?? "")<title>\(escape(heading))\(review.brand.map { " · \($0)" } ?? "")</title>
      <style>
      \(Self.pageStyle)</style>
      </head>
      <body>
      <main>
      <header>
      <p class="eyebrow">\(review.brand.map { "\($0) · " } ?? "")year in review</p>
      <h1>\(escape(heading))</h1>
      <p class="sub">\(report.range.from) → \(report.range.to) · \(report.range.count) days · days counted in \(escape(review.zone))</p>
      </header>

      """
    out += stats(review)

    let achievement = HeatmapData(report)
    out += "<section class=\"card\" aria-labelledby=\"achievement-heading\">\n"
    out += "<h2 id=\"achievement-heading\">Achievement <small>share of each day's plan done</small></h2>\n"
    out += "<div class=\"scroll\">\n"
    out += inlineHeatmap(
      achievement, prefix: "a", id: "achievement", title: "Achievement, \(report.range.from) to \(report.range.to)",
      desc: "Each day shaded by the share of its planned todos done: " + Self.summary(review) + ".")
    out += "</div>\n" + legend(achievement, prefix: "a")
    out += "</section>\n"

    if let commits = review.commits {
      let data = HeatmapData(commits)
      out += "<section class=\"card\" aria-labelledby=\"commits-heading\">\n"
      out += "<h2 id=\"commits-heading\">Commits <small>\(counted(commits.total, "commit")) on \(counted(commits.activeDays, "day"))</small></h2>\n"
      out += "<div class=\"scroll\">\n"
      out += inlineHeatmap(
        data, prefix: "c", id: "commits", title: "Commits, \(report.range.from) to \(report.range.to)",
        desc: "Each day shaded by its commits, relative to the busiest day: \(counted(commits.total, "commit")) in all.")
      out += "</div>\n" + legend(data, prefix: "c")
      if let relation = review.figures.relation {
        out += "<p class=\"relation\" data-figure=\"relation\">"
        out += relation.parts.map { escape($0) }.joined(separator: " · ")
        out += "</p>\n"
      }
      out += "</section>\n"
    } else {
      out += "<section class=\"card muted-card\"><h2>Commits</h2><p class=\"note\">No commits synced"
      if let brand = review.brand {
        out += ": <code>\(brand) sync</code> brings them, and the page draws them under the achievement"
      }
      out += ".</p></section>\n"
    }

    out += "<div class=\"columns\">\n"
    out += barsCard(
      "By priority", id: "priorities",
      rows: report.priorities.map { (name: $0.priority.rawValue, tally: $0.tally, mark: nil) })
    let best = Set(report.weekdaysAllTied ? [] : report.bestWeekdays)
    let worst = Set(report.weekdaysAllTied ? [] : report.worstWeekdays)
    out += barsCard(
      "By weekday", id: "weekdays",
      rows: report.weekdays.map { entry in
        (name: entry.weekday.shortName, tally: entry.tally,
         mark: best.contains(entry.weekday) ? "best" : worst.contains(entry.weekday) ? "worst" : nil)
      })
    out += "</div>\n"

    out += months(review)

    out += "<div class=\"columns\">\n"
    out += rankedCard("Top projects", id: "projects", review.projects, empty: "No done todo had a project.")
    out += rankedCard("Top blocks", id: "blocks", review.blocks, empty: "No done todo came from a block.")
    out += "</div>\n"

    out += "<div class=\"columns\">\n"
    out += busiest(review)
    if review.privacy != .names { out += highlights(review) }
    out += "</div>\n"

    out += """
      <footer>
      <p>Counted on this machine: the figures are those of <code>\(review.brand.map { "\($0) " } ?? "")report --from \(report.range.from) \
      --to \(report.range.to) --json</code>. A perfect day has todos, all done; days without todos \
      neither extend nor break a streak.</p>
      </footer>
      </main>
      </body>
      </html>

      """
    return out
  }

  /// The headline figures, as the page's tiles and the card's row show them (the card leaves
  /// out `perfectDays`).
  static func headline(_ review: YearReview) -> [(id: String, value: String, label: String)] {
    let report = review.report
    var figures: [(id: String, value: String, label: String)] = [
      ("done", "\(report.total.done)", "done"),
      ("total", "\(report.total.total)", "planned"),
      ("rate", percent(report.total), "achieved"),
      ("longestStreak", "\(report.streaks.longest)", "longest streak"),
      ("currentStreak", "\(report.streaks.current)", "current streak"),
    ]
    if let commits = review.commits { figures.append(("commits", "\(commits.total)", "commits")) }
    figures.append(("perfectDays", "\(report.perfectDays)", "perfect days"))
    return figures
  }

  /// The figures in large type.
  private func stats(_ review: YearReview) -> String {
    let tiles = Self.headline(review)
    var out = "<section class=\"stats\" aria-label=\"Figures\">\n"
    for tile in tiles {
      out += "<div class=\"stat\"><span class=\"value\" data-figure=\"\(tile.id)\">\(tile.value)</span>"
      out += "<span class=\"label\">\(escape(tile.label))</span></div>\n"
    }
    return out + "</section>\n"
  }

  /// A card of rates as bars: one row per group, its rate and `done/total`.
  private func barsCard(_ title: String, id: String, rows: [(name: String, tally: Tally, mark: String?)]) -> String {
    var out = "<section class=\"card\" aria-labelledby=\"\(id)-heading\">\n<h2 id=\"\(id)-heading\">\(title)</h2>\n"
    out += "<table class=\"bars\" data-figure=\"\(id)\">\n"
    for row in rows {
      let width = row.tally.percent ?? 0
      out += "<tr\(row.mark.map { " class=\"\($0)\"" } ?? "")><th scope=\"row\">\(escape(row.name))</th>"
      out += "<td class=\"bar\"><span class=\"track\"><span class=\"fill\" style=\"width:\(width)%\"></span></span></td>"
      out += "<td class=\"num\">\(Self.percent(row.tally))</td>"
      out += "<td class=\"num muted\">\(Self.doneOf(row.tally))</td>"
      out += "<td class=\"tag\">\(row.mark ?? "")</td></tr>\n"
    }
    return out + "</table>\n</section>\n"
  }

  /// The months side by side, each with its rate, done todos, perfect days and commits.
  private func months(_ review: YearReview) -> String {
    var out = "<section class=\"card\" aria-labelledby=\"months-heading\">\n"
    out += "<h2 id=\"months-heading\">Month by month</h2>\n<ol class=\"months\">\n"
    for month in review.months {
      let name = HeatmapLayout.monthNames[month.month - 1]
      let year = review.months.first?.year == review.months.last?.year ? "" : " \(month.year)"
      let width = month.tally.percent ?? 0
      out += "<li class=\"month\" data-month=\"\(Day(year: month.year, month: month.month, day: 1).map { String($0.description.prefix(7)) } ?? "")\">"
      out += "<span class=\"month-name\">\(name)\(year)</span>"
      out += "<span class=\"month-rate\">\(Self.percent(month.tally))</span>"
      out += "<span class=\"track\"><span class=\"fill\" style=\"width:\(width)%\"></span></span>"
      out += "<span class=\"month-line\">\(Self.doneOf(month.tally))</span>"
      out += "<span class=\"month-line\">\(counted(month.perfectDays, "perfect day"))</span>"
      if let commits = month.commits {
        out += "<span class=\"month-line commits\">\(counted(commits, "commit"))</span>"
      }
      out += "</li>\n"
    }
    return out + "</ol>\n</section>\n"
  }

  /// Projects or blocks by done todos, as bars relative to the first.
  private func rankedCard(_ title: String, id: String, _ ranked: [YearReview.Ranked], empty: String) -> String {
    var out = "<section class=\"card\" aria-labelledby=\"\(id)-heading\">\n<h2 id=\"\(id)-heading\">\(title)</h2>\n"
    guard let most = ranked.first?.done, most > 0 else {
      return out + "<p class=\"note\">\(empty)</p>\n</section>\n"
    }
    out += "<table class=\"bars ranked\" data-figure=\"\(id)\">\n"
    for entry in ranked {
      let width = entry.done * 100 / most
      out += "<tr><th scope=\"row\">\(escape(Self.clipped(entry.name, 40)))</th>"
      out += "<td class=\"bar\"><span class=\"track\"><span class=\"fill\" style=\"width:\(width)%\"></span></span></td>"
      out += "<td class=\"num\">\(entry.done)</td><td class=\"muted\">done</td></tr>\n"
    }
    return out + "</table>\n</section>\n"
  }

  /// The busiest commit days, each with what was achieved that day.
  private func busiest(_ review: YearReview) -> String {
    listCard(
      "Busiest commit days", id: "busiest", empty: "No commits in this range.",
      items: review.busiestDays.map { entry in
        let tally = review.report.days[review.report.range.from.distance(to: entry.day)].tally
        let achieved = tally.hasTodos ? " · \(Self.doneOf(tally)) (\(Self.percent(tally)))" : ""
        return "<span class=\"day\">\(entry.day.weekday.shortName) \(entry.day)</span>"
          + "<span class=\"num\">\(counted(entry.count, "commit"))</span><span class=\"muted\">\(achieved)</span>"
      })
  }

  /// A few done todos by title (`--titles`; neutral labels with `--redact`).
  private func highlights(_ review: YearReview) -> String {
    listCard(
      "Done, high priority first", id: "highlights", empty: "No todo was done in this range.",
      items: review.highlights.map { entry in
        "<span class=\"prio \(entry.priority.rawValue)\">\(entry.priority.rawValue)</span>"
          + "<span class=\"title\">\(escape(Self.clipped(entry.title, 80)))</span>"
          + "<span class=\"muted\">\(entry.day)\(entry.project.map { " · " + escape(Self.clipped($0, 40)) } ?? "")</span>"
      })
  }

  /// A card with a numbered list of `items` (markup, already escaped), or `empty` without any.
  private func listCard(_ title: String, id: String, empty: String, items: [String]) -> String {
    var out = "<section class=\"card\" aria-labelledby=\"\(id)-heading\">\n"
    out += "<h2 id=\"\(id)-heading\">\(title)</h2>\n"
    guard !items.isEmpty else { return out + "<p class=\"note\">\(empty)</p>\n</section>\n" }
    out += "<ol class=\"list\" data-figure=\"\(id)\">\n"
    for item in items { out += "<li>\(item)</li>\n" }
    return out + "</ol>\n</section>\n"
  }

  static let pageStyle = """
    :root{\(variables(dark: false))color-scheme:light dark;}
    @media (prefers-color-scheme: dark){:root{\(variables(dark: true))}}
    *{box-sizing:border-box;}
    body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 \(fontStack);\
    -webkit-font-smoothing:antialiased;}
    main{max-width:960px;margin:0 auto;padding:40px 24px 56px;}
    header{margin-bottom:24px;}
    .eyebrow{margin:0;color:var(--muted);font-size:13px;letter-spacing:.08em;text-transform:uppercase;}
    h1{margin:4px 0 6px;font-size:40px;line-height:1.1;letter-spacing:-.02em;}
    .sub{margin:0;color:var(--muted);}
    h2{margin:0 0 14px;font-size:16px;}
    h2 small{margin-left:8px;color:var(--muted);font-weight:400;font-size:13px;}
    .stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(120px,1fr));gap:12px;margin-bottom:16px;}
    .stat{background:var(--card);border:1px solid var(--border);border-radius:10px;padding:14px 16px;}
    .stat .value{display:block;font-size:30px;font-weight:650;line-height:1.15;font-variant-numeric:tabular-nums;}
    .stat .label{display:block;color:var(--muted);font-size:12.5px;line-height:1.3;margin-top:4px;}
    .card{border:1px solid var(--border);border-radius:10px;padding:18px 20px;margin-bottom:16px;background:var(--bg);}
    .scroll{overflow-x:auto;}
    .heatmap{display:block;width:100%;height:auto;}
    .heatmap text{font:10px \(fontStack);fill:var(--muted);}
    .a0{fill:var(--a0);}.a1{fill:var(--a1);}.a2{fill:var(--a2);}.a3{fill:var(--a3);}.a4{fill:var(--a4);}
    .c0{fill:var(--c0);}.c1{fill:var(--c1);}.c2{fill:var(--c2);}.c3{fill:var(--c3);}.c4{fill:var(--c4);}
    .missing{fill:var(--missing);stroke:var(--border);}
    .heatmap rect{shape-rendering:geometricPrecision;}
    .legend{display:flex;flex-wrap:wrap;gap:6px 14px;margin:10px 0 0;color:var(--muted);font-size:12px;}
    .legend span{display:inline-flex;align-items:center;gap:5px;}
    .swatch{display:inline-block;width:11px;height:11px;border-radius:2px;}
    i.a0{background:var(--a0);}i.a1{background:var(--a1);}i.a2{background:var(--a2);}i.a3{background:var(--a3);}i.a4{background:var(--a4);}
    i.c0{background:var(--c0);}i.c1{background:var(--c1);}i.c2{background:var(--c2);}i.c3{background:var(--c3);}i.c4{background:var(--c4);}
    i.missing{background:var(--missing);border:1px solid var(--border);}
    .relation{margin:12px 0 0;padding-top:12px;border-top:1px solid var(--border);}
    .columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(300px,1fr));gap:16px;}
    .columns .card{margin-bottom:0;}
    .columns{margin-bottom:16px;}
    table.bars{width:100%;border-collapse:collapse;font-size:14px;}
    .bars th{text-align:left;font-weight:500;padding:4px 10px 4px 0;white-space:nowrap;max-width:180px;overflow:hidden;text-overflow:ellipsis;}
    .bars td{padding:4px 0 4px 8px;white-space:nowrap;}
    .bars td.bar{width:100%;}
    .track{display:block;height:8px;border-radius:4px;background:var(--track);overflow:hidden;}
    .fill{display:block;height:100%;border-radius:4px;background:var(--a3);}
    .num{text-align:right;font-variant-numeric:tabular-nums;}
    .muted{color:var(--muted);}
    .tag{color:var(--muted);font-size:12px;}
    tr.best .tag{color:var(--a3);}
    .months{list-style:none;margin:0;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(132px,1fr));gap:10px;}
    .month{background:var(--card);border:1px solid var(--border);border-radius:8px;padding:10px 12px;display:flex;flex-direction:column;gap:2px;}
    .month-name{font-weight:600;}
    .month-rate{font-size:22px;font-weight:650;font-variant-numeric:tabular-nums;}
    .month .track{margin:4px 0 6px;}
    .month-line{color:var(--muted);font-size:12.5px;}
    .month-line.commits{color:var(--c3);}
    .list{margin:0;padding-left:22px;}
    .list li{padding:3px 0;}
    .list li span+span{margin-left:8px;}
    .list .day{font-variant-numeric:tabular-nums;}
    .prio{display:inline-block;min-width:38px;font-size:12px;color:var(--muted);}
    .prio.high{color:var(--a3);font-weight:600;}
    .note{color:var(--muted);margin:0;}
    code{font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--card);padding:1px 4px;border-radius:4px;}
    footer{color:var(--muted);font-size:13px;margin-top:28px;}

    """
}
