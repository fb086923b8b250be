import Core

/// How the TUI draws what `ootd list` draws too, handed in by the CLI (its `TodoRenderer`), so
/// that a row in the TUI is the row of `ootd list`, colours included.
public protocol RowStyle {
  /// Whether lines carry ANSI colours (false with `NO_COLOR`, `TERM=dumb`, `--no-color`).
  var colored: Bool { get }
  /// The todo's line as `ootd list` draws it, at most `width` columns, starting with two spaces.
  /// `today` is the TUI's today (it rolls over at midnight).
  func line(_ todo: Todo, idWidth: Int, width: Int, carriedAway: Bool, today: Day) -> String
  /// The day's heading as `ootd list` draws it (`Sun 2026-11-22 · today  2/5 done  40%`).
  func heading(_ day: Day, figures: Tally, width: Int, today: Day) -> String
  /// One heatmap cell of `level` (0…4) as `ootd report` and `ootd graph` draw it (`· ░ ▒ ▓ █`);
  /// nil: a day whose commits are not synced.
  func heatCell(_ level: Int?) -> String
  /// The legend of the achievement heatmap, or (with the busiest day's count) of the commit
  /// heatmap, as `ootd report` and `ootd graph` draw it, in `width` columns.
  func heatLegend(title: String, commitMaximum: Int?, width: Int) -> [String]
}

/// The screen as a pure function: `render(state, width, height)` → exactly `height` lines, none
/// wider than `width` columns (wide characters count two; nothing wraps, what does not fit is cut).
public struct Renderer {
  public let rows: any RowStyle
  public let keys: KeyMap

  public init(rows: any RowStyle, keys: KeyMap = .standard) {
    self.rows = rows
    self.keys = keys
  }

  public func render(_ state: TUIState, width: Int, height: Int) -> [String] {
    guard width > 0, height > 0 else { return Array(repeating: "", count: max(0, height)) }
    if state.mode == .help {
      // The whole screen: every key fits 80×24; a smaller screen scrolls it (j/k).
      var lines = help(width: width, height: height)
      if lines.count > height, height >= 3 {
        let entries = Array(lines.dropFirst())
        let room = height - 2
        let top = max(0, min(state.helpTop, entries.count - room))
        lines = [lines[0]] + entries[top..<(top + room)]
          + [paint("\(name(.down))/\(name(.up)) scroll · \(top + room) of \(entries.count) · Esc closes", "2")]
      }
      lines = Array(lines.prefix(height))
      while lines.count < height { lines.append("") }
      return lines.map { Self.clip($0, to: width, colored: rows.colored) }
    }
    if state.tab != .day {
      var lines: [String]
      switch state.tab {
      case .week: lines = weekGrid(state, width: width, height: height - 1)
      case .calendar: lines = calendarGrid(state, width: width, height: height - 1)
      default:
        lines = state.project == nil
          ? projectRows(state, width: width, height: height - 1) : projectTodoRows(state, width: width, height: height - 1)
      }
      while lines.count < height - 1 { lines.append("") }
      lines.append(status(state, width: width))
      return lines.prefix(height).map { Self.clip($0, to: width, colored: rows.colored) }
    }
    let top = [rows.heading(state.day, figures: state.data.figures, width: width, today: state.today), bar(state, width: width)]
    let bottom = [status(state, width: width)]
    var room = height - top.count - bottom.count
    var middle: [String] = []
    do {
      // What is below the day's todos: the overdue section (on today), then the backlog count.
      var below: [String] = []
      if state.day == state.today, state.data.overdueCount > 0 {
        let shown = min(state.data.overdue.count, max(0, room / 4))
        let count = state.data.overdueCount
        below.append("")
        below.append(
          paint("Overdue", "1;31")
            + paint("  \(count) open from earlier days · \(name(.carry)) carries \(count == 1 ? "it" : "them") to today", "2"))
        let idWidth = String(state.data.overdue.map(\.id).max() ?? 1).count
        below += state.data.overdue.prefix(shown).map { rows.line($0, idWidth: idWidth, width: width, carriedAway: false, today: state.today) }
      }
      if state.data.backlogCount > 0 {
        below.append(paint("  Backlog: \(state.data.backlogCount) waiting for a day ('ootd plan ID')", "2"))
      }
      if below.count > room / 2 { below = Array(below.prefix(max(0, room / 2))) }
      room -= below.count
      if case .pickBlock(let index) = state.mode {
        middle = blockRows(state, selected: index, height: max(0, room + below.count))
      } else {
        middle = todoRows(state, width: width, height: max(0, room)) + below
      }
    }
    var lines = top + middle.prefix(max(0, height - top.count - bottom.count))
    while lines.count < height - bottom.count { lines.append("") }
    lines += bottom
    return lines.prefix(height).map { Self.clip($0, to: width, colored: rows.colored) }
  }

