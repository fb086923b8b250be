import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

// The database file's lifecycle, apart from what is in it (as GRDB's demo keeps `Persistence.swift`
// apart from `AppDatabase.swift`): where a file may live, how it is made, this process's claim
// on it (a `flock`), and how a file nobody wrote to is given back. Stale write-ahead logs are
// checked in StaleLog.swift while the claim is held alone.

extension AppDatabase {
  /// How far writes to a file have gone, as one connection sees them: its own changes and
  /// SQLite's `data_version` (which moves when another connection commits).
  struct WriteMark: Equatable, Sendable {
    var changes: Int
    var dataVersion: Int

    static func read(_ writer: any DatabaseWriter) throws -> WriteMark {
      try writer.read { db in
        WriteMark(
          changes: db.totalChangesCount,
          dataVersion: try Int.fetchOne(db, sql: "PRAGMA data_version") ?? -1)
      }
    }
  }

  /// Gives the file back when this process made it (or found it empty) and nothing was written
  /// to it since it was migrated (see ``FileClaim/giveBack(_:unused:)``).
  func giveBackIfUnused() {
    guard let claim, let unusedMark else { return }
    claim.giveBack(path) {
      guard try WriteMark.read(writer) == unusedMark else { return false }
      try (writer as? DatabaseQueue)?.close()
      return true
    }
  }

  /// An SQLite URI naming `path` read-only and immutable.
  static func immutableURI(_ path: String) -> String {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "?#%")
    let escaped = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    return "file:\(escaped)?mode=ro&immutable=1"
  }

  /// Refuses a path another local user could have pointed elsewhere: a symbolic link owned by
  /// another user (planted, e.g. in a shared folder), or a file in a world-writable folder
  /// without the sticky bit (anyone may replace it there). Refuses too a `-wal` or `-shm`
  /// beside it that is not a regular file (a folder, a link, a device): SQLite would fail on it
  /// with a misleading "read-only" after creating the other one. Refuses a path that is no
  /// regular file (a FIFO, a device, a socket).
  static func checkLocation(_ path: String) throws(StorageError) {
    for suffix in ["-wal", "-shm"] {
      var companion = stat()
      if lstat(path + suffix, &companion) == 0, (companion.st_mode & S_IFMT) != S_IFREG {
        let kind = (companion.st_mode & S_IFMT) == S_IFDIR ? "a folder" : "not a regular file"
        throw .cannotOpen(path: path, reason: "its \(suffix) file is \(kind); move it away")
      }
    }
    // A FIFO would block the open until a writer came (forever), a device or socket is no
    // database file: refused before anything opens it (a folder has its own message).
    var target = stat()
    if stat(path, &target) == 0 {
      switch target.st_mode & S_IFMT {
      case S_IFREG, S_IFDIR: break
      case S_IFIFO: throw .cannotOpen(path: path, reason: "it is a FIFO (named pipe), not a regular file")
      case S_IFCHR, S_IFBLK: throw .cannotOpen(path: path, reason: "it is a device, not a regular file")
      default: throw .cannotOpen(path: path, reason: "it is not a regular file")
      }
    }
    if isAnotherUsersLink(path) {
      throw .cannotOpen(path: path, reason: "it is a symbolic link owned by another user")
    }
    let folder = folder(of: path)
    var status = stat()
    if stat(folder.isEmpty ? "." : folder, &status) == 0, status.st_mode & S_IWOTH != 0,
      status.st_mode & S_ISVTX == 0
    {
      throw .cannotOpen(
        path: path, reason: "its folder is writable by anyone and not sticky: another user could replace it")
    }
  }

  /// Whether `path` is a symbolic link owned by another user: planted (in a shared folder) to
  /// point ootd's write elsewhere. A database path and an output file (`export --output`) refuse
  /// one; the user's own link is followed.
  public static func isAnotherUsersLink(_ path: String) -> Bool {
    var link = stat()
    return lstat(path, &link) == 0 && (link.st_mode & S_IFMT) == S_IFLNK && link.st_uid != geteuid()
  }

  /// Creates the folders (0700) and an empty file (0600) when the database does not exist yet.
  ///
  /// - Returns: what was there before, and the folders it made, deepest first.
  static func prepareFile(at path: String) throws(StorageError)
    -> (found: FileClaim.Found, madeFolders: [String])
  {
    // stat(2), not FileManager: its attribute dictionary costs every command ~0.5 M instructions.
    var status = stat()
    if stat(path, &status) == 0 {
      if (status.st_mode & S_IFMT) == S_IFDIR { throw .pathIsDirectory(path) }
      guard access(path, W_OK) == 0 else {
        throw .cannotOpen(path: path, reason: "the file is read-only")
      }
      let folder = folder(of: path)
      guard access(folder.isEmpty ? "." : folder, W_OK) == 0 else {
        throw .cannotOpen(path: path, reason: "its folder is read-only")
      }
      return (status.st_size == 0 ? .emptyFile : .database, [])
    }
    let madeFolders = try makeFolders(for: path)
    let descriptor = Glibc.open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
    }
    Glibc.close(descriptor)
    return (.nothing, madeFolders)
  }

  /// Creates the missing folders (0700) of the file at `path` (the database, or a file kept
  /// beside it such as the sync key).
  ///
  /// - Returns: the folders it made, deepest first.
  public static func makeFolders(for path: String) throws(StorageError) -> [String] {
    let folder = folder(of: path)
    var madeFolders: [String] = []
    var missing = folder
    while !missing.isEmpty && missing != "/" && access(missing, F_OK) != 0 {
      madeFolders.append(missing)
      missing = Self.folder(of: missing)
    }
    if !madeFolders.isEmpty {
      do {
        try FileManager.default.createDirectory(
          atPath: folder, withIntermediateDirectories: true,
          attributes: [.posixPermissions: 0o700])
      } catch {
        throw .cannotOpen(path: path, reason: "cannot create its folder '\(folder)'")
      }
    }
    return madeFolders
  }

  /// The folder part of `path`: everything before its last `/` ("" for a bare file name such as
  /// `b`, "/" for a file at the root). Plain string work: Foundation's
  /// `deletingLastPathComponent` traps on one-character paths on Linux.
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    let folder = path[..<slash]
    return folder.isEmpty ? "/" : String(folder)
  }
}

