import Core
import Foundation
import TUI
import Testing

@testable import CLI

/// The screen as a pure function of the state and the size.
@Suite struct RendererTests {
  static let day = TUIClock.today

  static func state(_ titles: [(String, Priority, Bool)] = [
    ("Solve BOJ 1753", .high, false), ("Write the README", .mid, true), ("Read GRDB docs", .low, false),
  ]) -> TUIState {
    let todos = titles.enumerated().map { index, row in
      var todo = Todo(
        id: Int64(index + 1), title: row.0, priority: row.1, day: day, isDone: row.2, createdAt: TUIClock.now)
      if index == 0 { todo.tags = ["algo"] }
      return todo
    }
    let overdue = Todo(id: 9, title: "Yesterday's review", priority: .mid, day: day.adding(days: -1), createdAt: TUIClock.now)
    return TUIState(
      today: day,
      data: DayData(
        todos: todos, figures: DayFigures.tally(of: day, todos: todos), streak: 2, overdue: [overdue],
        overdueCount: 1, backlogCount: 4))
  }

  static func render(_ state: TUIState, _ width: Int, _ height: Int, colored: Bool = false) -> [String] {
    Renderer(rows: ListRows(style: Style(colored: colored))).render(state, width: width, height: height)
  }

  @Test func dayAt80x24() {
    var state = Self.state()
    state.cursor = 1
    state.marks = [3]
    let lines = Self.render(state, 80, 24)
    #expect(lines.count == 24)
    let expected = [
      "Sun 2026-11-22 · today  1/3 done  33%",
      "  ███████░░░░░░░░░░░░░ · streak 2 · 1 marked",
      "  [ ] 1  high  Solve BOJ 1753  +algo",
      "> [x] 2  mid   Write the README",
      " *[ ] 3  low   Read GRDB docs",
    ]
    #expect(Array(lines.prefix(5)) == expected)
    #expect(lines.contains("Overdue  1 open from earlier days · c carries it to today"))
    #expect(lines.contains("  [ ] 9  mid   Yesterday's review  2026-11-21"))
    #expect(lines.contains("  Backlog: 4 waiting for a day ('ootd plan ID')"))
    #expect(lines.last == "j move · x done · a add · u undo · ? keys · q quit")
  }

