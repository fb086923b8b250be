import Core

/// A change the session makes through the database (the same call the CLI command makes), or
/// a reading it needs. The reducer only asks; ``Session`` does it.
public enum Effect: Sendable, Equatable {
  /// `ootd done` / `ootd undone` of these todos.
  case setDone([Int64], done: Bool)
  /// `ootd edit IDS --priority P`.
  case setPriority([Int64], Priority)
  /// `ootd edit IDS --on DAY`.
  case move([Int64], to: Day)
  /// `ootd drop IDS`.
  case drop([Int64])
  /// `ootd rm IDS --yes` (asked first).
  case delete([Int64])
  /// `ootd carry`.
  case carry
  /// `ootd add LINE`, on `day` unless the line says otherwise.
  case add(String, on: Day)
  /// `ootd edit ID --title TITLE`.
  case editTitle(Int64, String)
  /// `ootd edit ID --note TEXT` (empty clears the notes).
  case setNotes(Int64, String)
  case undo, redo
  /// Read the day shown again (it changed).
  case load
}

/// The keys' rules: (state, key) → (state, effects). Pure: no terminal, no database.
public struct Reducer: Sendable {
  public var keys: KeyMap

  public init(keys: KeyMap = .standard) { self.keys = keys }

  /// Applies `key` to `state` and says what the database must do.
  public func reduce(_ state: inout TUIState, _ key: Key) -> [Effect] {
    // Ctrl-J (and Alt-Enter) starts a new line in the notes; anywhere else it is Enter (a
    // terminal that sends LF for Enter).
    var key = key
    if key == .control("j"), !state.mode.isNotes { key = .enter }
    switch state.mode {
    case .help:
      // On a small screen the help scrolls (the renderer stops at its last entry).
      if keys.action(for: key) == .down { state.helpTop = min(state.helpTop + 1, Action.allCases.count) }
      if keys.action(for: key) == .up { state.helpTop = max(state.helpTop - 1, 0) }
      if key == .escape || key == .character("?") || keys.action(for: key) == .help || key == .character("q") {
        state.mode = .list
      }
      if key == .control("c") { state.quits = true }
      return []
    case .confirmDelete(let ids):
      state.mode = .list
      if key == .control("c") {
        // Ctrl-C quits everywhere (it took the question's "no" and stayed).
        state.quits = true
        return []
      }
      if key == .character("y") || key == .character("Y") {
        state.marks.subtract(ids)
        return [.delete(ids)]
      }
      state.status = "Kept: nothing deleted."
      return []
    case .add(let text):
      switch edit(text, key) {
      case .typing(let text): state.mode = .add(text: text)
      case .cancelled: state.mode = .list
      case .entered(let text):
        state.mode = .list
        let line = text.trimmingSpaces
        if !line.isEmpty { return [.add(line, on: state.day)] }
      case .quit: state.quits = true
      }
      return []
    case .edit(let id, let text):
      switch edit(text, key) {
      case .typing(let text): state.mode = .edit(id: id, text: text)
      case .cancelled: state.mode = .list
      case .entered(let text):
        state.mode = .list
        let title = text.trimmingSpaces
        if !title.isEmpty, title != state.listed.first(where: { $0.id == id })?.title {
          return [.editTitle(id, title)]
        }
      case .quit: state.quits = true
      }
      return []
    case .notes(let id, let text):
      switch edit(text, key, multiline: true) {
      case .typing(let text): state.mode = .notes(id: id, text: text)
      case .cancelled: state.mode = .list
      case .entered(let text):
        state.mode = .list
        let notes = text.trimmingSpaces
        if notes != (state.listed.first(where: { $0.id == id })?.notes ?? "") {
          return [.setNotes(id, notes)]
        }
      case .quit: state.quits = true
      }
      return []
    case .goTo(let text):
      switch edit(text, key) {
      case .typing(let text): state.mode = .goTo(text: text)
      case .cancelled: state.mode = .list
      case .entered(let text):
        state.mode = .list
        // Nothing typed: the prompt closes, nothing else happens.
        guard !text.trimmingSpaces.isEmpty else { return [] }
        do {
          let day = try DayExpression.parse(text.trimmingSpaces, today: state.today)
          guard day != state.day else { return [] }
          state.day = day
          state.cursor = 0
          state.marks = []
          return [.load]
        } catch {
          state.status = "error: \(error)"
        }
      case .quit: state.quits = true
      }
      return []
    case .pickBlock(let index):
      let count = state.data.blocks.count
      switch keys.action(for: key) == .down ? Key.down : keys.action(for: key) == .up ? Key.up : key {
      case .down: state.mode = .pickBlock(index: min(index + 1, max(0, count - 1)))
      case .up: state.mode = .pickBlock(index: max(index - 1, 0))
      case .enter:
        state.mode = .list
        guard state.data.blocks.indices.contains(index) else { return [] }
        let name = state.data.blocks[index].name
        return [.add("--block '" + name.replacingAll("'", "'\\''") + "'", on: state.day)]
      case .escape, .character("q"): state.mode = .list
      case .control("c"): state.quits = true
      default: break
      }
      return []
    case .filter:
      switch edit(state.filter, key) {
      case .typing(let text):
        state.filter = text
        state.cursor = 0
      case .cancelled:
        state.filter = ""
        state.mode = .list
        state.cursor = 0
      case .entered: state.mode = .list
      case .quit: state.quits = true
      }
      return []
    case .list:
      return list(&state, key)
    }
  }

