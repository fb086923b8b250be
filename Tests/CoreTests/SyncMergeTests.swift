import Core
import Testing

@Suite("Hybrid logical clock")
struct HybridClockTests {
  static let hour: Int64 = 3_600_000
  static let t0: Int64 = 1_790_000_000_000  // a wall time in milliseconds (2026)

  @Test(
    "a local event takes the wall time, or one step past the last value",
    arguments: [
      // (last, wall ms, expected)
      (0, t0, HybridClock.value(milliseconds: t0)),
      (HybridClock.value(milliseconds: t0), t0, HybridClock.value(milliseconds: t0) + 1),
      (HybridClock.value(milliseconds: t0) + 7, t0 + 1, HybridClock.value(milliseconds: t0 + 1)),
      // The clock went back an hour (NTP, a manual change): the value still moves forward.
      (HybridClock.value(milliseconds: t0), t0 - hour, HybridClock.value(milliseconds: t0) + 1),
    ] as [(Int64, Int64, Int64)])
  func tick(last: Int64, now: Int64, expected: Int64) {
    #expect(HybridClock.tick(last: last, milliseconds: now) == expected)
    #expect(HybridClock.tick(last: last, milliseconds: now) > last)
  }

  @Test(
    "a machine whose clock is hours behind orders its next change after what it has seen",
    arguments: [1, 3, 12, 48] as [Int64])
  func skew(hoursBehind: Int64) {
    let ahead = HybridClock.tick(last: 0, milliseconds: Self.t0 + hoursBehind * Self.hour)
    let seen = HybridClock.receive(last: HybridClock.value(milliseconds: Self.t0), remote: ahead)
    let next = HybridClock.tick(last: seen, milliseconds: Self.t0 + 1)
    #expect(next > ahead)
    #expect(HybridClock.milliseconds(next) == Self.t0 + hoursBehind * Self.hour)
    #expect(HybridClock.counter(next) == 1)
  }

  @Test("the counter carries into the milliseconds when a millisecond holds more events than it counts")
  func carry() {
    let full = HybridClock.value(milliseconds: Self.t0) + (1 << HybridClock.counterBits) - 1
    let next = HybridClock.tick(last: full, milliseconds: Self.t0)
    #expect(next == HybridClock.value(milliseconds: Self.t0 + 1))
  }

  @Test(
    "a receive is capped a minute past the largest wall clock seen; the clock never goes back (issue 24)",
    arguments: [
      // (last, remote, largest wall ms seen, expected)
      // A remote value within the minute is taken as it is.
      (HybridClock.value(milliseconds: t0), HybridClock.value(milliseconds: t0 + 30_000) + 3, t0,
       HybridClock.value(milliseconds: t0 + 30_000) + 3),
      // A machine ten minutes fast pulls the clock one minute ahead, no further.
      (HybridClock.value(milliseconds: t0), HybridClock.value(milliseconds: t0 + 600_000), t0,
       HybridClock.value(milliseconds: t0 + 60_000)),
      // A clock already past the ceiling (before the cap) stays.
      (HybridClock.value(milliseconds: t0 + hour), HybridClock.value(milliseconds: t0 + 2 * hour), t0,
       HybridClock.value(milliseconds: t0 + hour)),
      // A remote value behind is no change.
      (HybridClock.value(milliseconds: t0), HybridClock.value(milliseconds: t0 - hour), t0, HybridClock.value(milliseconds: t0)),
    ] as [(Int64, Int64, Int64, Int64)])
  func capped(last: Int64, remote: Int64, wall: Int64, expected: Int64) {
    let clocks = SyncClocks(local: wall - 5_000, server: wall)
    #expect(HybridClock.receive(last: last, remote: remote, ceiling: clocks.ceiling) == expected)
    #expect(SyncClocks(local: wall, server: wall - 5_000).ceiling == clocks.ceiling)
    // Without the server's clock, no cap: this machine's own may be the wrong one.
    #expect(SyncClocks(local: wall, server: nil).ceiling == .max)
  }

