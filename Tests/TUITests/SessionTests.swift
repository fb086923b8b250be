import Core
import Foundation
import Storage
import TUI
import Testing

@testable import CLI

/// Key sequences on a real SQLite file: each change is the CLI's change, one journal entry,
/// taken back by undo (the TUI's or `ootd undo`).
@Suite struct SessionTests {
  /// Today: #1 high, #2 mid, #3 low; #4 yesterday (overdue); #5 in the backlog.
  static func fixture() throws -> Fixture {
    let fixture = try Fixture()
    try fixture.add("Solve BOJ 1753", .high)
    try fixture.add("Write the README", .mid, tags: ["docs"])
    try fixture.add("Read GRDB docs", .low)
    try fixture.add("Yesterday's review", .mid, day: -1)
    try fixture.add("Someday idea", .mid, day: nil)
    return fixture
  }

  @Test func startsOnTheFirstRowOfTodayWithItsFigures() throws {
    let fixture = try Self.fixture()
    let session = try fixture.session()
    #expect(session.state.day == TUIClock.today)
    #expect(session.state.cursor == 0)
    #expect(session.state.visible.map(\.id) == [1, 2, 3])
    #expect(session.state.data.figures == DayFigures.tally(of: TUIClock.today, todos: try fixture.todos()))
    #expect(session.state.data.overdue.map(\.id) == [4])
    #expect(session.state.data.overdueCount == 1)
    #expect(session.state.data.backlogCount == 1)
  }

  @Test func jxTicksTheSecondTodoAsOneJournalEntryAndUndoTakesItBack() throws {
    let fixture = try Self.fixture()
    let session = try fixture.session()
    let before = try fixture.journal().count
    session.handle(keys("jx"))
    #expect(try fixture.todo(2).isDone)
    #expect(session.state.data.figures.done == 1)
    #expect(session.state.cursor == 1, "a ticked todo stays where it is")
    let entries = try fixture.journal()
    #expect(entries.count == before + 1)
    #expect(entries.first?.command == "done 2")
    #expect(entries.first?.kind == .change)
    session.handle(keys("u"))
    #expect(try !fixture.todo(2).isDone)
    #expect(session.state.status.hasPrefix("Undid 'done 2':"))
    session.handle(keys("U"))
    #expect(try fixture.todo(2).isDone)
    #expect(session.state.status.hasPrefix("Redid 'done 2':"))
    session.handle([.control("r")])
    #expect(session.state.status.hasPrefix("error: "), "nothing left to redo: \(session.state.status)")
  }

  @Test func markedTodosChangeAsOneEntry() throws {
    let fixture = try Self.fixture()
    let session = try fixture.session()
    let before = try fixture.journal().count
    session.handle(keys("vjjvx"))
    #expect(try fixture.todos().filter(\.isDone).map(\.id) == [1, 3])
    #expect(try fixture.journal().count == before + 1)
    #expect(try fixture.journal().first?.command == "done 1 3")
    #expect(session.state.marks.isEmpty)
    // One undo takes both back.
    session.handle(keys("u"))
    #expect(try fixture.todos().filter(\.isDone).isEmpty)
  }

  @Test func theSameChangeAsTheCLI() async throws {
    // `jx` in the TUI and `ootd done 2` leave the same todo (done on the same day, the same
    // journal kind and summary).
    let tui = try Self.fixture()
    try tui.session().handle(keys("jx"))
    let cli = try Self.fixture()
    let code = await Ootd.run(arguments: ["done", "2"], environment: cli.environment)
    #expect(code == 0)
    let (a, b) = (try tui.todo(2), try cli.todo(2))
    #expect(a.isDone && b.isDone && a.day == b.day && a.doneAt == b.doneAt)
    #expect(try tui.journal().first?.summary == cli.journal().first?.summary)
    #expect(try tui.journal().first?.command == cli.journal().first?.command)
  }

  @Test func addUsesTheAddSyntaxOnTheDayShown() throws {
    let fixture = try Self.fixture()
    let session = try fixture.session()
    session.handle(keys("la") + keys("Write tests +tui --priority high") + [.enter])
    let added = try #require(try fixture.todos().last)
    #expect(added.title == "Write tests")
    #expect(added.tags == ["tui"])
    #expect(added.priority == .high)
    #expect(added.day == TUIClock.today.adding(days: 1))
    #expect(try fixture.journal().first?.command == "add Write tests +tui --priority high")
    #expect(session.state.visible.map(\.id) == [added.id])
    // A line add refuses changes nothing and says why.
    let count = try fixture.todos().count
    session.handle(keys("a") + keys("Bad --priority urgent") + [.enter])
    #expect(try fixture.todos().count == count)
    #expect(session.state.status.hasPrefix("error: "))
    session.handle(keys("a") + keys("'unclosed") + [.enter])
    #expect(session.state.status == "error: a quote is not closed")
  }

