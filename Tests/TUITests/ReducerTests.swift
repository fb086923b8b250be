import Core
import Foundation
import TUI
import Testing

/// The keys as a table: (state, keys) → (state, effects), with no terminal and no database.
@Suite struct ReducerTests {
  static let day = TUIClock.today

  /// Three todos of today in list order, the second done.
  static func state() -> TUIState {
    let todos = [
      Todo(id: 1, title: "Solve BOJ 1753", priority: .high, day: day, createdAt: TUIClock.now),
      Todo(id: 2, title: "Write the README", priority: .mid, day: day, isDone: true, createdAt: TUIClock.now),
      Todo(id: 3, title: "Read GRDB docs", priority: .low, day: day, createdAt: TUIClock.now),
    ]
    return TUIState(today: day, data: DayData(todos: todos))
  }

  struct Row: Sendable, CustomTestStringConvertible {
    let keys: [Key]
    let cursor: Int
    var marks: Set<Int64> = []
    var mode: Mode = .list
    var filter = ""
    var day = ReducerTests.day
    var effects: [Effect] = []
    var tab: Tab = .day
    var testDescription: String { keys.map(\.description).joined(separator: " ") }
  }

  static let rows: [Row] = [
    Row(keys: [], cursor: 0),
    Row(keys: keys("j"), cursor: 1),
    Row(keys: keys("jjjj"), cursor: 2),
    Row(keys: keys("jjk"), cursor: 1),
    Row(keys: [.down, .down, .up], cursor: 1),
    Row(keys: keys("k"), cursor: 0),
    Row(keys: keys("x"), cursor: 0, effects: [.setDone([1], done: true)]),
    Row(keys: keys(" "), cursor: 0, effects: [.setDone([1], done: true)]),
    Row(keys: keys("jx"), cursor: 1, effects: [.setDone([2], done: false)]),
    // v marks and leaves the cursor; an action applies to every marked todo, then clears the marks.
    Row(keys: keys("v"), cursor: 0, marks: [1]),
    Row(keys: keys("vv"), cursor: 0),
    Row(keys: keys("vjjv"), cursor: 2, marks: [1, 3]),
    Row(keys: keys("vjjvx"), cursor: 2, effects: [.setDone([1, 3], done: true)]),
    Row(keys: keys("vjvx"), cursor: 1, effects: [.setDone([1, 2], done: true)]),
    Row(keys: keys("vjjv") + [.escape], cursor: 2),
    Row(keys: keys("1"), cursor: 0, effects: [.setPriority([1], .high)]),
    Row(keys: keys("j3"), cursor: 1, effects: [.setPriority([2], .low)]),
    Row(keys: keys(">"), cursor: 0, effects: [.move([1], to: day.adding(days: 1))]),
    Row(keys: keys("<"), cursor: 0, effects: [.move([1], to: day.adding(days: -1))]),
    Row(keys: keys("d"), cursor: 0, effects: [.drop([1])]),
    Row(keys: keys("D"), cursor: 0, mode: .confirmDelete(ids: [1])),
    Row(keys: keys("Dy"), cursor: 0, effects: [.delete([1])]),
    Row(keys: keys("Dn"), cursor: 0),
    Row(keys: keys("c"), cursor: 0, effects: [.carry]),
    Row(keys: keys("u"), cursor: 0, effects: [.undo]),
    Row(keys: keys("U"), cursor: 0, effects: [.redo]),
    Row(keys: [.control("r")], cursor: 0, effects: [.redo]),
    Row(keys: keys("jl"), cursor: 0, day: day.adding(days: 1), effects: [.load]),
    Row(keys: keys("h"), cursor: 0, day: day.adding(days: -1), effects: [.load]),
    Row(keys: keys("hhT"), cursor: 0, effects: [.load, .load, .load]),
    Row(keys: keys("T"), cursor: 0),
    // a adds to the day shown; Esc cancels; text is text (j does not move).
    Row(keys: keys("a"), cursor: 0, mode: .add(text: "")),
    Row(keys: keys("ajx +t"), cursor: 0, mode: .add(text: "jx +t")),
    Row(keys: keys("ajx") + [.backspace], cursor: 0, mode: .add(text: "j")),
    Row(keys: keys("ajx") + [.escape], cursor: 0),
    Row(keys: keys("aNew one +tui") + [.enter], cursor: 0, effects: [.add("New one +tui", on: day)]),
    Row(keys: keys("laX") + [.enter], cursor: 0, day: day.adding(days: 1), effects: [.load, .add("X", on: day.adding(days: 1))]),
    Row(keys: keys("a  ") + [.enter], cursor: 0),
    Row(keys: keys("e"), cursor: 0, mode: .edit(id: 1, text: "Solve BOJ 1753")),
    Row(keys: keys("e!") + [.enter], cursor: 0, effects: [.editTitle(1, "Solve BOJ 1753!")]),
    Row(keys: keys("e") + [.control("u")] + keys("New") + [.enter], cursor: 0, effects: [.editTitle(1, "New")]),
    Row(keys: keys("e") + [.enter], cursor: 0),
    // / filters live; Enter keeps the filter, Esc clears it.
    Row(keys: keys("/read"), cursor: 0, mode: .filter, filter: "read"),
    Row(keys: keys("/read") + [.enter], cursor: 0, filter: "read"),
    Row(keys: keys("/read") + [.enter] + keys("x"), cursor: 0, filter: "read", effects: [.setDone([2], done: false)]),
    Row(keys: keys("/re") + [.escape], cursor: 0),
    Row(keys: keys("/re") + [.enter, .escape], cursor: 0),
    // g goes to a day by any date word of the CLI; a word it does not take says so.
    Row(keys: keys("gfri"), cursor: 0, mode: .goTo(text: "fri")),
    Row(keys: keys("g+3d") + [.enter], cursor: 0, day: day.adding(days: 3), effects: [.load]),
    Row(keys: keys("jg2026-12-01") + [.enter], cursor: 0, day: Day(iso: "2026-12-01")!, effects: [.load]),
    Row(keys: keys("gtoday") + [.enter], cursor: 0),
    Row(keys: keys("gnope") + [.enter], cursor: 0),
    Row(keys: keys("n"), cursor: 0, mode: .notes(id: 1, text: "")),
    Row(keys: keys("nUse a heap") + [.enter], cursor: 0, effects: [.setNotes(1, "Use a heap")]),
    Row(keys: keys("n") + [.enter], cursor: 0),
    // Tab and Shift-Tab change tabs; on the Week tab h/l choose the day, Enter opens it, and a
    // key that acts on todos only says so.
    Row(keys: [.tab], cursor: 0, effects: [.load], tab: .week),
    Row(keys: [.tab, .tab], cursor: 0, effects: [.load, .load], tab: .calendar),
    Row(keys: [.tab, .tab, .tab], cursor: 0, effects: [.load, .load, .load], tab: .projects),
    Row(keys: [.tab, .tab, .tab, .tab], cursor: 0, effects: [.load, .load, .load, .load]),
    Row(keys: [.backTab], cursor: 0, effects: [.load], tab: .projects),
    Row(keys: [.backTab, .backTab], cursor: 0, effects: [.load, .load], tab: .calendar),
    Row(keys: [.backTab, .backTab, .backTab], cursor: 0, effects: [.load, .load, .load], tab: .week),
    // On the Calendar tab h/l (←/→) move the cursor by a day, j/k (↓/↑) by a week, Enter
    // opens the day; a key that acts on todos only says so.
    Row(keys: [.tab, .tab] + keys("l"), cursor: 0, day: day.adding(days: 1), effects: [.load, .load, .load], tab: .calendar),
    Row(keys: [.tab, .tab, .left], cursor: 0, day: day.adding(days: -1), effects: [.load, .load, .load], tab: .calendar),
    Row(keys: [.tab, .tab] + keys("j"), cursor: 0, day: day.adding(days: 7), effects: [.load, .load, .load], tab: .calendar),
    Row(keys: [.tab, .tab, .up, .up], cursor: 0, day: day.adding(days: -14), effects: [.load, .load, .load, .load], tab: .calendar),
    Row(keys: [.tab, .tab] + keys("kx"), cursor: 0, day: day.adding(days: -7), effects: [.load, .load, .load], tab: .calendar),
    Row(keys: [.tab, .tab] + keys("k") + [.enter], cursor: 0, day: day.adding(days: -7), effects: [.load, .load, .load, .load]),
    Row(keys: [.tab] + keys("lx"), cursor: 0, day: day.adding(days: 1), effects: [.load, .load], tab: .week),
    Row(keys: [.tab] + keys("l") + [.enter], cursor: 0, day: day.adding(days: 1), effects: [.load, .load, .load]),
    Row(keys: keys("?"), cursor: 0, mode: .help),
    Row(keys: keys("??"), cursor: 0),
    Row(keys: keys("?") + [.escape], cursor: 0),
    Row(keys: keys("?j"), cursor: 0, mode: .help),
  ]

