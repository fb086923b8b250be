import Core
import Foundation
import Storage
import Testing

@Suite("Todos in storage")
struct TodoStoreTests {
  // MARK: - Round trip

  @Test(
    "a todo's title comes back exactly as written",
    arguments: [
      "Ship it", #"Reply to issue "crash on empty list""#, "It's O'Brien's", "'); DROP TABLE todo; --",
      "Robert\"); DELETE FROM todo; --", "% _ \\ LIKE wildcards", "Tidy dotfiles 🧹",
      "👩‍💻 pair with 👨‍👩‍👧", "BOJ 1753: 최단경로 (Dijkstra)", "오늘의 할 일", "line one\nline two",
      "Ω≈ç√ – “smart quotes” ‘too’", String(repeating: "긴", count: 500),
    ])
  func titleRoundTrip(title: String) throws {
    // Given
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    // When
    let added = try database.addTodo(try draft(title, .high, on: "2026-11-22"), now: fixedNow)
    // Then
    #expect(added.title == title)
    let read = try database.todos(ids: [added.id])
    #expect(read.count == 1)
    #expect(Array(read[0].title.unicodeScalars) == Array(title.unicodeScalars))
    #expect(try allTodos(database).count == 1)
  }

  @Test("every field of a new todo round-trips")
  func fieldsRoundTrip() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    try database.addProject(try Project(name: "ootd"), now: fixedNow)
    // When
    let added = try database.addTodo(
      try draft("  Write tests  ", .low, on: "2024-02-29", project: "OOTD", block: "commit"), now: fixedNow)
    // Then
    let read = try #require(try database.todos(ids: [added.id]).first)
    #expect(read == added)
    #expect(read.id > 0)
    #expect(read.title == "Write tests")
    #expect(read.priority == .low)
    #expect(read.day == day("2024-02-29"))
    #expect(!read.isDone && read.doneAt == nil)
    #expect(read.project == "ootd", "the stored project's spelling, found case-insensitively")
    #expect(read.block == "commit")
    #expect(read.createdAt == fixedNow)
  }

  @Test("ids are assigned increasing and never reused after a delete")
  func idsNeverReused() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    let first = try database.addTodo(try draft("a"), now: fixedNow)
    let second = try database.addTodo(try draft("b"), now: fixedNow)
    try database.deleteTodos(ids: [second.id], now: fixedNow)
    let third = try database.addTodo(try draft("c"), now: fixedNow)
    #expect(first.id < second.id && second.id < third.id)
  }

  @Test("adding a todo for an unknown project throws projectNotFound and adds nothing")
  func addWithUnknownProject() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    #expect(throws: StorageError.projectNotFound("ghost")) {
      try database.addTodo(try draft("x", project: "ghost"), now: fixedNow)
    }
    #expect(try allTodos(database).isEmpty)
  }

  @Test("addTodos adds all drafts in one go, done ones with doneAt")
  func addMany() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    try database.addTodos([(try draft("a"), false), (try draft("b"), true)], now: fixedNow)
    let todos = try allTodos(database)
    #expect(todos.map(\.title) == ["a", "b"])
    #expect(todos.map(\.isDone) == [false, true])
    #expect(todos.map(\.doneAt) == [nil, fixedNow])
  }

  // MARK: - Lists

  /// A database with todos over three days, two projects and all priorities.
  struct Fixture {
    let scratch = Scratch()
    let database: AppDatabase
    /// Titles by id.
    var ids: [String: Int64] = [:]

    init() throws {
      database = try scratch.freshDatabase()
      try database.addProject(try Project(name: "ootd"), now: fixedNow)
      try database.addProject(try Project(name: "blog"), now: fixedNow)
      // Added deliberately out of list order.
      let rows: [(String, Priority, String, String?)] = [
        ("d22-low", .low, "2026-11-22", nil),
        ("d21-mid-ootd", .mid, "2026-11-21", "ootd"),
        ("d22-high-ootd", .high, "2026-11-22", "ootd"),
        ("d23-high-blog", .high, "2026-11-23", "blog"),
        ("d22-mid-blog", .mid, "2026-11-22", "blog"),
        ("d22-high", .high, "2026-11-22", nil),
        ("d20-low-ootd", .low, "2026-11-20", "ootd"),
        ("d21-high", .high, "2026-11-21", nil),
      ]
      for (title, priority, text, project) in rows {
        let todo = try database.addTodo(try draft(title, priority, on: text, project: project), now: fixedNow)
        ids[title] = todo.id
      }
      _ = try database.setDone(ids: [ids["d22-high-ootd"]!, ids["d21-high"]!], done: true, now: fixedNow)
    }

    func titles(_ filter: TodoFilter) throws -> [String] {
      try database.todos(matching: filter).map(\.title)
    }
  }

  @Test("lists are ordered by day, then high → mid → low, then id")
  func ordering() throws {
    let fixture = try Fixture()
    #expect(try fixture.titles(TodoFilter(days: .all)) == [
      "d20-low-ootd", "d21-high", "d21-mid-ootd", "d22-high-ootd", "d22-high", "d22-mid-blog",
      "d22-low", "d23-high-blog",
    ])
    let todos = try allTodos(fixture.database)
    #expect(todos == todos.sorted(by: Todo.listOrder))
  }

  @Test(
    "filters narrow the list",
    arguments: [
      (TodoFilter(days: .range(DayRange(day: day("2026-11-22")))),
       ["d22-high-ootd", "d22-high", "d22-mid-blog", "d22-low"]),
      (TodoFilter(days: .range(try! DayRange(from: day("2026-11-21"), to: day("2026-11-22"))), status: .open),
       ["d21-mid-ootd", "d22-high", "d22-mid-blog", "d22-low"]),
      (TodoFilter(days: .range(DayRange(day: day("2026-11-19")))), []),
      (TodoFilter(days: .all, project: "ootd"), ["d20-low-ootd", "d21-mid-ootd", "d22-high-ootd"]),
      (TodoFilter(days: .all, project: "BLOG"), ["d22-mid-blog", "d23-high-blog"]),
      (TodoFilter(days: .all, priority: .high), ["d21-high", "d22-high-ootd", "d22-high", "d23-high-blog"]),
      (TodoFilter(days: .all, priority: .low), ["d20-low-ootd", "d22-low"]),
      (TodoFilter(days: .all, status: .done), ["d21-high", "d22-high-ootd"]),
      (TodoFilter(days: .all, status: .open),
       ["d20-low-ootd", "d21-mid-ootd", "d22-high", "d22-mid-blog", "d22-low", "d23-high-blog"]),
      (TodoFilter(days: .all, project: "ootd", priority: .high, status: .done), ["d22-high-ootd"]),
      (TodoFilter(days: .all, project: "ootd", priority: .high, status: .open), []),
      (TodoFilter(days: .range(try! DayRange(from: day("2026-11-23"), to: day("2026-12-31"))), project: "blog"),
       ["d23-high-blog"]),
    ] as [(TodoFilter, [String])])
  func filters(filter: TodoFilter, expected: [String]) throws {
    let fixture = try Fixture()
    #expect(try fixture.titles(filter) == expected)
  }

  @Test("filtering by an unknown project throws projectNotFound")
  func filterUnknownProject() throws {
    let fixture = try Fixture()
    #expect(throws: StorageError.projectNotFound("ghost")) {
      try fixture.database.todos(matching: TodoFilter(days: .all, project: "ghost"))
    }
  }

  @Test("overdue todos are the open ones before the day, oldest first")
  func overdue() throws {
    let fixture = try Fixture()
    #expect(try fixture.database.overdueTodos(before: day("2026-11-22")).map(\.title) == [
      "d20-low-ootd", "d21-mid-ootd",
    ])
    #expect(try fixture.database.overdueTodos(before: day("2026-11-20")).isEmpty)
    #expect(try fixture.database.overdueTodos(before: day("2026-11-24")).count == 6)
  }

  // MARK: - Done

  @Test("ticking keeps the first doneAt; unticking clears it; ticking again sets a new one")
  func setDone() throws {
    // Given
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    let todo = try database.addTodo(try draft("tick me"), now: fixedNow)
    let first = fixedNow.addingTimeInterval(60)
    let second = fixedNow.addingTimeInterval(120)
    let third = fixedNow.addingTimeInterval(180)
    // When / Then
    let ticked = try database.setDone(ids: [todo.id], done: true, now: first)
    #expect(ticked.map(\.isDone) == [true])
    #expect(ticked.map(\.doneAt) == [first])
    let retick = try database.setDone(ids: [todo.id, todo.id], done: true, now: second)
    #expect(retick.map(\.doneAt) == [first], "a re-tick keeps the original time")
    let untick = try database.setDone(ids: [todo.id], done: false, now: second)
    #expect(untick.map(\.isDone) == [false])
    #expect(untick.map(\.doneAt) == [nil])
    let again = try database.setDone(ids: [todo.id], done: true, now: third)
    #expect(again.map(\.doneAt) == [third])
    #expect(try database.todos(ids: [todo.id]).map(\.doneAt) == [third])
  }

  @Test("setDone with an empty list changes nothing")
  func setDoneEmpty() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    try database.addTodo(try draft("a"), now: fixedNow)
    #expect(try database.setDone(ids: [], done: true, now: fixedNow).isEmpty)
    #expect(try allTodos(database).map(\.isDone) == [false])
  }

  @Test("unknown ids throw todosNotFound listing every missing id, and nothing is ticked")
  func setDoneUnknown() throws {
    // Given
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    let a = try database.addTodo(try draft("a"), now: fixedNow)
    let b = try database.addTodo(try draft("b"), now: fixedNow)
    // When / Then
    #expect(throws: StorageError.todosNotFound([998, 999])) {
      try database.setDone(ids: [999, a.id, 998, b.id, 999], done: true, now: fixedNow)
    }
    #expect(try allTodos(database).map(\.isDone) == [false, false])
    #expect(throws: StorageError.todosNotFound([777])) { try database.todos(ids: [a.id, 777]) }
  }

  // MARK: - Edit

  @Test("editing changes only the given field")
  func editEachField() throws {
    // Given
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    try database.addProject(try Project(name: "ootd"), now: fixedNow)
    try database.addProject(try Project(name: "blog"), now: fixedNow)
    let original = try database.addTodo(
      try draft("original", .mid, on: "2026-11-22", project: "ootd", block: "study"), now: fixedNow)
    let untouched = try database.addTodo(try draft("bystander", project: "ootd"), now: fixedNow)
    var expected = original

    // When / Then: title
    var edited = try database.editTodo(id: original.id, try TodoChanges(title: "  renamed \"x\" 🚀 "), today: fixedToday, now: fixedNow)
    expected.title = "renamed \"x\" 🚀"
    #expect(edited == expected)
    // priority
    edited = try database.editTodo(id: original.id, try TodoChanges(priority: .high), today: fixedToday, now: fixedNow)
    expected.priority = .high
    #expect(edited == expected)
    // day
    // (moved away from its day once that day began, it stays on that day's record as carried)
    edited = try database.editTodo(
      id: original.id, try TodoChanges(day: .day(day("2024-02-29"))), today: day("2026-11-22"), now: fixedNow)
    expected.day = day("2024-02-29")
    expected.carriedFrom = [day("2026-11-22")]
    #expect(edited == expected)
    // project, found case-insensitively
    edited = try database.editTodo(id: original.id, try TodoChanges(project: .some("BLOG")), today: fixedToday, now: fixedNow)
    expected.project = "blog"
    #expect(edited == expected)
    // unlink
    edited = try database.editTodo(id: original.id, try TodoChanges(project: .some(nil)), today: fixedToday, now: fixedNow)
    expected.project = nil
    #expect(edited == expected)
    // nothing
    edited = try database.editTodo(id: original.id, try TodoChanges(), today: fixedToday, now: fixedNow)
    #expect(edited == expected)
    #expect(try database.todos(ids: [original.id]) == [expected])
    #expect(try database.todos(ids: [untouched.id]) == [untouched])
  }

  @Test("editing with an unknown project throws projectNotFound and changes no field")
  func editUnknownProject() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    let original = try database.addTodo(try draft("original"), now: fixedNow)
    #expect(throws: StorageError.projectNotFound("ghost")) {
      try database.editTodo(
        id: original.id, try TodoChanges(title: "changed", priority: .low, project: .some("ghost")), today: fixedToday, now: fixedNow)
    }
    #expect(try database.todos(ids: [original.id]) == [original])
  }

  @Test("editing an unknown id throws todosNotFound")
  func editUnknownID() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    #expect(throws: StorageError.todosNotFound([42])) {
      try database.editTodo(id: 42, try TodoChanges(title: "x"), today: fixedToday, now: fixedNow)
    }
  }

  // MARK: - Delete

  @Test("deleting returns the deleted todos and leaves the others")
  func delete() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    let a = try database.addTodo(try draft("a"), now: fixedNow)
    let b = try database.addTodo(try draft("b"), now: fixedNow)
    let c = try database.addTodo(try draft("c"), now: fixedNow)
    let deleted = try database.deleteTodos(ids: [c.id, a.id], now: fixedNow)
    #expect(Set(deleted) == [a, c])
    #expect(try allTodos(database) == [b])
  }

  @Test("deleting with any unknown id throws todosNotFound and deletes nothing")
  func deleteAllOrNothing() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    let a = try database.addTodo(try draft("a"), now: fixedNow)
    let b = try database.addTodo(try draft("b"), now: fixedNow)
    #expect(throws: StorageError.todosNotFound([50, 51])) {
      try database.deleteTodos(ids: [a.id, 51, b.id, 50], now: fixedNow)
    }
    #expect(try allTodos(database) == [a, b])
  }

  // MARK: - Carry over

  /// Open and done todos before, on and after 2026-11-22.
  struct CarryFixture {
    let scratch = Scratch()
    let database: AppDatabase
    let oldOpen: Todo, olderOpen: Todo, oldDone: Todo, todayOpen: Todo, futureOpen: Todo

    init() throws {
      database = try scratch.freshDatabase()
      oldOpen = try database.addTodo(try draft("old open", .low, on: "2026-11-21"), now: fixedNow)
      olderOpen = try database.addTodo(try draft("older open", .high, on: "2026-10-01"), now: fixedNow)
      let done = try database.addTodo(try draft("old done", on: "2026-11-20"), now: fixedNow)
      oldDone = try database.setDone(ids: [done.id], done: true, now: fixedNow)[0]
      todayOpen = try database.addTodo(try draft("today open", on: "2026-11-22"), now: fixedNow)
      futureOpen = try database.addTodo(try draft("future open", on: "2026-11-25"), now: fixedNow)
    }
  }

  @Test("carrying over everything moves only open overdue todos; done ones stay on their day")
  func carryOverAll() throws {
    // Given
    let fixture = try CarryFixture()
    let today = day("2026-11-22")
    // When
    let moved = try fixture.database.todos(ids: fixture.database.carryOver(today: today, to: today, now: fixedNow).moved)
    // Then
    #expect(Set(moved.map(\.id)) == [fixture.oldOpen.id, fixture.olderOpen.id])
    #expect(moved.allSatisfy { $0.day == today && !$0.isDone })
    let after = Dictionary(uniqueKeysWithValues: try allTodos(fixture.database).map { ($0.id, $0) })
    #expect(after[fixture.oldDone.id] == fixture.oldDone)
    #expect(after[fixture.todayOpen.id] == fixture.todayOpen)
    #expect(after[fixture.futureOpen.id] == fixture.futureOpen)
    #expect(after[fixture.oldOpen.id]?.day == today)
    #expect(after[fixture.oldOpen.id]?.title == "old open")
    #expect(after[fixture.oldOpen.id]?.priority == .low)
    #expect(try fixture.database.overdueTodos(before: today).isEmpty)
    // And a second carry-over finds nothing
    #expect(try fixture.database.carryOver(today: today, to: today, now: fixedNow).moved.isEmpty)
  }

  @Test("carrying to a later day moves only what is overdue today, not today's or planned todos")
  func carryOverToLaterDay() throws {
    let fixture = try CarryFixture()
    let result = try fixture.database.carryOver(today: day("2026-11-22"), to: day("2026-11-30"), now: fixedNow)
    #expect(Set(result.moved) == [fixture.oldOpen.id, fixture.olderOpen.id])
    #expect(try fixture.database.todos(ids: [fixture.todayOpen.id]) == [fixture.todayOpen])
    #expect(try fixture.database.todos(ids: [fixture.futureOpen.id]) == [fixture.futureOpen])
  }

  @Test("a todo from a block stays put when the target day already has one from that block")
  func carryOverKeepsRoutineBlocksSingle() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    let missed = try database.addTodo(try draft("Solve", on: "2026-11-21", block: "algorithm"), now: fixedNow)
    let planned = try database.addTodo(try draft("Solve", on: "2026-11-22", block: "Algorithm"), now: fixedNow)
    let other = try database.addTodo(try draft("Write", on: "2026-11-21", block: "blog"), now: fixedNow)
    let result = try database.carryOver(today: day("2026-11-22"), to: day("2026-11-22"), now: fixedNow)
    #expect(result.moved == [other.id])
    #expect(result.duplicates == [missed.id])
    #expect(try database.todos(ids: [missed.id, planned.id]).map(\.day) == [day("2026-11-21"), day("2026-11-22")])
  }

  @Test("carrying over by ids moves only those that are open and overdue")
  func carryOverByIDs() throws {
    let fixture = try CarryFixture()
    let today = day("2026-11-22")
    // When: one open overdue, one done, one already today, one in the future
    let moved = try fixture.database.carryOver(
      ids: [fixture.oldOpen.id, fixture.oldDone.id, fixture.todayOpen.id, fixture.futureOpen.id],
      today: today, to: today, now: fixedNow).moved
    // Then
    #expect(moved == [fixture.oldOpen.id])
    #expect(try fixture.database.todos(ids: [fixture.olderOpen.id]) == [fixture.olderOpen])
    #expect(try fixture.database.todos(ids: [fixture.oldDone.id]) == [fixture.oldDone])
    #expect(try fixture.database.todos(ids: [fixture.futureOpen.id]) == [fixture.futureOpen])
  }

  @Test("carrying over an unknown id throws todosNotFound and moves nothing")
  func carryOverUnknown() throws {
    let fixture = try CarryFixture()
    let before = try allTodos(fixture.database)
    #expect(throws: StorageError.todosNotFound([404])) {
      try fixture.database.carryOver(ids: [fixture.oldOpen.id, 404], today: day("2026-11-22"), to: day("2026-11-22"), now: fixedNow)
    }
    #expect(try allTodos(fixture.database) == before)
  }
}