  @Test func priorityMoveDropDeleteCarryAndEdit() throws {
    let fixture = try Self.fixture()
    let session = try fixture.session()
    session.handle(keys("jj1"))  // #3 low → high: it moves up, the cursor with it
    #expect(try fixture.todo(3).priority == .high)
    #expect(session.state.current?.id == 3)
    #expect(try fixture.journal().first?.command == "edit 3 --priority high")
    session.handle(keys(">"))
    #expect(try fixture.todo(3).day == TUIClock.today.adding(days: 1))
    #expect(!session.state.visible.contains { $0.id == 3 })
    session.handle(keys("T"))
    session.handle([.character("k"), .character("k"), .character("d")])
    #expect(try fixture.todo(1).isDropped)
    session.handle(keys("jDn"))
    #expect(try fixture.todos().contains { $0.id == 2 })
    session.handle(keys("Dy"))
    #expect(try !fixture.todos().contains { $0.id == 2 })
    #expect(try fixture.journal().first?.command == "rm 2 --yes")
    session.handle(keys("c"))
    #expect(try fixture.todo(4).day == TUIClock.today)
    #expect(try fixture.journal().first?.command == "carry")
    session.handle(keys("T"))
    let first = try #require(session.state.current)
    session.handle(keys("e") + [.control("u")] + keys("Renamed it") + [.enter])
    #expect(try fixture.todo(first.id).title == "Renamed it")
    #expect(try fixture.journal().first?.command == "edit \(first.id) --title 'Renamed it'")
  }

  @Test func notesAndTheDatePrompt() throws {
    let fixture = try Self.fixture()
    let session = try fixture.session()
    session.handle(keys("nUse a binary heap") + [.enter])
    #expect(try fixture.todo(1).notes == "Use a binary heap")
    #expect(try fixture.journal().first?.command == "edit 1 --note 'Use a binary heap'")
    session.handle(keys("n") + [.control("u"), .enter])
    #expect(try fixture.todo(1).notes == nil)
    session.handle(keys("gyesterday") + [.enter])
    #expect(session.state.day == TUIClock.today.adding(days: -1))
    #expect(session.state.visible.map(\.id) == [4])
    session.handle(keys("gsoon") + [.enter])
    #expect(session.state.status.hasPrefix("error: "))
    #expect(session.state.day == TUIClock.today.adding(days: -1))
  }

  @Test func bAddsATodoFromATaskBlockOnTheDayShown() throws {
    let fixture = try Self.fixture()
    let session = try fixture.session()
    let blocks = session.state.data.blocks
    try #require(blocks.count >= 2, "the built-in blocks")
    session.handle(keys("lbjk"))
    #expect(session.state.mode == .pickBlock(index: 0))
    session.handle([.down, .enter])
    let added = try #require(try fixture.todos().last)
    #expect(added.block == blocks[1].name)
    #expect(added.title == blocks[1].title)
    #expect(added.day == TUIClock.today.adding(days: 1))
    #expect(try fixture.journal().first?.command == "add --block \(blocks[1].name)")
    session.handle(keys("b") + [.escape])
    #expect(session.state.mode == .list)
  }

  @Test func theWeekTabReadsSevenDaysWithTheirFigures() throws {
    let fixture = try Self.fixture()
    let session = try fixture.session()
    session.handle([.tab])
    let week = session.state.data.week
    #expect(week.map(\.day) == (0..<7).map { Day(iso: "2026-11-16")!.adding(days: $0) })
    let all = try fixture.todos()
    for column in week {
      #expect(column.figures == DayFigures.tally(of: column.day, todos: all), "\(column.day)")
    }
    #expect(week[6].todos.map(\.id) == [1, 2, 3])
    #expect(week[5].todos.map(\.id) == [4])
    session.handle(keys("h") + [.enter])
    #expect(session.state.tab == .day)
    #expect(session.state.visible.map(\.id) == [4])
  }

