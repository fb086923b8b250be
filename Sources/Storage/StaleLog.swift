import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// The write-ahead log (`-wal`) a database file may have beside it, checked before SQLite sees
/// it: SQLite replays any `-wal` it finds into the file, and one that is another database's (a
/// copied or left-over file) destroys it.
///
/// The check replays the log into a private copy of the database and looks at the result, so
/// the file, its `-wal` and its `-shm` stay byte-identical whatever the answer. It runs only when
/// no other ootd process has the file open (a live log is that process's) and costs a copy of
/// the file, which a log left behind (a crash) makes rare.
enum StaleLog {
  /// Throws ``StorageError/foreignLog(_:)`` when replaying the `-wal` beside `path` would damage
  /// the database, or ``StorageError/foreignDatabase(_:)`` when the file is another program's.
  static func check(_ path: String) throws(StorageError) {
    let log = path + "-wal"
    var status = stat()
    guard lstat(log, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else {
      return
    }
    var template = Array((NSTemporaryDirectory() + "/ootd-log-check-XXXXXX").utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw .cannotOpen(path: path, reason: "cannot check its -wal file: \(String(cString: strerror(errno)))")
    }
    let folder = String(cString: made)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let copy = folder + "/copy.sqlite"
    do {
      try FileManager.default.copyItem(atPath: path, toPath: copy)
      var readOnly = Configuration()
      readOnly.readonly = true
      let aloneQueue = try DatabaseQueue(path: copy, configuration: readOnly)
      let alone = try aloneQueue.read(AppDatabase.identity)
      try aloneQueue.close()
      // Reading a WAL-mode file makes an empty -wal and -shm beside it.
      for suffix in ["-wal", "-shm"] { unlink(copy + suffix) }
      try FileManager.default.copyItem(atPath: log, toPath: copy + "-wal")
      let replayed = try DatabaseQueue(path: copy).read { db in
        (try AppDatabase.identity(db), try String.fetchOne(db, sql: "PRAGMA quick_check(1)"))
      }
      if replayed.0 == .foreign && alone == .foreign { throw StorageError.foreignDatabase(path) }
      if replayed.0 == .foreign || replayed.1 != "ok" { throw StorageError.foreignLog(path) }
    } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB && !isSQLite(path) {
      throw .notADatabase(path)
    } catch let error as StorageError {
      throw error
    } catch {
      throw .foreignLog(path)
    }
  }

  /// Whether the file starts with SQLite's header.
  private static func isSQLite(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    return (try? handle.read(upToCount: 16)) == Data("SQLite format 3\0".utf8)
  }
}
