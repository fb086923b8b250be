import Core
import Foundation
import Storage
import Testing

/// Tags added on several machines, each up to the cap, add up to more than a todo may have
/// (``Caps/tagsPerTodo``): the sync that merges them keeps the first 100 by name and takes the
/// rest away as its own change, said by a line; every machine ends with the same 100 tags, none
/// a set its commands, export or import refuse, and no record is set aside.
@Suite("Tags merged past the cap")
struct SyncTagCapStoreTests {
  /// Begins a sync and pulls every page (as ``FakeSyncServer/pullAll(_:identity:now:)``): the
  /// sentences the pulls said, and how many records they set aside.
  static func pull(_ server: FakeSyncServer, _ database: AppDatabase) throws -> (sentences: [String], setAside: Int) {
    try database.sync.beginSync(fileIdentity: nil, now: fixedNow)
    var sentences: [String] = []
    var setAside = 0
    while true {
      let page = server.pull(after: try database.sync.pullCursor(), limit: 100)
      if page.isEmpty { break }
      let result = try database.sync.applyPulled(page, today: fixedToday, now: fixedNow)
      sentences += result.ruleConflicts
      setAside += result.setAside.count
    }
    return (sentences, setAside)
  }

  /// A whole sync: ``pull(_:_:)``, then every page pushed.
  static func sync(_ server: FakeSyncServer, _ database: AppDatabase) throws -> (sentences: [String], setAside: Int) {
    let pulled = try pull(server, database)
    try server.pushAll(database, now: fixedNow)
    return pulled
  }

  static func tags(_ database: AppDatabase) throws -> [String] {
    try #require(try allTodos(database).first { $0.title == "Read" }).tags
  }

  @Test("three machines add 40 tags each: the merge that makes 120 keeps the first 100, the same on all three")
  func threeMachines() throws {
    let server = FakeSyncServer()
    let machines = try SyncStoreTests.machines(3)
    let todo = try machines[0].addTodo(try draft("Read"), now: fixedNow)
    for machine in machines { _ = try Self.sync(server, machine) }
    let names = ["a", "b", "c"]
    for (machine, name) in zip(machines, names) {
      let id = try #require(try allTodos(machine).first { $0.uuid == todo.uuid }).id
      let added = (0..<40).map { String(format: "\(name)%02d", $0) }
      _ = try machine.editTodo(id: id, try TodoChanges(addTags: added), today: fixedToday, now: fixedNow)
      #expect(try Self.tags(machine).count == 40)
    }
    // a pushes its 40; b merges 80 (under the cap); c merges 120 and cuts them.
    #expect(try Self.sync(server, machines[0]).sentences.isEmpty)
    #expect(try Self.sync(server, machines[1]).sentences.isEmpty)
    let cut = try Self.sync(server, machines[2])
    #expect(cut.setAside == 0)
    let dropped = (20..<40).map { String(format: "c%02d", $0) }
    #expect(
      cut.sentences == [
        "#1 'Read' had 120 tags, more than the 100 a todo may have: it keeps the first 100 by name and loses "
          + dropped.map { "+" + $0 }.joined(separator: " ")
      ])
    // The others pull the cut; a second round changes nothing.
    for machine in machines + machines {
      let round = try Self.sync(server, machine)
      #expect(round.sentences.isEmpty && round.setAside == 0)
    }
    let expected = (0..<40).map { String(format: "a%02d", $0) } + (0..<40).map { String(format: "b%02d", $0) }
      + (0..<20).map { String(format: "c%02d", $0) }
    for machine in machines {
      #expect(try Self.tags(machine) == expected)
      // What every machine holds, its own commands take: a tag more is refused, one less is not.
      let id = try #require(try allTodos(machine).first { $0.uuid == todo.uuid }).id
      #expect(throws: StorageError.self) {
        try machine.editTodo(id: id, try TodoChanges(addTags: ["more"]), today: fixedToday, now: fixedNow)
      }
      #expect(try Self.tags(machine) == expected)
    }
    let importable = try ImportedTodo(
      uuid: todo.uuid, title: "Read", priority: .mid, day: fixedToday, tags: try Self.tags(machines[1]))
    #expect(importable.tags == expected)
  }

  @Test("two machines that both merged past the cap cut the same tags: they converge")
  func bothCut() throws {
    let server = FakeSyncServer()
    let machines = try SyncStoreTests.machines(3)
    let todo = try machines[0].addTodo(try draft("Read"), now: fixedNow)
    for machine in machines { _ = try Self.sync(server, machine) }
    // a and b each take the todo to the cap.
    for (machine, name) in zip(machines.prefix(2), ["a", "b"]) {
      let id = try #require(try allTodos(machine).first { $0.uuid == todo.uuid }).id
      let added = (0..<100).map { String(format: "\(name)%03d", $0) }
      _ = try machine.editTodo(id: id, try TodoChanges(addTags: added), today: fixedToday, now: fixedNow)
    }
    // b begins its sync before a pushes: it pushes its 100 without a's.
    _ = try Self.pull(server, machines[1])
    #expect(try Self.sync(server, machines[0]).sentences.isEmpty)
    try server.pushAll(machines[1], now: fixedNow)
    // c pulls both (200) and cuts; before c pushes its cut, b pulls a's 100 and cuts too.
    let c = try Self.pull(server, machines[2])
    let b = try Self.sync(server, machines[1])
    #expect(c.sentences.count == 1 && b.sentences.count == 1)
    #expect(c.sentences.first?.hasSuffix("loses " + (0..<100).map { String(format: "+b%03d", $0) }.joined(separator: " ")) == true)
    try server.pushAll(machines[2], now: fixedNow)
    for machine in machines + machines { _ = try Self.sync(server, machine) }
    let expected = (0..<100).map { String(format: "a%03d", $0) }
    for machine in machines { #expect(try Self.tags(machine) == expected) }
  }
}