  @Test(arguments: rows)
  func keysChangeTheState(_ row: Row) {
    var state = Self.state()
    var effects: [Effect] = []
    let reducer = Reducer()
    for key in row.keys { effects += reducer.reduce(&state, key) }
    #expect(state.cursor == row.cursor)
    #expect(state.marks == row.marks)
    #expect(state.mode == row.mode)
    #expect(state.filter == row.filter)
    #expect(state.day == row.day)
    #expect(effects == row.effects)
    #expect(state.tab == row.tab)
    #expect(!state.quits)
  }

  @Test(arguments: [[Key.character("q")], [.control("c")], keys("a") + [.control("c")], keys("/x") + [.control("c")],
    keys("D") + [.control("c")], keys("e") + [.control("c")], keys("?") + [.control("c")]])
  func quits(_ keys: [Key]) {
    var state = Self.state()
    for key in keys { _ = Reducer().reduce(&state, key) }
    #expect(state.quits)
  }

  @Test func filterMatchesTitleTagAndProject() {
    var state = Self.state()
    state.data.todos[0].tags = ["algo"]
    state.data.todos[2].project = "ootd"
    let cases: [(String, [Int64])] = [("boj", [1]), ("+al", [1]), ("@oo", [3]), ("re", [2, 3]), ("re @oo", [3]), ("+none", [])]
    for (filter, ids) in cases {
      state.filter = filter
      #expect(state.visible.map(\.id) == ids, "\(filter)")
    }
  }

  @Test func newDataKeepsTheCursorOnItsTodo() {
    var state = Self.state()
    state.cursor = 2  // #3, low
    var data = state.data
    data.todos[2].priority = .high
    data.todos = [data.todos[2], data.todos[0], data.todos[1]]  // list order: #3 first now
    state.replace(data)
    #expect(state.current?.id == 3)
    #expect(state.cursor == 0)
    data.todos.removeFirst()
    state.replace(data)
    #expect(state.cursor == 0)
    state.replace(DayData())
    #expect(state.cursor == 0 && state.current == nil)
  }
}
