import Core
import Foundation
import Storage
import Testing

/// Issue 24 §3: a conflict of two syncs that both pushed before either pulled is reported once,
/// on the machine that pushed second (its edit met the other on the server, as a sync that pulls
/// first would have met it); a machine's name travels in its records and names its changes in
/// the other machines' logs.
@Suite("Overlapping syncs and device names through a fake server")
struct SyncOverlapAndNamesTests {
  /// Two machines that synced one todo titled "Read"; its uuid.
  static func synced() throws -> (FakeSyncServer, AppDatabase, AppDatabase, String) {
    let server = FakeSyncServer()
    let m = try SyncStoreTests.machines(2)
    let todo = try m[0].addTodo(try draft("Read"), now: fixedNow)
    try server.sync(m[0])
    try server.sync(m[1])
    try server.sync(m[0])
    return (server, m[0], m[1], todo.uuid)
  }

  /// Two syncs at the same moment: both pull (nothing new), then `first` pushes, then `second`:
  /// neither saw the other's change.
  static func overlap(_ server: FakeSyncServer, first: AppDatabase, second: AppDatabase) throws {
    #expect(try server.pullAll(first, now: fixedNow + 62).conflicts.isEmpty)
    #expect(try server.pullAll(second, now: fixedNow + 62).conflicts.isEmpty)
    try server.pushAll(first, now: fixedNow + 62)
    try server.pushAll(second, now: fixedNow + 62)
  }

  static func retitle(_ machine: AppDatabase, _ title: String, at seconds: Double) throws {
    _ = try machine.editTodo(
      id: try allTodos(machine)[0].id, try TodoChanges(title: title), today: fixedToday, now: fixedNow + seconds)
  }

  @Test("both edit the title and both push before either pulls: the machine that pushed second reports it, once")
  func overlappingSameField() throws {
    let (server, a, b, _) = try Self.synced()
    try Self.retitle(a, "A's title", at: 60)
    try Self.retitle(b, "B's title", at: 61)
    try Self.overlap(server, first: a, second: b)
    // Each syncs: only b (whose record the server holds after a's) reports it.
    let onA = try server.sync(a, now: fixedNow + 63)
    let onB = try server.sync(b, now: fixedNow + 64)
    #expect(onA.conflicts.isEmpty, "\(onA.conflicts)")
    #expect(onB.conflicts.count == 1, "\(onB.conflicts)")
    let conflict = try #require(onB.conflicts.first)
    #expect(conflict.conflict.kind == .sameField && conflict.conflict.field == "title")
    #expect(conflict.conflict.kept == .text("B's title") && conflict.conflict.lost == .text("A's title"))
    #expect(conflict.kept.words == "B's title" && conflict.lost.words == "A's title")
    #expect(conflict.subject == "#1 'B's title'")
    // Not again, on either, in later syncs; both keep the later edit.
    for _ in 0..<2 {
      #expect(try server.sync(a, now: fixedNow + 65).conflicts.isEmpty)
      #expect(try server.sync(b, now: fixedNow + 66).conflicts.isEmpty)
    }
    #expect(try allTodos(a)[0].title == "B's title" && allTodos(b)[0].title == "B's title")
  }

  @Test("the other order: b pushes first, a second: a reports it, once")
  func overlappingOtherOrder() throws {
    let (server, a, b, _) = try Self.synced()
    try Self.retitle(a, "A's title", at: 60)
    try Self.retitle(b, "B's title", at: 61)
    try Self.overlap(server, first: b, second: a)
    let onB = try server.sync(b, now: fixedNow + 63)
    let onA = try server.sync(a, now: fixedNow + 64)
    #expect(onB.conflicts.isEmpty, "\(onB.conflicts)")
    #expect(onA.conflicts.map(\.conflict.kind) == [.sameField], "\(onA.conflicts)")
    #expect(onA.conflicts.first?.conflict.kept == .text("B's title"))
    #expect(try server.sync(b, now: fixedNow + 65).conflicts.isEmpty)
    #expect(try server.sync(a, now: fixedNow + 66).conflicts.isEmpty)
  }

  @Test("an edit made after pulling the other's pushed edit is no conflict, on either machine")
  func laterEditIsNoConflict() throws {
    let (server, a, b, _) = try Self.synced()
    try Self.retitle(a, "A's title", at: 60)
    #expect(try server.sync(a, now: fixedNow + 61).conflicts.isEmpty)
    #expect(try server.sync(b, now: fixedNow + 62).conflicts.isEmpty)
    try Self.retitle(b, "B's title", at: 63)
    #expect(try server.sync(b, now: fixedNow + 64).conflicts.isEmpty)
    #expect(try server.sync(a, now: fixedNow + 65).conflicts.isEmpty)
    // Even when a had not read its own edit back before b's arrived.
    try Self.retitle(a, "A again", at: 66)
    try server.pullAll(a, now: fixedNow + 67)
    try server.pushAll(a, now: fixedNow + 67)
    #expect(try server.sync(b, now: fixedNow + 68).conflicts.isEmpty)
    try Self.retitle(b, "B again", at: 69)
    #expect(try server.sync(b, now: fixedNow + 70).conflicts.isEmpty)
    #expect(try server.sync(a, now: fixedNow + 71).conflicts.isEmpty)
    #expect(try allTodos(a)[0].title == "B again")
  }