  @Test("a machine hours behind the server still orders its next change after one it pulled", arguments: [2, 5, 48] as [Int64])
  func slowMachine(hoursBehind: Int64) {
    let server = Self.t0
    let local = server - hoursBehind * Self.hour
    let pulled = HybridClock.tick(last: 0, milliseconds: server - 1_000)
    let seen = HybridClock.receive(
      last: HybridClock.value(milliseconds: local), remote: pulled, ceiling: SyncClocks(local: local, server: server).ceiling)
    #expect(HybridClock.tick(last: seen, milliseconds: local + 1) > pulled)
  }

  @Test(
    "after a pull from a machine ten minutes fast, edits a second apart here are ordered by time",
    arguments: [1, 2, 10] as [Int64])
  func fastMachine(minutesAhead: Int64) {
    let fast = HybridClock.tick(last: 0, milliseconds: Self.t0 + minutesAhead * 600_000)
    let clocks = SyncClocks(local: Self.t0, server: Self.t0)
    let seen = HybridClock.receive(last: HybridClock.value(milliseconds: Self.t0), remote: fast, ceiling: clocks.ceiling)
    // Past the minute's lead, the next edits here take the wall time again, and a later edit
    // elsewhere (a second on) is later than an edit here.
    let here = HybridClock.tick(last: seen, milliseconds: Self.t0 + 61_000)
    #expect(HybridClock.milliseconds(here) == Self.t0 + 61_000)
    #expect(HybridClock.tick(last: 0, milliseconds: Self.t0 + 62_000) > here)
  }

  @Test(
    "the rule that decided a conflict, told truthfully",
    arguments: [
      // (winner ms, winner counter, loser ms, server ms, rule)
      (t0 + 2_000, 0, t0, t0 + 5_000, SyncConflict.Rule.later),
      (t0 + 600_000, 0, t0 + 2_000, t0 + 5_000, .clockAhead),
      (t0 + 64_000, 0, t0 + 2_000, t0 + 5_000, .later),
      (t0, 0, t0, t0, .tie),
      (t0, 1, t0, t0, .later),
    ] as [(Int64, Int64, Int64, Int64, SyncConflict.Rule)])
  func rule(winner: Int64, counter: Int64, loser: Int64, server: Int64, expected: SyncConflict.Rule) {
    let clocks = SyncClocks(local: server + 600_000, server: server)
    let rule = clocks.rule(
      winner: Stamp(clock: HybridClock.value(milliseconds: winner) + counter, device: "b"),
      loser: Stamp(clock: HybridClock.value(milliseconds: loser), device: "a"))
    #expect(rule == expected)
  }

  @Test("a receive never moves the clock back", arguments: [(5, 9, 9), (9, 5, 9), (7, 7, 7)] as [(Int64, Int64, Int64)])
  func receive(last: Int64, remote: Int64, expected: Int64) {
    #expect(HybridClock.receive(last: last, remote: remote) == expected)
  }
}

@Suite("Merge rules")
struct SyncMergeTests {
  static let row = "5e550bb4-e29b-4699-9d56-043c0bf7dd9b"
  static let laptop = "aaaaaaaa-0000-4000-8000-000000000001"
  static let desktop = "bbbbbbbb-0000-4000-8000-000000000002"
  static let hour: Int64 = HybridClock.value(milliseconds: 3_600_000)
  static let base: Fields = ["title": .text("Read"), "done": .integer(0), "priority": .integer(1)]

  static func stamp(_ clock: Int64, _ device: String) -> Stamp { Stamp(clock: clock, device: device) }
  static func create(_ clock: Int64, _ device: String, _ fields: Fields = base) -> SyncOperation {
    SyncOperation(.todo, row: row, .create(fields), stamp: stamp(clock, device))
  }
  static func set(_ field: String, _ value: FieldValue, _ clock: Int64, _ device: String) -> SyncOperation {
    SyncOperation(.todo, row: row, .update(field: field, value: value), stamp: stamp(clock, device))
  }
  static func delete(_ clock: Int64, _ device: String) -> SyncOperation {
    SyncOperation(.todo, row: row, .delete, stamp: stamp(clock, device))
  }

