import Core

/// What one day shows, as the session read it from the database.
public struct DayData: Sendable, Equatable {
  /// The day's todos in list order (day, priority, id): a todo ticked or dropped stays put.
  public var todos: [Todo] {
    get { storage }
    set {
      storage = newValue
      largestID = Self.largest(storage)
    }
  }
  private var storage: [Todo] = []
  /// The largest id of ``todos`` (the id column's width), counted once per reading, not per
  /// frame: a day of 100,000 todos redraws a key press without walking them.
  public private(set) var largestID: Int64 = 0

  /// Puts `todos` in with their largest id known (a change to a few rows: not counted again).
  mutating func setTodos(_ todos: [Todo], largestID: Int64) {
    storage = todos
    self.largestID = largestID
  }

  static func largest(_ todos: [Todo]) -> Int64 {
    var largest: Int64 = 0
    for index in todos.indices where todos[index].id > largest { largest = todos[index].id }
    return largest
  }
  /// The todos carried away from the day (they count there, as planned and not done).
  public var carriedAway: [Todo] = []
  /// The day's figures (``DayFigures``).
  public var figures: Tally = .zero
  /// The perfect-day streak up to today.
  public var streak: Int = 0
  /// The most recent open todos of days before today, and how many there are.
  public var overdue: [Todo] = []
  public var overdueCount: Int = 0
  /// How many todos wait in the backlog (no day).
  public var backlogCount: Int = 0
  /// The task blocks `b` picks from (`ootd block list`).
  public var blocks: [TaskBlock] = []
  /// The seven days (Monday first) of the shown day's week, read on the Week tab only.
  public var week: [DayColumn] = []
  /// The active projects with their progress, read on the Projects tab only.
  public var projects: [ProjectProgress] = []
  /// The todos of the project opened on the Projects tab (Enter), of every day and the backlog,
  /// in list order (day, priority, id; the backlog last).
  public var projectTodos: [Todo] = []
  /// Today's figures (the streak counts today when it is perfect): the shown day's when it is
  /// today.
  public var todayFigures: Tally = .zero
  /// The shown day's commits (the dashboard's count), nil when no commit is synced.
  public var commits: Int? = nil
  /// The heatmaps of the Calendar tab, read on that tab only.
  public var calendar: CalendarData? = nil

  public init(
    todos: [Todo] = [], carriedAway: [Todo] = [], figures: Tally = .zero, streak: Int = 0,
    overdue: [Todo] = [], overdueCount: Int = 0, backlogCount: Int = 0, blocks: [TaskBlock] = [],
    week: [DayColumn] = [], projects: [ProjectProgress] = [], commits: Int? = nil, calendar: CalendarData? = nil,
    projectTodos: [Todo] = [], todayFigures: Tally? = nil
  ) {
    self.projectTodos = projectTodos
    self.todayFigures = todayFigures ?? figures
    self.storage = todos
    self.largestID = Self.largest(todos)
    self.carriedAway = carriedAway
    self.figures = figures
    self.streak = streak
    self.overdue = overdue
    self.overdueCount = overdueCount
    self.backlogCount = backlogCount
    self.blocks = blocks
    self.week = week
    self.projects = projects
    self.commits = commits
    self.calendar = calendar
  }
}

/// The Calendar tab's data: each day's tally (as `ootd report` counts it) and commits (as
/// `ootd graph` and the dashboard count them; nil when no commit is synced).
public struct CalendarData: Sendable, Equatable {
  public var range: DayRange
  /// One tally per day of ``range``.
  public var days: [Tally]
  public var commits: CommitCalendar?

  public init(range: DayRange, days: [Tally], commits: CommitCalendar?) {
    self.range = range
    self.days = days
    self.commits = commits
  }

  /// The tally of `day` (zero outside the range).
  public func tally(_ day: Day) -> Tally {
    range.contains(day) ? days[range.from.distance(to: day)] : .zero
  }
}

/// One day of the Week tab: its todos in list order, the todos carried away from it (after
/// them, as `ootd list` lists a week) and its figures (``DayFigures``).
public struct DayColumn: Sendable, Equatable {
  public var day: Day
  public var todos: [Todo]
  public var carriedAway: [Todo]
  public var figures: Tally

  public init(day: Day, todos: [Todo], carriedAway: [Todo] = [], figures: Tally) {
    self.day = day
    self.todos = todos
    self.carriedAway = carriedAway
    self.figures = figures
  }
}

/// What the keys are doing: moving in the list, or typing into a line.
public enum Mode: Sendable, Equatable {
  case list
  /// The line editor of `a`: the `add` syntax.
  case add(text: String)
  /// The line editor of `e`: a new title for the todo.
  case edit(id: Int64, text: String)
  /// The date prompt of `g`: every date word the CLI takes (`fri`, `+3d`, `2026-12-01`).
  case goTo(text: String)
  /// The line editor of `n`: the todo's notes (empty clears them); Enter saves, Ctrl-J or
  /// Alt-Enter starts a new line (shown as ⏎).
  case notes(id: Int64, text: String)
  /// The block picker of `b`: the block under its cursor.
  case pickBlock(index: Int)
  /// The live filter of `/`.
  case filter
  /// `D` asked whether to delete these todos.
  case confirmDelete(ids: [Int64])
  case help
}

