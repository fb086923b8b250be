import Core
import Foundation
import Storage
import Zone

/// What the session needs from the CLI: the clock, the `add` parser, how a command line is
/// written in the journal, and its error messages.
public struct SessionHost {
  /// The current instant (pinned with `OOTD_NOW` in debug builds, running after it).
  public var now: () -> Date
  /// The user's time zone (a task block's todo is ticked by today's commits, as `add` does).
  public var timeZone: any ZoneRules
  /// The todo an `add` line plans on `day` (the `add` command's own parser and checks), and
  /// the command line the journal records for it.
  public var addDraft: (_ line: String, _ day: Day, _ database: AppDatabase) throws -> (todo: NewTodo, done: Bool, command: String)
  /// A command line as the journal records it (`edit 12 --title 'A title'`).
  public var commandLine: ([String]) -> String
  /// An error as the CLI says it, on one line.
  public var message: (any Error) -> String
  /// The commits of each day of a range as the dashboard and `ootd graph` count them (the
  /// saved login's), nil when no commit is synced.
  public var commits: (_ range: DayRange, _ database: AppDatabase) throws -> CommitCalendar?

  public init(
    now: @escaping () -> Date, timeZone: any ZoneRules,
    addDraft: @escaping (_ line: String, _ day: Day, _ database: AppDatabase) throws -> (todo: NewTodo, done: Bool, command: String),
    commandLine: @escaping ([String]) -> String, message: @escaping (any Error) -> String,
    commits: @escaping (_ range: DayRange, _ database: AppDatabase) throws -> CommitCalendar? = { _, _ in nil }
  ) {
    self.commits = commits
    self.now = now
    self.timeZone = timeZone
    self.addDraft = addDraft
    self.commandLine = commandLine
    self.message = message
  }
}

/// The running TUI without its terminal: the state, the keys applied to it, and every change
/// made through the database as the CLI command it stands for (the same calls, one journal
/// entry each, `ootd log` shows it and `ootd undo` takes it back). Tests drive it directly.
public final class Session {
  public let database: AppDatabase
  public let host: SessionHost
  public let reducer: Reducer
  public private(set) var state: TUIState
  /// `PRAGMA data_version` when the data was last read.
  private var dataVersion: Int

  public init(database: AppDatabase, today: Day, host: SessionHost, reducer: Reducer = Reducer()) throws {
    self.database = database
    self.host = host
    self.reducer = reducer
    state = TUIState(today: today)
    dataVersion = try database.dataVersion()
    try load()
  }

  /// Applies a key: the state changes, and what it asks of the database is done.
  public func handle(_ key: Key) {
    rollOverIfTheDayChanged()
    for effect in reducer.reduce(&state, key) { run(effect) }
  }

  /// Applies keys in turn.
  public func handle(_ keys: [Key]) { for key in keys { handle(key) } }

  /// Today from the clock (``SessionHost/now`` in the user's zone).
  public var clockToday: Day { Day(host.now(), in: host.timeZone) }

  /// At midnight: today becomes the clock's new day, the day shown follows when it was today,
  /// the new day's routine is planned (as `ootd tui` does at start) and the data read again;
  /// true when the day changed. Called on each tick of the input loop and before each change.
  @discardableResult
  public func rollOverIfTheDayChanged() -> Bool {
    let today = clockToday
    guard today != state.today else { return false }
    if state.day == state.today {
      state.day = today
      state.cursor = 0
      state.marks = []
    }
    state.today = today
    _ = try? database.planDueRoutine(on: today, now: host.now())
    dataVersion = (try? database.dataVersion()) ?? dataVersion
    do { try load() } catch { state.status = host.message(error) }
    return true
  }

  /// Reads the day again when another process changed the database since the last reading
  /// (SQLite's `data_version`); true when it did.
  @discardableResult
  public func reloadIfChangedElsewhere() -> Bool {
    guard let version = try? database.dataVersion(), version != dataVersion else { return false }
    dataVersion = version
    do { try load() } catch { state.status = host.message(error) }
    return true
  }

