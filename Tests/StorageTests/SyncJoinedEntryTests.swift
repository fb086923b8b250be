import Core
import Foundation
import GRDB
import Testing

@testable import Storage

/// Issue 24 §3: one change on one machine is one journal entry on every machine. An import of
/// 2,500 todos travels as three records (``Caps/operationsPerRecord``); the machine that pulls
/// them makes one entry of them, however the pull splits them.
@Suite("Sync: the records of one entry make one entry where they are pulled")
struct SyncJoinedEntryTests {
  static let imported = 2_500

  /// The todo of `index` an import brings.
  static func todo(_ index: Int) throws -> ImportedTodo {
    try ImportedTodo(
      uuid: String(format: "d0000000-0000-4000-8000-%012d", index), title: "task \(index)",
      priority: Priority.allCases[index % 3], day: fixedToday.adding(days: -(index % 30)), isDone: index % 4 == 0,
      project: "p\(index % 3)", tags: [])
  }

  /// A laptop and a desktop that synced, then the laptop imported ``imported`` todos (one
  /// change) and pushed them: the laptop, the desktop (which has not pulled them) and the
  /// records of the import on the server.
  static func machines(_ server: FakeSyncServer) throws -> (
    laptop: AppDatabase, desktop: AppDatabase, records: [(seq: Int64, record: SyncRecord)]
  ) {
    let laptop = try AppDatabase.inMemory(command: "import taskwarrior tasks.json")
    try server.sync(laptop)
    let desktop = try AppDatabase.inMemory(command: "test")
    try server.sync(desktop)
    let before = server.records.count
    _ = try laptop.importTodos(
      ImportPlan(todos: try (0..<imported).map(todo)), today: fixedToday, now: fixedNow)
    try server.sync(laptop)
    return (laptop, desktop, Array(server.records[before...]))
  }

  /// The entries of `database`'s journal from another device.
  static func pulled(_ database: AppDatabase) throws -> [JournalEntry] {
    try database.journal(limit: 100).filter { $0.fromDevice != nil }
  }

  @Test(
    "an import of 2,500 todos pulled in one page, in two, one record at a time, or after a sync stopped between them: one entry",
    arguments: [[3], [1, 2], [2, 1], [1, 1, 1]], [false, true])
  func oneEntry(split: [Int], oneRun: Bool) throws {
    let server = FakeSyncServer()
    let (laptop, desktop, records) = try Self.machines(server)
    #expect(records.count == 3, "the import travels as three records")
    #expect(records.allSatisfy { $0.record.payload.contains(#","entry":""#) })
    let own = try #require(try laptop.journal(limit: 1).first)
    #expect(try Self.pulled(desktop).isEmpty)
    // Each group applied and committed on its own, as a pull's commits (`oneRun`: one sync
    // value, as a sync run's, which keeps the entry's summary across them) or two syncs do.
    let run = desktop.sync
    var start = 0
    for count in split {
      _ = try (oneRun ? run : desktop.sync).applyPulled(
        Array(records[start..<start + count]), today: fixedToday, now: fixedNow)
      start += count
    }
    let entries = try Self.pulled(desktop)
    #expect(entries.count == 1, "\(entries.map(\.summary))")
    let entry = try #require(entries.first)
    #expect(entry.command == own.command)
    // What the whole import did, as the laptop's own entry says it.
    #expect(entry.summary == own.summary, "\(entry.summary)")
    #expect(
      entry.summary
        == "added 3 projects ('p0', 'p1', 'p2'); added 625 todos ('task 0', 'task 4', 'task 8' and 622 more) as done; "
        + "added 1875 todos ('task 1', 'task 2', 'task 3' and 1872 more)", "\(entry.summary)")
    #expect(try allTodos(desktop).count == Self.imported)
    // The desktop's undo never takes back another machine's change, whole or in part.
    #expect(throws: StorageError.self) { try desktop.undo(now: fixedNow) }
    #expect(try allTodos(desktop).count == Self.imported)
  }

  @Test("a record of an older ootd, naming no entry, is an entry of its own as before")
  func olderRecords() throws {
    let server = FakeSyncServer()
    let (_, desktop, records) = try Self.machines(server)
    // The same records without their entry, as an older ootd pushed them.
    let older = try records.map { seq, record in
      var record = record
      let batch = try SyncPayload.decode(record.payload, device: record.device)
      record.payload = SyncPayload.encode(command: batch.command, from: batch.from, batch.operations)
      #expect(!record.payload.contains("\"entry\""))
      return (seq: seq, record: record)
    }
    _ = try desktop.sync.applyPulled(older, today: fixedToday, now: fixedNow)
    #expect(try Self.pulled(desktop).count == 3)
  }

  @Test("a first sync of 2,500 todos and their projects: one entry saying what all its records brought")
  func firstSync() throws {
    let server = FakeSyncServer()
    let laptop = try AppDatabase.inMemory(command: "import")
    _ = try laptop.importTodos(
      ImportPlan(todos: try (0..<Self.imported).map(Self.todo)), today: fixedToday, now: fixedNow)
    try server.sync(laptop)
    // Projects, then three records of todos.
    #expect(server.records.count == 4)
    let desktop = try AppDatabase.inMemory(command: "test")
    try desktop.sync.beginSync(fileIdentity: nil, now: fixedNow)
    for (index, record) in server.records.enumerated() {
      // Two pulls: the first record alone, then the rest.
      if index == 0 || index == 1 {
        _ = try desktop.sync.applyPulled(
          index == 0 ? [record] : Array(server.records[1...]), today: fixedToday, now: fixedNow)
      }
    }
    let entries = try Self.pulled(desktop)
    #expect(entries.map(\.command) == [SyncState.firstSyncCommand], "\(entries.map(\.summary))")
    let summary = try #require(entries.first?.summary)
    // (Its projects in the order of their random uuids.)
    #expect(summary.hasPrefix("pulled 2500 todos, 3 projects; added 3 projects ('p"), "\(summary)")
    #expect(
      summary.hasSuffix(
        "; added 625 todos ('task 0', 'task 4', 'task 8' and 622 more) as done; "
          + "added 1875 todos ('task 1', 'task 2', 'task 3' and 1872 more)"), "\(summary)")
    #expect(try allTodos(desktop).count == Self.imported)
  }
}