/// The TUI's whole state: the day shown, its data, where the cursor is, what is marked and
/// filtered, the mode, and the status line. ``Reducer`` changes it; ``Renderer`` draws it.
public struct TUIState: Sendable, Equatable {
  /// Today, from the clock: read again on each reload and tick, so that at midnight the TUI
  /// rolls over to the new day (``Session/rollOverIfTheDayChanged()``).
  public var today: Day
  public var day: Day
  public var data: DayData
  /// The row of the cursor among ``visible`` (on the Projects tab: among the projects).
  public var cursor: Int = 0
  /// The todos marked with `v`.
  public var marks: Set<Int64> = []
  /// The live filter's text (title words, `+tag`, `@project`).
  public var filter: String = ""
  public var mode: Mode = .list
  /// The tab shown (only the Day tab so far).
  public var tab: Tab = .day
  /// The project opened on the Projects tab (Enter): its todos are the list; Esc closes it.
  public var project: String? = nil
  /// The first entry of the help shown (j/k scroll it when it does not fit the screen).
  public var helpTop: Int = 0
  /// The last action's message (the journal's line for undo and redo, an error).
  public var status: String = ""
  public var quits = false

  public init(today: Day, day: Day? = nil, data: DayData = DayData()) {
    self.today = today
    self.day = day ?? today
    self.data = data
  }

  /// The list the cursor moves in: the day's todos, or the opened project's.
  public var listed: [Todo] { project == nil ? data.todos : data.projectTodos }

  /// The listed todos the filter keeps, in list order.
  public var visible: [Todo] {
    let terms = filter.split(separator: " ").map(String.init)
    guard !terms.isEmpty else { return listed }
    return listed.filter { todo in terms.allSatisfy { Self.matches(todo, $0) } }
  }

  /// Whether `todo` matches one filter word: `+tag` a tag starting with it, `@project` a
  /// project starting with it, anything else a part of the title (as `ootd search` folds it).
  static func matches(_ todo: Todo, _ term: String) -> Bool {
    if term.hasPrefix("+"), term.count > 1 {
      let wanted = TodoFilter.fold(String(term.dropFirst()))
      return todo.tags.contains { TodoFilter.fold($0).hasPrefix(wanted) }
    }
    if term.hasPrefix("@"), term.count > 1 {
      let wanted = TodoFilter.fold(String(term.dropFirst()))
      return todo.project.map { TodoFilter.fold($0).hasPrefix(wanted) } ?? false
    }
    return TodoFilter.title(todo.title, contains: term)
  }

  /// The todo under the cursor.
  public var current: Todo? {
    let rows = visible
    return rows.indices.contains(cursor) ? rows[cursor] : nil
  }

  /// The todos an action applies to: the marked ones the filter shows (in list order), else
  /// the one under the cursor. A marked todo the filter hides is never acted on: it stays
  /// marked, and the bar counts it as hidden (none shown: no target, nothing done).
  public var targets: [Todo] {
    if !marks.isEmpty { return visible.filter { marks.contains($0.id) } }
    return current.map { [$0] } ?? []
  }

  /// How many marked todos the filter hides (they are not acted on).
  public var hiddenMarks: Int {
    guard !marks.isEmpty, !filter.isEmpty else { return 0 }
    return marks.count - visible.lazy.filter { marks.contains($0.id) }.count
  }

  /// Moves the cursor to the todo `id` when it is shown.
  public mutating func focus(_ id: Int64) {
    if let index = visible.firstIndex(where: { $0.id == id }) { cursor = index }
  }

  /// Puts new data in, keeping the cursor on the same todo when it is still there (a todo whose
  /// priority changed moves in the list, the cursor with it), and marks on todos that remain.
  public mutating func replace(_ data: DayData) { replace(data, keeping: current?.id) }

  /// Puts new data in, the cursor on the todo `id` when it is still there.
  public mutating func replace(_ data: DayData, keeping id: Int64?) {
    self.data = data
    if !marks.isEmpty {
      let listed = Set(self.listed.map(\.id))
      marks = marks.filter { listed.contains($0) }
    }
    let rows = visible
    if let id, let index = rows.firstIndex(where: { $0.id == id }) {
      cursor = index
    } else {
      cursor = max(0, min(cursor, rows.count - 1))
    }
  }
}

/// The TUI's tabs (`Tab`/`Shift-Tab`): the Day, the Week, the Calendar and the Projects.
public enum Tab: String, Sendable, CaseIterable {
  case day = "Day"
  case week = "Week"
  case calendar = "Calendar"
  case projects = "Projects"
}

extension TUIState {
  /// The Monday of the shown day's week.
  public var weekStart: Day { day.adding(days: -(day.weekday.rawValue - 1)) }

  /// The 53 weeks (Monday to Sunday) the Calendar tab reads: up to the Sunday of today's week,
  /// or of the shown day's week when that day is later or more than a year earlier.
  public var calendarRange: DayRange {
    func sunday(_ day: Day) -> Day { day.adding(days: 7 - day.weekday.rawValue) }
    var end = sunday(today)
    if day > end || day < end.adding(days: -370) { end = sunday(day) }
    return (try? DayRange(from: end.adding(days: -370), to: end)) ?? DayRange(day: day)
  }
}