  /// Reads the day shown.
  public func load() throws {
    let day = state.day
    let today = state.today
    var todos: [Todo] = []
    try database.forEachTodo(matching: TodoFilter(days: .range(DayRange(day: day)))) {
      todos.append($0)
      return true
    }
    let carried = try database.todosCarriedAway(from: DayRange(day: day)).filter {
      DayFigures.isCarriedAway($0, from: day)
    }
    let figures = DayFigures.tally(of: day, todos: todos) + DayFigures.tally(of: day, todos: carried)
    let todayFigures = day == today ? figures : try self.figures(of: today)
    var week: [DayColumn] = []
    if state.tab == .week {
      let start = state.weekStart
      let range = try DayRange(from: start, to: start.adding(days: 6))
      var todos: [Todo] = []
      try database.forEachTodo(matching: TodoFilter(days: .range(range))) {
        todos.append($0)
        return true
      }
      let carried = try database.todosCarriedAway(from: range)
      week = range.map { day in
        let own = todos.filter { $0.day == day }
        // Listed after the day's own todos, as `ootd list` lists the week (a todo carried from
        // one day of the week to another is the first's `[>]` row, and the second's own).
        let carriedAway = carried.filter { DayFigures.isCarriedAway($0, from: day) }
        return DayColumn(
          day: day, todos: own, carriedAway: carriedAway,
          figures: DayFigures.tally(of: day, todos: own + carriedAway))
      }
    }
    var calendar: CalendarData? = nil
    if state.tab == .calendar {
      let range = state.calendarRange
      let report = AchievementReport(range: range, counts: try database.achievementCounts(in: range))
      calendar = CalendarData(range: range, days: report.days.map(\.tally), commits: try host.commits(range, database))
    }
    let commits = try calendar?.commits.map { $0.count(on: day) } ?? host.commits(DayRange(day: day), database)?.total
    var projectTodos: [Todo] = []
    if state.tab == .projects, let project = state.project {
      // The project's todos of every day, then its backlog (as `ootd list --all --project`).
      try database.forEachTodo(matching: TodoFilter(days: .all, project: project)) {
        projectTodos.append($0)
        return true
      }
      projectTodos = projectTodos.filter { $0.day != nil } + projectTodos.filter { $0.day == nil }
    }
    let overdue = try database.overdueSummary(before: today, limit: 5)
    let backlog = try database.backlogSummary(limit: 0)
    state.replace(DayData(
      todos: todos, carriedAway: carried, figures: figures,
      streak: Streaks.ongoing(perfectDaysBefore: try database.perfectDayStreak(before: today), today: todayFigures),
      overdue: overdue.todos, overdueCount: overdue.count, backlogCount: backlog.count,
      blocks: try database.blocks(), week: week,
      projects: state.tab == .projects ? try database.projects(.active) : [], commits: commits, calendar: calendar,
      projectTodos: projectTodos, todayFigures: todayFigures))
  }

  /// A day's figures from the database's counts (as `ootd report` counts them), without
  /// reading its todos.
  func figures(of day: Day) throws -> Tally {
    let range = DayRange(day: day)
    return AchievementReport(range: range, counts: try database.achievementCounts(in: range)).days.first?.tally ?? .zero
  }

