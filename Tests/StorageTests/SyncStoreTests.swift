import Core
import Formats
import Foundation
import GRDB
import Storage
import TestTags
import Testing

/// An in-process stand-in for the sync server: a list of records, deduplicated by record id,
/// numbered in arrival order.
final class FakeSyncServer {
  var records: [(seq: Int64, record: SyncRecord)] = []
  var ids: Set<String> = []

  func push(_ batch: [SyncRecord]) {
    for record in batch where ids.insert(record.opID).inserted {
      records.append((Int64(records.count + 1), record))
    }
  }

  func pull(after seq: Int64, limit: Int) -> [(seq: Int64, record: SyncRecord)] {
    Array(records.filter { $0.seq > seq }.prefix(limit))
  }

  /// What `ootd remote sync` does: pull every page, then push every page.
  @discardableResult
  func sync(_ database: AppDatabase, identity: String? = nil, now: Date = fixedNow) throws
    -> (pushed: Int, pulled: Int, conflicts: [SyncConflictReport])
  {
    let (pulled, conflicts) = try pullAll(database, identity: identity, now: now)
    return (try pushAll(database, now: now), pulled, conflicts)
  }

  /// The first half of a sync: begin, and pull every page (records, conflicts). Another
  /// machine may sync before this one pushes (syncs run concurrently against one server).
  @discardableResult
  func pullAll(_ database: AppDatabase, identity: String? = nil, now: Date) throws
    -> (pulled: Int, conflicts: [SyncConflictReport])
  {
    try database.sync.beginSync(fileIdentity: identity, now: now)
    var pulled = 0
    var conflicts: [SyncConflictReport] = []
    while true {
      let page = pull(after: try database.sync.pullCursor(), limit: 100)
      if page.isEmpty { break }
      let result = try database.sync.applyPulled(page, today: fixedToday, now: now)
      pulled += result.records
      conflicts += result.conflicts
    }
    return (pulled, conflicts)
  }

  /// The second half: push every page; the number of records pushed.
  @discardableResult
  func pushAll(_ database: AppDatabase, now: Date) throws -> Int {
    var pushed = 0
    while let page = try database.sync.pushPage() {
      push(page.records)
      try database.sync.markPushed(page)
      pushed += page.records.count
    }
    try database.sync.finishSync(now: now)
    return pushed
  }
}

/// The contract's comparison: each todo's (uuid, title, priority, date, done, project, block).
struct TodoShape: Hashable, CustomStringConvertible {
  let uuid: String, title: String, priority: Priority, day: Day?, done: Bool, project: String?, block: String?
  init(_ todo: Todo) {
    (uuid, title, priority, day, done, project, block) =
      (todo.uuid, todo.title, todo.priority, todo.day, todo.isDone, todo.project, todo.block)
  }
  var description: String { "\(title)/\(done)/\(priority)/\(day)/\(project ?? "-")/\(block ?? "-")" }
}

func shapes(_ database: AppDatabase) throws -> Set<TodoShape> {
  Set(try allTodos(database).map(TodoShape.init))
}

@Suite("Sync through a fake server")
struct SyncStoreTests {
  static func machines(_ count: Int) throws -> [AppDatabase] {
    try (0..<count).map { _ in try AppDatabase.inMemory(command: "test") }
  }

  @Test("two machines converge: todos, projects and their links, built-in blocks once")
  func converge() throws {
    let server = FakeSyncServer()
    let (a, b) = try { let m = try Self.machines(2); return (m[0], m[1]) }()
    try a.addProject(try Project(name: "ootd"), now: fixedNow)
    _ = try a.addTodo(try draft("Read", project: "ootd", block: "study"), now: fixedNow)
    _ = try b.addTodo(try draft("Write"), now: fixedNow)
    try server.sync(a)
    try server.sync(b)
    try server.sync(a)
    #expect(try shapes(a) == shapes(b))
    #expect(try shapes(a).count == 2)
    #expect(try allTodos(b).first { $0.title == "Read" }?.project == "ootd")
    #expect(try allTodos(b).first { $0.title == "Read" }?.block == "study")
    #expect(try a.blocks().count == TaskBlock.builtIns.count)
    #expect(try b.blocks().count == TaskBlock.builtIns.count)
    // Both gave #1 to a todo: the smaller uuid keeps it on both, the other has #2 on both.
    #expect(try Set(allTodos(a).map { "\($0.uuid) \($0.id)" }) == Set(allTodos(b).map { "\($0.uuid) \($0.id)" }))
    // Nothing to do: nothing pushed or pulled (once a's renumbering of b's todo, when a moved
    // it, has reached b).
    try server.sync(b)
    let idle = try server.sync(b)
    #expect(idle.pushed == 0 && idle.pulled == 0)
  }