  private func list(_ state: inout TUIState, _ key: Key) -> [Effect] {
    if key == .escape {
      // Esc clears what is set: the filter first, then the marks, then an opened project.
      if !state.filter.isEmpty {
        state.filter = ""
        state.cursor = 0
      } else if !state.marks.isEmpty {
        state.marks = []
      } else if let project = state.project {
        state.project = nil
        state.data.projectTodos = []
        state.cursor = state.data.projects.firstIndex { $0.project.name == project } ?? 0
      }
      return []
    }
    if state.tab == .projects, state.project == nil {
      // j/k choose a project; Enter opens the Day with the project as the filter.
      switch keys.action(for: key) {
      case .down:
        state.cursor = min(state.cursor + 1, max(0, state.data.projects.count - 1))
        return []
      case .up:
        state.cursor = max(state.cursor - 1, 0)
        return []
      default: break
      }
      if key == .enter, state.data.projects.indices.contains(state.cursor) {
        // The project's todos of every day (and the backlog), to move in and act on.
        state.project = state.data.projects[state.cursor].project.name
        state.filter = ""
        state.marks = []
        state.cursor = 0
        state.status = ""
        return [.load]
      }
    }
    if state.tab == .calendar {
      // h/l (←/→) move the cursor by a day, j/k (↓/↑) by a week; Enter opens the day. The
      // year read stays: only a day outside it reads again.
      let step: Int? =
        switch keys.action(for: key) {
        case .down: 7
        case .up: -7
        case .nextDay: 1
        case .previousDay: -1
        default: nil
        }
      if let step {
        state.day = state.day.adding(days: step)
        state.status = ""
        return state.data.calendar?.range.contains(state.day) == true ? [] : [.load]
      }
      if key == .enter {
        state.tab = .day
        state.cursor = 0
        return [.load]
      }
    }
    if state.tab == .week, key == .enter {
      // Enter opens the chosen day.
      state.tab = .day
      state.cursor = 0
      return [.load]
    }
    guard let action = keys.action(for: key) else { return [] }
    state.status = ""
    if state.project != nil, Self.projectActions.contains(action) == false {
      state.status = "On a project's todos: the day's keys (h/l, >/<, a, c, g, b) work on the Day tab; Esc goes back."
      return []
    }
    if state.tab != .day, state.project == nil, Self.weekActions.contains(action) == false {
      switch state.tab {
      case .week: state.status = "On the Week tab: h/l choose a day, Enter opens it, Tab goes on."
      case .calendar: state.status = "On the Calendar tab: h/l move a day, j/k a week, Enter opens the day, Tab goes on."
      default: state.status = "On the Projects tab: j/k choose a project, Enter lists its todos, Tab goes on."
      }
      return []
    }
    let targets = state.targets.map(\.id)
    if targets.isEmpty, !state.marks.isEmpty, Self.targetActions.contains(action) {
      state.status = "The marked todos are hidden by the filter: nothing done (Esc clears the filter)."
      return []
    }
    switch action {
    case .down:
      state.cursor = min(state.cursor + 1, max(0, state.visible.count - 1))
    case .up:
      state.cursor = max(state.cursor - 1, 0)
    case .previousDay, .nextDay, .today:
      let day = action == .today ? state.today : state.day.adding(days: action == .nextDay ? 1 : -1)
      guard day != state.day else { return [] }
      state.day = day
      state.cursor = 0
      state.marks = []
      return [.load]
    case .toggleDone:
      guard !targets.isEmpty else { return [] }
      let allDone = state.targets.allSatisfy(\.isDone)
      state.marks.subtract(targets)
      return [.setDone(targets, done: !allDone)]
    case .high, .mid, .low:
      guard !targets.isEmpty else { return [] }
      state.marks.subtract(targets)
      return [.setPriority(targets, action == .high ? .high : action == .mid ? .mid : .low)]
    case .moveNext, .movePrevious:
      guard !targets.isEmpty else { return [] }
      state.marks.subtract(targets)
      return [.move(targets, to: state.day.adding(days: action == .moveNext ? 1 : -1))]
    case .drop:
      guard !targets.isEmpty else { return [] }
      state.marks.subtract(targets)
      return [.drop(targets)]
    case .delete:
      guard !targets.isEmpty else { return [] }
      state.mode = .confirmDelete(ids: targets)
    case .carry:
      return [.carry]
    case .undo:
      return [.undo]
    case .redo:
      return [.redo]
    case .add:
      state.mode = .add(text: "")
    case .edit:
      guard let todo = state.current else { return [] }
      state.mode = .edit(id: todo.id, text: todo.title)
    case .notes:
      guard let todo = state.current else { return [] }
      state.mode = .notes(id: todo.id, text: todo.notes ?? "")
    case .goTo:
      state.mode = .goTo(text: "")
    case .block:
      guard !state.data.blocks.isEmpty else {
        state.status = "No task blocks yet: 'ootd block add' makes one."
        return []
      }
      state.mode = .pickBlock(index: 0)
    case .mark:
      guard let todo = state.current else { return [] }
      if state.marks.contains(todo.id) { state.marks.remove(todo.id) } else { state.marks.insert(todo.id) }
    case .filter:
      state.mode = .filter
    case .nextTab, .previousTab:
      let tabs = Tab.allCases
      let index = tabs.firstIndex(of: state.tab)! + (action == .nextTab ? 1 : tabs.count - 1)
      state.tab = tabs[index % tabs.count]
      state.cursor = 0
      state.marks = []
      state.project = nil
      state.data.projectTodos = []
      return [.load]
    case .help:
      state.mode = .help
      state.helpTop = 0
    case .quit:
      state.quits = true
    }
    return []
  }