  /// After this session's own change: reads again only the todos the change touched (the
  /// journal's latest entry names them) and puts them in place in the day shown, in list
  /// order; the figures are counted again from the day in memory, and the small summaries
  /// (overdue, backlog, streak, blocks) read again. The rest of the day is not read: a key
  /// press at 100,000 todos on a day stays within a frame. Anything else (another tab, an
  /// opened project, a change to a project or a block) reads everything again (``load()``).
  public func reloadChanged() throws {
    guard state.tab == .day, state.project == nil else { return try load() }
    let touched = try database.todosOfLatestEntry()
    if touched.others { return try load() }
    let day = state.day
    let today = state.today
    let fresh = Dictionary(touched.todos.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
    let changed = Set(touched.uuids)
    let cursorID = state.current?.id
    // The day's array held once (not copied for a change): taken out of the state.
    var data = state.data
    let largestBefore = data.largestID
    state.data.setTodos([], largestID: 0)
    var todos = data.todos
    data.setTodos([], largestID: 0)
    // The figures: what the touched todos gave the day before (each one that gave anything was
    // listed: on the day, or carried away from it) taken off, what they give now added.
    var figures = data.figures
    func subtract(_ todo: Todo) {
      let gave = DayFigures.contribution(of: todo, to: day)
      figures = Tally(total: figures.total - gave.total, done: figures.done - gave.done, carried: figures.carried - gave.carried)
    }
    var largestGone = false
    let many = changed.count > 16
    // Out: the rows of every touched todo the day listed (found by id: cheaper than a uuid).
    var out: [Int] = []
    if many {
      out = todos.indices.filter { changed.contains(todos[$0].uuid) }
    } else {
      for uuid in changed {
        guard let id = fresh[uuid]?.id ?? todos.first(where: { $0.uuid == uuid })?.id else { continue }
        if let index = todos.firstIndex(where: { $0.id == id }) { out.append(index) }
      }
      out.sort()
    }
    // A todo whose place stays (same day, same priority) is replaced where it is.
    var removed: [Int] = []
    for index in out {
      subtract(todos[index])
      if todos[index].id == largestBefore { largestGone = true }
      if let now = fresh[todos[index].uuid], now.day == day, now.priority == todos[index].priority {
        todos[index] = now
      } else {
        removed.append(index)
      }
    }
    if removed.count > 16 {
      let gone = Set(removed)
      todos = todos.indices.compactMap { gone.contains($0) ? nil : todos[$0] }
    } else {
      for index in removed.reversed() { todos.remove(at: index) }
    }
    // In: every touched todo now on the day and not listed, at its place (priority, id).
    let listed: Set<Int64>? = many ? Set(todos.map(\.id)) : nil
    for todo in touched.todos where todo.day == day {
      let isListed = listed.map { $0.contains(todo.id) } ?? todos.contains(where: { $0.id == todo.id })
      guard !isListed else { continue }
      let key = (todo.priority.rank, todo.id)
      var low = 0
      var high = todos.count
      while low < high {
        let middle = (low + high) / 2
        if (todos[middle].priority.rank, todos[middle].id) < key { low = middle + 1 } else { high = middle }
      }
      todos.insert(todo, at: low)
    }
    for todo in data.carriedAway where changed.contains(todo.uuid) { subtract(todo) }
    for todo in touched.todos { figures += DayFigures.contribution(of: todo, to: day) }
    var carried = data.carriedAway.filter { !changed.contains($0.uuid) }
    carried += touched.todos.filter { DayFigures.isCarriedAway($0, from: day) }
    // As the database lists them: day (the backlog first, as SQLite sorts NULL), priority, id.
    carried.sort { ($0.day?.description ?? "", $0.priority.rank, $0.id) < ($1.day?.description ?? "", $1.priority.rank, $1.id) }
    let largest = touched.todos.lazy.filter { $0.day == day }.map(\.id).max() ?? 0
    data.setTodos(todos, largestID: largestGone ? DayData.largest(todos) : max(largestBefore, largest))
    data.carriedAway = carried
    data.figures = figures
    data.todayFigures = day == today ? data.figures : try self.figures(of: today)
    data.streak = Streaks.ongoing(perfectDaysBefore: try database.perfectDayStreak(before: today), today: data.todayFigures)
    let overdue = try database.overdueSummary(before: today, limit: 5)
    data.overdue = overdue.todos
    data.overdueCount = overdue.count
    data.backlogCount = try database.backlogSummary(limit: 0).count
    state.replace(data, keeping: cursorID)
  }

  /// Does `effect` through the database, then reads the day again; an error goes to the
  /// status line and changes nothing.
  func run(_ effect: Effect) {
    let now = host.now()
    let today = state.today
    do {
      switch effect {
      case .load:
        break
      case .setDone(let ids, let done):
        let result = try database.recording(as: command(done ? "done" : "undone", ids))
          .setDoneTellingUnchanged(ids: ids, done: done, today: today, now: now)
        state.status = said(done ? "Done" : "Reopened", result.todos)
      case .setPriority(let ids, let priority):
        let todos = try database.recording(as: command("edit", ids, "--priority", priority.rawValue))
          .editTodos(ids: ids, try TodoChanges(priority: priority), today: today, now: now)
        state.status = said("Priority \(priority.rawValue):", todos)
      case .move(let ids, let day):
        let todos = try database.recording(as: command("edit", ids, "--on", day.description))
          .editTodos(ids: ids, try TodoChanges(day: .day(day)), today: today, now: now)
        state.status = said("Moved to \(day):", todos)
      case .drop(let ids):
        let result = try database.recording(as: command("drop", ids)).dropTodos(ids: ids, now: now)
        state.status = said("Dropped", result.dropped + result.already)
      case .delete(let ids):
        let todos = try database.recording(as: command("rm", ids, "--yes")).deleteTodos(ids: ids, now: now)
        state.status = said("Deleted", todos)
      case .carry:
        let result = try database.recording(as: "carry").carryOver(today: today, to: today, now: now)
        state.status =
          result.moved.isEmpty
          ? "Nothing to carry: no open todos before \(today)."
          : "Carried \(result.moved.count == 1 ? "1 todo" : "\(result.moved.count) todos") to today"
            + (result.duplicates.isEmpty ? "" : "; kept \(result.duplicates.count) (their block is on today)")
      case .add(let line, let day):
        let draft = try host.addDraft(line, day, database)
        let todo = try database.recording(as: draft.command).addTodo(draft.todo, done: draft.done, now: now, timeZone: host.timeZone)
        state.status = "Added #\(todo.id) for \(todo.day?.description ?? "the backlog")"
        // The cursor goes to the new todo's row (when it is on the day shown and not filtered out).
        try reloadChanged()
        state.focus(todo.id)
        return
      case .editTitle(let id, let title):
        let todos = try database.recording(as: command("edit", [id], "--title", title))
          .editTodos(ids: [id], try TodoChanges(title: title), today: today, now: now)
        state.status = said("Edited", todos)
      case .setNotes(let id, let notes):
        let todos = try database.recording(as: command("edit", [id], "--note", notes))
          .editTodos(ids: [id], try TodoChanges(notes: .some(notes)), today: today, now: now)
        state.status = said(notes.isEmpty ? "Notes cleared:" : "Notes of", todos)
      case .undo:
        let step = try database.recording(as: "undo").undo(today: today, now: now)
        // What it left as another device set it follows (the first of it: one status line).
        state.status = ChangeSummary.undid(step.entry.command, effect: step.effect)
          + (step.leftLines.first.map { "; " + $0 } ?? "")
      case .redo:
        let step = try database.recording(as: "redo").redo(today: today, now: now)
        state.status = ChangeSummary.redid(step.entry.command, effect: step.effect)
          + (step.leftLines.first.map { "; " + $0 } ?? "")
      }
      if effect == .load { try load() } else { try reloadChanged() }
    } catch {
      state.status = "error: " + host.message(error)
    }
  }

  /// `done 12 13`, `edit 12 --title 'A title'`: as the journal records the CLI's command.
  func command(_ verb: String, _ ids: [Int64], _ options: String...) -> String {
    host.commandLine([verb] + ids.map(String.init) + options)
  }

  /// `Done #12 'Title'`, or `Done 3 todos`.
  func said(_ verb: String, _ todos: [Todo]) -> String {
    if todos.count == 1, let todo = todos.first { return "\(verb) #\(todo.id) '\(todo.title)'" }
    return "\(verb) \(todos.count) todos"
  }
}
