import Core
import Foundation
import Storage
import Testing

@Suite("Task blocks in storage")
struct BlockStoreTests {
  @Test("a fresh database has every built-in block, none in the routine")
  func builtIns() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    let blocks = try database.blocks()
    #expect(blocks.count == TaskBlock.builtIns.count)
    for name in ["algorithm", "blog", "commit", "study"] {
      #expect(blocks.contains { $0.name == name }, "missing built-in \(name)")
    }
    for builtIn in TaskBlock.builtIns {
      let block = try database.block(named: builtIn.name)
      #expect(block.title == builtIn.title)
      #expect(block.priority == builtIn.priority)
      #expect(block.isBuiltIn)
      #expect(!block.isRoutine)
    }
  }

  @Test("a user block is listed after the built-ins, and names are found ignoring case")
  func addBlock() throws {
    // Given
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    // When
    try database.addBlock(try TaskBlock(name: "aaa-first", title: "Sorts first by name", priority: .low), now: fixedNow)
    try database.addBlock(try TaskBlock(name: "leetcode", title: "One LeetCode problem 🧩", priority: .high, isRoutine: true), now: fixedNow)
    // Then
    let blocks = try database.blocks()
    #expect(blocks.count == TaskBlock.builtIns.count + 2)
    #expect(blocks.suffix(2).map(\.name) == ["aaa-first", "leetcode"])
    #expect(blocks.prefix(TaskBlock.builtIns.count).allSatisfy { $0.isBuiltIn })
    #expect(blocks.prefix(TaskBlock.builtIns.count).map(\.name) == TaskBlock.builtIns.map(\.name).sorted())
    let leetcode = try database.block(named: "LeetCode")
    #expect(leetcode.name == "leetcode")
    #expect(leetcode.title == "One LeetCode problem 🧩")
    #expect(leetcode.priority == .high)
    #expect(!leetcode.isBuiltIn)
    #expect(leetcode.isRoutine)
  }

  @Test("a block name taken in any case throws duplicateBlock and changes nothing", arguments: [
    "algorithm", "ALGORITHM", "Algorithm", "leetcode", "LeetCode",
  ])
  func duplicateBlock(name: String) throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    try database.addBlock(try TaskBlock(name: "leetcode", title: "One LeetCode problem"), now: fixedNow)
    let before = try dump(scratch.path())
    #expect(throws: StorageError.duplicateBlock(name)) {
      try database.addBlock(try TaskBlock(name: name, title: "Other title"), now: fixedNow)
    }
    #expect(try dump(scratch.path()) == before)
  }

  @Test("removing a block forgets it; todos made from it keep their title and block name")
  func removeBlock() throws {
    // Given a todo made from a user block
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    try database.addBlock(try TaskBlock(name: "leetcode", title: "One LeetCode problem"), now: fixedNow)
    let todo = try database.addTodo(try draft("One LeetCode problem", block: "leetcode"), now: fixedNow)
    // When
    try database.removeBlock(named: "LEETCODE", now: fixedNow)
    // Then
    #expect(throws: StorageError.blockNotFound("leetcode")) { try database.block(named: "leetcode") }
    #expect(!(try database.blocks()).contains { $0.name == "leetcode" })
    #expect(try database.todos(ids: [todo.id]) == [todo])
  }

  @Test("unknown block names throw blockNotFound for read, remove and routine changes")
  func unknownBlock() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    #expect(throws: StorageError.blockNotFound("ghost")) { try database.block(named: "ghost") }
    #expect(throws: StorageError.blockNotFound("ghost")) { try database.removeBlock(named: "ghost", now: fixedNow) }
    #expect(throws: StorageError.blockNotFound("ghost")) { try database.setRoutine(named: "ghost", true, now: fixedNow) }
    #expect(try database.blocks().count == TaskBlock.builtIns.count)
  }

  @Test("planRoutine adds one todo per routine block, and a second call adds nothing")
  func planRoutineIsIdempotent() throws {
    // Given two built-ins and one user block in the routine
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    #expect(try database.setRoutine(named: "Commit", true, now: fixedNow).block.isRoutine)
    _ = try database.setRoutine(named: "blog", true, now: fixedNow)
    try database.addBlock(try TaskBlock(name: "leetcode", title: "One LeetCode problem", priority: .high, isRoutine: true), now: fixedNow)
    let today = day("2026-11-22")
    // When
    let first = try database.planRoutine(on: today, now: fixedNow)
    let second = try database.planRoutine(on: today, now: fixedNow)
    // Then: high first, then by name
    #expect(first.map(\.block) == ["commit", "leetcode", "blog"])
    #expect(first.map(\.title) == ["Make a commit", "One LeetCode problem", "Write a blog post / TIL"])
    #expect(first.map(\.priority) == [.high, .high, .mid])
    #expect(first.allSatisfy { $0.day == today && !$0.isDone && $0.project == nil })
    #expect(second.isEmpty)
    #expect(try allTodos(database).count == 3)
    // And another day gets its own
    #expect(try database.planRoutine(on: today.adding(days: 1), now: fixedNow).count == 3)
    #expect(try allTodos(database).count == 6)
  }

  @Test("planRoutine skips a block that already has a todo that day, even done or in another case")
  func planRoutineSkipsExisting() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    _ = try database.setRoutine(named: "commit", true, now: fixedNow)
    _ = try database.setRoutine(named: "study", true, now: fixedNow)
    let existing = try database.addTodo(try draft("my own commit todo", on: "2026-11-22", block: "COMMIT"), now: fixedNow)
    _ = try database.setDone(ids: [existing.id], done: true, now: fixedNow)
    let added = try database.planRoutine(on: day("2026-11-22"), now: fixedNow)
    #expect(added.map(\.block) == ["study"])
  }

  @Test("taking a block out of the routine stops planning it")
  func routineOff() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    _ = try database.setRoutine(named: "commit", true, now: fixedNow)
    #expect(try !database.setRoutine(named: "commit", false, now: fixedNow).block.isRoutine)
    #expect(try database.planRoutine(on: day("2026-11-22"), now: fixedNow).isEmpty)
  }
}