  @Test("deleted on one, edited on the other, both pushed before either pulled: reported once")
  func overlappingDeleteAndEdit() throws {
    let (server, a, b, _) = try Self.synced()
    _ = try a.deleteTodos(ids: [try allTodos(a)[0].id], now: fixedNow + 60)
    try Self.retitle(b, "B's title", at: 61)
    try Self.overlap(server, first: a, second: b)
    let onA = try server.sync(a, now: fixedNow + 63)
    let onB = try server.sync(b, now: fixedNow + 64)
    // b pushed second: b reports it.
    #expect(onA.conflicts.isEmpty, "\(onA.conflicts)")
    #expect(onB.conflicts.map(\.conflict.kind) == [.editOfDeleted], "\(onB.conflicts)")
    #expect(onB.conflicts.first?.kept.words == "deleted")
    #expect(try server.sync(a, now: fixedNow + 65).conflicts.isEmpty)
    #expect(try server.sync(b, now: fixedNow + 66).conflicts.isEmpty)
    #expect(try allTodos(a).isEmpty && allTodos(b).isEmpty)
  }

  @Test(
    "edited elsewhere, deleted here: the conflict names the todo as this machine last knew it, not 'a todo' nor by the lost edit",
    arguments: [false, true])
  func editOfDeletedHere_namedByWhatThisMachineKnew(retitled: Bool) throws {
    let (server, a, b, _) = try Self.synced()
    // Renamed here, then deleted: its last title here names it.
    try Self.retitle(a, "Read SICP", at: 59)
    _ = try a.deleteTodos(ids: [try allTodos(a)[0].id], now: fixedNow + 60)
    if retitled {
      try Self.retitle(b, "B's title", at: 61)
    } else {
      _ = try b.editTodo(
        id: try allTodos(b)[0].id, try TodoChanges(priority: .high), today: fixedToday, now: fixedNow + 61)
    }
    try Self.overlap(server, first: b, second: a)
    let onA = try server.sync(a, now: fixedNow + 63)
    #expect(onA.conflicts.map(\.conflict.kind) == [.editOfDeleted], "\(onA.conflicts)")
    #expect(onA.conflicts.first?.subject == "#1 'Read SICP'", "\(onA.conflicts)")
    #expect(onA.conflicts.first?.kept.words == "deleted")
    #expect(try allTodos(a).isEmpty)
  }

  @Test("random edits of one title with pulls and pushes interleaved: no conflict reported twice, and the machines converge", arguments: Array(UInt64(1)...UInt64(20)))
  func neverTwice(seed: UInt64) throws {
    var random = SeededGenerator(seed: seed)
    let (server, a, b, _) = try Self.synced()
    let m = [a, b]
    var reported: [String] = []
    var seconds = 100.0
    for step in 0..<40 {
      seconds += 1
      let machine = m[Int.random(in: 0..<2, using: &random)]
      switch Int.random(in: 0..<3, using: &random) {
      case 0: try Self.retitle(machine, "t\(step)", at: seconds)
      case 1:
        reported += try server.pullAll(machine, now: fixedNow + seconds).conflicts.map {
          "\($0.conflict.winner) \($0.conflict.loser)"
        }
      default: try server.pushAll(machine, now: fixedNow + seconds)
      }
    }
    for _ in 0..<2 {
      for machine in m {
        seconds += 1
        reported += try server.sync(machine, now: fixedNow + seconds).conflicts.map {
          "\($0.conflict.winner) \($0.conflict.loser)"
        }
      }
    }
    #expect(Set(reported).count == reported.count, "seed \(seed): \(reported)")
    #expect(try allTodos(a)[0].title == allTodos(b)[0].title, "seed \(seed)")
  }

  @Test("a machine's name travels in its records: the other's log names it, a renamed machine by its new name, one without a name by nothing")
  func deviceNames() throws {
    let server = FakeSyncServer()
    let m = try SyncStoreTests.machines(3)
    let (a, b, c) = (m[0], m[1], m[2])
    try a.settings.setRemoteSettings([.deviceName: "desktop"])
    _ = try a.addTodo(try draft("Read"), now: fixedNow)
    _ = try c.addTodo(try draft("Write"), now: fixedNow)
    try server.sync(a)
    try server.sync(c)
    // The plain payload carries the name (the server gets it sealed, with the rest).
    #expect(server.records.contains { $0.record.payload.contains("\"from\":\"desktop\"") })
    #expect(!server.records.contains { $0.record.device == (try? c.sync.syncStatus().device) && $0.record.payload.contains("\"from\"") })
    try server.sync(b)
    let pulled = try b.journal(limit: 50).filter { $0.fromDevice != nil }
    let fromA = pulled.filter { $0.fromDevice == (try? a.sync.syncStatus().device) }
    let fromC = pulled.filter { $0.fromDevice == (try? c.sync.syncStatus().device) }
    #expect(!fromA.isEmpty && !fromC.isEmpty)
    #expect(fromA.allSatisfy { $0.fromDeviceName == "desktop" }, "\(fromA)")
    #expect(fromC.allSatisfy { $0.fromDeviceName == nil }, "\(fromC)")
    #expect(try b.journal(limit: 50).filter { $0.fromDevice == nil }.allSatisfy { $0.fromDeviceName == nil })
    // Renamed: its next record says so, and every entry of it is named anew.
    try a.settings.setRemoteSettings([.deviceName: "study pc"])
    _ = try a.setDone(ids: [try allTodos(a).first { $0.title == "Read" }!.id], done: true, now: fixedNow + 60)
    try server.sync(a, now: fixedNow + 61)
    try server.sync(b, now: fixedNow + 62)
    let renamed = try b.journal(limit: 50).filter { $0.fromDevice == (try? a.sync.syncStatus().device) }
    #expect(renamed.count == fromA.count + 1)
    #expect(renamed.allSatisfy { $0.fromDeviceName == "study pc" }, "\(renamed)")
    // `show`'s history names it too.
    let read = try #require(try allTodos(b).first { $0.title == "Read" })
    #expect(try b.history(ofRow: read.uuid).contains { $0.fromDeviceName == "study pc" })
  }
}
