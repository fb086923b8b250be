import Core
import Foundation
import GRDB
import Testing

@testable import Storage

/// Issue 24 §1: a fresh machine whose pull commits between a record where two todos clash on a
/// number and the later record that settled the clash on the machine that met it first ends
/// as if the pull had not been cut: the origin's settling replayed, nothing of its own to push.
@Suite("Sync: a clash of numbers a pull's commit leaves waits for the rest of the pull")
struct SyncNumbersAcrossCommitsTests {
  /// A todo with a chosen uuid (which of two clashing todos keeps the number: the smaller).
  static func plan(_ uuid: String, _ title: String) throws -> ImportPlan {
    ImportPlan(todos: [try ImportedTodo(uuid: uuid, title: title, priority: .mid, day: fixedToday)])
  }

  /// Local entries of `machine` (its own changes, pushed at its next sync).
  static func own(_ machine: AppDatabase) throws -> [JournalEntry] {
    try machine.journal(limit: 100).filter { $0.fromDevice == nil }
  }

  @Test(
    "A's #1 and B's #1, both pushed before either pulled; A settled the clash; C pulls B's record and A's settling in two commits",
    arguments: [true, false])
  func freshMachine(aKeeps: Bool) throws {
    let (small, large) = ("10000000-0000-4000-8000-000000000000", "20000000-0000-4000-8000-000000000000")
    let server = FakeSyncServer()
    let a = try AppDatabase.inMemory(command: "add")
    let b = try AppDatabase.inMemory(command: "add")
    _ = try a.importTodos(try Self.plan(aKeeps ? small : large, "from a"), today: fixedToday, now: fixedNow)
    _ = try b.importTodos(try Self.plan(aKeeps ? large : small, "from b"), today: fixedToday, now: fixedNow)
    // Both push their #1 before either pulls the other's.
    try server.pullAll(b, now: fixedNow)
    try server.sync(a, now: fixedNow + 1)
    try server.pushAll(b, now: fixedNow + 2)
    // A meets the clash and settles it: the larger uuid moves to #2 (A's change, pushed).
    try server.sync(a, now: fixedNow + 3)
    #expect(server.records.count == 3, "A's first sync, B's, A's settling")
    let settledOnA = Set(try allTodos(a).map { "\($0.uuid) #\($0.id)" })
    #expect(settledOnA == ["\(small) #1", "\(large) #2"])

    // C, fresh, commits after the clash (A's and B's first syncs), then reads A's settling.
    let c = try AppDatabase.inMemory(command: "test")
    try c.sync.beginSync(fileIdentity: nil, now: fixedNow + 10)
    let first = try c.sync.applyPulled(
      Array(server.records[0..<2]), today: fixedToday, now: fixedNow + 10, clocks: SyncClocks(local: SyncClocks.milliseconds(fixedNow + 10), server: nil),
      settling: false)
    let last = try c.sync.applyPulled(Array(server.records[2...]), today: fixedToday, now: fixedNow + 10)
    #expect(Set(try allTodos(c).map { "\($0.uuid) #\($0.id)" }) == settledOnA)
    // Nothing renumbered here, nothing of C's own to push.
    #expect(first.renumbered.filter { !first.arrived.contains($0.uuid) }.isEmpty)
    #expect(last.renumbered.filter { !first.arrived.contains($0.uuid) }.isEmpty, "\(last.renumbered)")
    let own = try Self.own(c)
    #expect(own.isEmpty, "\(own.map(\.summary))")
    #expect(try c.sync.pushPage()?.records.isEmpty ?? true)
  }

  @Test("a sync stopped after a page that left a clash waiting: the next pull, even of nothing, settles it")
  func stoppedAfterAPage() throws {
    let (small, large) = ("10000000-0000-4000-8000-000000000000", "20000000-0000-4000-8000-000000000000")
    let server = FakeSyncServer()
    let a = try AppDatabase.inMemory(command: "add")
    let b = try AppDatabase.inMemory(command: "add")
    _ = try a.importTodos(try Self.plan(small, "from a"), today: fixedToday, now: fixedNow)
    _ = try b.importTodos(try Self.plan(large, "from b"), today: fixedToday, now: fixedNow)
    try server.pullAll(b, now: fixedNow)
    try server.sync(a, now: fixedNow + 1)
    try server.pushAll(b, now: fixedNow + 2)
    let c = try AppDatabase.inMemory(command: "test")
    try c.sync.beginSync(fileIdentity: nil, now: fixedNow + 10)
    _ = try c.sync.applyPulled(
      server.records, today: fixedToday, now: fixedNow + 10, clocks: SyncClocks(local: SyncClocks.milliseconds(fixedNow + 10), server: nil), settling: false)
    // B's todo waits for its number below zero meanwhile.
    #expect(try allTodos(c).contains { $0.id < 0 })
    _ = try c.sync.applyPulled([], today: fixedToday, now: fixedNow + 11)
    #expect(Set(try allTodos(c).map { "\($0.uuid) #\($0.id)" }) == ["\(small) #1", "\(large) #2"])
  }
}
