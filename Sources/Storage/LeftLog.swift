import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A write-ahead log ootd left behind on purpose, and the marker beside it (`<file>-wal.ootd`)
/// that lets the next open trust it without ``StaleLog``'s copy of the database
/// (docs/decisions/routine-durability.md).
///
/// A command that wrote nothing but the routine's derived rows (or nothing at all, on a log it
/// trusted) closes its connection without the checkpoint, and, holding the file alone, writes
/// the marker: a description of the file and of its log exactly as it left them. The next open,
/// alone with the file, trusts the log when the description still matches: the file's and the
/// log's device, inode, size, modification and change times (a change time no program can set
/// back), the file's 100-byte header, the log's 32-byte header (page size, checkpoint sequence,
/// salts) and the header of its last frame (its salts and running checksum). A file restored or
/// copied over the database, a log copied or synced beside it, a marker carried along from
/// another folder: each changes at least the inode or the change time, and the full check runs;
/// a log the marker still describes beside a file that changed without it is refused outright
/// (``isLeftForAnotherFile(_:)``).
/// Whatever is wrong with a marker (missing, torn, unreadable, not a regular file) only costs
/// that full check.
enum LeftLog {
  /// The marker's path beside the database at `path`.
  static func markerPath(_ path: String) -> String { path + "-wal.ootd" }

  /// The largest log left behind: above it, closing checkpoints as before (the next open reads
  /// the whole log to rebuild its index, so a log that only grows would slow every command).
  static let largestLeft: Int = 256 * 1024

  /// Whether the marker beside `path` describes the file and its `-wal` as they are now.
  static func isMarked(_ path: String) -> Bool {
    guard let expected = describe(path), let found = readMarker(markerPath(path)) else { return false }
    return found == expected
  }

  /// Whether the marker beside `path` still describes its `-wal` exactly while the file is no
  /// longer the one it described (another device or inode, size, modification time or header;
  /// a change time alone, from a `chmod` or a backup tool setting times back, does not count):
  /// the log was left for a file since replaced or written without it: a backup restored over
  /// it, a write through another name of the same file (a hard link, a bind mount of the file).
  /// Replaying it would lay its pages, written for the file as it was, over the file as it is
  /// now: StaleLog's full check cannot tell (the result is still this database, whole), and the
  /// restore or the other write would be undone or mixed silently.
  static func isLeftForAnotherFile(_ path: String) -> Bool {
    guard let found = readMarker(markerPath(path)).flatMap(parts), let now = describe(path).flatMap(parts) else {
      return false
    }
    return found.log == now.log && found.file != now.file
  }

  /// A description's parts: the file's (its status but the change time, and its header) and the
  /// log's (its status, header and last frame's header); nil when it is not one ``describe(_:)``
  /// writes.
  private static func parts(_ bytes: [UInt8]) -> (file: [UInt8], log: [UInt8])? {
    let newline = UInt8(ascii: "\n")
    var ends: [Int] = []
    for (index, byte) in bytes.enumerated() where byte == newline {
      ends.append(index)
      if ends.count == 3 { break }
    }
    guard ends.count == 3, bytes.count - (ends[2] + 1) == 100 + 32 + 24 else { return nil }
    let fileLine = bytes[(ends[0] + 1)..<ends[1]]
    // Its fields: device, inode, size, modification time, change time (left out).
    guard let lastSpace = fileLine.lastIndex(of: UInt8(ascii: " ")) else { return nil }
    let tail = ends[2] + 1
    return (
      Array(fileLine[..<lastSpace]) + bytes[tail..<(tail + 100)],
      Array(bytes[(ends[1] + 1)..<ends[2]]) + bytes[(tail + 100)...]
    )
  }

  /// Writes the marker for the file and its log as they are now; removes it when there is no
  /// log to describe. Call it only while holding the file alone (no other ootd process open).
  static func mark(_ path: String) {
    let marker = markerPath(path)
    guard let description = describe(path) else {
      unlink(marker)
      return
    }
    // A command that only read leaves both files as it found them: the marker stays as it is
    // (no file made or removed, which waits on a busy file system's journal).
    if readMarker(marker) == description { return }
    unlink(marker)
    let descriptor = Glibc.open(marker, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { return }
    let written = description.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    if written != description.count { unlink(marker) }
  }

  /// Removes the marker (a log that is not, or no longer, one ootd left on purpose).
  static func forget(_ path: String) { unlink(markerPath(path)) }

  /// Whether the `-wal` beside `path` is small enough to leave behind (see ``largestLeft``).
  static func isSmall(_ path: String) -> Bool {
    var status = stat()
    return lstat(path + "-wal", &status) == 0 && Int(status.st_size) <= largestLeft
  }

  /// The description of the file at `path` and its `-wal`, nil when either is missing or not a
  /// regular file, or the log holds no frame.
  static func describe(_ path: String) -> [UInt8]? {
    guard let file = openRegular(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) else { return nil }
    defer { close(file.descriptor) }
    guard let log = openRegular(path + "-wal", O_RDONLY | O_NOFOLLOW | O_CLOEXEC) else { return nil }
    defer { close(log.descriptor) }
    guard let fileHeader = readBytes(file.descriptor, count: 100, at: 0),
      let logHeader = readBytes(log.descriptor, count: 32, at: 0)
    else { return nil }
    let pageSize = logHeader[8..<12].reduce(0) { $0 << 8 | Int($1) }
    let frameSize = 24 + pageSize
    let frames = (Int(log.status.st_size) - 32) / frameSize
    guard pageSize >= 512, frames > 0,
      let lastFrame = readBytes(log.descriptor, count: 24, at: 32 + (frames - 1) * frameSize)
    else { return nil }
    var text = "ootd left log 1\n"
    append(file.status, to: &text)
    append(log.status, to: &text)
    var bytes = Array(text.utf8)
    bytes += fileHeader
    bytes += logHeader
    bytes += lastFrame
    return bytes
  }

  private static func append(_ status: stat, to text: inout String) {
    text += "\(status.st_dev) \(status.st_ino) \(status.st_size) "
    text += "\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec) \(status.st_ctim.tv_sec).\(status.st_ctim.tv_nsec)\n"
  }

  /// A regular file opened, with its status.
  private static func openRegular(_ path: String, _ flags: Int32) -> (descriptor: Int32, status: stat)? {
    let descriptor = Glibc.open(path, flags)
    guard descriptor >= 0 else { return nil }
    var status = stat()
    guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
      close(descriptor)
      return nil
    }
    return (descriptor, status)
  }

  private static func readBytes(_ descriptor: Int32, count: Int, at offset: Int) -> [UInt8]? {
    var bytes = [UInt8](repeating: 0, count: count)
    let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
    return got == count ? bytes : nil
  }

  /// The marker's bytes, nil when it is missing, not a regular file, not this user's, or
  /// implausibly large. Only this user's: ootd writes it with `O_EXCL`, so one owned by anyone
  /// else was planted (in a shared sticky folder, which ``AppDatabase/checkLocation(_:)`` accepts
  /// because nobody else can replace the file there, anyone may still create the missing `-wal`
  /// and marker beside it, and describe them: the file's status and most of its header are
  /// readable or guessable without reading it).
  private static func readMarker(_ marker: String) -> [UInt8]? {
    guard let file = openRegular(marker, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) else { return nil }
    defer { close(file.descriptor) }
    guard file.status.st_uid == geteuid() else { return nil }
    let size = Int(file.status.st_size)
    guard size > 0, size <= 4096 else { return nil }
    return readBytes(file.descriptor, count: size, at: 0)
  }
}
