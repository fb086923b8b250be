import Core
import Encryption
import Foundation
import Storage

#if canImport(Glibc)
import Glibc
#endif

/// The file beside the database that holds this machine's sync key (``DataKey``): the key that
/// encrypts every payload, unwrapped once with the passphrase (docs/decisions/encryption.md).
/// It is the only place the key is kept on this machine: never in the database, the command
/// line, a log or the server.
///
/// Written as a new file created exclusively (mode 0600 from the start, never through a link
/// planted at its name) and renamed into place; read only when it is a regular file of this
/// user that nobody else may read. A symbolic link at its path is refused, reading and writing.
struct SyncKeyFile {
  let path: String

  /// The key file of the database at `databasePath`.
  init(databasePath: String) { path = databasePath + ".sync-key" }

  private func refused(_ why: String) -> EncryptionError {
    .keyFile("the sync key file '\(TerminalText.printable(path))' \(why)")
  }

  /// The key the file holds, nil when there is none.
  func read() throws(EncryptionError) -> DataKey? {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    if descriptor < 0 {
      let code = errno
      if code == ENOENT { return nil }
      if code == ELOOP { throw refused("is a symbolic link: ootd reads its key only from a file of its own; remove the link") }
      throw refused("cannot be read: \(String(cString: strerror(code)))")
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw refused("cannot be read: \(String(cString: strerror(errno)))") }
    guard status.st_mode & S_IFMT == S_IFREG else { throw refused("is not a regular file; move it away") }
    guard status.st_uid == geteuid() else { throw refused("belongs to another user; remove it") }
    guard status.st_mode & 0o077 == 0 else {
      throw refused(
        "can be read by others (mode \(String(status.st_mode & 0o777, radix: 8))): it may have leaked; run 'chmod 600' on it, or remove it and enter the passphrase again")
    }
    var bytes = [UInt8](repeating: 0, count: 1024)
    let count = Glibc.read(descriptor, &bytes, bytes.count)
    defer { for index in bytes.indices { bytes[index] = 0 } }
    guard count > 0, let key = DataKey(fileText: String(decoding: bytes[..<count], as: UTF8.self)) else {
      throw refused("is not an ootd sync key; remove it and enter the passphrase again")
    }
    return key
  }

  /// Stores `key`, replacing the file there.
  func write(_ key: DataKey) throws(EncryptionError) {
    var status = stat()
    if lstat(path, &status) == 0 {
      switch status.st_mode & S_IFMT {
      case S_IFREG: break
      case S_IFLNK: throw refused("is a symbolic link: ootd will not write its key through it; remove the link")
      default: throw refused("is not a regular file; move it away")
      }
    }
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    // On a machine that never ran ootd, the database's folder is not there yet (the database
    // is opened after the key is proven): made as the database's own would be.
    do {
      _ = try AppDatabase.makeFolders(for: path)
    } catch {
      throw refused("cannot be written: its folder cannot be created")
    }
    // mkstemp: a new name created with O_CREAT | O_EXCL and mode 0600, so no link planted there
    // is followed and nobody else can open it between creation and rename.
    var template = Array((folder + "/." + name + ".ootd-XXXXXX").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else { throw refused("cannot be written: \(String(cString: strerror(errno)))") }
    let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    fchmod(descriptor, 0o600)
    var text = Array(key.fileText.utf8)
    defer { for index in text.indices { text[index] = 0 } }
    let written = Glibc.write(descriptor, text, text.count)
    let synced = fsync(descriptor) == 0
    close(descriptor)
    guard written == text.count, synced, rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw refused("cannot be written: \(reason)")
    }
  }
}
