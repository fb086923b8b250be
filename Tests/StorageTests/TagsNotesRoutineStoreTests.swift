import Core
import Foundation
import GRDB
import Storage
import Testing

@Suite("Tags, notes, history and the routine in storage")
struct TagsNotesRoutineStoreTests {
  let today = day("2026-11-23")  // a Monday

  @Test("tags and notes are stored with a new todo, filtered by tag, and edited through the journal")
  func tagsAndNotes() throws {
    let database = try AppDatabase.inMemory()
    var tagged = try draft("Fix login")
    tagged.tags = ["bug", "web"]
    tagged.notes = "Safari only"
    let todo = try database.addTodo(tagged, now: fixedNow)
    try database.addTodo(try draft("Write docs"), now: fixedNow)
    #expect(todo.tags == ["bug", "web"])
    #expect(todo.notes == "Safari only")
    // A tag matches whole tags only: "we" is no tag of "web".
    #expect(try database.todos(matching: TodoFilter(days: .all, tag: "bug")).map(\.id) == [todo.id])
    #expect(try database.todos(matching: TodoFilter(days: .all, tag: "we")).isEmpty)
    // When tags and notes are edited
    let edited = try database.editTodo(
      id: todo.id, try TodoChanges(notes: .some(""), addTags: ["ui"], removeTags: ["bug"]), today: fixedToday, now: fixedNow)
    #expect(edited.tags == ["ui", "web"])
    #expect(edited.notes == nil)
    // Then undo restores them exactly
    _ = try database.undo(now: fixedNow)
    let restored = try database.todos(ids: [todo.id])[0]
    #expect(restored.tags == ["bug", "web"])
    #expect(restored.notes == "Safari only")
    // And a note adds a line
    #expect(try database.appendNote(id: todo.id, "tried Chrome", now: fixedNow).notes == "Safari only\ntried Chrome")
  }

  @Test("a todo's history lists the journal entries that touched it, oldest first")
  func history() throws {
    let database = try AppDatabase.inMemory(command: "add x")
    let todo = try database.addTodo(try draft("x"), now: fixedNow)
    let other = try database.addTodo(try draft("y"), now: fixedNow)
    _ = try database.setDone(ids: [todo.id], done: true, now: fixedNow)
    _ = try database.setDone(ids: [other.id], done: true, now: fixedNow)
    _ = try database.undo(now: fixedNow)  // touches only the other todo
    let history = try database.history(ofRow: todo.uuid)
    #expect(history.map(\.id) == [1, 3])
    #expect(history.map(\.summary).last?.contains("done") == true)
    #expect(try database.history(ofRow: other.uuid).map(\.id) == [2, 4, 5])
  }

  /// A file database whose changes plan `today`'s routine first.
  func routineDatabase(_ scratch: Scratch, today: Day? = nil) throws -> AppDatabase {
    try AppDatabase.open(path: scratch.path(), routineDay: today ?? self.today)
  }

