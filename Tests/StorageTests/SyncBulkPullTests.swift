import Core
import Foundation
import GRDB
import Testing

@testable import Storage

/// The bulk path of a pull (``FreshTodos``, issue 24): a record of todos never seen here is
/// applied without reading each row first, and must leave the database exactly as the per-row
/// path does.
@Suite("Sync: the bulk pull of todos never seen here")
struct SyncBulkPullTests {
  /// A machine with a project, a block of its own and todos linked to them, synced twice (its
  /// first sync's records, then a change of a title, a deletion, a done and two adds).
  static func origin(_ server: FakeSyncServer) throws -> AppDatabase {
    let a = try AppDatabase.inMemory(command: "test")
    try a.addProject(try Project(name: "ootd"), now: fixedNow)
    _ = try a.addBlock(try TaskBlock(name: "gym", title: "Gym", priority: .low), now: fixedNow)
    for index in 0..<40 {
      _ = try a.addTodo(
        try draft(
          "todo \(index)", index % 3 == 0 ? .high : .mid, project: index % 4 == 0 ? "ootd" : nil,
          block: index % 5 == 0 ? "gym" : nil), now: fixedNow)
    }
    try server.sync(a)
    _ = try a.editTodo(id: 3, try TodoChanges(title: "todo 3, renamed"), today: fixedToday, now: fixedNow)
    _ = try a.deleteTodos(ids: [4], now: fixedNow)
    try a.setDone(ids: [5], done: true, today: fixedToday, now: fixedNow)
    _ = try a.addTodo(try draft("later 1"), now: fixedNow)
    _ = try a.addTodo(try draft("later 2"), now: fixedNow)
    try server.sync(a)
    return a
  }

  /// A second machine with a todo of its own (holding #1, which the origin's todo #1 claims),
  /// begun syncing, and two copies of it: the same device, the same rows.
  static func twoCopies() throws -> (AppDatabase, AppDatabase) {
    let base = try AppDatabase.inMemory(command: "test")
    _ = try base.addTodo(try draft("mine"), now: fixedNow)
    try base.sync.beginSync(fileIdentity: nil, now: fixedNow)
    let one = try AppDatabase.inMemory(command: "test")
    let two = try AppDatabase.inMemory(command: "test")
    try base.writer.backup(to: one.writer)
    try base.writer.backup(to: two.writer)
    return (one, two)
  }