  @Test("a project and a block made under the same name on both machines: one to the user, todos linked alike")
  func sameNameOnBoth() throws {
    let server = FakeSyncServer()
    let (a, b) = try { let m = try Self.machines(2); return (m[0], m[1]) }()
    for machine in [a, b] {
      try machine.addProject(try Project(name: "ootd"), now: fixedNow)
      _ = try machine.addBlock(try TaskBlock(name: "gym", title: "Gym", priority: .low), now: fixedNow)
    }
    _ = try a.addTodo(try draft("Read", project: "ootd", block: "gym"), now: fixedNow)
    _ = try b.addTodo(try draft("Write", project: "ootd", block: "gym"), now: fixedNow)
    let first = try server.sync(a)
    let second = try server.sync(b)
    let third = try server.sync(a)
    #expect(first.conflicts.isEmpty)
    #expect(second.conflicts.map(\.conflict.kind) == [.nameTaken, .nameTaken])
    // Reported once, by b, whose sync met it; a pulls b's rows knowing b has seen its own.
    #expect(third.conflicts.isEmpty)
    #expect(try shapes(a) == shapes(b))
    for machine in [a, b] {
      let todos = try allTodos(machine)
      #expect(todos.count == 2)
      #expect(todos.allSatisfy { $0.project == "ootd" && $0.block == "gym" })
      #expect(try machine.projects(.all).filter { $0.project.name == "ootd" }.count == 1)
    }
  }

