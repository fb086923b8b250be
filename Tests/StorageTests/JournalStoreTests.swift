import Core
import Foundation
import GRDB
import Storage
import TestTags
import Testing

@Suite("The change journal in storage")
struct JournalStoreTests {
  @Test("an in-memory database journals, undoes and redoes like a file")
  func inMemory() throws {
    // Given
    let database = try AppDatabase.inMemory(command: "add x")
    let added = try database.addTodo(try draft("x"), now: fixedNow)
    // When / Then
    #expect(try database.journal(limit: 10).map(\.command) == ["add x"])
    let undone = try database.undo(now: fixedNow)
    #expect(undone.entry.isUndone && undone.effect == "deleted 1 todo ('x')")
    #expect(try allTodos(database).isEmpty)
    _ = try database.redo(now: fixedNow)
    #expect(try allTodos(database) == [added])
  }

  @Test("each operation records the row's uuid, a clock that never goes back and the device")
  func operationsCarryClockAndDevice() throws {
    let scratch = Scratch()
    let database = try AppDatabase.open(path: scratch.path(), command: "done 1")
    let todo = try database.addTodo(try draft("x"), now: fixedNow)
    // An earlier wall clock (a machine whose time went back) still gets a later clock value.
    _ = try database.setDone(ids: [todo.id], done: true, now: fixedNow.addingTimeInterval(-3600))
    let rows = try withRawDatabase(scratch.path()) {
      try Row.fetchAll($0, sql: "SELECT row, action, field, clock, device FROM journalOperation ORDER BY id")
    }
    // The tick sets done, doneAt and doneBy ("manual").
    #expect(rows.map { $0["row"] as String } == Array(repeating: todo.uuid, count: 4))
    #expect(rows.map { $0["action"] as String } == ["create", "update", "update", "update"])
    let clocks = rows.map { $0["clock"] as Int64 }
    #expect(clocks == clocks.sorted() && Set(clocks).count == clocks.count)
    #expect(clocks[0] == HybridClock.value(milliseconds: Int64(fixedNow.timeIntervalSince1970 * 1000)))
    let devices = Set(rows.map { $0["device"] as String })
    #expect(devices.count == 1 && RowID.isValid(devices.first!))
  }

