import Core
import Foundation
import Storage
import Testing

/// Review 20 of e6d6faf/8e96dd3 (the same todos made on two machines): scenarios around a first
/// sync whose rows other machines made too (one todo.txt imported on several machines, name-based
/// uuids), on the fake server. Each test states what it expects and why.
/// (An extension of ``SyncMadeOnBothTests``: its todo.txt plan and lookups.)
extension SyncMadeOnBothTests {
  func number(_ database: AppDatabase, _ uuid: String) throws -> Int64 {
    try #require(try todo(database, uuid)).id
  }

  /// Every field a user sees of every todo (``shapes(_:)`` leaves out notes, tags, numbers).
  func rows(_ database: AppDatabase) throws -> Set<String> {
    Set(
      try allTodos(database).map {
        "\($0.uuid) #\($0.id) \($0.title) done=\($0.isDone) dropped=\($0.isDropped) day=\($0.day.map { "\($0)" } ?? "-") "
          + "prio=\($0.priority) notes=\($0.notes ?? "-") tags=\($0.tags.sorted())"
      })
  }

  // MARK: - Edits lost

  @Test("three machines: an edit made on the second first-syncing machine after the first one's is kept on all three")
  func thirdMachineLaterEditKept() throws {
    let server = FakeSyncServer()
    let (a, b, c) = (try AppDatabase.inMemory(), try AppDatabase.inMemory(), try AppDatabase.inMemory())
    _ = try a.importTodos(try plan(1), today: fixedToday, now: fixedNow)
    try server.sync(a, now: fixedNow + 10)
    // B and C import the same file, neither syncing yet; B retitles it, then C, later.
    _ = try b.importTodos(try plan(1), today: fixedToday, now: fixedNow + 20)
    _ = try b.editTodo(id: try number(b, Self.uuids[0]), try TodoChanges(title: "B's title"), today: fixedToday, now: fixedNow + 25)
    _ = try c.importTodos(try plan(1), today: fixedToday, now: fixedNow + 30)
    _ = try c.editTodo(id: try number(c, Self.uuids[0]), try TodoChanges(title: "C's later title"), today: fixedToday, now: fixedNow + 35)

    let bFirst = try server.sync(b, now: fixedNow + 50)
    let cFirst = try server.sync(c, now: fixedNow + 60)
    for (machine, at) in [(a, 70.0), (b, 80), (c, 90), (a, 100)] { try server.sync(machine, now: fixedNow + at) }
    // Last writer wins: C's title is the later edit (made at +35, B's at +25). B's first sync
    // pushed its row at its floor (+50), which beat C's edit, made before it: C's title was
    // lost on every machine, and no sync said so.
    // Known limit (docs/decisions/first-sync.md): a first sync pushes its rows at its floor, so
    // an edit made before it on a machine that syncs later loses to the row pushed, said there.
    for machine in [a, b, c] {
      withKnownIssue("the first first sync's floor outranks the second's earlier edits") { () throws -> Void in
        #expect(try todo(machine, Self.uuids[0])?.title == "C's later title")
      }
    }
    #expect(try rows(a) == rows(b))
    #expect(try rows(b) == rows(c))
    // Whichever title stays, the one that lost was a change its machine had not pushed: that
    // machine's first sync says so, once.
    let titles = (bFirst.conflicts + cFirst.conflicts).filter { $0.conflict.field == TodoField.title.rawValue }
    #expect(titles.count == 1)
  }

