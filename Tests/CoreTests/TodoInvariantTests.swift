import Core
import Foundation
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
      // The backlog (no day): open or dropped is fine, done is not.
      (nil, false, false, []),
      (nil, false, true, []),
      (nil, true, false, [.doneInBacklog]),
      (nil, true, true, [.droppedAndDone, .doneInBacklog]),
    ] as [(String?, Bool, Bool, [TodoRule])])
  func broken(day: String?, done: Bool, dropped: Bool, expected: [TodoRule]) {
    let state = TodoRuleState(day: day.map(d), isDone: done, isDropped: dropped)
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
      // Done in the backlog: it stays done, on today; a day it was carried from keeps it.
      (nil, true, false, [], "2026-11-22", false, []),
      (nil, true, true, ["2026-11-20"], "2026-11-22", false, ["2026-11-20"]),
      // Open in the backlog: nothing changes.
      (nil, false, false, ["2026-11-20"], nil, false, ["2026-11-20"]),
    ] as [(String?, Bool, Bool, [String], String?, Bool, [String])])
  func resolve(
    day: String?, done: Bool, dropped: Bool, carried: [String], expectedDay: String?,
    expectedDropped: Bool, expectedCarried: [String]
  ) {
    let state = TodoRuleState(day: day.map(d), isDone: done, isDropped: dropped, carriedFrom: carried.map(d))
    let (resolved, fixes) = TodoRules.resolve(state, today: Self.today)
    #expect(resolved.day == expectedDay.map(d))
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
        "#12 'Write' was done but planned for 2026-11-23, a day after today: it stays done, moved to today (2026-11-22)"
      ),
      (
        TodoRuleState(day: d("2026-11-22"), isDone: true, isDropped: true),
        "#12 'Write' was both dropped and done: it stays done and is no longer dropped"
      ),
      (
        TodoRuleState(day: nil, isDone: true),
        "#12 'Write' was done but in the backlog: it stays done, moved to today (2026-11-22)"
      ),
    ] as [(TodoRuleState, String)])
  func sentence(state: TodoRuleState, expected: String) {
    let fixes = TodoRules.resolve(state, today: Self.today).fixes
    #expect(fixes.map { $0.sentence("#12 'Write'") } == [expected])
  }

  @Test("fields map to a state and back")
  func fields() {
    let state = TodoRuleState(day: d("2026-11-23"), isDone: true, isDropped: true, carriedFrom: [d("2026-11-20")])
    #expect(TodoRuleState(state.fields) == state)
    #expect(TodoRuleState(["done": .bool(true)]) == nil)
    // A null day is the backlog, and reads back as such; an unreadable one is no state.
    let waiting = TodoRuleState(day: nil, isDone: false, carriedFrom: [d("2026-11-20")])
    #expect(waiting.fields["day"] == .null)
    #expect(TodoRuleState(waiting.fields) == waiting)
    #expect(TodoRuleState(["day": .text("someday"), "done": .bool(false)]) == nil)
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

  @Test(
    "carrying into and out of the backlog: a begun day keeps the record, the backlog itself is no day",
    arguments: [
      // (day, done, carried from, target, expected carried from)
      ("2026-11-22", false, [], nil, ["2026-11-22"]),
      ("2026-11-20", false, [], nil, ["2026-11-20"]),
      ("2026-11-25", false, [], nil, []),
      (nil, false, ["2026-11-20"], "2026-11-23", ["2026-11-20"]),
      (nil, false, [], "2026-11-22", []),
      // Back onto a day it was carried from: planned there again, once.
      (nil, false, ["2026-11-20", "2026-11-21"], "2026-11-21", ["2026-11-20"]),
    ] as [(String?, Bool, [String], String?, [String])])
  func carryBacklog(day: String?, done: Bool, carried: [String], target: String?, expected: [String]) {
    let days = CarryRecord.days(
      carriedFrom: carried.map(d), day: day.map(d), isDone: done, movesTo: target.map(d), today: Self.today)
    #expect(days == expected.map(d))
  }

  @Test("a done todo cannot move into the backlog; an open one can")
  func doneStaysOnItsDay() throws {
    var todo = Todo(id: 3, title: "t", priority: .mid, day: Self.today, createdAt: .init(timeIntervalSince1970: 0))
    try CarryRecord.checkMove(todo, to: nil, today: Self.today)
    todo.isDone = true
    #expect(throws: CoreError.self) { try CarryRecord.checkMove(todo, to: nil, today: Self.today) }
    try CarryRecord.checkMove(todo, to: Self.today, today: Self.today)
  }

  @Test("the backlog is never overdue, comes first in list order, and is ordered by priority then age")
  func backlogOrder() {
    let t0 = Date(timeIntervalSince1970: 0)
    let dated = Todo(id: 1, title: "a", priority: .low, day: d("2026-11-01"), createdAt: t0)
    let waiting = Todo(id: 2, title: "b", priority: .low, day: nil, createdAt: t0)
    #expect(!waiting.isOverdue(today: Self.today) && dated.isOverdue(today: Self.today))
    #expect(!waiting.isPlanned(before: Self.today) && dated.isPlanned(before: Self.today))
    #expect([dated, waiting].sorted(by: Todo.listOrder).map(\.id) == [2, 1])
    let old = Todo(id: 9, title: "c", priority: .mid, day: nil, createdAt: t0)
    let new = Todo(id: 4, title: "d", priority: .mid, day: nil, createdAt: t0.addingTimeInterval(5))
    let high = Todo(id: 7, title: "e", priority: .high, day: nil, createdAt: t0.addingTimeInterval(9))
    #expect([new, waiting, old, high].sorted(by: Todo.backlogOrder).map(\.id) == [7, 9, 4, 2])
  }

  // MARK: - Issue 24 tryout 18: the rules judged for a merge of another machine's changes

  static func instant(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

  @Test(
    "the latest day that is today somewhere is the day in UTC+14",
    arguments: [
      ("2026-11-28T09:59:59Z", "2026-11-28"),
      ("2026-11-28T10:00:00Z", "2026-11-29"),
      ("2026-11-28T13:45:00Z", "2026-11-29"),
      ("2026-11-28T23:59:59Z", "2026-11-29"),
      // Auckland's 02:45 on 11-29 (UTC+13) is 11-29 there and in UTC+14.
      ("2026-11-29T02:45:00+13:00", "2026-11-29"),
      ("1969-12-31T09:00:00Z", "1969-12-31"),
    ])
  func latestDay(now: String, expected: String) {
    #expect(TodoRules.latestDay(at: Self.instant(now)) == d(expected))
  }

  @Test(
    "done after today: a merge judges by the latest day anywhere, this machine's commands by its today",
    arguments: [
      // (day, today, latest, broken)
      ("2026-11-29", "2026-11-28", nil, [.doneAfterToday]),
      ("2026-11-29", "2026-11-28", "2026-11-29", []),
      ("2026-11-30", "2026-11-28", "2026-11-29", [.doneAfterToday]),
      ("2026-11-28", "2026-11-28", "2026-11-29", []),
      // A latest day behind today (a pinned clock) never makes today's work later.
      ("2026-11-28", "2026-11-28", "2026-11-27", []),
      ("2026-11-29", "2026-11-28", "2026-11-27", [.doneAfterToday]),
    ] as [(String, String, String?, [TodoRule])])
  func doneAfterTodayElsewhere(day: String, today: String, latest: String?, expected: [TodoRule]) {
    let state = TodoRuleState(day: d(day), isDone: true)
    #expect(TodoRules.broken(state, today: d(today), latest: latest.map(d)) == expected)
    let (resolved, fixes) = TodoRules.resolve(state, today: d(today), latest: latest.map(d))
    #expect(fixes.map(\.rule) == expected)
    // Mended, it is on this machine's today.
    #expect(resolved.day == (expected.isEmpty ? d(day) : d(today)))
  }

  @Test(
    "dropped and moved unseen: the move wins, the todo is open on its new day; a drop alone is kept",
    arguments: [
      // (day, done, dropped, movedUnseen, carried, broken, expected dropped)
      ("2026-11-22", false, true, true, ["2026-11-20"], [.droppedAndMoved], false),
      ("2026-11-25", false, true, true, ["2026-11-20"], [.droppedAndMoved], false),
      (nil, false, true, true, ["2026-11-20"], [.droppedAndMoved], false),
      // Carried, then dropped on this machine (seen): a drop of today's todo is the user's.
      ("2026-11-22", false, true, false, ["2026-11-20"], [], true),
      // Done as well: dropped and done has it, once.
      ("2026-11-22", true, true, true, ["2026-11-20"], [.droppedAndDone], false),
      // Not dropped (taken back up since): nothing to mend.
      ("2026-11-22", false, false, true, ["2026-11-20"], [], false),
    ] as [(String?, Bool, Bool, Bool, [String], [TodoRule], Bool)])
  func droppedAndMoved(
    day: String?, done: Bool, dropped: Bool, unseen: Bool, carried: [String], expected: [TodoRule],
    expectedDropped: Bool
  ) {
    let state = TodoRuleState(
      day: day.map(d), isDone: done, isDropped: dropped, carriedFrom: carried.map(d), movedUnseen: unseen)
    #expect(TodoRules.broken(state, today: Self.today) == expected)
    let (resolved, fixes) = TodoRules.resolve(state, today: Self.today)
    #expect(fixes.map(\.rule) == expected)
    #expect(resolved.isDropped == expectedDropped)
    // The move stands: its day and the days it was carried from are kept.
    #expect(resolved.day == state.day && resolved.carriedFrom == state.carriedFrom)
    #expect(!resolved.movedUnseen && TodoRules.broken(resolved, today: Self.today).isEmpty)
  }

  @Test("dropped and moved is said in words naming the day it stays on")
  func droppedAndMovedSentence() {
    let state = TodoRuleState(
      day: Self.today, isDone: false, isDropped: true, carriedFrom: [d("2026-11-20")], movedUnseen: true)
    #expect(TodoRules.resolve(state, today: Self.today).fixes.map { $0.sentence("#1 'old1'") } == [
      "#1 'old1' was dropped on one machine and moved to 2026-11-22 on another: it stays on 2026-11-22, open, and is no longer dropped"
    ])
  }

  /// A merge sees a drop meet a move only when one of them is this machine's, not pushed yet,
  /// and the other the pulled one: the machine that pulled the other's change first (and saw
  /// it) could not have made its own.
  @Test(
    "a drop meets a move unseen only where one is pending here and the other pulled",
    arguments: [
      // (pulled field, pending here, pulled wins the field, expected)
      ("day", "dropped", true, true),  // the dropper pulls the move
      ("dropped", "day", true, true),  // the mover pulls the drop
      ("day", "title", true, false),  // the drop was pushed (seen by the mover): no
      ("dropped", "title", true, false),
      ("title", "dropped", true, false),  // another field moved nothing
      ("day", "dropped", false, false),  // the pulled move lost to a later day here
    ] as [(String, String, Bool, Bool)])
  func movedUnseen(pulled: String, pending: String, pulledWins: Bool, expected: Bool) {
    let old = Stamp(clock: 1, device: "a")
    let mine = Stamp(clock: 5, device: "here")
    let theirs = Stamp(clock: 6, device: "there")
    var row = SyncRow(
      existence: Stamped(true, old),
      fields: [
        "day": Stamped(.text("2026-11-20"), old), "dropped": Stamped(.bool(true), old),
        "done": Stamped(.bool(false), old), "title": Stamped(.text("t"), old),
      ])
    row.fields[pending]?.stamp = mine
    if pending == "dropped" || pulled == "dropped" {
      // The drop is whichever side's; the row holds it dropped.
      row.fields["dropped"]?.value = .bool(true)
    }
    let value: FieldValue = pulled == "dropped" ? .bool(true) : .text("2026-11-22")
    let operation = SyncOperation(.todo, row: "r", .update(field: pulled, value: value), stamp: theirs)
    var merged = SyncMerge.merge(operation, into: row).row
    if !pulledWins { merged.fields[pulled]?.stamp = Stamp(clock: 9, device: "here") }
    #expect(TodoRules.movedUnseen(merged, by: operation, isPending: { $0.device == "here" }) == expected)
  }

  @Test(
    "a day's routine once: the day's planned todo folds into the one moved there, done kept",
    arguments: [
      // (planned done, others (uuid, done), expected kept, takes done)
      (false, [("b", false)], "b", false),
      (true, [("b", false)], "b", true),
      (false, [("b", true)], "b", false),
      (true, [("b", true)], "b", false),
      // Several moved there: the smallest uuid stays, on every machine.
      (false, [("d", false), ("b", false)], "b", false),
    ] as [(Bool, [(String, Bool)], String, Bool)])
  func routineOnce(plannedDone: Bool, others: [(String, Bool)], kept: String, takesDone: Bool) throws {
    let planned = RoutineTodo(uuid: "c", number: 4, isDone: plannedDone)
    let todos = others.enumerated().map { RoutineTodo(uuid: $1.0, number: Int64(10 + $0), isDone: $1.1) }
    let fold = try #require(RoutineOnce.fold(planned: planned, others: todos))
    #expect(fold.kept.uuid == kept && fold.removed == planned && fold.takesDone == takesDone)
    // In any order, the same.
    #expect(RoutineOnce.fold(planned: planned, others: todos.reversed())?.kept.uuid == kept)
  }

  @Test("a day's routine once: nothing to fold without the day's planned todo or a second todo")
  func routineOnceNothing() {
    let moved = RoutineTodo(uuid: "b", number: 3, isDone: false)
    #expect(RoutineOnce.fold(planned: nil, others: [moved, RoutineTodo(uuid: "e", number: 5, isDone: false)]) == nil)
    #expect(RoutineOnce.fold(planned: RoutineTodo(uuid: "c", number: 4, isDone: false), others: []) == nil)
    #expect(
      RoutineOnce.sentence(
        title: "Study", day: d("2026-11-29"), kept: moved, removed: RoutineTodo(uuid: "c", number: 4, isDone: true),
        takesDone: true)
        == "#4 'Study' was the routine planned for 2026-11-29 on one machine, and #3 was moved there on another: a day holds its routine once, so #3 stays, done, and #4 is removed")
  }
}