  /// Merges operations in order; returns the visible fields and every conflict reported.
  static func run(_ operations: [SyncOperation], pending: Set<Stamp> = []) -> (Fields?, [SyncConflict]) {
    var row: SyncRow? = nil
    var conflicts: [SyncConflict] = []
    for operation in operations {
      let outcome = SyncMerge.merge(operation, into: row, isPending: { pending.contains($0) })
      row = outcome.row
      conflicts += outcome.conflicts
    }
    return (row?.visibleFields, conflicts)
  }

  struct Example: Sendable, CustomTestStringConvertible {
    let name: String
    let operations: [SyncOperation]
    let expected: Fields?
    let conflicts: [SyncConflict.Kind]
    /// The stamps of the viewing machine's changes not pushed yet.
    var pending: Set<Stamp> = []
    var testDescription: String { name }
  }

  static let examples: [Example] = [
    Example(
      name: "ticked on the laptop, retitled on the desktop: both kept",
      operations: [create(10, laptop), set("done", .integer(1), 20, laptop), set("title", .text("Read SICP"), 21, desktop)],
      expected: ["title": .text("Read SICP"), "done": .integer(1), "priority": .integer(1)], conflicts: []),
    Example(
      name: "the same field on both: the later clock wins and a conflict is reported",
      operations: [create(10, laptop), set("title", .text("B"), 30, desktop), set("title", .text("A"), 20, laptop)],
      expected: ["title": .text("B"), "done": .integer(0), "priority": .integer(1)], conflicts: [.sameField],
      pending: [stamp(30, desktop)]),
    Example(
      name: "an older edit from a machine that pulled this one's pushed edit first: not reported again (issue 24)",
      operations: [create(10, laptop), set("title", .text("B"), 30, desktop), set("title", .text("A"), 20, laptop)],
      expected: ["title": .text("B"), "done": .integer(0), "priority": .integer(1)], conflicts: []),
    Example(
      name: "the desktop's clock is 5 hours behind but it had seen the laptop's edit: its edit wins",
      operations: [create(10, laptop), set("title", .text("A"), 5 * hour, laptop), set("title", .text("B"), 5 * hour + 1, desktop)],
      expected: ["title": .text("B"), "done": .integer(0), "priority": .integer(1)], conflicts: []),
    Example(
      name: "the same clock on both: the device id breaks the tie",
      operations: [create(10, laptop), set("title", .text("B"), 20, desktop), set("title", .text("A"), 20, laptop)],
      expected: ["title": .text("B"), "done": .integer(0), "priority": .integer(1)], conflicts: [.sameField],
      pending: [stamp(20, desktop)]),
    Example(
      name: "deleted on one machine, edited later on another: stays deleted, reported",
      operations: [create(10, laptop), delete(20, laptop), set("title", .text("B"), 30, desktop)],
      expected: nil, conflicts: [.editOfDeleted], pending: [stamp(20, laptop)]),
    Example(
      name: "an edit from a machine that pulled the pushed deletion first: stays deleted, not reported again",
      operations: [create(10, laptop), delete(20, laptop), set("title", .text("B"), 30, desktop)],
      expected: nil, conflicts: []),
    Example(
      name: "edited hours after a deletion it had not seen: stays deleted, reported",
      operations: [create(10, laptop), set("title", .text("B"), 9 * hour, desktop), delete(20, laptop)],
      expected: nil, conflicts: [.editOfDeleted], pending: [stamp(9 * hour, desktop)]),
    Example(
      name: "an undo of the deletion (a later creation) brings the row back with the later edits",
      operations: [create(10, laptop), delete(20, laptop), set("done", .integer(1), 30, desktop), create(40, laptop), set("title", .text("C"), 50, desktop)],
      expected: ["title": .text("C"), "done": .integer(0), "priority": .integer(1)], conflicts: [.editOfDeleted],
      pending: [stamp(20, laptop)]),
    Example(
      name: "a creation older than the deletion does not bring the row back",
      operations: [create(10, laptop), delete(30, desktop), create(20, laptop)],
      expected: nil, conflicts: []),
    Example(
      name: "a deletion older than a creation here (the same todo imported after it was deleted elsewhere): alive, the edit since not said deleted",
      operations: [create(30, desktop), set("title", .text("B"), 35, desktop), delete(20, laptop)],
      expected: ["title": .text("B"), "done": .integer(0), "priority": .integer(1)], conflicts: [],
      pending: [stamp(35, desktop)]),
    Example(
      name: "a later creation of the same row (another machine's first sync) over an edit not pushed yet: said",
      operations: [create(10, desktop), set("title", .text("B"), 20, desktop), create(30, laptop)],
      expected: base, conflicts: [.sameField], pending: [stamp(20, desktop)]),
    Example(
      name: "the routine planned on both machines (one uuid): one row, no conflict",
      operations: [create(10, laptop), create(12, desktop)],
      expected: base, conflicts: []),
    Example(
      name: "an operation merged twice changes nothing the second time",
      operations: [create(10, laptop), set("title", .text("B"), 20, desktop), set("title", .text("B"), 20, desktop)],
      expected: ["title": .text("B"), "done": .integer(0), "priority": .integer(1)], conflicts: []),
    Example(
      name: "a todo's number travels: the later one is the row's, never a conflict (the pull renumbers)",
      operations: [create(10, laptop, base.merging(["id": .integer(7)]) { a, _ in a }), set("id", .integer(9), 20, desktop)],
      expected: base.merging(["id": .integer(9)]) { a, _ in a }, conflicts: []),
  ]

