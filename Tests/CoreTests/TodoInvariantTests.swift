import Core
import Testing

@Suite("Todo rules: the checks and the fixed resolution")
struct TodoInvariantTests {
  static let today = d("2026-11-22")

  @Test(
    "which rules a todo breaks on today",
    arguments: [
      // (day, done, dropped, broken)
      ("2026-11-22", true, false, []),
      ("2026-11-21", true, false, []),
      ("2026-11-23", false, false, []),
      ("2026-11-23", false, true, []),
      ("2026-11-20", false, true, []),
      ("2026-11-23", true, false, [.doneAfterToday]),
      ("2027-01-01", true, false, [.doneAfterToday]),
      ("2026-11-22", true, true, [.droppedAndDone]),
      ("2026-11-24", true, true, [.doneAfterToday, .droppedAndDone]),
    ] as [(String, Bool, Bool, [TodoRule])])
  func broken(day: String, done: Bool, dropped: Bool, expected: [TodoRule]) {
    let state = TodoRuleState(day: d(day), isDone: done, isDropped: dropped)
    #expect(TodoRules.broken(state, today: Self.today) == expected)
  }

  @Test(
    "the fixed resolution: done wins over dropped, and a done todo of a later day is on today",
    arguments: [
      // (day, done, dropped, carried from, expected day, expected dropped, expected carried)
      ("2026-11-23", true, false, [], "2026-11-22", false, []),
      ("2026-11-30", true, true, [], "2026-11-22", false, []),
      ("2026-11-22", true, true, [], "2026-11-22", false, []),
      // Carried from today and then moved on: back on today it is planned there once.
      ("2026-11-23", true, false, ["2026-11-22"], "2026-11-22", false, []),
      // A day it was carried from before today keeps counting it.
      ("2026-11-23", true, false, ["2026-11-20"], "2026-11-22", false, ["2026-11-20"]),
      // Nothing broken: nothing changes.
      ("2026-11-23", false, true, ["2026-11-20"], "2026-11-23", true, ["2026-11-20"]),
      ("2026-11-21", true, false, [], "2026-11-21", false, []),
    ] as [(String, Bool, Bool, [String], String, Bool, [String])])
  func resolve(
    day: String, done: Bool, dropped: Bool, carried: [String], expectedDay: String,
    expectedDropped: Bool, expectedCarried: [String]
  ) {
    let state = TodoRuleState(day: d(day), isDone: done, isDropped: dropped, carriedFrom: carried.map(d))
    let (resolved, fixes) = TodoRules.resolve(state, today: Self.today)
    #expect(resolved.day == d(expectedDay))
    #expect(resolved.isDone == done)
    #expect(resolved.isDropped == expectedDropped)
    #expect(resolved.carriedFrom == expectedCarried.map(d))
    #expect(fixes.map(\.rule).sorted { $0.rawValue < $1.rawValue }
      == TodoRules.broken(state, today: Self.today).sorted { $0.rawValue < $1.rawValue })
    // The result keeps every rule, and resolving it again changes nothing.
    #expect(TodoRules.broken(resolved, today: Self.today).isEmpty)
    #expect(TodoRules.resolve(resolved, today: Self.today).state == resolved)
    #expect(TodoRules.resolve(resolved, today: Self.today).fixes.isEmpty)
  }

  @Test(
    "each fix is said in words naming the todo, its days and what was kept",
    arguments: [
      (
        TodoRuleState(day: d("2026-11-23"), isDone: true),
        "todo 12 'Write' was done but planned for 2026-11-23, a day after today: it stays done, moved to today (2026-11-22)"
      ),
      (
        TodoRuleState(day: d("2026-11-22"), isDone: true, isDropped: true),
        "todo 12 'Write' was both dropped and done: it stays done and is no longer dropped"
      ),
    ] as [(TodoRuleState, String)])
  func sentence(state: TodoRuleState, expected: String) {
    let fixes = TodoRules.resolve(state, today: Self.today).fixes
    #expect(fixes.map { $0.sentence("todo 12 'Write'") } == [expected])
  }

  @Test("fields map to a state and back")
  func fields() {
    let state = TodoRuleState(day: d("2026-11-23"), isDone: true, isDropped: true, carriedFrom: [d("2026-11-20")])
    #expect(TodoRuleState(state.fields) == state)
    #expect(TodoRuleState(["done": .bool(true)]) == nil)
  }

  /// Done on machine A, moved to tomorrow on machine B: whichever order the two changes are
  /// merged in, both machines see the same row, so the fixed resolution gives the same todo.
  @Test("two machines merging done and a move in either order resolve to the same todo")
  func convergence() {
    let created = Stamp(clock: 1, device: "a")
    let create = SyncOperation(
      .todo, row: "r", .create(TodoRuleState(day: Self.today, isDone: false).fields), stamp: created)
    let done = SyncOperation(.todo, row: "r", .update(field: "done", value: .bool(true)), stamp: Stamp(clock: 5, device: "a"))
    let moves = [
      SyncOperation(.todo, row: "r", .update(field: "day", value: .text("2026-11-23")), stamp: Stamp(clock: 6, device: "b")),
      SyncOperation(
        .todo, row: "r", .update(field: "carriedFrom", value: .text("2026-11-22")), stamp: Stamp(clock: 6, device: "b")),
    ]
    func merged(_ operations: [SyncOperation]) -> TodoRuleState? {
      var row: SyncRow? = nil
      for operation in operations { row = SyncMerge.merge(operation, into: row).row }
      return row?.visibleFields.flatMap(TodoRuleState.init)
    }
    let onA = merged([create, done] + moves)
    let onB = merged([create] + moves + [done])
    #expect(onA == onB)
    let a = onA.map { TodoRules.resolve($0, today: Self.today) }
    let b = onB.map { TodoRules.resolve($0, today: Self.today) }
    #expect(a?.fixes.map(\.rule) == [.doneAfterToday])
    #expect(a?.state == b?.state)
    #expect(a?.state == TodoRuleState(day: Self.today, isDone: true))
  }
}
