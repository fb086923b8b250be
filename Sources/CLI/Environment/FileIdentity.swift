#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's device and inode numbers, `DEV:INO`: a copy of the file has others, so a copied
/// database gets its own device id at its next sync (``SyncJournal/beginSync(fileIdentity:now:)``).
/// Nil when the file cannot be read.
enum FileIdentity {
  static func of(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return "\(info.st_dev):\(info.st_ino)"
  }
}