  @Test("examples", arguments: examples)
  func example(_ example: Example) {
    let (fields, conflicts) = Self.run(example.operations, pending: example.pending)
    #expect(fields == example.expected)
    #expect(conflicts.map(\.kind) == example.conflicts)
  }

  @Test("every order of an example's operations (after the creation) gives the same row", arguments: examples)
  func anyOrder(_ example: Example) {
    let (expected, _) = Self.run(example.operations)
    let first = example.operations[0]
    for order in permutations(Array(example.operations.dropFirst())) {
      #expect(Self.run([first] + order).0 == expected, "\(order.map(\.stamp))")
    }
  }

  @Test("a remote edit that overwrites an edit not yet pushed is reported even though it is later")
  func pendingOverwritten() {
    let local = Self.stamp(20, Self.laptop)
    let (fields, conflicts) = Self.run(
      [Self.create(10, Self.laptop), Self.set("title", .text("A"), 20, Self.laptop), Self.set("title", .text("B"), 30, Self.desktop)],
      pending: [local])
    #expect(fields?["title"] == .text("B"))
    #expect(conflicts == [
      SyncConflict(kind: .sameField, entity: .todo, row: Self.row, field: "title", kept: .text("B"), lost: .text("A"),
        winner: Self.stamp(30, Self.desktop), loser: local)
    ])
  }

  @Test("the effect of a merge is what changes in the visible row")
  func effects() {
    let created = SyncMerge.merge(Self.create(10, Self.laptop), into: nil)
    #expect(created.effect == .create(Self.base))
    let edited = SyncMerge.merge(Self.set("done", .integer(1), 20, Self.desktop), into: created.row)
    #expect(edited.effect == .update([SyncEffect.Change(field: "done", old: .integer(0), new: .integer(1))]))
    let older = SyncMerge.merge(Self.set("done", .integer(0), 15, Self.desktop), into: edited.row)
    #expect(older.effect == .none)
    let deleted = SyncMerge.merge(Self.delete(30, Self.laptop), into: edited.row)
    #expect(deleted.effect == .delete)
  }
}

func permutations<T>(_ items: [T]) -> [[T]] {
  guard items.count > 1 else { return [items] }
  return items.indices.flatMap { index -> [[T]] in
    var rest = items
    let item = rest.remove(at: index)
    return permutations(rest).map { [item] + $0 }
  }
}
