import Foundation
import Storage

#if canImport(Glibc)
import Glibc
#endif

/// Writing a file so that readers never see it half written, and nobody can redirect the write.
extension AppEnvironment {
  /// Writes `text` to `path`. A regular file (or a missing one) is replaced atomically: the text
  /// goes to a temporary file created exclusively beside it (`mkstemp`: a new name, never a link
  /// planted there), which is then renamed over `path`, so readers never see half an image. A
  /// FIFO, a terminal or another character device, and standard output named as a file
  /// (`/dev/stdout`), are written directly: never replaced. Anything else (a folder, a socket)
  /// is refused. Throws ``CLIError/cannotWrite(path:reason:)`` with the reason.
  static func writeAtomically(_ path: String, _ text: String) throws(CLIError) {
    do {
      try writeAtomically(path, producing: { write in try write(text) })
    } catch let error as CLIError {
      throw error
    } catch {
      throw .cannotWrite(path: path, reason: "\(error)")
    }
  }

  /// Writes `bytes` (an image: `review --png`) to `path` as ``writeAtomically(_:_:)`` writes text.
  static func writeAtomically(_ path: String, bytes: [UInt8]) throws(CLIError) {
    do {
      try writeAtomically(path) { (write: (ArraySlice<UInt8>) throws -> Void) in try write(bytes[...]) }
    } catch let error as CLIError {
      throw error
    } catch {
      throw .cannotWrite(path: path, reason: "\(error)")
    }
  }

  /// Writes to `path` as ``writeAtomically(_:_:)`` does, the text handed over a piece at a time
  /// by `produce` (any length in constant memory). When `produce` throws, a replaced file is
  /// left as it was (the temporary file is removed) and the error is thrown.
  static func writeAtomically(
    _ path: String, producing produce: (_ write: (String) throws -> Void) throws -> Void
  ) throws {
    try writeAtomically(path) { (write: (ArraySlice<UInt8>) throws -> Void) in
      try withoutActuallyEscaping(write) { write in try produce { text in try write(Array(text.utf8)[...]) } }
    }
  }

  /// The one atomic write: bytes handed over a piece at a time by `produce`.
  ///
  /// `path` may be the user's own symbolic link (a todo.txt kept in a synced folder): its target
  /// is replaced and the link stays; another user's link is refused, as a database path's is.
  /// A replaced file keeps its permission bits (a private 0600 file stays private). A file that
  /// is an SQLite database or its write-ahead log (`--output ootd.sqlite`) is never replaced.
  private static func writeAtomically(
    _ given: String, _ produce: (_ write: (ArraySlice<UInt8>) throws -> Void) throws -> Void
  ) throws {
    // `/dev/stdout` and `/dev/fd/N` are links too (to a pipe, a terminal): written through.
    let path = Self.namesAnOpenDescriptor(given) ? given : try Self.followingOwnLink(given)
    var status = stat()
    var keptMode: mode_t? = nil
    if stat(path, &status) == 0 {
      switch status.st_mode & S_IFMT {
      case S_IFREG where !Self.namesAnOpenDescriptor(path):
        if Self.isDatabase(path) {
          throw CLIError.cannotWrite(path: given, reason: "it is an SQLite database; ootd never writes over one")
        }
        keptMode = status.st_mode & 0o777  // (never a set-id bit on written text)
      case S_IFREG, S_IFIFO, S_IFCHR:
        let descriptor = Glibc.open(path, O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
          throw CLIError.cannotWrite(path: given, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        try produce { text in try write(text, to: descriptor, path: given) }
        return
      case S_IFDIR:
        throw CLIError.cannotWrite(path: given, reason: String(cString: strerror(EISDIR)))
      default:
        throw CLIError.cannotWrite(path: given, reason: "it is not a regular file")
      }
    }
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    var template = Array((folder + "/." + name + ".ootd-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else {
      throw CLIError.cannotWrite(path: given, reason: String(cString: strerror(errno)))
    }
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // mkstemp makes it 0600: give it the replaced file's mode, else the mode a new file gets
    // (0666 less the umask), as the shell's `>` would, so a umask of 077 keeps the file private.
    fchmod(descriptor, keptMode ?? (0o666 & ~Self.fileCreationMask()))
    do {
      try produce { text in try write(text, to: descriptor, path: given) }
    } catch {
      close(descriptor)
      unlink(temporary)
      throw error
    }
    close(descriptor)
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw CLIError.cannotWrite(path: given, reason: reason)
    }
  }

  /// `path`, or the file its link names when it is a symbolic link of this user's; throws for
  /// another user's link and for a link to nothing.
  private static func followingOwnLink(_ path: String) throws(CLIError) -> String {
    var link = stat()
    guard lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK else { return path }
    if AppDatabase.isAnotherUsersLink(path) {
      throw .cannotWrite(path: path, reason: "it is a symbolic link owned by another user")
    }
    guard let resolved = realpath(path, nil) else {
      throw .cannotWrite(path: path, reason: "it is a symbolic link to a file that does not exist")
    }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Whether the regular file at `path` begins as an SQLite database or write-ahead log does.
  private static func isDatabase(_ path: String) -> Bool {
    let descriptor = Glibc.open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var head = [UInt8](repeating: 0, count: 16)
    guard read(descriptor, &head, 16) == 16 else { return false }
    // "SQLite format 3\0"; a log's magic number is 0x377f0682 or 0x377f0683.
    return head == Array("SQLite format 3\0".utf8) || head[0..<3] == [0x37, 0x7f, 0x06] && (head[3] | 1) == 0x83
  }

  /// The process's umask: read from /proc (setting it to read it would change it for other
  /// threads for a moment), else by setting and restoring it.
  static func fileCreationMask() -> mode_t {
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
      let mask = mode_t(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
    {
      return mask
    }
    let mask = umask(0o077)
    umask(mask)
    return mask
  }

  /// Whether `path` names one of this process's open descriptors (`/dev/stdout`, `/dev/fd/1`,
  /// `/proc/self/fd/1`): written through, never replaced, even when it is a file.
  private static func namesAnOpenDescriptor(_ path: String) -> Bool {
    ["/dev/stdout", "/dev/stderr"].contains(path) || path.hasPrefix("/dev/fd/")
      || path.hasPrefix("/proc/self/fd/")
  }

  /// Writes all of `bytes` to `descriptor`.
  private static func write(_ bytes: ArraySlice<UInt8>, to descriptor: Int32, path: String) throws(CLIError) {
    var written = bytes.startIndex
    while written < bytes.endIndex {
      let result = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if result < 0 && errno == EINTR { continue }
      guard result > 0 else {
        throw .cannotWrite(path: path, reason: String(cString: strerror(errno)))
      }
      written += result
    }
  }
}