  @Test func aTodoMovedWithinTheWeekCountsOnceOnItsNewDay() throws {
    let fixture = try Self.fixture()
    let session = try fixture.session()
    session.handle(keys("jj<"))  // #3 from today (Sunday) to Saturday, after Sunday began
    #expect(try fixture.todo(3).day == TUIClock.today.adding(days: -1))
    session.handle(keys("h"))
    let saturday = session.state.data.figures
    session.handle([.tab])
    let week = session.state.data.week
    let all = try fixture.todos()
    for column in week {
      #expect(column.figures == DayFigures.tally(of: column.day, todos: all), "\(column.day)")
    }
    #expect(week[5].figures == saturday, "the Week and the Day say the same of Saturday")
    #expect(week[5].figures.total == 2)
  }

  /// The Day tab's heading and rows of the day shown (the bar left out) against `ootd list DAY`'s
  /// lines, both without colour and with titles that fit 80 columns.
  static func expectSameRowsAsList(_ session: Session, _ fixture: Fixture, _ day: String) async throws {
    var output = ""
    var environment = fixture.environment
    environment.output = { output += $0 }
    #expect(await Ootd.run(arguments: ["list", day], environment: environment) == 0)
    let list = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    let screen = Renderer(rows: plainRows()).render(session.state, width: 80, height: 24)
    #expect(screen[0] == list[0], "the heading")
    let rows = Array(screen.dropFirst(2).prefix(list.count - 1))
    // The cursor's `>` and the marks' `*` stand in the two spaces before a row's box.
    #expect(rows.map { "  " + $0.dropFirst(2) } == Array(list.dropFirst()), "\(screen)")
  }

  @Test func aDayWhoseTodosWereAllCarriedAwayListsThemAsListDoes() async throws {
    // Tryout 19 F3: "Nothing planned." under a "0/1 done" heading, where `list` shows `[>]`.
    let fixture = try Fixture()
    try fixture.add("Overdue one", day: -1)
    let session = try fixture.session()
    session.handle(keys("c"))
    #expect(try fixture.todo(1).day == TUIClock.today)
    session.handle(keys("h"))
    let screen = Renderer(rows: plainRows()).render(session.state, width: 80, height: 24)
    #expect(screen[0] == "Sat 2026-11-21 · yesterday  0/1 done  0%")
    #expect(screen[2] == "  [>] 1  mid   Overdue one  → 2026-11-22")
    #expect(!screen.contains { $0.contains("Nothing planned") }, "\(screen)")
    try await Self.expectSameRowsAsList(session, fixture, "yesterday")
    // The row is not the cursor's: ticking or dropping it is done on the day it went to.
    #expect(session.state.current == nil)
    let entries = try fixture.journal().count
    session.handle(keys("xd"))
    #expect(try fixture.todo(1).isDone == false && fixture.todo(1).isDropped == false)
    #expect(try fixture.journal().count == entries)
  }

  @Test func aCarriedAwayRowIsAsWideAsListMakesIt() async throws {
    // The id column counts the carried-away rows too (`[x]  1` above `[>] 10`), as `list`.
    let fixture = try Fixture()
    try fixture.add("Done yesterday", day: -1, done: true)
    for number in 2...9 { try fixture.add("Today \(number)") }
    try fixture.add("Overdue one", day: -1)
    let session = try fixture.session()
    session.handle(keys("c") + keys("h"))
    let screen = Renderer(rows: plainRows()).render(session.state, width: 80, height: 24)
    #expect(screen[2] == "> [x]  1  mid   Done yesterday")
    #expect(screen[3] == "  [>] 10  mid   Overdue one  → 2026-11-22")
    try await Self.expectSameRowsAsList(session, fixture, "yesterday")
  }

  @Test func theWeekListsATodoCarriedAwayUnderTheDayItLeft() throws {
    let fixture = try Self.fixture()
    let session = try fixture.session()
    session.handle(keys("c") + [.tab])  // #4 from Saturday to today (Sunday)
    let week = session.state.data.week
    #expect(week[5].todos.isEmpty)
    #expect(week[5].carriedAway.map(\.id) == [4])
    #expect(week[6].todos.map(\.id) == [1, 2, 4, 3])
    #expect(week[6].carriedAway.isEmpty, "carried to the day: its own row only")
    let screen = Renderer(rows: plainRows()).render(session.state, width: 80, height: 24)
    #expect(screen[2].contains("│0/1 0%    │"), "\(screen[2])")
    // Saturday's column (the sixth) holds the carried todo's row, dim `>`.
    let saturday = screen[4].split(separator: "│", omittingEmptySubsequences: false)[5]
    #expect(saturday == "> Yesterd…", "\(screen)")
  }

