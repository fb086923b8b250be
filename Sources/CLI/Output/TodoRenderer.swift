import Core

/// Renders todos for people: one aligned line per todo, grouped by day.
struct TodoRenderer {
  let style: Style
  let today: Day
  /// The line width titles are cut to fit; nil never cuts (output to a pipe or a file).
  var width: Int? = nil
  /// Whether each line shows the todo's short uuid after its id (`list --long`).
  var showsUUID = false

  /// A renderer for `environment`: its colours, its today, its line width.
  init(_ environment: AppEnvironment, noColor: Bool) {
    self.init(
      style: environment.style(noColor: noColor), today: environment.today,
      width: environment.lineWidth)
  }

  init(style: Style, today: Day, width: Int? = nil) {
    self.style = style
    self.today = today
    self.width = width
  }

  /// `[x]  12  high  Title   @project #block +tag` with colours that follow the priority
  /// (`[x]  12  4fc7664d  high  Title …` when ``showsUUID``).
  /// With a width, the line never wraps: the title is cut first (to no less than 16 columns,
  /// or its own width), then the `@project #block +tag date` part, which shrinks to fit
  /// (uncoloured) or is left out on a very narrow terminal.
  ///
  /// `carriedAway` draws a todo carried away from the day being shown, which counts there as
  /// planned and not done: `[>]`, and the day it went to (`→ 2026-12-02`).
  func line(_ todo: Todo, idWidth: Int, showDay: Bool = false, carriedAway: Bool = false) -> String {
    // Appended piece by piece to one string (a search lists thousands of these: an array of
    // tag pairs joined and an interpolation cost more than reading the todos).
    let box =
      carriedAway ? style.dim("[>]")
      : todo.isDone ? style.green("[x]") : todo.isDropped ? style.dim("[-]") : "[ ]"
    let digits = String(todo.id)
    let id = digits.utf8.count >= idWidth ? digits : DisplayWidth.padLeft(digits, to: idWidth)
    let priority = priorityLabel(todo.priority)
    // The `@project #block +tag date` part: as written (`styledTags`, with its leading two
    // spaces), and plain (`plainTags`, only with a width, to measure and cut it).
    var styledTags = ""
    var plainTags = ""
    var tagCount = 0
    func tag(_ mark: String, _ text: String, _ color: (String) -> String) {
      var plain = mark
      plain += text
      styledTags += tagCount == 0 ? "  " : " "
      styledTags += color(plain)
      if width != nil {
        if tagCount > 0 { plainTags += " " }
        plainTags += plain
      }
      tagCount += 1
    }
    if let project = todo.project { tag("@", TerminalText.printable(project), style.cyan) }
    if let block = todo.block { tag("#", TerminalText.printable(block), style.magenta) }
    for name in todo.tags { tag("+", TerminalText.printable(name), style.yellow) }
    if carriedAway {
      tag("→ ", todo.day?.description ?? Placement.backlogWord, style.dim)
    } else if showDay || todo.isOverdue(today: today) {
      tag("", todo.day?.description ?? Placement.backlogWord, todo.isOverdue(today: today) ? style.red : style.dim)
    }
    let fixed = 2 + 3 + 1 + idWidth + 2 + 4 + 2 + (showsUUID ? 10 : 0)
    let title = TerminalText.printable(todo.title)
    var rest = styledTags
    var cut = title
    if let width {
      let available = width - fixed
      let tagsWidth = tagCount == 0 ? 0 : 2 + DisplayWidth.of(plainTags)
      let titleWidth = DisplayWidth.of(title)
      if titleWidth + tagsWidth > available {
        let minimumTitle = min(titleWidth, 16)
        var shownTags = tagsWidth
        if tagsWidth > 0 && minimumTitle + tagsWidth > available {
          // The tags give way: shrunk to the room left (plain, as colour codes cannot be cut),
          // or left out when hardly anything of them would show.
          let room = available - minimumTitle - 2
          if room >= 6 {
            rest = "  " + style.dim(DisplayWidth.truncate(plainTags, to: room))
            shownTags = 2 + room
          } else {
            rest = ""
            shownTags = 0
          }
        }
        cut = DisplayWidth.truncate(title, to: max(1, available - shownTags))
      }
    }
    let shown = todo.isDone && !carriedAway ? style.strike(cut) : cut
    var line = "  "
    line.reserveCapacity(fixed + 16 + shown.utf8.count + rest.utf8.count + (style.colored ? 48 : 0))
    line += box
    line += " "
    line += style.dim(id)
    if showsUUID {
      line += "  "
      line += style.dim(TodoReference.shortUUID(todo.uuid))
    }
    line += "  "
    line += priority
    line += "  "
    line += shown
    line += rest
    return line
  }

