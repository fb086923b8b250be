import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Standard output or error written with `write(2)`, remembering a failure instead of crashing
/// (Foundation's `FileHandle.write` traps on a full disk or a closed stream).
final class StandardStream: @unchecked Sendable {
  static let output = StandardStream(descriptor: STDOUT_FILENO)
  static let error = StandardStream(descriptor: STDERR_FILENO)

  private let descriptor: Int32
  private let lock = NSLock()
  private var firstError: Int32?

  private init(descriptor: Int32) { self.descriptor = descriptor }

  /// Why writing failed, if it did.
  var failure: String? {
    lock.withLock { firstError.map { String(cString: strerror($0)) } }
  }

  func write(_ text: String) {
    var text = text
    text.withUTF8 { write(bytes: $0) }
  }

  /// Writes UTF-8 bytes as they are (a streamed document's chunks: no String in between).
  func write(bytes: UnsafeBufferPointer<UInt8>) {
    lock.withLock {
      guard firstError == nil else { return }
      var bytes = UnsafeRawBufferPointer(bytes)
      while !bytes.isEmpty {
        let written = Glibc.write(descriptor, bytes.baseAddress, bytes.count)
        if written < 0 {
          if errno == EINTR { continue }
          firstError = errno
          return
        }
        bytes = UnsafeRawBufferPointer(rebasing: bytes[written...])
      }
    }
  }
}
