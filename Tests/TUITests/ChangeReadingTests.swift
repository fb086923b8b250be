import Core
import Foundation
import Storage
import TUI
import Testing

@testable import CLI

/// After its own change the session reads only the touched todos (``Session/reloadChanged()``),
/// not the day: what it then holds must be exactly what a whole reading gives, after every key.
/// And the smaller points: marks the filter hides, multi-line notes, the project list,
/// an empty date prompt, the cursor on an added todo.
@Suite struct ChangeReadingTests {
  /// After each key: the data the session patched equals the data a whole reading gives.
  func expectPatchedEqualsRead(_ session: Session, _ keys: [Key], _ comment: String) throws {
    session.handle(keys)
    let patched = session.state.data
    let cursor = session.state.current?.id
    try session.load()
    let read = session.state.data
    #expect(read.todos.map(\.id) == patched.todos.map(\.id), "\(comment): the rows")
    #expect(read.todos == patched.todos, "\(comment): the todos")
    #expect(read.carriedAway.map(\.id) == patched.carriedAway.map(\.id), "\(comment): carried away")
    #expect(read.carriedAway == patched.carriedAway, "\(comment): carried away")
    #expect(read.figures == patched.figures, "\(comment): figures")
    #expect(read.todayFigures == patched.todayFigures, "\(comment): today's figures")
    #expect(read.streak == patched.streak, "\(comment): streak")
    #expect(read.overdue.map(\.id) == patched.overdue.map(\.id), "\(comment): overdue")
    #expect(read.overdueCount == patched.overdueCount && read.backlogCount == patched.backlogCount, "\(comment)")
    #expect(read.largestID == patched.largestID, "\(comment): largest id")
    #expect(read.blocks == patched.blocks && read.commits == patched.commits, "\(comment)")
    #expect(read == patched, "\(comment): \(session.state.status)")
    #expect(session.state.current?.id == cursor, "\(comment)")
  }

  @Test func everyChangeReadsOnlyItsTodosAndEndsAsAWholeReading() throws {
    let fixture = try SessionTests.fixture()
    try fixture.add("Tomorrow's plan", .low, day: 1)
    let session = try fixture.session()
    let steps: [(String, [Key])] = [
      ("tick", keys("x")), ("undo", keys("u")), ("redo", keys("U")), ("untick", keys("x")),
      ("low to high moves up", keys("jj1")), ("high to low moves down", keys("3")),
      ("to tomorrow", keys("k>")), ("back from tomorrow (undo)", keys("u")),
      ("drop", keys("d")), ("marks, one change", keys("vjvx")), ("undo the marks", keys("u")),
      ("carry yesterday's", keys("c")), ("undo the carry", keys("u")), ("redo the carry", keys("U")),
      ("add", keys("aA new one --priority high") + [.enter]), ("edit", keys("e") + [.control("u")] + keys("Renamed") + [.enter]),
      ("notes", keys("nsome notes") + [.enter]), ("delete", keys("Dy")), ("undo the delete", keys("u")),
      ("yesterday: the carried todo counts there", keys("h")),
      ("tomorrow's todo ticked", keys("llx")), ("to the day before", keys("<")), ("undo", keys("u")),
      ("a block", keys("b") + [.enter]), ("undo the block", keys("u")),
    ]
    for (comment, keys) in steps { try expectPatchedEqualsRead(session, keys, comment) }
    // The carried todo, moved on yesterday with `<` from today, counts on yesterday once.
    session.handle(keys("T"))
    #expect(session.state.data.figures == DayFigures.tally(of: TUIClock.today, todos: try fixture.todos()))
  }

  @Test func aTodoCarriedAwayAndMovedBackStaysRightOnBothDays() throws {
    let fixture = try SessionTests.fixture()
    let session = try fixture.session()
    try expectPatchedEqualsRead(session, keys("c"), "carry #4 to today")
    let moved = try fixture.todo(4)
    #expect(moved.day == TUIClock.today)
    session.handle(keys("h"))
    #expect(session.state.data.carriedAway.map(\.id) == [4])
    session.handle(keys("T"))
    let index = try #require(session.state.visible.firstIndex { $0.id == 4 })
    session.handle(Array(repeating: Key.character("j"), count: index))
    #expect(session.state.current?.id == 4)
    try expectPatchedEqualsRead(session, keys("<"), "#4 back to yesterday")
    try expectPatchedEqualsRead(session, keys("h"), "yesterday")
    try expectPatchedEqualsRead(session, keys("x"), "ticked on yesterday")
    try expectPatchedEqualsRead(session, keys("u"), "undone on yesterday")
    #expect(session.state.data.figures == DayFigures.tally(of: TUIClock.today.adding(days: -1), todos: try fixture.todos()))
  }

  @Test func aMarkTheFilterHidesIsNotActedOnAndTheBarCountsIt() throws {
    let fixture = try SessionTests.fixture()
    let session = try fixture.session()
    session.handle(keys("vjv"))  // #1 and #2 marked
    session.handle(keys("/+docs") + [.enter])  // only #2 shown
    #expect(session.state.hiddenMarks == 1)
    let bar = Renderer(rows: plainRows()).render(session.state, width: 80, height: 24)[1]
    #expect(bar.contains("2 marked (1 hidden)"), "\(bar)")
    let before = try fixture.journal().count
    session.handle(keys("x"))
    #expect(try fixture.todo(2).isDone)
    #expect(try !fixture.todo(1).isDone, "hidden by the filter: not ticked")
    #expect(try fixture.journal().first?.command == "done 2")
    #expect(try fixture.journal().count == before + 1)
    #expect(session.state.marks == [1], "the hidden mark stays")
    // Only hidden marks: nothing is done, and the status says why.
    session.handle(keys("x"))
    #expect(try fixture.todo(2).isDone, "not the cursor's todo either")
    #expect(session.state.status.hasPrefix("The marked todos are hidden by the filter"))
    #expect(try fixture.journal().count == before + 1)
    session.handle([.escape])  // the filter goes; #1 is still marked, and acted on
    session.handle(keys("x"))
    #expect(try fixture.todo(1).isDone)
    #expect(session.state.marks.isEmpty)
  }