  /// What the Week tab does (the rest acts on a day's todos: open the day first).
  static let weekActions: Set<Action> = [
    .previousDay, .nextDay, .today, .goTo, .undo, .redo, .add, .block, .nextTab, .previousTab, .help, .quit,
  ]

  /// What acts on the opened project's todos (the rest belongs to a day: the Day tab).
  static let projectActions: Set<Action> = [
    .down, .up, .toggleDone, .high, .mid, .low, .drop, .delete, .undo, .redo, .edit, .notes, .mark, .filter,
    .nextTab, .previousTab, .help, .quit,
  ]

  /// What acts on the targets (the marked todos, else the one under the cursor).
  static let targetActions: Set<Action> = [.toggleDone, .high, .mid, .low, .moveNext, .movePrevious, .drop, .delete]

  /// What a key does to a line being typed.
  enum LineEdit {
    case typing(String)
    case entered(String)
    case cancelled
    case quit
  }

  /// `multiline`: the notes, where Ctrl-J (Alt-Enter) starts a new line and a paste keeps its
  /// newlines.
  func edit(_ text: String, _ key: Key, multiline: Bool = false) -> LineEdit {
    switch key {
    case .character(let character): return .typing(text + String(character))
    case .control("j") where multiline: return .typing(text + "\n")
    case .paste(let pasted):
      // One line: newlines and tabs become spaces (the notes keep newlines), other control
      // characters go.
      let line = pasted.compactMap { character -> Character? in
        if character.isNewline { return multiline ? "\n" : " " }
        if character == "\t" { return " " }
        return character.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) ? character : nil
      }
      return .typing(text + String(line))
    case .backspace: return .typing(String(text.dropLast()))
    case .control("u"): return .typing("")
    case .control("w"):
      var words = text
      while words.last == " " { words.removeLast() }
      while let last = words.last, last != " " { words.removeLast() }
      return .typing(words)
    case .enter: return .entered(text)
    case .escape: return .cancelled
    case .control("c"): return .quit
    default: return .typing(text)
    }
  }
}

extension Mode {
  /// Whether the notes are being edited (Ctrl-J starts a new line there).
  var isNotes: Bool {
    if case .notes = self { return true }
    return false
  }
}

extension String {
  /// `self` with every `target` replaced (without Foundation).
  func replacingAll(_ target: Character, _ replacement: String) -> String {
    var result = ""
    for character in self {
      if character == target { result += replacement } else { result.append(character) }
    }
    return result
  }

  var trimmingSpaces: String {
    var slice = Substring(self)
    while slice.first?.isWhitespace == true { slice = slice.dropFirst() }
    while slice.last?.isWhitespace == true { slice = slice.dropLast() }
    return String(slice)
  }
}
