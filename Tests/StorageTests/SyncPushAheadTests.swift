import Core
import Foundation
import GRDB
import Testing

@testable import Storage

/// The push reads its next page while the server stores the one before (issue 24): the page
/// read after one not yet marked pushed must be the page read once it is marked.
@Suite("Sync: the next push page read ahead")
struct SyncPushAheadTests {
  @Test("pages read each after the one before, none marked, are the pages read marking each")
  func readAheadEqualsMarked() throws {
    let one = try AppDatabase.inMemory(command: "test")
    for index in 0..<30 { _ = try one.addTodo(try draft("todo \(index)"), now: fixedNow) }
    try one.sync.beginSync(fileIdentity: nil, now: fixedNow)
    // Changes after the first sync began: journal entries pushed after its rows.
    _ = try one.addTodo(try draft("later 1"), now: fixedNow)
    try one.setDone(ids: [2], done: true, today: fixedToday, now: fixedNow)
    _ = try one.addTodo(try draft("later 2"), now: fixedNow)
    let two = try AppDatabase.inMemory(command: "test")
    try one.writer.backup(to: two.writer)

    // Two operations a page: the first sync's rows take fifteen pages and more, the entries two.
    var ahead: [SyncPushPage] = []
    var next = try one.sync.pushPage(maxOperations: 2)
    while let page = next {
      ahead.append(page)
      next = try one.sync.pushPage(maxOperations: 2, after: page)
    }
    var marked: [SyncPushPage] = []
    while let page = try two.sync.pushPage(maxOperations: 2) {
      marked.append(page)
      try two.sync.markPushed(page)
    }
    #expect(ahead.count == marked.count)
    #expect(ahead.filter(\.snapshot).count >= 15)
    #expect(ahead.filter { !$0.snapshot }.count == 2)
    #expect(ahead.map(\.records) == marked.map(\.records))
    #expect(ahead.map(\.throughOperation) == marked.map(\.throughOperation))
    #expect(ahead.map(\.throughClock) == marked.map(\.throughClock))
    #expect(ahead.map(\.snapshotThrough) == marked.map(\.snapshotThrough))
    // Nothing was marked on the first: marking its pages leaves both cursors where they are.
    #expect(try one.sync.pushPage(maxOperations: 2)?.records == ahead.first?.records)
    for page in ahead { try one.sync.markPushed(page) }
    #expect(try one.sync.pushPage(maxOperations: 2) == nil)
    let cursors = try [one, two].map { database in
      try database.writer.read { db in
        try Row.fetchAll(db, sql: "SELECT key, value FROM syncState WHERE key LIKE 'pushed%' OR key LIKE 'snapshot%' ORDER BY key")
          .map { "\($0)" }
      }
    }
    #expect(cursors[0] == cursors[1])
  }
}