  @Test func notesTakeSeveralLinesEnterSaves() throws {
    let fixture = try SessionTests.fixture()
    let session = try fixture.session()
    session.handle(keys("nFirst line") + [.control("j")] + keys("second line"))
    let status = Renderer(rows: plainRows()).render(session.state, width: 80, height: 24)[23]
    #expect(status.hasSuffix("First line⏎second line_"), "\(status)")
    session.handle([.enter])
    #expect(try fixture.todo(1).notes == "First line\nsecond line")
    #expect(try fixture.journal().first?.command == CommandText.from(["edit", "1", "--note", "First line\nsecond line"]))
    // Opening them again shows both lines; a paste keeps its newlines in the notes.
    session.handle(keys("n"))
    #expect(session.state.mode == .notes(id: 1, text: "First line\nsecond line"))
    session.handle([.paste("\nthird\r\nfourth"), .enter])
    #expect(try fixture.todo(1).notes == "First line\nsecond line\nthird\nfourth")
    // In the add line a newline key (Ctrl-J, a terminal's LF for Enter) is Enter.
    session.handle(keys("aOne line") + [.control("j")])
    #expect(try fixture.todos().last?.title == "One line")
  }

  @Test func altEnterAndCtrlJDecodeAsANewLineKey() {
    let decoder = KeyDecoder()
    #expect(decoder.keys([0x0A]) == [.control("j")])
    #expect(decoder.keys([0x1B, 0x0D]) == [.control("j")])
    #expect(decoder.keys([0x0D]) == [.enter])
    #expect(decoder.keys([0x1B]) == [.escape])
  }

  @Test func anEmptyDatePromptJustCloses() throws {
    let fixture = try SessionTests.fixture()
    let session = try fixture.session()
    session.handle(keys("l"))
    session.handle(keys("g") + [.enter])
    #expect(session.state.mode == .list)
    #expect(session.state.status == "")
    #expect(session.state.day == TUIClock.today.adding(days: 1), "stays on the day shown")
    session.handle(keys("g   ") + [.enter])
    #expect(session.state.status == "")
  }

  @Test func anAddedTodoGetsTheCursor() throws {
    let fixture = try SessionTests.fixture()
    let session = try fixture.session()
    session.handle(keys("aMiddle one") + [.enter])  // mid: after #2, before #3 (low)
    #expect(session.state.current?.title == "Middle one")
    #expect(session.state.cursor == 2)
    session.handle(keys("aUrgent --priority high") + [.enter])
    #expect(session.state.current?.title == "Urgent")
    #expect(session.state.cursor == 1)
    // Added to another day (the line says so): the cursor stays.
    session.handle(keys("aLater --on tomorrow") + [.enter])
    #expect(session.state.current?.title == "Urgent")
  }

  @Test func projectsEnterListsTheProjectsTodosOfEveryDayToActOnAndEscGoesBack() async throws {
    let fixture = try SessionTests.fixture()
    let environment = fixture.environment
    #expect(await Ootd.run(arguments: ["project", "add", "ootd"], environment: environment) == 0)
    #expect(await Ootd.run(arguments: ["project", "add", "zzz"], environment: environment) == 0)
    #expect(await Ootd.run(arguments: ["add", "Ship the TUI", "--project", "ootd", "--done"], environment: environment) == 0)
    #expect(await Ootd.run(arguments: ["add", "Yesterday's part", "--project", "ootd", "--on", "yesterday"], environment: environment) == 0)
    #expect(await Ootd.run(arguments: ["add", "Next week's part", "--project", "ootd", "--on", "+7d"], environment: environment) == 0)
    #expect(await Ootd.run(arguments: ["add", "Someday part", "--project", "ootd", "--someday"], environment: environment) == 0)
    let session = try fixture.session()
    session.handle([.backTab])
    #expect(session.state.tab == .projects)
    session.handle([.enter])
    #expect(session.state.project == "ootd")
    #expect(session.state.visible.map(\.title) == ["Yesterday's part", "Ship the TUI", "Next week's part", "Someday part"])
    let lines = Renderer(rows: plainRows()).render(session.state, width: 80, height: 24)
    #expect(lines[0].hasPrefix("Project ootd · 1/4 done"), "\(lines[0])")
    #expect(lines[1].hasPrefix("> 11-21 "), "\(lines[1])")
    #expect(lines[4].hasPrefix("  ----- "), "\(lines[4])")
    // Acting on it: j x ticks next week's part (the CLI's change), the list stays.
    session.handle(keys("jjx"))
    #expect(try fixture.todos().first { $0.title == "Next week's part" }?.isDone == true)
    #expect(session.state.current?.title == "Next week's part")
    #expect(session.state.data.projects.first?.done == 2)
    // A day's key says where it works; Esc goes back to the projects, on the same project.
    session.handle(keys(">"))
    #expect(session.state.status.hasPrefix("On a project's todos"))
    session.handle([.escape])
    #expect(session.state.project == nil)
    #expect(session.state.cursor == 0)
    #expect(Renderer(rows: plainRows()).render(session.state, width: 80, height: 24)[1].hasPrefix("> ootd"))
  }
}