  /// `lines` with every line wider than the line width wrapped between words (todo lines
  /// already fit); as they are without a width.
  func fitting(_ lines: [String]) -> [String] {
    guard let width else { return lines }
    return lines.flatMap { DisplayWidth.wrapWords($0, to: width) }
  }

  /// The priority padded to four columns and coloured: high red, mid yellow, low blue.
  func priorityLabel(_ priority: Priority) -> String {
    let text = DisplayWidth.padRight(priority.rawValue, to: 4)
    switch priority {
    case .high: return style.red(text)
    case .mid: return style.yellow(text)
    case .low: return style.blue(text)
    }
  }

  /// A heading for one day: `Sun 2026-11-22 · today  2/5 done  40%`. With `showProgress` false
  /// (a filtered list, whose todos are not the whole day) the count is left out. With a width
  /// it never wraps mid-phrase: what does not fit goes on the next lines, indented, between
  /// its parts (`Sun 2026-11-22` / `  yesterday` / `  4/4 done  100%` at 24 columns).
  func dayHeading(_ day: Day, todos: [Todo], showProgress: Bool = true) -> [String] {
    dayHeading(day, done: todos.filter(\.isDone).count, total: todos.count, showProgress: showProgress)
  }

  /// The heading of the backlog's todos (no day yet), where a list has them: before the days.
  func backlogHeading() -> [String] {
    [style.bold("Backlog") + style.dim("  no day yet · 'ootd plan ID' puts one on today")]
  }

  /// ``dayHeading(_:todos:showProgress:)`` for a day of `total` todos, `done` of them done.
  func dayHeading(_ day: Day, done: Int, total: Int, showProgress: Bool = true) -> [String] {
    var parts = [(separator: "", text: style.bold("\(day.weekday.shortName) \(day)"))]
    switch day.distance(to: today) {
    case 0: parts.append((" · ", style.bold("today")))
    case 1: parts.append((" · ", style.bold("yesterday")))
    case -1: parts.append((" · ", style.bold("tomorrow")))
    default: break
    }
    if total > 0 && showProgress {
      parts.append(("  ", progress(done: done, total: total)))
    }
    var lines: [String] = []
    var line = ""
    for part in parts {
      let joined = line + part.separator + part.text
      if let width, !line.isEmpty, DisplayWidth.visible(joined) > width {
        lines.append(line)
        line = "  " + part.text
      } else {
        line = joined
      }
    }
    return lines + [line]
  }

  /// `2/5 done  40%`, green when everything is done.
  func progress(done: Int, total: Int) -> String {
    guard total > 0 else { return style.dim("nothing planned") }
    let percent = Int((Double(done) / Double(total) * 100).rounded())
    let text = "\(done)/\(total) done  \(percent)%"
    return done == total ? style.green(text) : style.dim(text)
  }

  /// Todos grouped under day headings, in list order; `showProgress` as in ``dayHeading``.
  /// With progress, each day also lists the todos carried away from it (``DayFigures``).
  func days(_ todos: [Todo], showProgress: Bool = true) -> [String] {
    let idWidth = todos.map { String($0.id).count }.max() ?? 1
    var lines: [String] = []
    var list = DayList(renderer: self, idWidth: idWidth, showProgress: showProgress) { lines += $0 }
    if showProgress, let first = todos.lazy.compactMap(\.day).first, let last = todos.last?.day,
      let range = try? DayRange(from: first, to: last)
    {
      list.carry(todos.filter { todo in todo.carriedFrom.contains { range.contains($0) } }, in: range)
    }
    for todo in todos { list.add(todo) }
    list.finish()
    return lines
  }

