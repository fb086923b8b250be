import Core
import Foundation
import Storage
import Testing

/// Issue 24, session 20: the same todos made on two machines (one todo.txt imported on both:
/// name-based uuids), one of them not syncing yet. Its first sync must not undo what the other
/// machine did to them since (its rows were pushed at the first sync's floor, later than any
/// such edit), and undoing its import must not delete the other machine's todos.
@Suite("The same todos made on two machines")
struct SyncMadeOnBothTests {
  static let uuids = (1...3).map { String(format: "d0000000-0000-4000-8000-%012d", $0) }

  /// The file's todos, the first `count` of them.
  func plan(_ count: Int) throws -> ImportPlan {
    ImportPlan(
      todos: try Self.uuids.prefix(count).enumerated().map { index, uuid in
        try ImportedTodo(uuid: uuid, title: "task \(index + 1)", priority: .mid, day: fixedToday)
      })
  }

  func todo(_ database: AppDatabase, _ uuid: String) throws -> Todo? {
    try allTodos(database).first { $0.uuid == uuid }
  }

  @Test("a machine's first sync keeps the edits another machine made since to todos both imported, and says which of its own lost")
  func firstSyncKeepsLaterEdits() throws {
    let server = FakeSyncServer()
    let (a, b) = (try AppDatabase.inMemory(), try AppDatabase.inMemory())
    _ = try a.importTodos(try plan(3), today: fixedToday, now: fixedNow)
    try server.sync(a, now: fixedNow + 10)
    // B imports the same file, and retitles task 2, before A does below; it has never synced.
    _ = try b.importTodos(try plan(3), today: fixedToday, now: fixedNow + 20)
    let onB = { (uuid: String) in try #require(try self.todo(b, uuid)).id }
    _ = try b.editTodo(id: try onB(Self.uuids[1]), try TodoChanges(title: "B's earlier title"), today: fixedToday, now: fixedNow + 25)
    // A ticks task 1 and retitles task 2; B later notes task 3 (a field A left alone).
    let onA = { (uuid: String) in try #require(try self.todo(a, uuid)).id }
    _ = try a.setDone(ids: [try onA(Self.uuids[0])], done: true, now: fixedNow + 30)
    _ = try a.editTodo(id: try onA(Self.uuids[1]), try TodoChanges(title: "A's later title"), today: fixedToday, now: fixedNow + 40)
    try server.sync(a, now: fixedNow + 50)
    _ = try b.editTodo(id: try onB(Self.uuids[2]), try TodoChanges(notes: "B's note"), today: fixedToday, now: fixedNow + 55)

    let first = try server.sync(b, now: fixedNow + 60)
    try server.sync(a, now: fixedNow + 70)
    for machine in [a, b] {
      #expect(try todo(machine, Self.uuids[0])?.isDone == true)
      #expect(try todo(machine, Self.uuids[1])?.title == "A's later title")
      #expect(try todo(machine, Self.uuids[2])?.notes == "B's note")
    }
    #expect(try shapes(a) == shapes(b))
    // B's own title, not seen by A, lost to A's later one: B's sync says so, once.
    // (No line for a field B only had from its import: it changed nothing there.)
    #expect(first.conflicts.map(\.conflict.field) == [TodoField.title.rawValue])
    let titles = first.conflicts.filter { $0.conflict.field == TodoField.title.rawValue }
    #expect(titles.count == 1)
    #expect(titles.first?.conflict.kept == .text("A's later title"))
    #expect(titles.first?.conflict.lost == .text("B's earlier title"))
    // Later syncs bring nothing more, and a third machine gets the same.
    let c = try AppDatabase.inMemory()
    try server.sync(c, now: fixedNow + 80)
    #expect(try shapes(c) == shapes(a))
  }

  @Test("an edit made on the new machine after the other machine's wins on both")
  func laterEditOfTheNewMachineWins() throws {
    let server = FakeSyncServer()
    let (a, b) = (try AppDatabase.inMemory(), try AppDatabase.inMemory())
    _ = try a.importTodos(try plan(1), today: fixedToday, now: fixedNow)
    _ = try a.editTodo(id: try #require(try todo(a, Self.uuids[0])).id, try TodoChanges(title: "A's title"), today: fixedToday, now: fixedNow + 5)
    try server.sync(a, now: fixedNow + 10)
    _ = try b.importTodos(try plan(1), today: fixedToday, now: fixedNow + 20)
    _ = try b.editTodo(id: try #require(try todo(b, Self.uuids[0])).id, try TodoChanges(title: "B's title"), today: fixedToday, now: fixedNow + 30)
    try server.sync(b, now: fixedNow + 40)
    try server.sync(a, now: fixedNow + 50)
    #expect(try todo(a, Self.uuids[0])?.title == "B's title")
    #expect(try todo(b, Self.uuids[0])?.title == "B's title")
  }

  @Test("undoing an import keeps the todos another machine made too, on every machine, and takes back the rest")
  func undoKeepsTodosMadeElsewhere() throws {
    let server = FakeSyncServer()
    let (a, b) = (try AppDatabase.inMemory(), try AppDatabase.inMemory())
    _ = try a.importTodos(try plan(2), today: fixedToday, now: fixedNow)
    try server.sync(a, now: fixedNow + 10)
    _ = try b.importTodos(try plan(3), today: fixedToday, now: fixedNow + 20)
    try server.sync(b, now: fixedNow + 30)
    try server.sync(a, now: fixedNow + 40)
    #expect(try allTodos(a).count == 3)

    let step = try b.undo(today: fixedToday, now: fixedNow + 50)
    #expect(step.left.map(\.kind) == [.madeToo, .madeToo])
    #expect(Set(step.left.map(\.uuid)) == Set(Self.uuids.prefix(2)))
    #expect(step.left.first?.line.contains("made it too") == true)
    try server.sync(b, now: fixedNow + 60)
    try server.sync(a, now: fixedNow + 70)
    for machine in [a, b] {
      #expect(try allTodos(machine).map(\.uuid).sorted() == Array(Self.uuids.prefix(2)))
    }
  }

  @Test("the machine that imported first keeps, on undoing its import, the todos the other machine brought too")
  func undoOnTheFirstMachineToo() throws {
    let server = FakeSyncServer()
    let (a, b) = (try AppDatabase.inMemory(), try AppDatabase.inMemory())
    _ = try a.importTodos(try plan(2), today: fixedToday, now: fixedNow)
    try server.sync(a, now: fixedNow + 10)
    _ = try b.importTodos(try plan(2), today: fixedToday, now: fixedNow + 20)
    try server.sync(b, now: fixedNow + 30)
    try server.sync(a, now: fixedNow + 40)
    let step = try a.undo(today: fixedToday, now: fixedNow + 50)
    #expect(step.left.map(\.kind) == [.madeToo, .madeToo])
    try server.sync(a, now: fixedNow + 60)
    try server.sync(b, now: fixedNow + 70)
    #expect(try allTodos(a).count == 2)
    #expect(try allTodos(b).count == 2)
  }

  @Test("a todo deleted everywhere and imported again is the import's to undo")
  func aStaleMarkDoesNotKeep() throws {
    let server = FakeSyncServer()
    let (a, b) = (try AppDatabase.inMemory(), try AppDatabase.inMemory())
    _ = try a.importTodos(try plan(1), today: fixedToday, now: fixedNow)
    try server.sync(a, now: fixedNow + 10)
    _ = try b.importTodos(try plan(1), today: fixedToday, now: fixedNow + 20)
    try server.sync(b, now: fixedNow + 30)
    _ = try b.deleteTodos(ids: [try #require(try todo(b, Self.uuids[0])).id], now: fixedNow + 40)
    try server.sync(b, now: fixedNow + 50)
    try server.sync(a, now: fixedNow + 60)
    #expect(try allTodos(a).isEmpty)
    // B imports the file again: its own todo now, which an undo takes back.
    _ = try b.importTodos(try plan(1), today: fixedToday, now: fixedNow + 70)
    let step = try b.undo(today: fixedToday, now: fixedNow + 80)
    #expect(step.left.isEmpty)
    #expect(try allTodos(b).isEmpty)
  }
}

extension SyncMadeOnBothTests {
  @Test("a todo deleted on one machine after the other imported it stays deleted on both; one imported after the deletion comes back on both")
  func deletionAfterTheImportStands() throws {
    let server = FakeSyncServer()
    let (a, b) = (try AppDatabase.inMemory(), try AppDatabase.inMemory())
    _ = try a.importTodos(try plan(2), today: fixedToday, now: fixedNow)
    try server.sync(a, now: fixedNow + 10)
    _ = try b.importTodos(try plan(1), today: fixedToday, now: fixedNow + 20)
    // A deletes both; B imports task 2 after that, and retitles task 1 after A's deletion.
    _ = try a.deleteTodos(ids: try allTodos(a).map(\.id), now: fixedNow + 30)
    try server.sync(a, now: fixedNow + 40)
    _ = try b.importTodos(ImportPlan(todos: [try plan(2).todos[1]]), today: fixedToday, now: fixedNow + 50)
    _ = try b.editTodo(
      id: try #require(try todo(b, Self.uuids[0])).id, try TodoChanges(title: "B's title"), today: fixedToday, now: fixedNow + 55)

    let first = try server.sync(b, now: fixedNow + 60)
    try server.sync(a, now: fixedNow + 70)
    for machine in [a, b] {
      #expect(try allTodos(machine).map(\.uuid) == [Self.uuids[1]])
    }
    // B's retitle of a todo deleted elsewhere: said once, by B.
    #expect(first.conflicts.map(\.conflict.kind) == [.editOfDeleted])
    let c = try AppDatabase.inMemory()
    try server.sync(c, now: fixedNow + 80)
    #expect(try shapes(c) == shapes(a))
  }

  @Test("a first sync stopped after one page of its rows: rows pushed at the floor and rows still to push end alike on every machine")
  func stoppedFirstSyncConverges() throws {
    let server = FakeSyncServer()
    let (a, b) = (try AppDatabase.inMemory(), try AppDatabase.inMemory())
    _ = try a.importTodos(try plan(3), today: fixedToday, now: fixedNow)
    try server.sync(a, now: fixedNow + 10)
    _ = try b.importTodos(try plan(3), today: fixedToday, now: fixedNow + 20)
    // B pulls, pushes its rows a row a page up to its first todo, and stops.
    try server.pullAll(b, now: fixedNow + 30)
    var through: String?
    while through?.hasPrefix("todo ") != true {
      let page = try #require(try b.sync.pushPage(maxOperations: 1))
      server.push(page.records)
      try b.sync.markPushed(page)
      through = page.snapshotThrough
    }
    #expect(through == "todo \(Self.uuids[0])")
    // A edits every todo (before B's floor by B's clock? after it: the later edit wins anyway).
    for (index, todo) in try allTodos(a).enumerated() {
      _ = try a.editTodo(id: todo.id, try TodoChanges(title: "A \(index)"), today: fixedToday, now: fixedNow + 25)
    }
    try server.sync(a, now: fixedNow + 40)
    try server.sync(b, now: fixedNow + 50)
    try server.sync(a, now: fixedNow + 60)
    #expect(try shapes(a) == shapes(b))
    let c = try AppDatabase.inMemory()
    try server.sync(c, now: fixedNow + 70)
    #expect(try shapes(c) == shapes(a))
  }
}

extension SyncMadeOnBothTests {
  @Test("a first pull meeting hundreds of rows made here too still cuts tags merged past the cap (one scan, not a lookup a row)")
  func tagCapAcrossManyRowsMadeOnBoth() throws {
    let server = FakeSyncServer()
    let (a, b) = (try AppDatabase.inMemory(), try AppDatabase.inMemory())
    let uuids = (0..<300).map { String(format: "f0000000-0000-4000-8000-%012d", $0) }
    let plan = { (tags: [String]) in
      ImportPlan(
        todos: try uuids.enumerated().map { index, uuid in
          try ImportedTodo(uuid: uuid, title: "task \(index)", priority: .mid, day: fixedToday, tags: index == 0 ? tags : [])
        })
    }
    // B imports first (no tags), A later with 60 tags on task 0 and syncs; B then adds 60 others
    // before its first sync: 120 merged, tag by tag.
    _ = try b.importTodos(try plan([]), today: fixedToday, now: fixedNow)
    _ = try a.importTodos(try plan((0..<60).map { "a\($0)" }), today: fixedToday, now: fixedNow + 5)
    try server.sync(a, now: fixedNow + 10)
    let first = try #require(try allTodos(b).first { $0.uuid == uuids[0] })
    _ = try b.editTodo(
      id: first.id, try TodoChanges(addTags: (0..<60).map { "b\($0)" }), today: fixedToday, now: fixedNow + 20)
    try b.sync.beginSync(fileIdentity: nil, now: fixedNow + 30)
    var sentences: [String] = []
    while true {
      let page = server.pull(after: try b.sync.pullCursor(), limit: 1000)
      if page.isEmpty { break }
      sentences += try b.sync.applyPulled(page, today: fixedToday, now: fixedNow + 30).ruleConflicts
    }
    try server.pushAll(b, now: fixedNow + 30)
    try server.sync(a, now: fixedNow + 40)
    let kept = Caps.cappedTags((0..<60).map { "a\($0)" } + (0..<60).map { "b\($0)" }).kept
    #expect(sentences.count == 1)
    for machine in [a, b] {
      #expect(try allTodos(machine).first { $0.uuid == uuids[0] }?.tags == kept)
    }
  }
}
