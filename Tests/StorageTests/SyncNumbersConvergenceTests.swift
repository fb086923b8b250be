import Core
import Foundation
import Storage
import Testing

/// Each todo's number on a machine, by uuid.
private func numbers(_ database: AppDatabase) throws -> [String: Int64] {
  Dictionary(uniqueKeysWithValues: try allTodos(database).map { ($0.uuid, $0.id) })
}

@Suite("Todo numbers converge")
struct SyncNumbersConvergenceTests {
  /// Three machines adding todos (so numbers clash), deleting and undoing, syncing in any
  /// interleaving: a machine pulls, others sync, then it pushes (as `scripts/bench-remote
  /// --load` does). Then every machine syncs twice, one at a time: every machine shows the same
  /// number for every todo, each number once, above zero (issue 24 §1). Seed 919 (found by
  /// running seeds 1...1000): a todo created, deleted and its deletion undone on one machine,
  /// all three pulled in one page elsewhere, took the number of its first creation there. Seed
  /// 1072 (found over 1001...1400; 1001...3000 pass since): a todo renumbered on two machines,
  /// the earlier renumbering waiting in a pull for a number held here, then the later one
  /// setting the number it still showed: the earlier, which lost, moved it here alone.
  @Test("concurrent syncs with clashing numbers: the same number for each todo at quiescence", arguments: Array(UInt64(1)...UInt64(120)) + [919, 1072])
  func numbersConverge(seed: UInt64) throws {
    // The uuids too come from the seed (a second generator, so the steps stay those of the
    // seed): the todo keeping a clashing number is chosen by uuid, so a seed replays exactly.
    try RowID.$source.withValue(RowIDSource(SeededGenerator(seed: ~seed))) { try run(seed: seed) }
  }

  private func run(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let server = FakeSyncServer()
    let m = try SyncStoreTests.machines(3)
    var now = fixedNow
    // Machines that have pulled and not pushed yet (their sync is under way).
    var pulling = Set<Int>()
    for step in 0..<90 {
      now += Double(Int.random(in: 1...60, using: &random))
      let index = Int.random(in: 0..<3, using: &random)
      let machine = m[index]
      if pulling.contains(index) {
        // A sync under way finishes (its process holds the database: no local edit meanwhile).
        try server.pushAll(machine, now: now)
        pulling.remove(index)
        continue
      }
      let todos = try allTodos(machine)
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<35: _ = try machine.addTodo(try draft("t\(step)"), now: now)
      case 35..<43 where !todos.isEmpty:
        _ = try machine.deleteTodos(ids: [todos.randomElement(using: &random)!.id], now: now)
      case 43..<48: _ = try? machine.undo(now: now)
      case 48..<75:
        try server.pullAll(machine, now: now)
        pulling.insert(index)
      default: try server.sync(machine, now: now)
      }
    }
    for index in pulling.sorted() { try server.pushAll(m[index], now: now) }
    for _ in 0..<2 {
      for machine in m {
        now += 1
        try server.sync(machine, now: now)
      }
    }
    let first = try numbers(m[0])
    for machine in m {
      let here = try numbers(machine)
      #expect(here == first, "seed \(seed): \(here.filter { first[$0.key] != $0.value }) vs \(first.filter { here[$0.key] != $0.value })")
      #expect(Set(here.values).count == here.count, "seed \(seed): a number given twice")
      #expect(here.values.allSatisfy { $0 > 0 }, "seed \(seed)")
    }
    #expect(try shapes(m[0]) == shapes(m[1]), "seed \(seed)")
    #expect(try shapes(m[1]) == shapes(m[2]), "seed \(seed)")
    // Quiescent: nothing more to push anywhere.
    for machine in m {
      now += 1
      #expect(try server.sync(machine, now: now).pushed == 0, "seed \(seed)")
    }
  }
}