  /// Issue 24, session 18: each machine undoes only its own changes; another device's later
  /// change of a field leaves that field as it set it, and the rest of the change is undone.
  @Test("a field another device changed since is left as it set it, the rest undone; redo re-applies only that; the change counts as undone")
  func otherDeviceFieldLeft() throws {
    // Given a local retitle and reprioritising, then another device's retitle of the same todo
    let database = try AppDatabase.inMemory(command: "edit 1 --title B -p high")
    let todo = try database.addTodo(try draft("A"), now: fixedNow)
    _ = try database.editTodo(
      id: todo.id, try TodoChanges(title: "B", priority: .high), today: fixedToday, now: fixedNow)
    try database.applyChange(
      [JournalOperation(.todo, row: todo.uuid, .update(field: "title", old: .text("B"), new: .text("C")))],
      fromDevice: "00000000-0000-4000-8000-000000000000", command: "edit 1 --title C", now: fixedNow)
    // When undone
    let step = try database.undo(now: fixedNow)
    // Then the priority is back, the title the other device's, and the step says so
    #expect(step.entry.id == 2 && step.entry.isUndone)
    #expect(try allTodos(database).map { "\($0.title) \($0.priority)" } == ["C \(todo.priority)"])
    #expect(step.leftLines == ["Left the title of #1 'C' as another device set it"])
    #expect(!step.effect.contains("retitled") && step.effect.contains("priority"), "\(step.effect)")
    #expect(try database.journal(limit: 1).first?.summary
      == "Undid 'edit 1 --title B -p high': \(step.effect); left the title of #1 'C' as another device set it")
    // Redo re-applies what was undone, only that
    _ = try database.redo(now: fixedNow)
    #expect(try allTodos(database).map { "\($0.title) \($0.priority)" } == ["C high"])
    _ = try database.undo(now: fixedNow)
    // And the next undo goes to the earlier change: the add, which keeps the todo the other
    // device worked on (nothing of it left to undo, nothing older)
    let add = try database.undo(now: fixedNow)
    #expect(add.entry.id == 1 && add.effect == "nothing left to undo")
    #expect(add.leftLines == ["Kept #1 'C': another device has changed it since (deleting it would lose that)"])
    #expect(try allTodos(database).map(\.title) == ["C"])
    #expect(throws: StorageError.nothingToUndo) { try database.undo(now: fixedNow) }
  }

  @Test("a change of which nothing is left to undo is passed over, in one line, to the change before it")
  func nothingLeftPassedOver() throws {
    // Given another device's todo, a local add, a local retitle of that todo, then the other
    // device's retitle of it
    let device = "00000000-0000-4000-8000-000000000000"
    let database = try AppDatabase.inMemory(command: "edit 1 --title B")
    let theirs = RowID.random()
    try database.applyChange(
      [JournalOperation(.todo, row: theirs, .create(.todo([
        .title: .text("A"), .priority: .integer(1), .day: .text("2026-11-22"), .done: .integer(0),
        .createdAt: .text("2026-11-22 09:00:00.000"),
      ])))], fromDevice: device, command: "add A", now: fixedNow)
    _ = try database.addTodo(try draft("mine"), now: fixedNow)
    let number = try #require(try allTodos(database).first { $0.uuid == theirs }?.id)
    _ = try database.editTodo(id: number, try TodoChanges(title: "B"), today: fixedToday, now: fixedNow)
    try database.applyChange(
      [JournalOperation(.todo, row: theirs, .update(field: "title", old: .text("B"), new: .text("C")))],
      fromDevice: device, command: "edit 1 --title C", now: fixedNow)
    // When undone
    let step = try database.undo(now: fixedNow)
    // Then the retitle is passed over (undone, nothing changed) and the add undone
    #expect(step.entry.id == 2 && step.effect == "deleted 1 todo ('mine')" && step.passedOver.map(\.id) == [3])
    #expect(step.leftLines == [
      "Passed over 'edit 1 --title B' (change 3): nothing left to undo",
      "Left the title of #\(number) 'C' as another device set it",
    ])
    #expect(try allTodos(database).map(\.title) == ["C"])
    #expect(try database.journal(limit: 10).filter { $0.kind == .change && $0.fromDevice == nil }.allSatisfy(\.isUndone))
  }

  @Test("undo of an import after another device changed one of its todos: the others go, that one is kept, and so is the project it is in")
  func importKeepsWorkedOnTodo() throws {
    // Given an import of two todos in a new project, then another device's retitle of the second
    let database = try AppDatabase.inMemory(command: "import todotxt a.txt")
    let plan = ImportPlan(todos: try ["a1", "b2"].enumerated().map { index, title in
      try ImportedTodo(
        uuid: "c0000000-0000-4000-8000-00000000000\(index)", title: title, priority: .mid, day: fixedToday,
        project: "work")
    })
    _ = try database.importTodos(plan, today: fixedToday, now: fixedNow)
    let kept = try #require(try allTodos(database).first { $0.title == "b2" })
    try database.applyChange(
      [JournalOperation(.todo, row: kept.uuid, .update(field: "title", old: .text("b2"), new: .text("B2")))],
      fromDevice: "00000000-0000-4000-8000-000000000000", command: "edit 2 --title B2", now: fixedNow)
    // When undone
    let step = try database.undo(now: fixedNow)
    // Then the other todo is gone; the worked-on one stays, in its project, and both are said
    #expect(step.entry.isUndone && step.effect.contains("deleted 1 todo"), "\(step.effect)")
    #expect(try allTodos(database).map { "\($0.title) \($0.project ?? "-")" } == ["B2 work"])
    #expect(try database.projects(.all).map(\.project.name) == ["work"])
    #expect(step.leftLines == [
      "Kept #\(kept.id) 'B2': another device has changed it since (deleting it would lose that)",
      "Kept project 'work': #\(kept.id) 'B2', kept, is in it",
    ])
  }

  @Test("past a change passed over, an older change refused is not undone: the undo is of the one passed over, and the next undo says the refusal")
  func passedOverThenRefused() throws {
    // Given another device's todo, a local add, a local retitle of that todo, the other
    // device's retitle of it, and the local todo's title changed by hand (outside the journal)
    let device = "00000000-0000-4000-8000-000000000000"
    let scratch = Scratch()
    let database = try AppDatabase.open(path: scratch.path(), command: "edit 1 --title B")
    let theirs = RowID.random()
    try database.applyChange(
      [JournalOperation(.todo, row: theirs, .create(.todo([
        .title: .text("A"), .priority: .integer(1), .day: .text("2026-11-22"), .done: .integer(0),
        .createdAt: .text("2026-11-22 09:00:00.000"),
      ])))], fromDevice: device, command: "add A", now: fixedNow)
    let mine = try database.addTodo(try draft("mine"), now: fixedNow)
    let number = try #require(try allTodos(database).first { $0.uuid == theirs }?.id)
    _ = try database.editTodo(id: number, try TodoChanges(title: "B"), today: fixedToday, now: fixedNow)
    try database.applyChange(
      [JournalOperation(.todo, row: theirs, .update(field: "title", old: .text("B"), new: .text("C")))],
      fromDevice: device, command: "edit 1 --title C", now: fixedNow)
    try withRawDatabase(scratch.path()) { try $0.execute(sql: "UPDATE todo SET title = 'hand' WHERE id = \(mine.id)") }
    // When undone: the retitle is passed over, the add refused: the step is the retitle's
    let step = try database.undo(now: fixedNow)
    #expect(step.entry.id == 3 && step.entry.isUndone && step.effect == "nothing left to undo")
    #expect(step.leftLines == ["Left the title of #\(number) 'C' as another device set it"])
    #expect(try allTodos(database).map(\.title).sorted() == ["C", "hand"])
    // Then the next undo says the refusal, changing nothing
    #expect(throws: StorageError.journalConflict(
      "cannot undo 'edit 1 --title B' (change 2): the title of todo 'hand' has been changed since, "
        + "outside ootd's journal; nothing was changed")) {
      try database.undo(now: fixedNow)
    }
    #expect(try allTodos(database).map(\.title).sorted() == ["C", "hand"])
  }

  @Test("a field changed since outside the journal still stops undo, which changes nothing")
  func outsideJournalRefuses() throws {
    // Given a local retitle, then the title changed by hand (no journal entry)
    let scratch = Scratch()
    let database = try AppDatabase.open(path: scratch.path(), command: "edit 1 --title B")
    let todo = try database.addTodo(try draft("A"), now: fixedNow)
    _ = try database.editTodo(id: todo.id, try TodoChanges(title: "B"), today: fixedToday, now: fixedNow)
    try withRawDatabase(scratch.path()) { try $0.execute(sql: "UPDATE todo SET title = 'C'") }
    let before = try dump(scratch.path())
    // When / Then
    #expect(throws: StorageError.journalConflict(
      "cannot undo 'edit 1 --title B' (change 2): the title of todo 'C' has been changed since, "
        + "outside ootd's journal; nothing was changed")) {
      try database.undo(now: fixedNow)
    }
    #expect(try dump(scratch.path()) == before)
  }

  @Test("undo and redo of a change longer than a read batch apply every operation and say so", .tags(.slow))
  func stepsOverManyBatches() throws {
    // Given 1,500 todos on three past days, carried in one change of 3,000 operations
    let scratch = Scratch()
    let database = try AppDatabase.open(path: scratch.path(), command: "carry")
    let days = ["2026-11-01", "2026-11-02", "2026-11-03"]
    try database.addTodos(
      try (0..<1500).map { (try draft("t\($0)", on: days[$0 % 3]), false) }, now: fixedNow)
    let before = try allTodos(database)
    let moved = try database.carryOver(today: day("2026-11-22"), to: day("2026-11-22"), now: fixedNow).moved
    #expect(moved.count == 1500)
    // When undone: every todo is back on its day, and the line counts them by day
    let undone = try database.undo(now: fixedNow)
    #expect(try allTodos(database) == before)
    #expect(undone.effect == "500 todos moved to 2026-11-01 ('t0', 't3', 't6' and 497 more); "
      + "500 todos moved to 2026-11-02 ('t1', 't4', 't7' and 497 more); "
      + "500 todos moved to 2026-11-03 ('t2', 't5', 't8' and 497 more)")
    // And redone: every one on the 22nd again
    let redone = try database.redo(now: fixedNow)
    #expect(try allTodos(database).allSatisfy { $0.day == day("2026-11-22") })
    #expect(redone.effect == "1500 todos moved to 2026-11-22 ('t0', 't3', 't6' and 1497 more)")
    #expect(try database.journal(limit: 1).first?.summary == "Redid 'carry': " + redone.effect)
  }

  @Test("another device's changes are not undone from here; this device's are")
  func undoOnlyLocal() throws {
    let database = try AppDatabase.inMemory(command: "add mine")
    _ = try database.addTodo(try draft("mine"), now: fixedNow)
    try database.applyChange(
      [JournalOperation(.todo, row: RowID.random(), .create([
        "title": .text("theirs"), "priority": .integer(1), "day": .text("2026-11-22"),
        "done": .integer(0), "doneAt": .null, "project": .null, "block": .null,
        "createdAt": .text("2026-11-22 09:00:00.000"),
      ]))], fromDevice: "00000000-0000-4000-8000-000000000000", command: "add theirs", now: fixedNow)
    #expect(try allTodos(database).map(\.title) == ["mine", "theirs"])
    let step = try database.undo(now: fixedNow)
    #expect(step.entry.command == "add mine")
    #expect(try allTodos(database).map(\.title) == ["theirs"])
    #expect(throws: StorageError.nothingToUndo) { try database.undo(now: fixedNow) }
  }

  @Test("undo restores a deleted todo with its id, times, project and block, and a project with its links")
  func restoresEverything() throws {
    let database = try AppDatabase.inMemory()
    try database.addProject(try Project(name: "ootd", repository: RepositoryName("octo/ootd")), now: fixedNow)
    let todo = try database.addTodo(try draft("x", .high, project: "ootd", block: "algorithm"), now: fixedNow)
    let done = try database.setDone(ids: [todo.id], done: true, now: fixedNow.addingTimeInterval(60))[0]
    let projects = try database.projects(.all)
    try database.removeProject(named: "ootd", now: fixedNow)
    try database.deleteTodos(ids: [todo.id], now: fixedNow)
    _ = try database.undo(now: fixedNow)
    var restored = Todo(
      id: done.id, title: "x", priority: .high, day: done.day, isDone: true, doneAt: done.doneAt,
      project: nil, block: "algorithm", createdAt: done.createdAt, uuid: done.uuid)
    restored.doneBy = .manual
    #expect(try allTodos(database) == [restored])
    _ = try database.undo(now: fixedNow)
    #expect(try allTodos(database) == [done])
    #expect(try database.projects(.all) == projects)
  }

  @Test("the journal keeps at least the last 1,000 changes and prunes older ones", .tags(.slow))
  func depth() throws {
    let database = try AppDatabase.inMemory(command: "add")
    for index in 0..<2_700 { _ = try database.addTodo(try draft("t\(index)"), now: fixedNow) }
    let entries = try database.journal(limit: 10_000)
    #expect(entries.count >= 1_000 && entries.count < 2_700)
    for _ in 0..<1_000 { _ = try database.undo(now: fixedNow) }
    #expect(try allTodos(database).count == 1_700)
  }

  @Test("GitHub data and settings are not journaled and never touched by undo")
  func gitHubUntouched() throws {
    let database = try AppDatabase.inMemory()
    _ = try database.addTodo(try draft("x"), now: fixedNow)
    try database.settings.setGitHubSetting(.login, to: "octocat")
    let step = try database.undo(now: fixedNow)
    #expect(step.entry.command == "")
    #expect(try database.settings.gitHubSetting(.login) == "octocat")
    #expect(throws: StorageError.nothingToUndo) { try database.undo(now: fixedNow) }
    #expect(try database.journal(limit: 10).count == 2)
  }

  @Test("a command that changes nothing records nothing")
  func noOpRecordsNothing() throws {
    let database = try AppDatabase.inMemory()
    let todo = try database.addTodo(try draft("x"), now: fixedNow)
    _ = try database.setDone(ids: [todo.id], done: false, now: fixedNow)
    _ = try database.planRoutine(on: day("2026-11-22"), now: fixedNow)
    #expect(try database.journal(limit: 10).count == 1)
  }
}