  /// The day's todos around the cursor (`>` on its row, `*` on marked ones), then those carried
  /// away from the day, in `height` lines at most, as `ootd list` shows the day: a day whose
  /// todos were all carried away lists them (`[>] 4  mid   Title  → 2026-11-28`), not "Nothing
  /// planned". A carried-away row is not the cursor's: the todo is acted on on its new day.
  func todoRows(_ state: TUIState, width: Int, height: Int) -> [String] {
    guard height > 0 else { return [] }
    let visible = state.visible
    // As `ootd list`: a filtered day shows only its own todos that match.
    let carried = state.filter.isEmpty ? state.data.carriedAway : []
    if visible.isEmpty && carried.isEmpty {
      let empty =
        state.data.todos.isEmpty
        ? "  Nothing planned. \(name(.add)) adds a todo, \(name(.nextDay))/\(name(.previousDay)) go to another day."
        : "  No todo matches the filter '\(TerminalText.printable(state.filter))' (Esc clears it)."
      return [paint(empty, "2")]
    }
    // The id column as wide as `ootd list` makes it: the largest id of the day's rows, the
    // carried-away ones included.
    let idWidth = String(max(state.data.largestID, carried.lazy.map(\.id).max() ?? 0, 1)).count
    // Scroll so that the cursor stays in view.
    let first = max(0, state.cursor - height + 1)
    var lines: [String] = []
    for index in first..<min(visible.count, first + height) {
      let todo = visible[index]
      let line = rows.line(todo, idWidth: idWidth, width: width, carriedAway: false, today: state.today)
      let cursor = index == state.cursor && state.mode != .help
      let marker = (cursor ? paint(">", "1") : " ") + (state.marks.contains(todo.id) ? paint("*", "1;35") : " ")
      lines.append(marker + String(line.dropFirst(2)))
    }
    let left = height - lines.count
    lines += carried.prefix(max(0, left)).map {
      rows.line($0, idWidth: idWidth, width: width, carriedAway: true, today: state.today)
    }
    return lines
  }

