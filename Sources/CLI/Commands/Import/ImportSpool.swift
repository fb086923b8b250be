import Foundation
import Interchange
import Storage

#if canImport(Glibc)
import Glibc
#endif

/// A piped input's private copy. A pipe tells no length, so an import that read one as it
/// arrived wrote into its transaction until the input passed ``InputBounds/maximumInput``: a
/// 1.1 GB pipe took minutes and a 4 GB write-ahead log before it was refused. The pipe is copied
/// to a file first, counting its bytes: past the cap it is refused as soon as the count passes
/// it, before the database is opened; under it, the import reads the copy as it reads a regular
/// file (its length known: ``ImportInput/items(taken:)`` estimates, a big import leaves its
/// deferred indexes out from the start). The copy is written a chunk at a time (the page cache
/// holds it, not ootd's memory), and nobody else can open it: see ``create(in:)``.
enum ImportSpool {
  /// The folders a copy may go to, in order: the database's (the file system the import writes
  /// to anyway, and never a tmpfs in memory as `/tmp` often is), then `$TMPDIR` or `/tmp` (a
  /// new database's folder may not exist yet).
  static func folders(database: String?, _ environment: AppEnvironment) -> [String] {
    var folders: [String] = []
    if let database {
      let slash = database.lastIndex(of: "/")
      folders.append(slash.map { database[..<$0].isEmpty ? "/" : String(database[..<$0]) } ?? ".")
    }
    folders.append(environment.variables["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp")
    return folders
  }

  /// Copies what `descriptor` holds up to its end into a new private file in the first of
  /// `folders` that takes one, counting it within `bounds`. Returns the copy, read from its
  /// start, and its length. Throws, leaving nothing behind: the cap's error (exit 64) at the
  /// first chunk past it; ``StorageError/diskFull(_:)`` (exit 1) when the folder's file system
  /// is full; ``CLIError/cannotRead(path:reason:)`` (exit 1) when the input cannot be read or
  /// no folder takes a copy. `name` is the input as typed.
  static func copy(
    _ descriptor: Int32, name: String, within bounds: inout InputBounds, folders: [String]
  ) throws -> (descriptor: Int32, length: Int) {
    var failure = (folder: folders.last ?? "/tmp", errno: ENOENT)
    var created: (descriptor: Int32, folder: String)?
    for folder in folders {
      let copy = create(in: folder)
      if copy >= 0 {
        created = (copy, folder)
        break
      }
      failure = (folder, errno)
    }
    guard let (copy, folder) = created else {
      throw cannotKeep(name, in: failure.folder, failure.errno)
    }
    do {
      let length = try fill(copy, from: descriptor, name: name, folder: folder, within: &bounds)
      guard lseek(copy, 0, SEEK_SET) == 0 else { throw cannotKeep(name, in: folder, errno) }
      return (copy, length)
    } catch {
      close(copy)
      throw error
    }
  }

  /// A new file only this process can open, or -1 (errno set). Linux's `O_TMPFILE` makes one
  /// with no name at all: nothing to plant a link at, and nothing left behind even by a
  /// killed process. Where the file system cannot (EOPNOTSUPP), a new name made with
  /// `O_CREAT | O_EXCL` (which never follows a link planted there) and mode 0600, unlinked at once.
  static func create(in folder: String) -> Int32 {
    // O_TMPFILE is `__O_TMPFILE | O_DIRECTORY`, a macro Swift does not import; O_EXCL: the file
    // can never be given a name (linkat).
    let temporaryFile: Int32 = 0o20_000_000 | O_DIRECTORY
    let descriptor = open(folder, temporaryFile | O_RDWR | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor < 0, errno == EOPNOTSUPP || errno == EISDIR else { return descriptor }
    var template = Array((folder + "/.ootd-import-XXXXXX").utf8CString)
    let named = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard named >= 0 else { return -1 }
    unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    _ = fcntl(named, F_SETFD, FD_CLOEXEC)
    return named
  }

  /// Reads `input` to its end into `copy`; returns the bytes copied.
  private static func fill(
    _ copy: Int32, from input: Int32, name: String, folder: String, within bounds: inout InputBounds
  ) throws -> Int {
    let size = 64 << 10
    let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: size)
    defer { chunk.deallocate() }
    var length = 0
    while true {
      let count = read(input, chunk.baseAddress, size)
      if count < 0, errno == EINTR { continue }
      guard count >= 0 else {
        throw CLIError.cannotRead(path: name, reason: String(cString: strerror(errno)))
      }
      if count == 0 { return length }
      do {
        try bounds.count(count)
      } catch {
        throw CLIError.invalidValue(error.description)
      }
      var written = 0
      while written < count {
        DebugFault.reached("import-spool")
        let full = DebugFault.diskIsFull("import-spool")
        let result = full ? -1 : write(copy, chunk.baseAddress! + written, count - written)
        if full { errno = ENOSPC }
        if result < 0, errno == EINTR { continue }
        guard result > 0 else {
          if result == 0 { errno = EIO }
          if errno == ENOSPC || errno == EDQUOT { throw StorageError.diskFull(folder) }
          throw cannotKeep(name, in: folder, errno)
        }
        written += result
      }
      length += count
    }
  }

  /// The input `name` cannot be read, its copy not kept in `folder` (`code`: errno).
  private static func cannotKeep(_ name: String, in folder: String, _ code: Int32) -> CLIError {
    .cannotRead(path: name, reason: "cannot keep a copy of it in '\(folder)': \(String(cString: strerror(code)))")
  }
}