  @Test func theProjectsTabShowsProgressAndOpensAProjectsTodos() async throws {
    let fixture = try Self.fixture()
    #expect(await Ootd.run(arguments: ["project", "add", "ootd"], environment: fixture.environment) == 0)
    #expect(await Ootd.run(arguments: ["add", "Ship the TUI", "--project", "ootd", "--done"], environment: fixture.environment) == 0)
    #expect(await Ootd.run(arguments: ["add", "Write its tests", "--project", "ootd"], environment: fixture.environment) == 0)
    let session = try fixture.session()
    session.handle([.backTab])
    #expect(session.state.tab == .projects)
    let progress = try #require(session.state.data.projects.first)
    #expect(progress.project.name == "ootd" && progress.done == 1 && progress.total == 2)
    let lines = Renderer(rows: plainRows()).render(session.state, width: 80, height: 24)
    #expect(lines[1] == "> ootd  ██████████░░░░░░░░░░  1/2")
    session.handle(keys("x"))
    #expect(session.state.status.hasPrefix("On the Projects tab"))
    session.handle([.enter])
    #expect(session.state.tab == .projects)
    #expect(session.state.project == "ootd")
    #expect(session.state.visible.map(\.title) == ["Ship the TUI", "Write its tests"])
  }

  @Test func filterThenActOnWhatItShows() throws {
    let fixture = try Self.fixture()
    let session = try fixture.session()
    session.handle(keys("/+docs"))
    #expect(session.state.visible.map(\.id) == [2])
    session.handle([.enter] + keys("x"))
    #expect(try fixture.todo(2).isDone)
    session.handle([.escape])
    #expect(session.state.visible.map(\.id) == [1, 2, 3])
  }

  @Test func aChangeByAnotherProcessIsReadWithinOneCheck() throws {
    let fixture = try Self.fixture()
    let session = try fixture.session()
    #expect(!session.reloadIfChangedElsewhere())
    // Another connection (another `ootd`) ticks #1.
    let other = try AppDatabase.open(path: fixture.path, command: "done 1")
    _ = try other.setDone(ids: [1], done: true, today: TUIClock.today, now: TUIClock.now)
    other.close()
    #expect(session.reloadIfChangedElsewhere())
    #expect(session.state.data.todos.first { $0.id == 1 }?.isDone == true)
    // Its own changes are read at once, not taken for another's.
    session.handle(keys("jx"))
    #expect(!session.reloadIfChangedElsewhere())
  }

  @Test(arguments: [
    ("Buy milk", ["Buy", "milk"]), ("'Two words' +tag", ["Two words", "+tag"]), ("a\\ b", ["a b"]),
    ("Ends with \\", ["Ends", "with", "\\"]), ("C:\\", ["C:\\"]), ("  ", []),
  ])
  func anAddLineSplitsAsAShellWould(_ line: String, _ words: [String]) throws {
    #expect(try Ootd.Tui.words(line) == words)
  }

  @Test func aTrailingBackslashIsKeptInTheTitleAndTheJournal() throws {
    let fixture = try Self.fixture()
    let session = try fixture.session()
    session.handle(keys("aPath C:\\") + [.enter])
    let added = try #require(try fixture.todos().last)
    #expect(added.title == "Path C:\\")
    #expect(try fixture.journal().first?.command.hasSuffix("''") == false)
  }

  @Test func aPasteIntoTheAddLineIsTextNotKeys() throws {
    let fixture = try Self.fixture()
    let session = try fixture.session()
    let before = try fixture.todos().count
    // Pasted: two lines with "Dy" (delete, yes) on the second.
    session.handle(keys("a") + [.paste("Buy milk\nDy\t\u{7}x"), .enter])
    let todos = try fixture.todos()
    #expect(todos.count == before + 1, "one todo added, none deleted")
    #expect(todos.last?.title == "Buy milk Dy x")
    // In the list a paste does nothing.
    session.handle([.paste("Dy")])
    #expect(session.state.mode == .list)
    #expect(try fixture.todos().count == before + 1)
  }