  @Test("a tag added on the syncing machine and another on the new machine before its first sync: both stay (tags merge tag by tag)")
  func tagsAddedOnBothBeforeTheFirstSync() throws {
    let server = FakeSyncServer()
    let (a, b) = (try AppDatabase.inMemory(), try AppDatabase.inMemory())
    _ = try a.importTodos(try plan(1), today: fixedToday, now: fixedNow)
    try server.sync(a, now: fixedNow + 10)
    _ = try b.importTodos(try plan(1), today: fixedToday, now: fixedNow + 20)
    // A tags it 'home', then B (not syncing yet) tags it 'work'.
    _ = try a.editTodo(id: try number(a, Self.uuids[0]), try TodoChanges(addTags: ["home"]), today: fixedToday, now: fixedNow + 30)
    try server.sync(a, now: fixedNow + 40)
    _ = try b.editTodo(id: try number(b, Self.uuids[0]), try TodoChanges(addTags: ["work"]), today: fixedToday, now: fixedNow + 45)
    try server.sync(b, now: fixedNow + 50)
    try server.sync(a, now: fixedNow + 60)
    // Two tags added on two machines are no conflict (SyncMerge.mergeTags): both stay, as they
    // would had B synced before tagging. B's pre-sync tags count as one whole value, later than
    // A's 'home', which was dropped everywhere without a word.
    for machine in [a, b] {
      #expect(try todo(machine, Self.uuids[0])?.tags.sorted() == ["home", "work"])
    }
    #expect(try rows(a) == rows(b))
  }

  @Test("a later edit the first machine had not pushed yet when the second made its first sync is kept, or said lost")
  func unpushedLaterEditOfTheFirstMachine() throws {
    let server = FakeSyncServer()
    let (a, b) = (try AppDatabase.inMemory(), try AppDatabase.inMemory())
    _ = try a.importTodos(try plan(1), today: fixedToday, now: fixedNow)
    try server.sync(a, now: fixedNow + 10)
    _ = try b.importTodos(try plan(1), today: fixedToday, now: fixedNow + 20)
    _ = try b.editTodo(id: try number(b, Self.uuids[0]), try TodoChanges(title: "B's title"), today: fixedToday, now: fixedNow + 25)
    // A retitles it later than B did, and syncs only after B's first sync.
    _ = try a.editTodo(id: try number(a, Self.uuids[0]), try TodoChanges(title: "A's later title"), today: fixedToday, now: fixedNow + 30)
    let first = try server.sync(b, now: fixedNow + 40)
    let aSync = try server.sync(a, now: fixedNow + 50)
    let bSync = try server.sync(b, now: fixedNow + 60)
    #expect(try rows(a) == rows(b))
    // Had B's first sync come after A's, A's title would stay (SyncMadeOnBothTests); here B's
    // row, pushed at B's floor (+40), replaced A's later title on A, and no sync said so.
    let lines = (first.conflicts + aSync.conflicts + bSync.conflicts).filter { $0.conflict.field == TodoField.title.rawValue }
    let title = try todo(a, Self.uuids[0])?.title
    #expect(title == "A's later title" || lines.count == 1, "title: \(title ?? "-"), lines: \(lines.count)")
  }

  // MARK: - Conflicts said wrongly

  @Test("a todo deleted on one machine and imported and edited on the other: no line says it stays deleted while it stays")
  func deletedThereEditedHereIsNotSaidDeleted() throws {
    let server = FakeSyncServer()
    let (a, b) = (try AppDatabase.inMemory(), try AppDatabase.inMemory())
    _ = try a.importTodos(try plan(1), today: fixedToday, now: fixedNow)
    try server.sync(a, now: fixedNow + 10)
    _ = try a.deleteTodos(ids: [try number(a, Self.uuids[0])], now: fixedNow + 15)
    try server.sync(a, now: fixedNow + 20)
    // B imports the file and retitles the todo, then makes its first sync.
    _ = try b.importTodos(try plan(1), today: fixedToday, now: fixedNow + 30)
    _ = try b.editTodo(id: try number(b, Self.uuids[0]), try TodoChanges(title: "B's title"), today: fixedToday, now: fixedNow + 35)
    let first = try server.sync(b, now: fixedNow + 50)
    try server.sync(a, now: fixedNow + 60)
    // The first sync's row beats the deletion (known: it comes back everywhere).
    let alive = try todo(b, Self.uuids[0]) != nil
    #expect(alive)
    #expect(try rows(a) == rows(b))
    // Then no line may say "deleted on one machine, edited on another; it stays deleted":
    // 8e96dd3 made B's pre-sync title a pending change, and the deletion reported it.
    let deleted = first.conflicts.filter { $0.conflict.kind == .editOfDeleted }
    #expect(!alive || deleted.isEmpty, "said: \(deleted.map(\.conflict))")
  }

