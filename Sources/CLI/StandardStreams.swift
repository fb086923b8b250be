#if canImport(Glibc)
import Glibc
#endif

/// Standard input, output and error as a process of ootd's needs them: open.
enum StandardStreams {
  /// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed (`ootd import todotxt -
  /// <&-`), as git does at start. Else the first file ootd opened itself took the lowest free
  /// number: a closed standard input read the database (its header, "SQLite format 3", reported
  /// as a bad line of the import), and a closed standard output sent the output to that file
  /// (read-only there, so the write failed; a file opened for writing would have taken it).
  static func openClosed() {
    for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      // The lowest free number: this one, the lower ones being open by now.
      let opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
      if opened >= 0, opened != descriptor {
        dup2(opened, descriptor)
        close(opened)
      }
    }
  }
}