/// This process's hold on a database file: a shared `flock` kept while the database is open, so
/// that a process giving a file back (see ``AppDatabase``'s deinit) never removes one another
/// ootd process is using.
final class FileClaim: Sendable {
  /// What was at the path before this process opened it.
  enum Found: Sendable {
    case nothing, emptyFile, database
  }

  let descriptor: Int32
  let found: Found
  /// No other ootd process held the file when it was taken: it is held exclusively until
  /// ``whileAlone(_:)``.
  let alone: Bool
  /// Folders made for the file, deepest first.
  let madeFolders: [String]

  private init(descriptor: Int32, found: Found, alone: Bool, madeFolders: [String]) {
    self.descriptor = descriptor
    self.found = found
    self.alone = alone
    self.madeFolders = madeFolders
  }

  deinit { close(descriptor) }

  /// Prepares the file with `prepare` and holds it shared, retrying when the file was replaced
  /// between the two (given back by another process). Nil when the file cannot be opened to lock.
  static func take(
    _ path: String, prepare: () throws(StorageError) -> (found: Found, madeFolders: [String])
  ) throws(StorageError) -> FileClaim? {
    for _ in 0..<5 {
      let prepared = try prepare()
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return nil }
      // Exclusive when nobody else holds it (never dropping a lock held: there is none yet).
      let alone = flock(descriptor, LOCK_EX | LOCK_NB) == 0
      if !alone { flock(descriptor, LOCK_SH) }
      if sameFile(descriptor, path) {
        return FileClaim(
          descriptor: descriptor, found: prepared.found, alone: alone, madeFolders: prepared.madeFolders)
      }
      close(descriptor)
    }
    return nil
  }

  /// Runs `body` when no other ootd process held the file as this process took it (the claim
  /// then holds it exclusively), and shares the file from then on. Call it once, right after
  /// ``take(_:prepare:)``. Without `body`, another process's write-ahead log is live, not stale.
  @discardableResult
  func whileAlone<T>(_ body: () throws(StorageError) -> T) throws(StorageError) -> T? {
    guard alone else { return nil }
    defer { flock(descriptor, LOCK_SH) }
    return try body()
  }

  /// Runs `body` when no other ootd process holds the file now, holding it exclusively for the
  /// while (shared again after); false, without running it, when another one does.
  func whileExclusive(_ path: String, _ body: () -> Void) -> Bool {
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
    defer { flock(descriptor, LOCK_SH) }
    guard Self.sameFile(descriptor, path) else { return false }
    body()
    return true
  }

  /// Removes the file and folders this process made, when it made them: for an open refused
  /// before anything was written.
  func removeMade(_ path: String) {
    guard found == .nothing, Self.sameFile(descriptor, path) else { return }
    unlink(path)
    for folder in madeFolders { rmdir(folder) }
  }

  /// Removes what an open that failed for lack of space left beside the file at `path`: the
  /// `-shm` SQLite made but could not grow to a wal-index header's 32 KiB, with the `-wal` when it
  /// is empty (or missing). Nothing reads through such a `-shm` (any connection of the file, ootd's
  /// or another program's, maps a whole header before it reads), and an empty log holds nothing;
  /// left there, they would make the next read-only open need a `-shm` it cannot make. Only
  /// while no other ootd process holds the file.
  func removeStrayCompanions(_ path: String) {
    _ = whileExclusive(path) {
      var shm = stat()
      var wal = stat()
      let shmStray =
        lstat(path + "-shm", &shm) == 0 && (shm.st_mode & S_IFMT) == S_IFREG && shm.st_size < 32 * 1024
      let walEmpty =
        lstat(path + "-wal", &wal) != 0 || ((wal.st_mode & S_IFMT) == S_IFREG && wal.st_size == 0)
      guard shmStray, walEmpty else { return }
      unlink(path + "-wal")
      unlink(path + "-shm")
    }
  }

  /// Removes the file (or empties it again) and the folders made for it, when no other ootd
  /// process holds it and `unused` (run under the exclusive lock) confirms nothing was written.
  func giveBack(_ path: String, unused: () throws -> Bool) {
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return }
    // Shared again when the file stays: held exclusively, it would keep this process's own next
    // open of it (a change taken back when its output failed) waiting for ever.
    defer { flock(descriptor, LOCK_SH) }
    guard Self.sameFile(descriptor, path), (try? unused()) == true else { return }
    for suffix in ["-wal", "-shm", "-wal.ootd"] { unlink(path + suffix) }
    switch found {
    case .nothing:
      unlink(path)
      for folder in madeFolders { rmdir(folder) }
    case .emptyFile:
      truncate(path, 0)
    case .database:
      break
    }
  }

  private static func sameFile(_ descriptor: Int32, _ path: String) -> Bool {
    var held = stat()
    var named = stat()
    return fstat(descriptor, &held) == 0 && stat(path, &named) == 0
      && held.st_dev == named.st_dev && held.st_ino == named.st_ino
  }
}