  // MARK: - Another machine's changes taken for this machine's own

  /// A machine that imported the file's first `count` todos at `imported` and began its first
  /// sync at `began`, its device id above `device` (drawn again until it is: device ids are
  /// random, and which of two stamps of one clock is the later is decided by them; with its id
  /// below, the faults below do not show).
  func machine(above device: String, importing count: Int, at imported: Date, beginning began: Date) throws -> AppDatabase {
    while true {
      let machine = try AppDatabase.inMemory()
      _ = try machine.importTodos(try plan(count), today: fixedToday, now: imported)
      if try machine.sync.beginSync(fileIdentity: nil, now: began) > device { return machine }
    }
  }

  @Test("a first sync does not report as a conflict two edits another machine made one after the other")
  func otherMachinesEditsAreNotPending() throws {
    let server = FakeSyncServer()
    let (a, c) = (try AppDatabase.inMemory(), try AppDatabase.inMemory())
    _ = try a.importTodos(try plan(1), today: fixedToday, now: fixedNow)
    try server.sync(a, now: fixedNow + 10)
    try server.sync(c, now: fixedNow + 11)
    // A retitles the todo; C, having pulled that, retitles it again: no conflict anywhere.
    _ = try a.editTodo(id: try number(a, Self.uuids[0]), try TodoChanges(title: "A's title"), today: fixedToday, now: fixedNow + 30)
    try server.sync(a, now: fixedNow + 31)
    try server.sync(c, now: fixedNow + 35)
    _ = try c.editTodo(id: try number(c, Self.uuids[0]), try TodoChanges(title: "C's title"), today: fixedToday, now: fixedNow + 40)
    try server.sync(c, now: fixedNow + 41)
    // B imported the file before both edits and never touched the todo.
    let b = try machine(above: try a.sync.syncStatus().device, importing: 1, at: fixedNow + 20, beginning: fixedNow + 50)
    let first = try server.sync(b, now: fixedNow + 50)
    #expect(try todo(b, Self.uuids[0])?.title == "C's title")
    // A's title, applied here by the pull, is in B's journal (a remote entry at A's clock):
    // journalStamps stamps it as B's own edit (B's device id, that clock), which beats A's
    // stamp of the same clock when B's id sorts after A's, and is 'not pushed yet': C's later
    // title was said to override it ("title changed on two machines; kept 'C's title', over
    // 'A's title"), a conflict neither machine had.
    #expect(first.conflicts.isEmpty, "said: \(first.conflicts.map(\.conflict))")
  }

  @Test("a todo another machine moved and then dropped stays dropped after a first sync")
  func otherMachinesMoveThenDropStaysDropped() throws {
    let server = FakeSyncServer()
    let a = try AppDatabase.inMemory()
    _ = try a.importTodos(try plan(1), today: fixedToday, now: fixedNow)
    try server.sync(a, now: fixedNow + 10)
    // A moves the todo to tomorrow, syncs, then drops it (seeing its own move), and syncs.
    _ = try a.editTodo(
      id: try number(a, Self.uuids[0]), try TodoChanges(day: .day(fixedToday.adding(days: 1))), today: fixedToday,
      now: fixedNow + 30)
    try server.sync(a, now: fixedNow + 31)
    _ = try a.dropTodos(ids: [try number(a, Self.uuids[0])], now: fixedNow + 35)
    try server.sync(a, now: fixedNow + 36)
    // B imported the file before, never touched the todo; its first sync pulls both.
    let b = try machine(above: try a.sync.syncStatus().device, importing: 1, at: fixedNow + 20, beginning: fixedNow + 50)
    try server.sync(b, now: fixedNow + 50)
    try server.sync(a, now: fixedNow + 60)
    // A's move, applied on B by the pull, was taken for B's own unpushed move (journalStamps),
    // so A's drop 'met a move made without seeing it' (TodoRules.movedUnseen): B un-dropped
    // the todo as its own fix, and pushed that to A.
    #expect(try todo(b, Self.uuids[0])?.isDropped == true)
    #expect(try todo(a, Self.uuids[0])?.isDropped == true)
    #expect(try rows(a) == rows(b))
  }