  /// Every row of every table, each journal entry's random uuid left out.
  static func contents(_ database: AppDatabase) throws -> [String] {
    try database.writer.read { db in
      var lines: [String] = []
      let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      for table in tables {
        let order = table == "syncStamp" ? " ORDER BY row, field" : ""
        for row in try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"\(order)") {
          var text = "\(table) \(row)"
          if table == "journalChange", let uuid = row["uuid"] as String? {
            text = text.replacingOccurrences(of: uuid, with: "-")
          }
          lines.append(text)
        }
      }
      return lines
    }
  }

  /// Applies `records` as one page, by the bulk path or the per-row path.
  static func pull(_ database: AppDatabase, _ records: [(seq: Int64, record: SyncRecord)], bulk: Bool) throws
    -> SyncPullResult
  {
    var sync = database.sync
    sync.bulkPull = bulk
    return try sync.applyPulled(records, today: fixedToday, now: fixedNow)
  }

  @Test("a mixed page (blocks, a project, todos, edits, a deletion): the same database by both paths")
  func sameAsPerRow() throws {
    let server = FakeSyncServer()
    let origin = try Self.origin(server)
    let (bulk, rows) = try Self.twoCopies()
    // The page holds records the bulk path takes (the first sync's todos, the two adds) and
    // records it leaves to the per-row path (blocks, the project, the edits).
    let fresh = try bulk.sync.read { db in
      try server.records.filter { try FreshTodos.of(db, PulledRecord.check($0.record).operations) != nil }.count
    }
    #expect(fresh >= 2)
    #expect(fresh < server.records.count)
    let byBulk = try Self.pull(bulk, server.records, bulk: true)
    let byRows = try Self.pull(rows, server.records, bulk: false)
    #expect(byBulk.records == byRows.records && byBulk.operations == byRows.operations)
    #expect(byBulk.changed == byRows.changed)
    #expect(byBulk.renumbered == byRows.renumbered && byBulk.arrived == byRows.arrived)
    // The clash on #1: "mine" reported when it moved; the pulled todo, new here, never (issue 24 §1).
    #expect(!byBulk.arrived.isEmpty && byBulk.renumbered.allSatisfy { $0.title == "mine" && $0.from == 1 })
    #expect(byBulk.ruleConflicts == byRows.ruleConflicts)
    let (one, two) = (try Self.contents(bulk), try Self.contents(rows))
    // (Compared outside the expectation, which would print both databases whole.)
    let same = one == two
    #expect(same, "rows differing: \(Set(one).symmetricDifference(two).sorted().prefix(6))")
    // And what was pulled is the origin's: titles, and the numbers of all but the clash.
    let pulled = Dictionary(uniqueKeysWithValues: try allTodos(bulk).map { ($0.uuid, $0) })
    for todo in try allTodos(origin) {
      #expect(pulled[todo.uuid]?.title == todo.title)
    }
    let originTodos = try allTodos(origin)
    let sameNumber = originTodos.filter { pulled[$0.uuid]?.id == $0.id }.count
    #expect(sameNumber >= originTodos.count - 1)
    // The first sync's entry says what it brought.
    let summaries = try bulk.writer.read { db in
      try String.fetchAll(db, sql: "SELECT summary FROM journalChange WHERE command = '(first sync)'")
    }
    #expect(summaries.contains { $0.contains("40") }, "\(summaries)")
  }

  @Test("a first pull's records of a hundred todos: the journal rows the per-row path writes, read back as created")
  func journalTextAsPerRow() throws {
    // Past ``ChangeRecorder/setWiseRows``, where the bulk path keeps each payload's own text of
    // the fields for the journal: titles that need escapes, links (a block is named otherwise
    // here, so its todos' text is written again), a done todo, a number taken here.
    let server = FakeSyncServer()
    let a = try AppDatabase.inMemory(command: "test")
    try a.addProject(try Project(name: "ootd"), now: fixedNow)
    _ = try a.addBlock(try TaskBlock(name: "gym", title: "Gym", priority: .low), now: fixedNow)
    let titles = ["say \"hi\"", "two\nlines", "tab\there", "back\\slash", "Tidy 🧹 최단경로", "plain"]
    for index in 0..<100 {
      _ = try a.addTodo(
        try draft(
          "\(titles[index % titles.count]) \(index)", project: index % 4 == 0 ? "ootd" : nil,
          block: index % 10 == 0 ? "gym" : nil), now: fixedNow)
    }
    try a.setDone(ids: [7], done: true, today: fixedToday, now: fixedNow)
    try server.sync(a)
    let (bulk, rows) = try Self.twoCopies()
    let kept = try server.records.reduce(0) { sum, record in
      sum + (try PulledRecord.check(record.record).operations.filter { $0.fieldsText != nil }.count)
    }
    // (Titles with a quote, a newline, a tab or a backslash: their text is written again.)
    #expect(kept >= 30 && kept < 100, "\(kept)")
    let byBulk = try Self.pull(bulk, server.records, bulk: true)
    let byRows = try Self.pull(rows, server.records, bulk: false)
    #expect(byBulk.renumbered == byRows.renumbered && byBulk.arrived == byRows.arrived)
    // The clash on #1: "mine" reported when it moved; the pulled todo, new here, never (issue 24 §1).
    #expect(byBulk.arrived.count == 100 && byBulk.renumbered.allSatisfy { $0.title == "mine" && $0.from == 1 })
    #expect(byBulk.ruleConflicts == byRows.ruleConflicts)
    let (one, two) = (try Self.contents(bulk), try Self.contents(rows))
    let same = one == two
    #expect(same, "rows differing: \(Set(one).symmetricDifference(two).sorted().prefix(6))")
    // Each pulled creation reads back as the fields of the todo it made.
    try bulk.writer.read { db in
      var creations = 0
      for row in try Row.fetchAll(
        db,
        sql: """
          SELECT \(JournalOperationRecord.selection) FROM journalOperation
          WHERE changeId IN (SELECT id FROM journalChange WHERE remote = 1) AND action = 'create' AND entity = 'todo'
          """)
      {
        let operation = try JournalOperationRecord(row: row).operation
        guard case .create(var fields) = operation.action else { continue }
        creations += 1
        var current = try #require(try OperationExecutor.currentFields(db, .todo, row: operation.row))
        // What the sync changed since: the renumbered todo's number.
        (fields["id"], current["id"]) = (nil, nil)
        #expect(fields == current)
      }
      #expect(creations == 100)
    }
  }

  /// A record of `count` todo creations of another machine, the last one's fields `last`.
  static func record(_ count: Int, device: String, clock: Int64, last: Fields) -> SyncRecord {
    let operations = (0..<count).map { index in
      var fields: Fields = [
        "title": .text("pulled \(index)"), "priority": .integer(1), "day": .text("2026-11-22"),
        "done": .integer(0), "id": .integer(Int64(100 + index)),
      ]
      if index == count - 1 { fields.merge(last) { $1 } }
      return SyncOperation(.todo, row: RowID.random(), .create(fields), stamp: Stamp(clock: clock, device: device))
    }
    return SyncRecord(
      opID: RowID.random(), device: device, clock: HybridClock.text(clock),
      payload: SyncPayload.encode(command: "add", operations))
  }

  @Test("a hostile value in the last todo of a record: the record is set aside, nothing of it written")
  func hostileRowWritesNothing() throws {
    let (database, _) = try Self.twoCopies()
    let before = try Self.contents(database)
    let device = RowID.random()
    let clock = HybridClock.value(milliseconds: 1_795_000_000_000)
    for hostile: Fields in [["priority": .integer(7)], ["id": .integer(-5)], ["title": .text(String(repeating: "x", count: 100_000))]] {
      let record = Self.record(5, device: device, clock: clock, last: hostile)
      let result = try Self.pull(database, [(seq: 1, record: record)], bulk: true)
      #expect(result.setAside.count == 1, "\(hostile)")
      #expect(result.records == 0)
    }
    let after = try Self.contents(database)
    // Only the cursor and the rows set aside differ.
    let changed = Set(after).symmetricDifference(before).filter { !$0.hasPrefix("syncSetAside ") }
    #expect(changed.allSatisfy { $0.hasPrefix("syncState ") && $0.contains("pulledThrough") }, "\(changed.sorted())")
    #expect(try allTodos(database).map(\.title) == ["mine"])
  }

  @Test("a fault in the middle of a page (an I/O error inside the bulk insert): the page leaves nothing, the rerun completes")
  func resumesAfterAFault() throws {
    let server = FakeSyncServer()
    _ = try Self.origin(server)
    let (faulty, clean) = try Self.twoCopies()
    // The fault: an I/O error raised by the insert of one todo of the first sync's records.
    try faulty.writer.write { db in
      db.add(function: DatabaseFunction("ootd_test_fault", argumentCount: 0, pure: false) { _ in
        throw DatabaseError(resultCode: .SQLITE_IOERR, message: "injected fault")
      })
      try db.execute(
        sql: """
          CREATE TEMP TRIGGER fault BEFORE INSERT ON todo WHEN NEW.title = 'todo 30'
          BEGIN SELECT ootd_test_fault(); END
          """)
    }
    var cursor: Int64 = 0
    var failed = false
    while true {
      let page = server.pull(after: cursor, limit: 1)
      if page.isEmpty { break }
      do {
        _ = try Self.pull(faulty, page, bulk: true)
        cursor = try faulty.sync.pullCursor()
      } catch {
        failed = true
        break
      }
    }
    #expect(failed)
    // The pages applied before the fault are kept, the cursor after them; nothing of the one
    // that failed.
    let kept = try faulty.sync.pullCursor()
    #expect(kept == cursor && kept > 0)
    #expect(try !allTodos(faulty).contains { $0.title == "todo 30" })
    try faulty.writer.write { db in try db.execute(sql: "DROP TRIGGER fault") }
    // The rerun reads on from the cursor and ends where a pull without the fault does.
    let rerun = server.pull(after: kept, limit: 100)
    #expect(rerun.count < server.records.count)
    _ = try Self.pull(faulty, rerun, bulk: true)
    _ = try Self.pull(clean, server.records, bulk: true)
    #expect(try shapes(faulty) == shapes(clean))
    #expect(try Set(allTodos(faulty).map { "\($0.uuid) \($0.id)" }) == Set(allTodos(clean).map { "\($0.uuid) \($0.id)" }))
  }
}