  /// ``days(_:showProgress:)`` for todos read one at a time in list order, in bounded memory.
  /// Without progress, each day's heading is written at its first todo and each todo as it
  /// comes. With progress, a day's todos are held until the next day begins (the heading
  /// counts them first), but never more than `holdLimit`: a longer day asks `counts` for its
  /// figures (``DayCounts``) and is written as it is read.
  struct DayList {
    let renderer: TodoRenderer
    /// The width of the largest id of the whole list.
    let idWidth: Int
    let showProgress: Bool
    let output: ([String]) -> Void
    /// The most todos of one day held to count them for the heading.
    let holdLimit: Int
    /// The todos of the current day not written yet.
    private var group: [Todo] = []
    /// Lines not handed to `output` yet: a heading waits for its first todos, so a day goes
    /// out in one piece.
    private var pending: [String] = []
    /// The day whose heading is written (its todos go straight to the output).
    private var openDay: Day?
    /// Whether no todo was added.
    private(set) var isEmpty = true
    /// Whether the backlog's heading is written.
    private var inBacklog = false
    /// The todos carried away from each listed day not written yet, by that day (see
    /// ``carry(_:in:)``).
    private var carriedAway: [Day: [Todo]] = [:]

    init(
      renderer: TodoRenderer, idWidth: Int, showProgress: Bool, holdLimit: Int = 1000,
      output: @escaping ([String]) -> Void
    ) {
      self.renderer = renderer
      self.idWidth = idWidth
      self.showProgress = showProgress
      self.holdLimit = holdLimit
      self.output = output
    }

    /// Lists `todos` (in listing order) after the own todos of each day of `range` (any day
    /// when nil) they were carried away from, and counts them in its heading, as ``DayFigures``
    /// has it; a day with only such todos is listed too. Only with progress: a filtered list
    /// shows its own todos.
    mutating func carry(_ todos: [Todo], in range: DayRange?) {
      guard showProgress else { return }
      for todo in todos {
        for day in todo.carriedFrom where range?.contains(day) ?? true && DayFigures.isCarriedAway(todo, from: day) {
          carriedAway[day, default: []].append(todo)
        }
      }
    }

    /// Adds the next todo; a day is held whole to count it.
    mutating func add(_ todo: Todo) {
      guard let day = todo.day else { return addToBacklog(todo) }
      _ = place(todo, on: day)
    }

    /// Adds the next todo; `counts` gives the figures of a day longer than `holdLimit`, which
    /// is then written as it is read.
    mutating func add(_ todo: Todo, counts: (Day) throws -> (done: Int, total: Int)) rethrows {
      guard let day = todo.day else { return addToBacklog(todo) }
      guard place(todo, on: day) else { return }
      let figures = try counts(day)
      writeHeading(day, done: figures.done, total: figures.total)
      writeLines()
    }

    /// Writes a backlog todo as it comes, under the backlog's heading at the first: the backlog
    /// has no figures to count, and comes before every day in list order.
    private mutating func addToBacklog(_ todo: Todo) {
      if !inBacklog {
        if !isEmpty { pending.append("") }
        pending += renderer.backlogHeading()
        isEmpty = false
        inBacklog = true
      }
      pending.append(renderer.line(todo, idWidth: idWidth))
      output(pending)
      pending.removeAll(keepingCapacity: true)
    }

    /// Files `todo`, planned on `day`; true when its day is held and has reached `holdLimit`
    /// todos.
    private mutating func place(_ todo: Todo, on day: Day) -> Bool {
      if let open = openDay {
        if open == day {
          group.append(todo)
          if group.count >= holdLimit { writeLines() }
          return false
        }
        writeLines()
        writeCarriedAway(open)
        openDay = nil
      } else if let last = group.last, last.day != day {
        writeDay()
      }
      if group.isEmpty { writeDaysOnlyCarriedAway(before: day) }
      if !showProgress {
        // No figures in the heading: it goes out at once.
        writeHeading(day, done: 0, total: 0)
        group.append(todo)
        return false
      }
      group.append(todo)
      return group.count >= holdLimit
    }

    /// Writes what is left.
    mutating func finish() {
      if let day = openDay {
        writeLines()
        writeCarriedAway(day)
        openDay = nil
      } else {
        writeDay()
      }
      writeDaysOnlyCarriedAway(before: nil)
    }

    /// Writes the held day: its heading, counted from its todos, its todos, and the todos
    /// carried away from it.
    private mutating func writeDay() {
      guard let first = group.first, let day = first.day else { return }
      writeHeading(day, done: group.count { $0.isDone }, total: group.count)
      writeLines()
      writeCarriedAway(day)
      openDay = nil
    }

