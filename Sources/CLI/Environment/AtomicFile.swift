import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Writing a file so that readers never see it half written.
extension AppEnvironment {
  /// Writes `text` to a temporary file beside `path`, then renames it over `path`, so readers
  /// never see half an image. Throws ``CLIError/cannotWrite(path:reason:)`` with the system's
  /// reason (no such folder, permission denied, is a directory…).
  static func writeAtomically(_ path: String, _ text: String) throws(CLIError) {
    let temporary = path + ".ootd-\(getpid()).tmp"
    let descriptor = Glibc.open(temporary, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw .cannotWrite(path: path, reason: String(cString: strerror(errno)))
    }
    let bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
      let result = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if result < 0 && errno == EINTR { continue }
      guard result > 0 else {
        let reason = String(cString: strerror(errno))
        close(descriptor)
        unlink(temporary)
        throw .cannotWrite(path: path, reason: reason)
      }
      written += result
    }
    close(descriptor)
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw .cannotWrite(path: path, reason: reason)
    }
  }
}
