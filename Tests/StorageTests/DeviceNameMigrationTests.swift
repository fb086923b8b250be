import Core
import Foundation
import GRDB
import Testing

@testable import Storage

/// Migration v17-device-names: the table of the other machines' names, and the clock of this
/// machine's own records read back, started at what a syncing database has pushed (its syncs
/// read those back already), so no conflict the old rule reported is reported again.
@Suite struct DeviceNameMigrationTests {
  func migratedFrom16(_ setUp: String) throws -> (names: Int, echoed: Int64?, pushed: Int64?) {
    let scratch = Scratch()
    let path = scratch.path()
    do {
      let queue = try DatabaseQueue(path: path)
      try AppDatabase.migrator.migrate(queue, upTo: "v16-plain-checks")
    }
    try withRawDatabase(path) { db in try db.execute(sql: setUp) }
    _ = try AppDatabase.open(path: path)
    return try withRawDatabase(path) { db in
      (
        try Int.fetchOne(db, sql: "SELECT count(*) FROM syncDevice") ?? -1,
        try Int64.fetchOne(db, sql: "SELECT value FROM syncState WHERE key = 'echoedClock'"),
        try Int64.fetchOne(db, sql: "SELECT value FROM syncState WHERE key = 'pushedClock'")
      )
    }
  }

  @Test("a syncing v16 database: echoedClock starts at its pushedClock, syncDevice is there and empty")
  func syncing() throws {
    let result = try migratedFrom16(
      "INSERT INTO syncState (key, value) VALUES ('floor', 100), ('floorDevice', 'd'), ('pushedClock', 123456)")
    #expect(result.names == 0)
    #expect(result.echoed == 123456 && result.pushed == 123456)
  }

  @Test("a v16 database that never synced: no echoedClock (its first sync starts it at the floor)")
  func notSyncing() throws {
    let result = try migratedFrom16("SELECT 1")
    #expect(result.names == 0 && result.echoed == nil)
    let database = try AppDatabase.inMemory(command: "test")
    try database.sync.beginSync(fileIdentity: nil, now: fixedNow)
    let floor = try database.sync.read { db in try SyncState.integer(db, "floor") }
    #expect(try database.sync.read { db in try SyncState.integer(db, "echoedClock") } == floor)
  }
}