  // MARK: - Undo

  @Test("undoing an import of a todo another machine had deleted deletes it again: nothing was made there too")
  func undoOfAnImportOfATodoDeletedElsewhere() throws {
    let server = FakeSyncServer()
    let (a, b) = (try AppDatabase.inMemory(), try AppDatabase.inMemory())
    _ = try a.importTodos(try plan(1), today: fixedToday, now: fixedNow)
    try server.sync(a, now: fixedNow + 10)
    _ = try a.deleteTodos(ids: [try number(a, Self.uuids[0])], now: fixedNow + 15)
    try server.sync(a, now: fixedNow + 20)
    // B imports the file after A deleted the todo, then makes its first sync: the todo comes
    // back everywhere (known), as B's import made it.
    _ = try b.importTodos(try plan(1), today: fixedToday, now: fixedNow + 30)
    try server.sync(b, now: fixedNow + 40)
    try server.sync(a, now: fixedNow + 45)
    #expect(try todo(a, Self.uuids[0]) != nil)
    // Undoing the import on B is the user's way back to A's deletion. The '@made' mark that A's
    // creation left (it met B's row alive, before A's deletion was pulled) keeps the todo:
    // "Kept … : A made it too (undoing it here would delete it there)", which A had deleted.
    let step = try b.undo(today: fixedToday, now: fixedNow + 50)
    #expect(step.left.map(\.kind) == [], "left: \(step.left.map(\.line))")
    try server.sync(b, now: fixedNow + 60)
    try server.sync(a, now: fixedNow + 70)
    #expect(try todo(b, Self.uuids[0]) == nil)
    #expect(try todo(a, Self.uuids[0]) == nil)
  }

  // MARK: - Convergence

  @Test("a first sync stopped between its pages, other machines' edits synced meanwhile, then resumed: every machine the same")
  func stoppedFirstSyncResumedConverges() throws {
    let server = FakeSyncServer()
    let (a, b) = (try AppDatabase.inMemory(), try AppDatabase.inMemory())
    _ = try a.importTodos(try plan(3), today: fixedToday, now: fixedNow)
    try server.sync(a, now: fixedNow + 10)
    _ = try b.importTodos(try plan(3), today: fixedToday, now: fixedNow + 20)
    _ = try b.editTodo(id: try number(b, Self.uuids[2]), try TodoChanges(notes: "B's note"), today: fixedToday, now: fixedNow + 25)
    // A notes task 1 and task 3 before B's first sync, but syncs them only after B's pull.
    _ = try a.editTodo(id: try number(a, Self.uuids[0]), try TodoChanges(notes: "A's early note 1"), today: fixedToday, now: fixedNow + 30)
    _ = try a.editTodo(id: try number(a, Self.uuids[1]), try TodoChanges(notes: "A's early note 2"), today: fixedToday, now: fixedNow + 31)
    // B begins: pulls, pushes its rows through task 1, and stops.
    try server.pullAll(b, now: fixedNow + 40)
    while let page = try b.sync.pushPage(maxOperations: 1) {
      server.push(page.records)
      try b.sync.markPushed(page)
      if page.snapshotThrough == "todo \(Self.uuids[0])" { break }
    }
    // A syncs its early notes, then edits all three after B's floor, and syncs again.
    try server.sync(a, now: fixedNow + 45)
    _ = try a.setDone(ids: [try number(a, Self.uuids[0])], done: true, now: fixedNow + 50)
    _ = try a.editTodo(id: try number(a, Self.uuids[1]), try TodoChanges(title: "A's title 2"), today: fixedToday, now: fixedNow + 51)
    _ = try a.editTodo(id: try number(a, Self.uuids[2]), try TodoChanges(title: "A's title 3"), today: fixedToday, now: fixedNow + 52)
    try server.sync(a, now: fixedNow + 55)
    // B resumes, then everyone syncs; a third machine joins.
    for (machine, at) in [(b, 60.0), (a, 70), (b, 80)] { try server.sync(machine, now: fixedNow + at) }
    let c = try AppDatabase.inMemory()
    try server.sync(c, now: fixedNow + 90)
    #expect(try rows(a) == rows(b))
    #expect(try rows(c) == rows(a))
    // A's edits after B's floor win on every row, pushed or not.
    #expect(try todo(b, Self.uuids[0])?.isDone == true)
    #expect(try todo(b, Self.uuids[1])?.title == "A's title 2")
    #expect(try todo(b, Self.uuids[2])?.title == "A's title 3")
    #expect(try todo(b, Self.uuids[2])?.notes == "B's note")
  }