@Suite("The change journal: pruning and corrupt entries")
struct JournalPruningTests {
  @Test("pruning that reaches an undone change ends what can be redone instead of redoing out of order", .tags(.slow))
  func pruningEndsRedo() throws {
    // Given 1,300 changes, all undone: the 1,300th undo is entry 2,600, which prunes entries
    // 1-100, among them the oldest undone changes that redo would have to replay first
    let database = try AppDatabase.inMemory(command: "add")
    for index in 0..<1_300 { _ = try database.addTodo(try draft("t\(index)"), now: fixedNow) }
    for _ in 0..<1_300 { _ = try database.undo(now: fixedNow) }
    // When / Then redo refuses rather than replaying change 101 before changes 1-100
    #expect(throws: StorageError.nothingToRedo) { try database.redo(now: fixedNow) }
    #expect(try allTodos(database).isEmpty)
  }

  @Test("a journal entry naming an unknown field is a one-line error, never SQL or a crash")
  func corruptField() throws {
    let scratch = Scratch()
    let database = try AppDatabase.open(path: scratch.path(), command: "add x")
    _ = try database.addTodo(try draft("x"), now: fixedNow)
    _ = try database.undo(now: fixedNow)
    // Redo takes back what the undo did: its deletion (operation 2) is what it reads.
    try withRawDatabase(scratch.path()) { db in
      try db.execute(sql: """
        UPDATE journalOperation SET oldValue = replace(oldValue, '"title"', '"title) VALUES (1); --"')
        WHERE action = 'delete'
        """)
    }
    #expect(throws: StorageError.sqlite("corrupt journal operation 2")) { try database.redo(now: fixedNow) }
    #expect(try allTodos(database).isEmpty)
  }