  /// The Week tab: the days of the shown day's week side by side (Monday first), each with
  /// its figures and its todos; on a narrow screen fewer days, around the chosen one.
  func weekGrid(_ state: TUIState, width: Int, height: Int) -> [String] {
    let columns = state.data.week
    guard !columns.isEmpty, height > 0 else { return [] }
    let count = (width - 6) / 7 >= 9 ? 7 : max(1, min(7, (width + 1) / 10))
    let selected = columns.firstIndex { $0.day == state.day } ?? 0
    let first = max(0, min(selected - count / 2, columns.count - count))
    let shown = Array(columns[first..<(first + count)])
    let cell = max(1, (width - (count - 1)) / count)
    func pad(_ text: String) -> String { DisplayWidth.padRight(DisplayWidth.truncate(text, to: cell), to: cell) }
    func row(_ cells: [String]) -> String { cells.joined(separator: paint("│", "2")) }
    let last = columns[columns.count - 1].day
    var lines = [
      paint("Week", "1") + " \(columns[0].day) – \(last)"
        + paint("  · Enter opens a day · Tab: the Day", "2")
    ]
    lines.append(row(shown.map { column in
      let text = pad("\(column.day.weekday.shortName) \(String(column.day.description.suffix(5)))")
      return column.day == state.day ? paint(text, "1;7") : column.day == state.today ? paint(text, "1") : text
    }))
    lines.append(row(shown.map { column in
      let figures = column.figures
      let percent = figures.rate.map { " \(Int(($0 * 100).rounded()))%" } ?? ""
      let text = pad(figures.total == 0 ? "-" : "\(figures.done)/\(figures.total)\(percent)")
      return figures.isPerfect ? paint(text, "32") : paint(text, "2")
    }))
    lines.append(row(shown.map { _ in String(repeating: "─", count: cell) }))
    let depth = max(0, height - lines.count)
    // A column's rows: its own todos, then those carried away from it (`>`, dim), as `ootd
    // list` lists the week.
    func rowCount(_ column: DayColumn) -> Int { column.todos.count + column.carriedAway.count }
    let tallest = shown.map(rowCount).max() ?? 0
    for index in 0..<min(depth, tallest) {
      lines.append(row(shown.map { column in
        if column.todos.indices.contains(index) {
          let todo = column.todos[index]
          let mark = todo.isDone ? "x " : todo.isDropped ? "- " : "  "
          let text = pad(mark + TerminalText.printable(todo.title))
          return todo.isDone || todo.isDropped ? paint(text, "2") : text
        }
        let carried = index - column.todos.count
        guard column.carriedAway.indices.contains(carried) else { return pad("") }
        return paint(pad("> " + TerminalText.printable(column.carriedAway[carried].title)), "2")
      }))
    }
    if tallest > depth, depth > 0 {
      lines[lines.count - 1] = row(shown.map { column in
        rowCount(column) >= depth ? pad("  +\(rowCount(column) - depth + 1) more") : pad("")
      })
    }
    return lines
  }

  /// `no commits`, `1 commit`, `3 commits`.
  static func commits(_ count: Int) -> String {
    count == 0 ? "no commits" : count == 1 ? "1 commit" : "\(count) commits"
  }