  @Test("machines already syncing make a project of one name each: the second to sync says so, the first does not")
  func sameNameOnBoth_reportedOnce() throws {
    let server = FakeSyncServer()
    let (a, b) = try { let m = try Self.machines(2); return (m[0], m[1]) }()
    for machine in [a, b, a, b] { try server.sync(machine) }
    for machine in [a, b] { try machine.addProject(try Project(name: "ootd"), now: fixedNow) }
    #expect(try server.sync(a).conflicts.isEmpty)
    #expect(try server.sync(b).conflicts.map(\.conflict.kind) == [.nameTaken])
    #expect(try server.sync(a).conflicts.isEmpty)
    #expect(try server.sync(b).conflicts.isEmpty)
    for machine in [a, b] { #expect(try machine.projects(.all).filter { $0.project.name == "ootd" }.count == 1) }
  }

  @Test("ticked on one machine, retitled on the other: done and retitled on both, no conflict")
  func differentFields() throws {
    let server = FakeSyncServer()
    let m = try Self.machines(2)
    let todo = try m[0].addTodo(try draft("Read"), now: fixedNow)
    try server.sync(m[0])
    try server.sync(m[1])
    let onB = try allTodos(m[1])[0]
    _ = try m[0].setDone(ids: [todo.id], done: true, now: fixedNow + 60)
    _ = try m[1].editTodo(id: onB.id, try TodoChanges(title: "Read SICP"), today: fixedToday, now: fixedNow + 61)
    let first = try server.sync(m[0])
    let second = try server.sync(m[1])
    try server.sync(m[0])
    #expect(first.conflicts.isEmpty && second.conflicts.isEmpty)
    for machine in m {
      let todo = try allTodos(machine)[0]
      #expect(todo.title == "Read SICP" && todo.isDone)
    }
  }

  @Test("the same field on both: the later edit wins on both, and the sync that resolved it reports it")
  func sameField() throws {
    let server = FakeSyncServer()
    let m = try Self.machines(2)
    let todo = try m[0].addTodo(try draft("Read"), now: fixedNow)
    try server.sync(m[0])
    try server.sync(m[1])
    // B's clock is two hours behind A's, but its edit is made later in real time... A edits at
    // +2 h on its clock, B at +1 min on its own: A's stamp is later, A wins.
    _ = try m[0].editTodo(id: todo.id, try TodoChanges(title: "A's title"), today: fixedToday, now: fixedNow + 7200)
    _ = try m[1].editTodo(id: try allTodos(m[1])[0].id, try TodoChanges(title: "B's title"), today: fixedToday, now: fixedNow + 60)
    try server.sync(m[0])
    let b = try server.sync(m[1])
    try server.sync(m[0])
    #expect(try allTodos(m[0])[0].title == "A's title")
    #expect(try allTodos(m[1])[0].title == "A's title")
    #expect(b.conflicts.map(\.conflict.kind) == [.sameField])
    #expect(b.conflicts.first?.conflict.kept == .text("A's title"))
    #expect(b.conflicts.first?.conflict.lost == .text("B's title"))
  }

  @Test("a machine whose clock is 5 hours behind orders its edit after the edit it pulled")
  func skewedClock() throws {
    let server = FakeSyncServer()
    let m = try Self.machines(2)
    let todo = try m[0].addTodo(try draft("Read"), now: fixedNow)
    try server.sync(m[0])
    try server.sync(m[1])
    // A's clock is 5 hours ahead; B pulls A's edit, then edits the same field on its own clock.
    _ = try m[0].editTodo(id: todo.id, try TodoChanges(title: "A, 5 h ahead"), today: fixedToday, now: fixedNow + 5 * 3600)
    try server.sync(m[0], now: fixedNow + 5 * 3600)
    try server.sync(m[1], now: fixedNow + 60)
    _ = try m[1].editTodo(id: try allTodos(m[1])[0].id, try TodoChanges(title: "B, seen A"), today: fixedToday, now: fixedNow + 61)
    let b = try server.sync(m[1], now: fixedNow + 62)
    let a = try server.sync(m[0], now: fixedNow + 5 * 3600 + 1)
    #expect(try allTodos(m[0])[0].title == "B, seen A")
    #expect(try allTodos(m[1])[0].title == "B, seen A")
    #expect(a.conflicts.isEmpty && b.conflicts.isEmpty)
  }

  @Test("deleted on one machine, edited on the other: stays deleted everywhere, reported")
  func deleteWins() throws {
    let server = FakeSyncServer()
    let m = try Self.machines(2)
    let todo = try m[0].addTodo(try draft("Read"), now: fixedNow)
    try server.sync(m[0])
    try server.sync(m[1])
    _ = try m[0].deleteTodos(ids: [todo.id], now: fixedNow + 60)
    _ = try m[1].editTodo(id: try allTodos(m[1])[0].id, try TodoChanges(title: "Read more"), today: fixedToday, now: fixedNow + 120)
    try server.sync(m[0])
    let b = try server.sync(m[1])
    let a = try server.sync(m[0])
    #expect(try allTodos(m[0]).isEmpty)
    #expect(try allTodos(m[1]).isEmpty)
    #expect((a.conflicts + b.conflicts).contains { $0.conflict.kind == .editOfDeleted })
  }

  @Test("the day's routine planned on both machines appears once")
  func routineOnce() throws {
    let server = FakeSyncServer()
    let m = try Self.machines(2)
    for machine in m {
      _ = try machine.setRoutine(named: "algorithm", true, now: fixedNow)
      _ = try machine.planRoutine(on: day("2026-11-23"), now: fixedNow)
    }
    for machine in m + m { try server.sync(machine) }
    #expect(try allTodos(m[0]).count == 1)
    #expect(try shapes(m[0]) == shapes(m[1]))
  }

  @Test("undoing a pushed rm brings the todo back on the other machine too")
  func undoOfPushedDelete() throws {
    let server = FakeSyncServer()
    let m = try Self.machines(2)
    let todo = try m[0].addTodo(try draft("Read"), now: fixedNow)
    try server.sync(m[0])
    try server.sync(m[1])
    _ = try m[0].deleteTodos(ids: [todo.id], now: fixedNow + 60)
    try server.sync(m[0])
    try server.sync(m[1])
    #expect(try allTodos(m[1]).isEmpty)
    _ = try m[0].undo(now: fixedNow + 120)
    try server.sync(m[0])
    try server.sync(m[1])
    #expect(try allTodos(m[1]).map(\.title) == ["Read"])
    #expect(try shapes(m[0]) == shapes(m[1]))
    // The undo on A is its own; B cannot undo A's changes.
    #expect(throws: StorageError.nothingToUndo) { try m[1].undo(now: fixedNow + 180) }
  }

  @Test("a push whose cursor was not saved (killed before) is pushed again without duplicates")
  func pushedTwice() throws {
    let server = FakeSyncServer()
    let m = try Self.machines(2)
    _ = try m[0].addTodo(try draft("Read"), now: fixedNow)
    try m[0].sync.beginSync(fileIdentity: nil, now: fixedNow)
    // The first page reaches the server, then the process dies before markPushed.
    server.push(try #require(try m[0].sync.pushPage()).records)
    try server.sync(m[0])
    _ = try m[0].addTodo(try draft("Write"), now: fixedNow + 1)
    server.push(try #require(try m[0].sync.pushPage()).records)
    try server.sync(m[0])
    try server.sync(m[1])
    #expect(try allTodos(m[1]).map(\.title).sorted() == ["Read", "Write"])
    #expect(Set(server.records.map(\.record.opID)).count == server.records.count)
    // Records pulled twice (a crash before the pull cursor moved cannot happen: it moves in the
    // same transaction) change nothing the second time.
    let again = try m[1].sync.applyPulled(server.records, today: fixedToday, now: fixedNow)
    #expect(again.changed == 0)
    #expect(try allTodos(m[1]).count == 2)
  }

  @Test("a first sync stopped part-way, then rows changed, then run again: the other machine gets exactly the rows", .tags(.slow))
  func firstSyncInterrupted() throws {
    let server = FakeSyncServer()
    let m = try Self.machines(2)
    _ = try m[0].addTodos(try (0..<2_500).map { (try draft("todo \($0)"), false) }, now: fixedNow)
    try m[0].sync.beginSync(fileIdentity: nil, now: fixedNow)
    let page = try #require(try m[0].sync.pushPage())
    #expect(page.records.count >= 3)
    // Only the first records reach the server; the process dies before marking them pushed.
    server.push(Array(page.records.prefix(2)))
    // Rows change before the next sync: the first one goes, a new one comes.
    let first = try allTodos(m[0])[0]
    _ = try m[0].deleteTodos(ids: [first.id], now: fixedNow + 1)
    _ = try m[0].addTodo(try draft("new"), now: fixedNow + 2)
    try server.sync(m[0], now: fixedNow + 3)
    try server.sync(m[1], now: fixedNow + 4)
    #expect(try shapes(m[1]) == shapes(m[0]))
    #expect(try allTodos(m[1]).count == 2_500)
  }

  @Test("a copied database file gets its own device id at its next sync")
  func copiedFile() throws {
    let scratch = Scratch()
    let original = try AppDatabase.open(path: scratch.path("a.sqlite"), command: "test")
    _ = try original.addTodo(try draft("Read"), now: fixedNow)
    let device = try original.sync.beginSync(fileIdentity: "1:100", now: fixedNow)
    #expect(try original.sync.beginSync(fileIdentity: "1:100", now: fixedNow) == device)
    // A copy of the file has another inode.
    #expect(try original.sync.beginSync(fileIdentity: "1:200", now: fixedNow) != device)
  }

  @Test("journal pruning never drops operations not yet pushed", .tags(.slow))
  func pruningKeepsUnpushed() throws {
    let server = FakeSyncServer()
    let m = try Self.machines(2)
    try server.sync(m[0])
    for index in 0..<2_700 {
      _ = try m[0].addTodo(try draft("todo \(index)"), now: fixedNow + Double(index))
    }
    #expect(try m[0].sync.syncStatus().waitingChanges == 2_700)
    try server.sync(m[0])
    try server.sync(m[1])
    #expect(try allTodos(m[1]).count == 2_700)
    #expect(try m[0].sync.syncStatus().waitingChanges == 0)
  }

  @Test("three machines with random changes and syncs converge", .tags(.slow), arguments: Array(UInt64(1)...UInt64(12)))
  func randomConvergence(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let server = FakeSyncServer()
    let m = try Self.machines(3)
    // Machine clocks hours apart.
    let skews: [TimeInterval] = [0, -3 * 3600, 5 * 3600]
    var now = fixedNow
    for machine in m { _ = try machine.setRoutine(named: "study", true, now: now) }
    for step in 0..<80 {
      now += Double(Int.random(in: 1...120, using: &random))
      let index = Int.random(in: 0..<3, using: &random)
      let machine = m[index]
      let at = now + skews[index]
      let todos = try allTodos(machine)
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<20: _ = try machine.addTodo(try draft("t\(step)", Priority.allCases.randomElement(using: &random)!), now: at)
      case 20..<25: _ = try machine.planRoutine(on: day(["2026-11-22", "2026-11-23"].randomElement(using: &random)!), now: at)
      case 25..<40 where !todos.isEmpty:
        _ = try machine.setDone(ids: [todos.randomElement(using: &random)!.id], done: Bool.random(using: &random), now: at)
      case 40..<55 where !todos.isEmpty:
        _ = try machine.editTodo(
          id: todos.randomElement(using: &random)!.id, try TodoChanges(title: "e\(step)"), today: fixedToday, now: at)
      case 55..<63 where !todos.isEmpty:
        _ = try machine.deleteTodos(ids: [todos.randomElement(using: &random)!.id], now: at)
      case 63..<68: _ = try? machine.undo(now: at)
      default: try server.sync(machine, now: at)
      }
    }
    for _ in 0..<2 {
      for (index, machine) in m.enumerated() { try server.sync(machine, now: now + skews[index]) }
    }
    #expect(try shapes(m[0]) == shapes(m[1]), "seed \(seed)")
    #expect(try shapes(m[1]) == shapes(m[2]), "seed \(seed)")
  }
}

/// SplitMix64: a seeded generator, so each seed replays exactly.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