  @Test("a first sync stopped between its pages: an edit made before its floor and synced meanwhile is kept on the rows pushed as on those not")
  func stoppedFirstSyncKeepsEarlierEditsAlike() throws {
    let server = FakeSyncServer()
    let (a, b) = (try AppDatabase.inMemory(), try AppDatabase.inMemory())
    _ = try a.importTodos(try plan(2), today: fixedToday, now: fixedNow)
    try server.sync(a, now: fixedNow + 10)
    _ = try b.importTodos(try plan(2), today: fixedToday, now: fixedNow + 20)
    // A notes both todos after B's import (later edits, which e6d6faf means to keep), and
    // syncs them only once B's first sync has pulled and pushed its rows through task 1.
    _ = try a.editTodo(id: try number(a, Self.uuids[0]), try TodoChanges(notes: "A's note 1"), today: fixedToday, now: fixedNow + 30)
    _ = try a.editTodo(id: try number(a, Self.uuids[1]), try TodoChanges(notes: "A's note 2"), today: fixedToday, now: fixedNow + 31)
    try server.pullAll(b, now: fixedNow + 40)
    while let page = try b.sync.pushPage(maxOperations: 1) {
      server.push(page.records)
      try b.sync.markPushed(page)
      if page.snapshotThrough == "todo \(Self.uuids[0])" { break }
    }
    try server.sync(a, now: fixedNow + 45)
    for (machine, at) in [(b, 60.0), (a, 70), (b, 80)] { try server.sync(machine, now: fixedNow + at) }
    #expect(try rows(a) == rows(b))
    // Task 2 (not pushed yet when A's note came) keeps A's note; task 1 (pushed at B's floor,
    // +40) lost it on both machines, and no sync said so: which of two edits made alike
    // survives depends on where B's push stopped.
    for machine in [a, b] {
      #expect(try todo(machine, Self.uuids[1])?.notes == "A's note 2")
      // Known limit (docs/decisions/first-sync.md): a row already pushed at the floor outranks
      // an edit made before the floor that reaches the server after it.
      withKnownIssue("a row pushed at the floor outranks an earlier edit pushed after it") { () throws -> Void in
        #expect(try todo(machine, Self.uuids[0])?.notes == "A's note 1")
      }
    }
  }