  /// The Calendar tab: the achievement heatmap above the commit heatmap (the cells and levels
  /// of `ootd report` and `ootd graph`), weeks as columns (Monday first), the cursor (`>`) on
  /// the shown day. As many weeks as fit, the latest first kept (the cursor's week always);
  /// on a short screen the two heatmaps stand side by side.
  func calendarGrid(_ state: TUIState, width: Int, height: Int) -> [String] {
    guard let data = state.data.calendar, height > 0 else { return [] }
    let day = state.day
    let tally = data.tally(day)
    var heading = paint("Calendar", "1") + " \(day.weekday.shortName) \(day)"
    heading += tally.total == 0 ? " · no todos" : " · \(tally.done)/\(tally.total) done"
    if let commits = data.commits { heading += " · " + Self.commits(commits.count(on: day)) }
    heading += paint("  · h/l j/k move · Enter opens", "2")
    let layout = HeatmapLayout(range: data.range)
    let (firstMonday, weekCount) = (layout.firstMonday, layout.weekCount)
    let maximum = data.commits?.counts.max() ?? 0
    func achievement(_ day: Day) -> Int? { AchievementLevel(data.tally(day)).rawValue }
    func commitLevel(_ day: Day) -> Int? {
      guard let commits = data.commits else { return 0 }
      guard let count = commits.syncedCount(on: day) else { return nil }
      return CommitCalendar.level(of: count, maximum: maximum)
    }
    /// `Mon` then a cell per week, each after a space (`>` before the cursor's).
    func row(_ weekday: Int, _ weeks: Range<Int>, _ level: (Day) -> Int?) -> String {
      var line = ""
      for week in weeks {
        let cellDay = firstMonday.adding(days: week * 7 + weekday)
        let cursor = cellDay == day
        line += cursor ? paint(">", "1") : " "
        let cell = rows.heatCell(level(cellDay))
        line += cursor && rows.colored ? "\u{1B}[7m" + cell + "\u{1B}[0m" : cell
      }
      return line
    }
    let cursorWeek = max(0, min(weekCount - 1, firstMonday.distance(to: day) / 7))
    func window(_ fitting: Int) -> Range<Int> {
      let count = max(1, min(weekCount, fitting))
      let first = min(weekCount - count, cursorWeek)
      return first..<(first + count)
    }
    let labels = (0..<7).map { Weekday.allCases[$0].shortName }
    let commitTitle = data.commits == nil ? "Commits (none synced: 'ootd github login', 'ootd sync')" : "Commits"
    var lines = [heading]
    if height >= 21 {
      // One above the other: a month line, then each heatmap under its title.
      let weeks = window((width - 3) / 2)
      var months = "   "
      for (week, month) in layout.monthLabels(weeks: weeks, minimumGap: 0) {
        let label = HeatmapLayout.monthNames[month - 1]
        let column = 3 + 2 * (week - weeks.lowerBound) + 1
        if column >= DisplayWidth.of(months) + (months.count > 3 ? 1 : 0), column + 3 <= 3 + 2 * weeks.count {
          months += String(repeating: " ", count: column - months.count) + label
        }
      }
      lines.append(months)
      lines.append(paint("Todos done", "1"))
      lines += (0..<7).map { labels[$0] + row($0, weeks, achievement) }
      lines.append(paint(commitTitle, "1"))
      if data.commits != nil { lines += (0..<7).map { labels[$0] + row($0, weeks, commitLevel) } }
      lines += rows.heatLegend(title: "Todos done", commitMaximum: nil, width: width)
      if data.commits != nil { lines += rows.heatLegend(title: "Commits", commitMaximum: maximum, width: width) }
    } else {
      // Side by side on a short screen (fewer weeks each), no month line.
      let panel = (width - 3 - 2) / 2
      let weeks = window(panel / 2)
      let columns = 2 * weeks.count
      lines.append("   " + paint(DisplayWidth.padRight("Todos done", to: columns), "1") + " │ " + paint(data.commits == nil ? "Commits (none synced)" : "Commits", "1"))
      lines += (0..<7).map { weekday in
        labels[weekday] + row(weekday, weeks, achievement) + " " + paint("│", "2")
          + (data.commits == nil ? "" : row(weekday, weeks, commitLevel))
      }
      lines += rows.heatLegend(title: "Todos done", commitMaximum: nil, width: width)
      if data.commits != nil { lines += rows.heatLegend(title: "Commits", commitMaximum: maximum, width: width) }
    }
    return Array(lines.prefix(height))
  }

  /// The Projects tab: each active project's progress (its todos done of all), by name.
  func projectRows(_ state: TUIState, width: Int, height: Int) -> [String] {
    var lines = [paint("Projects", "1") + paint("  · Enter lists its todos · Tab: the Day", "2")]
    let projects = state.data.projects
    guard !projects.isEmpty else {
      return lines + [paint("  No projects yet: 'ootd project add NAME' makes one.", "2")]
    }
    let nameWidth = min(24, projects.map { DisplayWidth.of(TerminalText.printable($0.project.name)) }.max() ?? 0)
    let cells = 20
    let first = max(0, state.cursor - (height - 2))
    for index in first..<min(projects.count, first + max(0, height - 1)) {
      let progress = projects[index]
      let rate = progress.total == 0 ? 0 : Double(progress.done) / Double(progress.total)
      let filled = Int((rate * Double(cells)).rounded())
      let marker = index == state.cursor ? paint(">", "1") : " "
      lines.append(
        marker + " " + DisplayWidth.padRight(DisplayWidth.truncate(TerminalText.printable(progress.project.name), to: nameWidth), to: nameWidth)
          + "  " + paint(String(repeating: "█", count: filled), "32") + paint(String(repeating: "░", count: cells - filled), "2")
          + "  \(progress.done)/\(progress.total)")
    }
    return lines
  }

