import Core
import Foundation
import GRDB
@testable import Storage
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A `-wal` file beside an ootd database is replayed only when it is this database's.
@Suite("Stale write-ahead log")
struct StaleLogTests {
  /// An ootd database with one todo, closed (no `-wal` left).
  private func ootdDatabase(_ scratch: Scratch) throws -> String {
    let path = scratch.path()
    do {
      let database = try AppDatabase.open(path: path)
      _ = try database.addTodo(try draft("kept"), now: fixedNow)
    }
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    return path
  }

  /// Runs `body` while another program's WAL database at `path` has committed rows in its
  /// `-wal`, not yet checkpointed (LeftLogTests plants it too).
  static func withLiveLog(_ path: String, _ body: () throws -> Void) throws {
    let queue = try DatabaseQueue(path: path)
    try queue.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
    }
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT)")
      for index in 0..<500 {
        try db.execute(sql: "INSERT INTO note (text) VALUES (?)", arguments: [String(repeating: "n\(index)", count: 40)])
      }
    }
    try body()
    try queue.close()
  }

  @Test("another database's -wal is refused and the file, -wal and -shm stay byte-identical")
  func foreignLog_isRefused() throws {
    let scratch = Scratch()
    let path = try ootdDatabase(scratch)
    try Self.withLiveLog(scratch.path("other.sqlite")) {
      try FileManager.default.copyItem(atPath: scratch.path("other.sqlite-wal"), toPath: path + "-wal")
    }
    let before = try [FileSnapshot(path), FileSnapshot(path + "-wal")]
    #expect(throws: StorageError.foreignLog(path)) { try AppDatabase.open(path: path) }
    #expect(try [FileSnapshot(path), FileSnapshot(path + "-wal")] == before)
    #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
    #expect(StorageError.foreignLog(path).description.contains("leaves both untouched"))
    // Once the stale file is moved away, the database opens with its todo intact.
    try FileManager.default.removeItem(atPath: path + "-wal")
    #expect(try allTodos(AppDatabase.open(path: path)).map(\.title) == ["kept"])
  }

  @Test("an ootd database's own -wal left by a crash is replayed")
  func ownLog_isReplayed() throws {
    let scratch = Scratch()
    let path = try ootdDatabase(scratch)
    let crashed = scratch.path("crashed.sqlite")
    let queue = try DatabaseQueue(path: path)
    try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
    try queue.write { db in try db.execute(sql: "UPDATE todo SET title = 'from the log'") }
    try FileManager.default.copyItem(atPath: path, toPath: crashed)
    try FileManager.default.copyItem(atPath: path + "-wal", toPath: crashed + "-wal")
    try queue.close()
    #expect(try allTodos(AppDatabase.open(path: crashed)).map(\.title) == ["from the log"])
  }
}