  @Test("the day's routine planned on both machines, ticked on the first after the second planned it: the tick stays; undoing the plan keeps the todo")
  func routinePlannedOnBoth() throws {
    let server = FakeSyncServer()
    let (a, b) = (try AppDatabase.inMemory(), try AppDatabase.inMemory())
    let planned = fixedToday
    _ = try a.setRoutine(named: "algorithm", true, now: fixedNow)
    _ = try a.planRoutine(on: planned, now: fixedNow + 1)
    try server.sync(a, now: fixedNow + 10)
    _ = try b.setRoutine(named: "algorithm", true, now: fixedNow + 20)
    let made = try b.planRoutine(on: planned, now: fixedNow + 21)
    #expect(made.count == 1)
    _ = try a.setDone(ids: [try #require(try allTodos(a).first).id], done: true, now: fixedNow + 30)
    try server.sync(a, now: fixedNow + 40)
    try server.sync(b, now: fixedNow + 50)
    try server.sync(a, now: fixedNow + 60)
    for machine in [a, b] {
      #expect(try allTodos(machine).map(\.isDone) == [true])
    }
    #expect(try rows(a) == rows(b))
    let step = try b.undo(today: fixedToday, now: fixedNow + 70)
    #expect(step.left.map(\.kind) == [.madeToo])
    try server.sync(b, now: fixedNow + 80)
    try server.sync(a, now: fixedNow + 90)
    #expect(try allTodos(a).count == 1)
    #expect(try rows(a) == rows(b))
    // And a redo on B after it brings nothing back twice.
    _ = try? b.redo(today: fixedToday, now: fixedNow + 100)
    try server.sync(b, now: fixedNow + 110)
    try server.sync(a, now: fixedNow + 120)
    #expect(try allTodos(a).count == 1)
    #expect(try rows(a) == rows(b))
  }

  @Test("three machines, two first-syncing with the same todos, in every order: every machine the same, the edits kept")
  func threeMachinesEveryOrder() throws {
    // (first to sync of B and C, whether A syncs between them)
    for (bFirst, aBetween) in [(true, false), (true, true), (false, false), (false, true)] {
      let server = FakeSyncServer()
      let (a, b, c) = (try AppDatabase.inMemory(), try AppDatabase.inMemory(), try AppDatabase.inMemory())
      _ = try a.importTodos(try plan(3), today: fixedToday, now: fixedNow)
      try server.sync(a, now: fixedNow + 10)
      _ = try b.importTodos(try plan(3), today: fixedToday, now: fixedNow + 20)
      _ = try c.importTodos(try plan(3), today: fixedToday, now: fixedNow + 21)
      // Each machine edits a field of its own on its own todo, after every import.
      _ = try a.setDone(ids: [try number(a, Self.uuids[0])], done: true, now: fixedNow + 30)
      try server.sync(a, now: fixedNow + 31)
      _ = try b.editTodo(id: try number(b, Self.uuids[1]), try TodoChanges(notes: "B's note"), today: fixedToday, now: fixedNow + 32)
      _ = try c.editTodo(id: try number(c, Self.uuids[2]), try TodoChanges(priority: .high), today: fixedToday, now: fixedNow + 33)
      let order = bFirst ? [b, c] : [c, b]
      try server.sync(order[0], now: fixedNow + 40)
      if aBetween { try server.sync(a, now: fixedNow + 45) }
      try server.sync(order[1], now: fixedNow + 50)
      for (machine, at) in [(a, 60.0), (b, 70), (c, 80), (a, 90)] { try server.sync(machine, now: fixedNow + at) }
      let label = "B first: \(bFirst), A between: \(aBetween)"
      #expect(try rows(a) == rows(b), "\(label)")
      #expect(try rows(b) == rows(c), "\(label)")
      #expect(try todo(c, Self.uuids[0])?.isDone == true, "\(label)")
      // The edit of the machine whose first sync came first stays; the other's, made before
      // that first sync, loses to its rows pushed at the floor (known limit,
      // docs/decisions/first-sync.md).
      let (note, priority) = (try todo(c, Self.uuids[1])?.notes, try todo(b, Self.uuids[2])?.priority)
      let first = { #expect(note == "B's note", "\(label)") }
      let second = { #expect(priority == .high, "\(label)") }
      (bFirst ? first : second)()
      withKnownIssue("the first first sync's floor outranks the second's earlier edits") { (bFirst ? second : first)() }
    }
  }
}