  /// Issue 21, item 16: a journal value no row may hold made undo print SQLite's raw
  /// "CHECK constraint failed"; it is the corrupt-journal line, and nothing changes.
  @Test("a journal entry holding a value the table refuses is the corrupt-journal line, not SQLite's")
  func corruptValue() throws {
    for (field, value) in [("priority", "7"), ("title", "' '"), ("title", "NULL")] {
      let scratch = Scratch()
      let database = try AppDatabase.open(path: scratch.path(), command: "edit")
      let todo = try database.addTodo(try draft("x"), now: fixedNow)
      _ = try database.editTodo(id: todo.id, try TodoChanges(title: "y", priority: .high), today: fixedToday, now: fixedNow)
      let operation = try withRawDatabase(scratch.path()) { db in
        try db.execute(sql: "UPDATE journalOperation SET oldValue = \(value) WHERE field = '\(field)'")
        return try Int64.fetchOne(db, sql: "SELECT id FROM journalOperation WHERE field = '\(field)'")
      }
      let id = try #require(operation)
      #expect(throws: StorageError.sqlite("corrupt journal operation \(id)"), "\(field) = \(value)") {
        try database.undo(now: fixedNow)
      }
      let todos = try allTodos(database)
      #expect(todos.map(\.title) == ["y"] && todos.map(\.priority) == [.high], "\(field) = \(value)")
    }
  }
}
