import Core

/// Renders todos for people: one aligned line per todo, grouped by day.
struct TodoRenderer {
  let style: Style
  let today: Day
  /// The line width titles are cut to fit; nil never cuts (output to a pipe or a file).
  var width: Int? = nil

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

  /// `[x]  12  high  Title   @project #block` with colours that follow the priority.
  func line(_ todo: Todo, idWidth: Int, showDay: Bool = false) -> String {
    let box = todo.isDone ? style.green("[x]") : todo.isDropped ? style.dim("[-]") : "[ ]"
    let id = DisplayWidth.padLeft(String(todo.id), to: idWidth)
    let priority = priorityLabel(todo.priority)
    var tags: [String] = []
    if let project = todo.project { tags.append(style.cyan("@" + project)) }
    if let block = todo.block { tags.append(style.magenta("#" + block)) }
    for tag in todo.tags { tags.append(style.yellow("+" + tag)) }
    if showDay || todo.isOverdue(today: today) {
      tags.append(todo.isOverdue(today: today) ? style.red(todo.day.description) : style.dim(todo.day.description))
    }
    let fixed = 2 + 3 + 1 + idWidth + 2 + 4 + 2
    let plainTags = tags.isEmpty ? 0 : tags.map { DisplayWidth.of(strip($0)) + 1 }.reduce(1, +)
    let title = TerminalText.printable(todo.title)
    let cut = width.map { DisplayWidth.truncate(title, to: max(20, $0 - fixed - plainTags)) } ?? title
    let shown = todo.isDone ? style.strike(cut) : cut
    let rest = tags.isEmpty ? "" : "  " + tags.joined(separator: " ")
    return "  \(box) \(style.dim(id))  \(priority)  \(shown)\(rest)"
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

  /// A heading for one day: `Sun 2026-11-22 · today   2/5 done  40%`. With `showProgress` false
  /// (a filtered list, whose todos are not the whole day) the count is left out.
  func dayHeading(_ day: Day, todos: [Todo], showProgress: Bool = true) -> String {
    var label = "\(day.weekday.shortName) \(day)"
    switch day.distance(to: today) {
    case 0: label += " · today"
    case 1: label += " · yesterday"
    case -1: label += " · tomorrow"
    default: break
    }
    let done = todos.filter(\.isDone).count
    let summary = todos.isEmpty || !showProgress ? "" : "  " + progress(done: done, total: todos.count)
    return style.bold(label) + summary
  }

  /// `2/5 done  40%`, green when everything is done.
  func progress(done: Int, total: Int) -> String {
    guard total > 0 else { return style.dim("nothing planned") }
    let percent = Int((Double(done) / Double(total) * 100).rounded())
    let text = "\(done)/\(total) done  \(percent)%"
    return done == total ? style.green(text) : style.dim(text)
  }

  /// Todos grouped under day headings, in list order; `showProgress` as in ``dayHeading``.
  func days(_ todos: [Todo], showProgress: Bool = true) -> [String] {
    let idWidth = todos.map { String($0.id).count }.max() ?? 1
    var lines: [String] = []
    var list = DayList(renderer: self, idWidth: idWidth, showProgress: showProgress) { lines += $0 }
    for todo in todos { list.add(todo) }
    list.finish()
    return lines
  }

  /// ``days(_:showProgress:)`` for todos read one at a time in list order: each day's lines go
  /// to `output` when the next day begins, so only one day is held at a time.
  struct DayList {
    let renderer: TodoRenderer
    /// The width of the largest id of the whole list.
    let idWidth: Int
    let showProgress: Bool
    let output: ([String]) -> Void
    private var group: [Todo] = []
    /// Whether no todo was added.
    private(set) var isEmpty = true

    init(renderer: TodoRenderer, idWidth: Int, showProgress: Bool, output: @escaping ([String]) -> Void) {
      self.renderer = renderer
      self.idWidth = idWidth
      self.showProgress = showProgress
      self.output = output
    }

    mutating func add(_ todo: Todo) {
      if let last = group.last, last.day != todo.day { writeDay() }
      group.append(todo)
    }

    /// Writes the last day.
    mutating func finish() { writeDay() }

    private mutating func writeDay() {
      guard let day = group.first?.day else { return }
      var lines = isEmpty ? [] : [""]
      lines.append(renderer.dayHeading(day, todos: group, showProgress: showProgress))
      lines += group.map { renderer.line($0, idWidth: idWidth) }
      output(lines)
      group.removeAll(keepingCapacity: true)
      isEmpty = false
    }
  }

  /// The overdue section: the most recent open todos of earlier days (`count` in all, or at
  /// least `count` when it reached `countLimit`), with the way to carry them.
  func overdue(_ todos: [Todo], count: Int, countLimit: Int = 1000) -> [String] {
    guard !todos.isEmpty else { return [] }
    let idWidth = todos.map { String($0.id).count }.max() ?? 1
    let noun = count == 1 ? "todo" : "todos"
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

  private func strip(_ text: String) -> String {
    var result = ""
    var inEscape = false
    for scalar in text.unicodeScalars {
      if scalar == "\u{1B}" { inEscape = true; continue }
      if inEscape { if scalar == "m" { inEscape = false }; continue }
      result.unicodeScalars.append(scalar)
    }
    return result
  }
}