  @Test func atMidnightTodayRollsOverAndTheDayShownFollows() throws {
    let fixture = try Self.fixture()
    try fixture.add("Tomorrow's plan", .high, day: 1)
    // The clock the session reads: noon, then 12 hours and a minute later (00:01 the next day).
    let clock = ClockBox(TUIClock.now)
    fixture.environment.clock = { clock.now }
    let session = try fixture.session()
    #expect(!session.rollOverIfTheDayChanged(), "still the same day")
    clock.now = TUIClock.now.addingTimeInterval(12 * 3600 + 60)
    #expect(session.rollOverIfTheDayChanged())
    let tomorrow = TUIClock.today.adding(days: 1)
    #expect(session.state.today == tomorrow)
    #expect(session.state.day == tomorrow, "the day shown was today: it follows")
    #expect(session.state.visible.map(\.title) == ["Tomorrow's plan"])
    #expect(session.state.data.overdueCount == 4, "yesterday's open todo and the three of the old today")
    // A change made now uses the new today: `T` goes there, `x` ticks with it.
    session.handle(keys("hT"))
    #expect(session.state.day == tomorrow)
    session.handle(keys("x"))
    #expect(try fixture.todo(6).isDone)
    #expect(try fixture.todo(6).doneAt == clock.now)
  }

  /// A clock the test moves.
  final class ClockBox: @unchecked Sendable {
    var now: Date
    init(_ now: Date) { self.now = now }
  }

  @Test func keyFileRebindsActions() throws {
    let map = try KeyFile.read(
      """
      # Colemak-ish
      [keys]
      down = "n"
      up = ["e", "up"]   # a comment
      edit = "E"
      toggle-done = "space"
      """)
    #expect(map.action(for: .character("n")) == .down)
    #expect(map.action(for: .character("j")) == nil)
    #expect(map.action(for: .character("e")) == .up)
    #expect(map.action(for: .up) == .up)
    #expect(map.action(for: .character("E")) == .edit)
    #expect(map.action(for: .character("x")) == nil)
    #expect(map.action(for: .character(" ")) == .toggleDone)
    #expect(map.action(for: .control("c")) == .quit)
    let fixture = try Self.fixture()
    let session = try fixture.session(keys: map)
    session.handle(keys("n "))
    #expect(try fixture.todo(2).isDone)
  }

  @Test func keyFileSavedOnWindowsOrWithAByteOrderMarkReads() throws {
    for text in ["[keys]\r\ndown = \"n\"\r\nquit = \"Q\"\r\n", "\u{FEFF}[keys]\ndown = \"n\"\nquit = \"Q\"\n"] {
      let map = try KeyFile.read(text)
      #expect(map.action(for: .character("n")) == .down)
      #expect(map.action(for: .character("Q")) == .quit)
      #expect(map.action(for: .character("j")) == nil)
    }
    // Ctrl-C bound to quit (it does anyway) is no refusal.
    #expect(try KeyFile.read("[keys]\nquit = [\"Q\", \"ctrl-c\"]").action(for: .control("c")) == .quit)
  }

  @Test(arguments: [
    ("down = \"j\"", 1, "key bindings go under [keys]"),
    ("[colors]", 1, "unknown table [colors]: the file has one table, [keys]"),
    ("[keys]\nfly = \"f\"", 2, "unknown action 'fly'"),
    ("[keys]\ndown = \"ctrl-\"", 2, "unknown key 'ctrl-'"),
    ("[keys]\ndown = j", 2, "a key is a string in double quotes"),
    ("[keys]\ndown = [\"j\"", 2, "an array ends with ]"),
    ("[keys]\ndown = \"j\", \"k\"", 2, "several keys go in [\"a\", \"b\"]"),
    ("[keys]\ndown = []", 2, "give at least one key"),
    ("[keys]\ndown = \"j\"\nup = \"k\"\ndown = \"n\"", 4, "'down' is bound already on line 2"),
    ("[keys]\ndown = \"ctrl-c\"", 2, "'ctrl-c' cannot be bound: ctrl-c always quits"),
    ("[keys]\ndown = [\"n\", \"esc\"]", 2, "'esc' cannot be bound: esc clears"),
    ("[keys]\nundo = \"ctrl-z\"", 2, "'ctrl-z' cannot be bound: ctrl-z suspends"),
    ("[keys]\r\ndown = \"n\"\r\nup = nope\r\n", 3, "a key is a string in double quotes"),
  ])
  func keyFileRefusesWithItsLine(_ text: String, _ line: Int, _ reason: String) {
    #expect(throws: KeyFile.Failure.self) { try KeyFile.read(text) }
    do {
      _ = try KeyFile.read(text)
    } catch {
      #expect(error.line == line)
      #expect(error.reason.hasPrefix(reason), "\(error.reason)")
    }
  }
}
