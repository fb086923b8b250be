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
/// the file, which a log left behind (a crash, or a checkpoint that a full disk stopped) makes
/// rare.
///
/// After a checkpoint that a full disk stopped half-way, the file alone is unreadable (its
/// header counts pages that were never written) while the file with its log is whole: ootd's
/// own log, holding committed changes. So the file alone only tells a foreign database from a
/// foreign log when it can be read at all. When no copy can be made (the temporary folder's
/// disk is full too), the log is read in place by a read-only connection, which never writes
/// the database or the log.
enum StaleLog {
  /// What ``check(_:)`` found beside the file.
  enum Outcome: Equatable, Sendable {
    /// No `-wal` (or an empty one).
    case noLog
    /// A log ootd left on purpose, its marker matching: trusted without the copy.
    case trusted
    /// A log checked by replaying it into a copy, and found to be this database's.
    case checked
  }

  /// Throws ``StorageError/foreignLog(_:)`` when replaying the `-wal` beside `path` would damage
  /// the database, or ``StorageError/foreignDatabase(_:)`` when the file is another program's.
  ///
  /// A log ootd left behind on purpose, with a marker that still describes it and the file
  /// (see ``LeftLog``), is trusted without the copy.
  @discardableResult
  static func check(_ path: String) throws(StorageError) -> Outcome {
    let log = path + "-wal"
    var status = stat()
    guard lstat(log, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0 else {
      LeftLog.forget(path)
      return .noLog
    }
    if LeftLog.isMarked(path) { return .trusted }
    // A log ootd left for the file as it was, the file changed since without it: refused, both
    // untouched (the marker too, so the refusal stays until the log is moved away).
    if LeftLog.isLeftForAnotherFile(path) { throw .leftLogOutdated(path) }
    LeftLog.forget(path)
    var template = Array((NSTemporaryDirectory() + "/ootd-log-check-XXXXXX").utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw .cannotOpen(path: path, reason: "cannot check its -wal file: \(String(cString: strerror(errno)))")
    }
    let folder = String(cString: made)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let copy = folder + "/copy.sqlite"
    var readOnly = Configuration()
    readOnly.readonly = true
    do {
      do {
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try FileManager.default.copyItem(atPath: log, toPath: copy + ".log")
      } catch {
        // No room for a copy: read the log in place, without writing anything.
        try judge(alone: nil, replayed: DatabaseQueue(path: path, configuration: readOnly), path)
        return .checked
      }
      let alone: AppDatabase.Identity?
      do {
        let aloneQueue = try DatabaseQueue(path: copy, configuration: readOnly)
        defer { try? aloneQueue.close() }
        alone = try aloneQueue.read(AppDatabase.identity)
      } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB && !isSQLite(path) {
        throw error
      } catch {
        alone = nil  // unreadable alone: only the log makes it whole (see above)
      }
      // Reading a WAL-mode file makes an empty -wal and -shm beside it.
      for suffix in ["-wal", "-shm"] { unlink(copy + suffix) }
      guard rename(copy + ".log", copy + "-wal") == 0 else { throw StorageError.foreignLog(path) }
      try judge(alone: alone, replayed: DatabaseQueue(path: copy), path)
      return .checked
    } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB && !isSQLite(path) {
      throw .notADatabase(path)
    } catch let error as StorageError {
      throw error
    } catch let error as DatabaseError where error.resultCode == .SQLITE_FULL {
      throw .diskFull(path)
    } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
      throw .foreignLog(path)
    } catch {
      // The check itself could not run (no room, no permission…): that says nothing against
      // the log, which may hold committed changes.
      let reason = (error as? DatabaseError)?.message ?? String(describing: error)
      throw .cannotOpen(
        path: path, reason: "cannot check its -wal file (\(reason)); ootd leaves both untouched")
    }
  }

  /// Throws when the database `replayed` opens (the file with its log) is not ootd's or not
  /// whole; `alone` is what the file without its log is (nil: unreadable).
  private static func judge(alone: AppDatabase.Identity?, replayed queue: DatabaseQueue, _ path: String) throws {
    let replayed = try queue.read { db in
      (try AppDatabase.identity(db), try String.fetchOne(db, sql: "PRAGMA quick_check(1)"))
    }
    try queue.close()
    if replayed.0 == .foreign && alone == .foreign { throw StorageError.foreignDatabase(path) }
    if replayed.0 == .foreign || replayed.1 != "ok" { throw StorageError.foreignLog(path) }
  }

  /// Whether the file starts with SQLite's header.
  private static func isSQLite(_ path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    return (try? handle.read(upToCount: 16)) == Data("SQLite format 3\0".utf8)
  }
}