  /// An opened project's todos (Enter on the Projects tab): a heading, then its todos of every
  /// day as `ootd list` draws them, each after its day (`11-27`, `backlog`), the cursor's `>`
  /// and the marks' `*` as on the Day.
  func projectTodoRows(_ state: TUIState, width: Int, height: Int) -> [String] {
    guard let project = state.project else { return [] }
    let todos = state.data.projectTodos
    let done = todos.lazy.filter(\.isDone).count
    var heading = paint("Project", "1") + " " + TerminalText.printable(project) + " · \(done)/\(todos.count) done"
    if !state.filter.isEmpty { heading += paint(" · filter '\(TerminalText.printable(state.filter))' \(state.visible.count)/\(todos.count)", "33") }
    if !state.marks.isEmpty { heading += paint(" · \(state.marks.count) marked", "35") }
    heading += paint("  · Esc: the projects", "2")
    var lines = [heading]
    let room = height - 1
    let visible = state.visible
    guard room > 0 else { return lines }
    if visible.isEmpty {
      return lines + [paint(todos.isEmpty ? "  No todos in this project." : "  No todo matches the filter (Esc clears it).", "2")]
    }
    let idWidth = String(todos.map(\.id).max() ?? 1).count
    let first = max(0, state.cursor - room + 1)
    for index in first..<min(visible.count, first + room) {
      let todo = visible[index]
      let day = todo.day.map { String($0.description.suffix(5)) } ?? "-----"
      let line = rows.line(todo, idWidth: idWidth, width: max(0, width - 6), carriedAway: false, today: state.today)
      let cursor = index == state.cursor
      let marker = (cursor ? paint(">", "1") : " ") + (state.marks.contains(todo.id) ? paint("*", "1;35") : " ")
      lines.append(marker + paint(day, "2") + " " + String(line.dropFirst(2)))
    }
    return lines
  }

  /// The task blocks to pick from, the one under the cursor marked `>`.
  func blockRows(_ state: TUIState, selected: Int, height: Int) -> [String] {
    guard height > 0 else { return [] }
    let blocks = state.data.blocks
    let nameWidth = min(16, blocks.map { DisplayWidth.of(TerminalText.printable($0.name)) }.max() ?? 0)
    let first = max(0, selected - height + 2)
    var lines = [paint("Add from a task block to \(state.day):", "1")]
    for index in first..<min(blocks.count, first + height - 1) {
      let block = blocks[index]
      let marker = index == selected ? paint(">", "1") : " "
      lines.append(
        marker + " " + DisplayWidth.padRight(TerminalText.printable(block.name), to: nameWidth) + "  "
          + DisplayWidth.padRight(block.priority.rawValue, to: 4) + "  " + TerminalText.printable(block.title))
    }
    return lines
  }

  /// `  ████████░░░░░░░░░░░░ · streak 3 · filter 'x' 2/5 · 1 marked`: the day's figures (the
  /// heading states them in words) as a bar.
  func bar(_ state: TUIState, width: Int) -> String {
    let cells = max(4, min(20, width - 40))
    let filled = Int(((state.data.figures.rate ?? 0) * Double(cells)).rounded())
    var text = "  " + paint(String(repeating: "█", count: filled), "32") + paint(String(repeating: "░", count: cells - filled), "2")
    text += paint(" · streak \(state.data.streak)", "2")
    // Nothing when no commit is synced (GitHub not linked, or never synced).
    if let commits = state.data.commits { text += paint(" · " + Self.commits(commits), "2") }
    if !state.filter.isEmpty {
      text += paint(" · filter '\(TerminalText.printable(state.filter))' \(state.visible.count)/\(state.data.todos.count)", "33")
    }
    if !state.marks.isEmpty {
      let hidden = state.hiddenMarks
      text += paint(" · \(state.marks.count) marked" + (hidden > 0 ? " (\(hidden) hidden)" : ""), "35")
    }
    return text
  }