  @Test func narrowAt50x15KeepsEveryLineWithinTheWidth() {
    let state = Self.state([
      ("한국어 제목이 아주 길어서 잘려야 하는 할 일입니다", .high, false), ("Emoji 😀🎉 title that is long enough to cut", .mid, false),
      ("Short", .low, true),
    ])
    let lines = Self.render(state, 50, 15)
    #expect(lines.count == 15)
    for line in lines { #expect(DisplayWidth.of(line) <= 50, "\(line)") }
    #expect(lines[2] == "> [ ] 1  high  한국어 제목이 아주 길어서 …  +algo")
    #expect(lines[3].hasPrefix("  [ ] 2  mid   Emoji 😀🎉 title"))
    #expect(lines[3].hasSuffix("…"))
    #expect(DisplayWidth.of(lines[2]) <= 50)
  }

  @Test(arguments: [(80, 24), (50, 15), (20, 6), (3, 2)])
  func noLineIsWiderThanTheScreenInColourOrNot(_ width: Int, _ height: Int) {
    var state = Self.state([("가나다라마바사아자차카타파하 😀😀😀😀😀😀😀", .high, false), ("x", .mid, false)])
    for mode in [Mode.list, .help, .add(text: "한국어 입력 + 😀 이모지가 아주 긴 줄입니다 정말로 길게"), .filter, .confirmDelete(ids: [1])] {
      state.mode = mode
      state.filter = mode == .filter ? "가나" : ""
      for colored in [false, true] {
        let lines = Self.render(state, width, height, colored: colored)
        #expect(lines.count == height)
        for line in lines {
          #expect(DisplayWidth.visible(line) <= width, "\(mode) \(colored): \(line)")
          #expect(!line.contains("\n"))
          if !colored { #expect(!line.contains("\u{1B}"), "NO_COLOR: no escape codes") }
        }
      }
    }
  }

  @Test func colourFollowsTheRowsOfList() {
    let lines = Self.render(Self.state(), 80, 24, colored: true)
    // The row is `ootd list`'s row, colours included (a red `high`).
    let row = TodoRenderer(style: Style(colored: true), today: Self.day, width: 80)
      .line(Self.state().data.todos[0], idWidth: 1)
    #expect(lines[2].hasSuffix(String(row.dropFirst(2))))
    #expect(row.contains("\u{1B}[31mhigh\u{1B}[0m"))
  }

  @Test func helpListsEveryActionWithItsKeys() {
    var state = Self.state()
    state.mode = .help
    let lines = Self.render(state, 80, 40)
    for action in Action.allCases { #expect(lines.contains { $0.hasSuffix(action.help) }, "\(action)") }
    #expect(lines.contains { $0.hasPrefix(" j down") })
    #expect(lines.contains { $0.hasPrefix(" U ctrl-r") })
    #expect(lines.contains { $0.hasPrefix(" x space") })
  }

  @Test func everyKeyFitsOneScreenOf80x24() {
    var state = Self.state()
    state.mode = .help
    let lines = Self.render(state, 80, 24)
    for action in Action.allCases { #expect(lines.contains { $0.contains(action.help) }, "\(action)") }
    for extra in ["clear filter/marks/project", "open the day / the project", "notes: a new line (⏎)"] {
      #expect(lines.contains { $0.contains(extra) }, "\(extra)")
    }
    for line in lines { #expect(DisplayWidth.of(line) <= 80) }
  }

  @Test func theHelpScrollsOnA50x15Screen() {
    var state = Self.state()
    Reducer().reduce(&state, .character("?")).forEach { _ in }
    #expect(state.mode == .help)
    let first = Self.render(state, 50, 15)
    #expect(first.count == 15)
    #expect(first.last?.hasPrefix("j/k scroll · 13 of 30") == true, "\(first.last ?? "")")
    #expect(!first.contains { $0.hasSuffix(Action.quit.help) })
    var seen = Set(first)
    for _ in 0..<40 {
      _ = Reducer().reduce(&state, .character("j"))
      seen.formUnion(Self.render(state, 50, 15))
    }
    // Every key was on the screen at some point, and the last page ends with the last entry.
    for action in Action.allCases { #expect(seen.contains { $0.hasSuffix(action.help) }, "\(action)") }
    #expect(Self.render(state, 50, 15).dropLast().last?.contains("notes: a new line (⏎)") == true)
    _ = Reducer().reduce(&state, .character("k"))
    #expect(state.helpTop == Action.allCases.count - 1)
    for line in Self.render(state, 50, 15) { #expect(DisplayWidth.of(line) <= 50) }
  }

  @Test func theBlockPicker() {
    var state = Self.state()
    state.data.blocks = [
      try! TaskBlock(name: "algorithm", title: "Solve one algorithm problem", priority: .high),
      try! TaskBlock(name: "blog", title: "Write a TIL post", priority: .mid),
    ]
    state.mode = .pickBlock(index: 1)
    let lines = Self.render(state, 80, 24)
    #expect(Array(lines[2...4]) == [
      "Add from a task block to 2026-11-22:", "  algorithm  high  Solve one algorithm problem",
      "> blog       mid   Write a TIL post",
    ])
    #expect(lines.last == "j/k choose · Enter adds · Esc cancels")
  }

  @Test func theWeekSideBySide() {
    var state = Self.state()
    state.tab = .week
    let start = Day(iso: "2026-11-16")!
    state.data.week = (0..<7).map { offset in
      let day = start.adding(days: offset)
      let todos = day == Self.day ? state.data.todos : []
      return DayColumn(day: day, todos: todos, figures: DayFigures.tally(of: day, todos: todos))
    }
    let wide = Self.render(state, 80, 24)
    #expect(wide[0] == "Week 2026-11-16 – 2026-11-22  · Enter opens a day · Tab: the Day")
    #expect(wide[1] == "Mon 11-16 │Tue 11-17 │Wed 11-18 │Thu 11-19 │Fri 11-20 │Sat 11-21 │Sun 11-22 ")
    #expect(wide[2].hasSuffix("│1/3 33%   "))
    #expect(wide[4].hasSuffix("│  Solve B…"))
    #expect(wide[5].hasSuffix("│x Write t…"))
    let narrow = Self.render(state, 50, 15)
    #expect(narrow[1].hasPrefix("Wed 11-18"), "five days around the chosen one: \(narrow[1])")
    for lines in [wide, narrow, Self.render(state, 20, 6), Self.render(state, 80, 24, colored: true)] {
      for line in lines { #expect(DisplayWidth.visible(line) <= (lines.count == 24 ? 80 : lines.count == 15 ? 50 : 20)) }
    }
  }

  @Test func statusLineShowsTheLineBeingTypedAndTheQuestion() {
    var state = Self.state()
    state.mode = .add(text: "Write tests +tui")
    #expect(Self.render(state, 80, 24).last == "add: Write tests +tui_")
    state.mode = .confirmDelete(ids: [1, 2])
    #expect(Self.render(state, 80, 24).last == "Delete 2 todos? y/n")
    state.mode = .list
    state.status = "Undid 'done 2': 1 todo open again ('Write the README')"
    #expect(Self.render(state, 80, 24).last == "Undid 'done 2': 1 todo open again ('Write the README')")
  }

  /// A title, a filter or a message with a bidirectional control or a line separator is drawn
  /// with it visible (`<U+202E>`), as `ootd list` shows it: on the Day tab, the Week tab and the
  /// status line; never raw.
  @Test func layoutControls_areDrawnVisibly() {
    var state = Self.state([("pay \u{202E}exe.eciovni\u{202C} now", .high, false), ("two\u{2028}lines", .mid, false)])
    let day = Self.render(state, 80, 24)
    #expect(day[2] == "> [ ] 1  high  pay <U+202E>exe.eciovni<U+202C> now  +algo")
    #expect(day[3] == "  [ ] 2  mid   two<U+2028>lines")
    state.tab = .week
    state.data.week = (0..<7).map { offset in
      let day = Self.day.adding(days: offset - 6)
      let todos = day == Self.day ? state.data.todos : []
      return DayColumn(day: day, todos: todos, figures: DayFigures.tally(of: day, todos: todos))
    }
    let week = Self.render(state, 200, 24)
    #expect(week.contains { $0.contains("pay <U+202E>") }, "\(week)")
    state.tab = .day
    state.status = "Added 'x\u{2067}y'"
    #expect(Self.render(state, 80, 24).last == "Added 'x<U+2067>y'")
    for lines in [day, week, Self.render(state, 80, 24)] {
      #expect(!lines.joined().unicodeScalars.contains(where: TerminalText.isLayoutControl))
    }
  }

  @Test func theCursorScrollsIntoView() {
    var state = Self.state((1...30).map { ("Todo \($0)", Priority.mid, false) })
    state.cursor = 25
    let lines = Self.render(state, 80, 15)
    #expect(lines.contains { $0.hasPrefix("> ") && $0.contains("Todo 26") })
  }

  @Test(arguments: [
    ("abc", 2, "ab"), ("한국", 3, "한"), ("😀x", 1, ""), ("a\u{1B}[31mbcd\u{1B}[0m", 2, "a\u{1B}[31mb\u{1B}[0m"),
  ])
  func clipCountsColumnsNotCharacters(_ line: String, _ width: Int, _ expected: String) {
    #expect(Renderer.clip(line, to: width, colored: true) == expected)
  }
}

/// Only the lines that changed are written, never a full clear.
@Suite struct ScreenWriterTests {
  @Test func writesOnlyChangedLines() {
    var writer = ScreenWriter()
    let first = writer.update(to: ["a", "b", "c"])
    #expect(first == "\u{1B}[1;1H\u{1B}[Ka\u{1B}[0m\u{1B}[2;1H\u{1B}[Kb\u{1B}[0m\u{1B}[3;1H\u{1B}[Kc\u{1B}[0m\u{1B}[J")
    #expect(writer.update(to: ["a", "b", "c"]) == "")
    #expect(writer.update(to: ["a", "B", "c"]) == "\u{1B}[2;1H\u{1B}[KB\u{1B}[0m")
    #expect(!first.contains("\u{1B}[2J"))
    writer.invalidate()
    #expect(writer.update(to: ["a", "B", "c"]).contains("\u{1B}[1;1H\u{1B}[Ka"))
    // A new size writes every line again.
    #expect(writer.update(to: ["a", "B"]).contains("\u{1B}[1;1H\u{1B}[Ka"))
  }

  @Test func aKeyRewritesOnlyTheRowsItChanged() {
    // j moves the cursor: the two rows it leaves and enters change, and the status line stays.
    let renderer = Renderer(rows: ListRows(style: .plain))
    var state = RendererTests.state()
    var writer = ScreenWriter()
    _ = writer.update(to: renderer.render(state, width: 80, height: 24))
    _ = Reducer().reduce(&state, .character("j"))
    let bytes = writer.update(to: renderer.render(state, width: 80, height: 24))
    #expect(bytes.components(separatedBy: "\u{1B}[K").count - 1 == 2)
    #expect(bytes.contains("\u{1B}[3;1H") && bytes.contains("\u{1B}[4;1H"))
  }
}