    /// Writes the days before `day` (all, when nil) whose todos were all carried away.
    private mutating func writeDaysOnlyCarriedAway(before day: Day?) {
      for shown in carriedAway.keys.sorted() where day.map({ shown < $0 }) ?? true {
        writeHeading(shown, done: 0, total: 0)
        writeCarriedAway(shown)
        openDay = nil
      }
    }

    /// Writes the todos carried away from `day`, after its own.
    private mutating func writeCarriedAway(_ day: Day) {
      guard let todos = carriedAway.removeValue(forKey: day) else { return }
      for todo in todos { pending.append(renderer.line(todo, idWidth: idWidth, carriedAway: true)) }
      output(pending)
      pending.removeAll(keepingCapacity: true)
    }

    /// Writes a day's heading (after a blank line, but for the first day); its todos follow.
    /// Its figures are its own todos' (`done` of `total`) and the todos carried away from it,
    /// added up by ``DayFigures``.
    private mutating func writeHeading(_ day: Day, done: Int, total: Int) {
      if !isEmpty { pending.append("") }
      let figures =
        DayFigures.own(total: total, done: done) + DayFigures.carriedAway(carriedAway[day]?.count ?? 0)
      pending += renderer.dayHeading(
        day, done: figures.done, total: figures.total, showProgress: showProgress)
      isEmpty = false
      openDay = day
    }

    /// Writes the held todos of the open day, after what is pending.
    private mutating func writeLines() {
      for todo in group { pending.append(renderer.line(todo, idWidth: idWidth)) }
      group.removeAll(keepingCapacity: true)
      guard !pending.isEmpty else { return }
      output(pending)
      pending.removeAll(keepingCapacity: true)
    }
  }

  /// The overdue section: the most recent open todos of earlier days (`count` in all, or at
  /// least `count` when it reached `countLimit`), with the way to carry them.
  func overdue(_ todos: [Todo], count: Int, countLimit: Int = 1000) -> [String] {
    guard !todos.isEmpty else { return [] }
    let idWidth = todos.map { String($0.id).count }.max() ?? 1
    let noun = Core.noun(count, "todo")
    let number = count >= countLimit ? "\(countLimit)+" : String(count)
    var lines = [
      style.red(style.bold("Overdue")) + style.dim(
        "  \(number) open \(noun) from earlier days · 'ootd carry' moves \(count == 1 ? "it" : "them") to today, 'ootd drop ID' gives one up")
    ]
    lines += todos.map { line($0, idWidth: idWidth) }
    if count > todos.count {
      let more = count >= countLimit ? "more" : String(count - todos.count)
      lines.append(style.dim("  … and \(more) older ('ootd list --open --to yesterday')"))
    }
    return lines
  }
}

extension TodoRenderer {
  /// Prints the todos `filter` selects as days (``DayList``: a heading, with the day's figures
  /// when `showProgress`, then its todos), streamed from the database: constant memory for any
  /// number of todos. `fitted` wraps lines wider than the terminal. Returns whether any todo
  /// was printed.
  func printDays(
    _ reader: any TodoReader, matching filter: TodoFilter, showProgress: Bool, fitted: Bool,
    _ environment: AppEnvironment
  ) throws -> Bool {
    // A whole day's listing shows the todos carried away from it too (``DayFigures``).
    var carried: [Todo] = []
    var listed: DayRange?
    if showProgress {
      if case .range(let range) = filter.days { listed = range }
      carried = try reader.todosCarriedAway(from: listed)
    }
    let largest = max(try reader.largestTodoID(matching: filter) ?? 0, carried.map(\.id).max() ?? 0)
    let idWidth = String(max(largest, 1)).count
    var list = DayList(renderer: self, idWidth: idWidth, showProgress: showProgress) { lines in
      environment.output((fitted ? fitting(lines) : lines).map { $0 + "\n" }.concatenated())
    }
    list.carry(carried, in: listed)
    try reader.forEachTodo(matching: filter, withDayCounts: { todo, counter in
      try list.add(todo, counts: counter.counts(on:))
      return environment.outputFailed() == nil
    })
    list.finish()
    return !list.isEmpty
  }
}