  /// The last line: the line being typed, the question asked, the last message, or key hints.
  func status(_ state: TUIState, width: Int) -> String {
    func typing(_ prompt: String, _ text: String) -> String {
      // The notes' new lines show as ⏎ (Enter saves, Ctrl-J or Alt-Enter starts one).
      let shown = text.split(separator: "\n", omittingEmptySubsequences: false)
        .map { TerminalText.printable(String($0)) }.joined(separator: "⏎")
      // The end of a long line stays in view.
      var tail = shown
      while DisplayWidth.of(prompt) + DisplayWidth.of(tail) + 1 > width, !tail.isEmpty { tail.removeFirst() }
      return paint(prompt, "1") + tail + (rows.colored ? "\u{1B}[7m \u{1B}[0m" : "_")
    }
    switch state.mode {
    case .add(let text): return typing("add: ", text)
    case .edit(_, let text): return typing("title: ", text)
    case .filter: return typing("/", state.filter)
    case .notes(_, let text): return typing("notes (ctrl-j: new line): ", text)
    case .goTo(let text): return typing("go to: ", text)
    case .pickBlock: return paint("j/k choose · Enter adds · Esc cancels", "2")
    case .confirmDelete(let ids):
      return paint("Delete \(ids.count == 1 ? "1 todo" : "\(ids.count) todos")? y/n", "1;31")
    case .help: return paint("Esc or ? closes the help", "2")
    case .list:
      if !state.status.isEmpty { return TerminalText.printable(state.status) }
      let hints: [(Action, String)] = [
        (.down, "move"), (.toggleDone, "done"), (.add, "add"), (.undo, "undo"), (.help, "keys"), (.quit, "quit"),
      ]
      return paint(hints.map { "\(name($0.0)) \($0.1)" }.joined(separator: " · "), "2")
    }
  }

  /// Every key, one action a line; in two columns when the screen is wide enough.
  func help(width: Int = 0, height: Int = .max) -> [String] {
    let names = Action.allCases.map { action in keys.keys(for: action).map(\.description).joined(separator: " ") }
    let column = min(18, (names.map(DisplayWidth.of).max() ?? 0) + 2)
    var entries = zip(Action.allCases, names).map { action, keyNames in
      " " + DisplayWidth.padRight(keyNames, to: column) + action.help
    }
    entries.append(" " + DisplayWidth.padRight("esc", to: column) + "clear filter/marks/project")
    entries.append(" " + DisplayWidth.padRight("enter", to: column) + "open the day / the project")
    entries.append(" " + DisplayWidth.padRight("ctrl-j", to: column) + "notes: a new line (⏎)")
    let title = paint("Keys", "1") + paint("  (Esc or ? closes this)", "2")
    let cell = (entries.map(DisplayWidth.of).max() ?? 0) + 1
    guard entries.count + 1 > height, width >= 2 * cell - 1 else { return [title] + entries }
    let half = (entries.count + 1) / 2
    return [title] + (0..<half).map { row in
      DisplayWidth.padRight(entries[row], to: cell) + (row + half < entries.count ? entries[row + half] : "")
    }
  }

  /// The first key of `action`, for hints.
  func name(_ action: Action) -> String { keys.keys(for: action).first?.description ?? "?" }

  func paint(_ text: String, _ code: String) -> String {
    rows.colored ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// `line` cut to `width` columns (colour codes take none), never wider: a wide character
  /// that would straddle the edge is left out. Colours are reset after a cut.
  public static func clip(_ line: String, to width: Int, colored: Bool) -> String {
    var result = ""
    var used = 0
    var inEscape = false
    var sawEscape = false
    var cut = false
    for character in line {
      if inEscape {
        if colored { result.append(character) }
        if character.isLetter { inEscape = false }
        continue
      }
      if character == "\u{1B}" {
        inEscape = true
        sawEscape = true
        if colored { result.append(character) }
        continue
      }
      let columns = DisplayWidth.of(String(character))
      if used + columns > width {
        cut = true
        break
      }
      result.append(character)
      used += columns
    }
    if cut && sawEscape && colored { result += "\u{1B}[0m" }
    return result
  }
}
