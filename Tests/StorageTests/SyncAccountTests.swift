import Core
import Foundation
import GRDB
import Storage
import Testing

/// Which account a database's sync state belongs to (issue 24, session 18): the server's
/// identity, not the URI's spelling, checked in the write transaction every sync begins with.
@Suite("The account a sync state belongs to")
struct SyncAccountTests {
  static let identity = "7d1c3a52-2f7e-4c39-9c8e-0b9a61f3e1a4@1795000000000000"

  /// A database that has made its first sync with `account`, its rows pushed to a fake server.
  static func synced(_ account: SyncAccount, path: String? = nil) throws -> AppDatabase {
    let database =
      try path.map { try AppDatabase.open(path: $0, command: "test") } ?? AppDatabase.inMemory(command: "test")
    _ = try database.addTodo(try draft("Read"), now: fixedNow)
    try database.sync.beginSync(fileIdentity: "1:100", account: account, now: fixedNow)
    try FakeSyncServer().pushAll(database, now: fixedNow)
    return database
  }

  @Test("another spelling of the same server (same identity) keeps the sync state; another identity starts over, naming the account before")
  func identityDecides() throws {
    let database = try Self.synced(SyncAccount(identity: Self.identity, name: "me@localhost:5432/ootd"))
    let other = try database.sync.beginSync(
      fileIdentity: "1:100", account: SyncAccount(identity: Self.identity, name: "me@127.0.0.1:5432/ootd"), now: fixedNow)
    #expect(other.previousAccount == nil)
    #expect(try database.sync.syncStatus().firstSyncPending == false)
    let moved = try database.sync.beginSync(
      fileIdentity: "1:100", account: SyncAccount(identity: "another@1", name: "me@127.0.0.1:5432/ootd"), now: fixedNow)
    #expect(moved.previousAccount == "me@127.0.0.1:5432/ootd")
    #expect(try database.sync.syncStatus().firstSyncPending == true)
  }

  @Test("a state recorded by the account's name alone (an older ootd) takes the server's identity when the name is the same, without starting over; under another name it starts over")
  func recordedByName() throws {
    let legacy = SyncAccount(identity: nil, name: "me@localhost:5432/ootd")
    let database = try Self.synced(legacy)
    let same = try database.sync.beginSync(
      fileIdentity: "1:100", account: SyncAccount(identity: Self.identity, name: legacy.name), now: fixedNow)
    #expect(same.previousAccount == nil)
    #expect(try database.sync.syncStatus().firstSyncPending == false)
    // From now on the identity decides: another spelling keeps it.
    let spelled = try database.sync.beginSync(
      fileIdentity: "1:100", account: SyncAccount(identity: Self.identity, name: "me@127.0.0.1:5432/ootd"), now: fixedNow)
    #expect(spelled.previousAccount == nil)
    #expect(try database.sync.syncStatus().firstSyncPending == false)

    let older = try Self.synced(legacy)
    let renamed = try older.sync.beginSync(
      fileIdentity: "1:100", account: SyncAccount(identity: Self.identity, name: "me@db.example.com:5432/ootd"), now: fixedNow)
    #expect(renamed.previousAccount == legacy.name)
    #expect(try older.sync.syncStatus().firstSyncPending == true)
  }

  @Test("a sync's beginning with the same file and account writes nothing to the database (the account is checked in that transaction, not in one of its own)")
  func quietBeginning() throws {
    let scratch = Scratch()
    let path = scratch.path("a.sqlite")
    let account = SyncAccount(identity: Self.identity, name: "me@localhost:5432/ootd")
    let database = try Self.synced(account, path: path)
    // Another connection's data_version moves whenever a commit changed the file.
    let observer = try DatabaseQueue(path: path)
    let version = { try observer.read { try Int.fetchOne($0, sql: "PRAGMA data_version") } }
    let before = try version()
    try database.sync.beginSync(fileIdentity: "1:100", now: fixedNow)
    try database.sync.beginSync(fileIdentity: "1:100", account: account, now: fixedNow)
    #expect(try version() == before)
    // A copy (another inode) is still noticed, and written.
    try database.sync.beginSync(fileIdentity: "1:200", account: account, now: fixedNow)
    #expect(try version() != before)
  }
}