  @Test("the routine is planned by the first change of the day, once, as its own undoable entry")
  func automaticPlan() throws {
    let scratch = Scratch()
    do {
      let setup = try AppDatabase.open(path: scratch.path())
      _ = try setup.setRoutine(named: "algorithm", true, now: fixedNow)
      _ = try setup.setRoutine(
        named: "blog", true, recurrence: .weekdays([.tuesday]), now: fixedNow)
      #expect(try allTodos(setup).isEmpty)
    }
    let database = try routineDatabase(scratch)
    // When a command changes something
    try database.addTodo(try draft("Read", on: "2026-11-23"), now: fixedNow)
    // Then today has the algorithm todo (blog is due on Tuesdays), named by (block, day)
    let todos = try allTodos(database)
    #expect(todos.map(\.title).sorted() == ["Read", "Solve an algorithm problem"])
    let routine = try #require(todos.first { $0.block == "algorithm" })
    #expect(routine.uuid == RowID.routineTodo(block: RowID.builtInBlock("algorithm"), day: today))
    #expect(try database.journal(limit: 5).map(\.command) == ["", "plan (automatic)", "", ""])
    // A second change plans nothing more
    try database.addTodo(try draft("Write", on: "2026-11-23"), now: fixedNow)
    #expect(try allTodos(database).filter { $0.block == "algorithm" }.count == 1)
    // Undo takes the command back, then the plan
    _ = try database.undo(now: fixedNow)
    _ = try database.undo(now: fixedNow)
    _ = try database.undo(now: fixedNow)
    #expect(try allTodos(database).isEmpty)
    // And the plan, undone, does not come back by itself that day
    try database.addTodo(try draft("Again", on: "2026-11-23"), now: fixedNow)
    #expect(try allTodos(database).map(\.title) == ["Again"])
    // The next day does get it (a Tuesday: blog too)
    let tomorrow = try routineDatabase(scratch, today: today.adding(days: 1))
    _ = try tomorrow.planDueRoutine(on: today.adding(days: 1), now: fixedNow)
    #expect(try tomorrow.todos(matching: TodoFilter(days: .range(DayRange(day: today.adding(days: 1)))))
      .compactMap(\.block) == ["algorithm", "blog"])
  }

  @Test("a routine todo removed or dropped stays away that day; an explicit plan brings a removed one back", arguments: ["rm", "drop"])
  func removedStaysAway(how: String) throws {
    let scratch = Scratch()
    let database = try routineDatabase(scratch)
    // Making a block routine plans today's todo in the same change
    let planned = try database.setRoutine(named: "algorithm", true, now: fixedNow).planned
    #expect(planned.map(\.uuid) == [RowID.routineTodo(block: RowID.builtInBlock("algorithm"), day: today)])
    #expect(try database.planDueRoutine(on: today, now: fixedNow).isEmpty)
    if how == "rm" {
      try database.deleteTodos(ids: [planned[0].id], now: fixedNow)
    } else {
      _ = try database.dropTodos(ids: [planned[0].id], now: fixedNow)
    }
    #expect(try database.planDueRoutine(on: today, now: fixedNow).isEmpty)
    try database.addTodo(try draft("x", on: "2026-11-23"), now: fixedNow)
    #expect(try allTodos(database).filter { $0.block == "algorithm" }.count == (how == "rm" ? 0 : 1))
    // `plan` is explicit: it adds a removed routine todo again, under the same uuid; a dropped
    // one is still on the day, so nothing.
    let again = try database.planRoutine(on: today, now: fixedNow)
    #expect(again.map(\.uuid) == (how == "rm" ? [planned[0].uuid] : []))
  }

  @Test("the check run before each command plans only when a routine block is due and unplanned")
  func dueCheck() throws {
    let scratch = Scratch()
    do {
      // Only a block due on Tuesdays and Thursdays is in the routine, with another not due today.
      let setup = try AppDatabase.open(path: scratch.path())
      _ = try setup.setRoutine(named: "blog", true, recurrence: .weekdays([.tuesday, .thursday]), now: fixedNow)
      _ = try setup.setRoutine(named: "english", true, recurrence: .every(days: 3, from: today.adding(days: 1)), now: fixedNow)
    }
    let monday = try routineDatabase(scratch)
    let entries = try monday.journal(limit: 10).count
    // On a Monday both are unplanned but neither is due: nothing is planned nor written,
    // through the read path (the dashboard's) and the write path (any change) alike
    #expect(try monday.planDueRoutine(on: today, now: fixedNow).isEmpty)
    try monday.addTodo(try draft("Read", on: "2026-11-23"), now: fixedNow)
    #expect(try allTodos(monday).map(\.title) == ["Read"])
    #expect(try monday.journal(limit: 10).count == entries + 1)
    monday.close()
    // On the Tuesday both are due: the read path plans them, once
    let tuesday = today.adding(days: 1)
    let database = try routineDatabase(scratch, today: tuesday)
    #expect(try database.planDueRoutine(on: tuesday, now: fixedNow).compactMap(\.block).sorted() == ["blog", "english"])
    #expect(try database.planDueRoutine(on: tuesday, now: fixedNow).isEmpty)
    try database.addTodo(try draft("Write", on: "2026-11-24"), now: fixedNow)
    #expect(try database.journal(limit: 10).map(\.command).prefix(2) == ["", "plan (automatic)"])
    // The Wednesday, no block is due; the Thursday, blog only, planned by the first change
    let thursday = today.adding(days: 3)
    let later = try routineDatabase(scratch, today: thursday)
    #expect(try later.planDueRoutine(on: today.adding(days: 2), now: fixedNow).isEmpty)
    try later.addTodo(try draft("Ship", on: "2026-11-26"), now: fixedNow)
    #expect(try later.todos(matching: TodoFilter(days: .range(DayRange(day: thursday)))).compactMap(\.block) == ["blog"])
  }

  @Test("a routine todo moved to another day is not planned again on its day")
  func movedStaysPlanned() throws {
    let scratch = Scratch()
    let database = try routineDatabase(scratch)
    _ = try database.setRoutine(named: "algorithm", true, now: fixedNow)
    let planned = try database.planRoutine(on: today.adding(days: 2), now: fixedNow)
    _ = try database.editTodo(id: planned[0].id, try TodoChanges(day: .day(today.adding(days: 3))), today: today, now: fixedNow)
    // Day +2 has no algorithm todo now, but its routine todo exists (on day +3): no second one.
    #expect(try database.planRoutine(on: today.adding(days: 2), now: fixedNow).isEmpty)
  }

  @Test("8 processes' connections planning the same day at once plan each routine block once")
  func concurrentPlanning() throws {
    let scratch = Scratch()
    let path = scratch.path()
    do {
      let setup = try AppDatabase.open(path: path)
      for name in ["algorithm", "commit", "english"] {
        _ = try setup.setRoutine(named: name, true, now: fixedNow)
      }
    }
    let failures = Locked<[String]>([])
    let today = self.today
    runOnThreads(8) { thread in
      do {
        let database = try AppDatabase.open(path: path, routineDay: today)
        if thread.isMultiple(of: 2) {
          _ = try database.planDueRoutine(on: today, now: fixedNow)
        } else {
          try database.addTodo(try draft("t\(thread)", on: "2026-11-23"), now: fixedNow)
        }
      } catch {
        failures.withLock { $0.append("\(thread): \(error)") }
      }
    }
    #expect(failures.withLock { $0 } == [])
    let todos = try allTodos(try AppDatabase.open(path: path))
    #expect(todos.compactMap(\.block).sorted() == ["algorithm", "commit", "english"])
    #expect(todos.count == 3 + 4)
  }

  @Test("a routine on some weekdays or every N days is planned only on its days")
  func recurrence() throws {
    let database = try AppDatabase.inMemory()
    _ = try database.setRoutine(named: "blog", true, recurrence: .weekdays([.monday, .wednesday]), now: fixedNow)
    _ = try database.setRoutine(named: "english", true, recurrence: .every(days: 2, from: today), now: fixedNow)
    var planned: [String: [String]] = [:]
    for offset in 0..<4 {
      let day = today.adding(days: offset)
      planned[day.description] = try database.planRoutine(on: day, now: fixedNow).compactMap(\.block)
    }
    #expect(planned == [
      "2026-11-23": ["blog", "english"], "2026-11-24": [], "2026-11-25": ["blog", "english"],
      "2026-11-26": [],
    ])
    let blog = try database.block(named: "blog")
    #expect(blog.recurrence == .weekdays([.monday, .wednesday]))
    // Undo of setting the routine restores the block's days
    _ = try database.setRoutine(named: "blog", true, now: fixedNow)
    #expect(try database.block(named: "blog").recurrence == .daily)
    _ = try database.undo(now: fixedNow)
    #expect(try database.block(named: "blog").recurrence == .weekdays([.monday, .wednesday]))
  }

  @Test("reopening a dropped todo takes it back up")
  func undoneDropped() throws {
    let database = try AppDatabase.inMemory()
    let todo = try database.addTodo(try draft("x", on: "2026-11-20"), now: fixedNow)
    _ = try database.dropTodos(ids: [todo.id], now: fixedNow)
    let result = try database.setDoneTellingUnchanged(ids: [todo.id], done: false, now: fixedNow)
    #expect(result.unchanged.isEmpty)
    #expect(result.todos[0].isDropped == false)
    #expect(result.todos[0].isOverdue(today: today))
    // An open todo is kept as it is
    #expect(try database.setDoneTellingUnchanged(ids: [todo.id], done: false, now: fixedNow).unchanged == [todo.id])
  }
}
