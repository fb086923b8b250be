import Foundation
import Testing

/// The libpq numbers and layouts CLibPQShim declares by hand (so that ootd builds without
/// libpq-dev) must equal libpq's own. Compiles a C file of static assertions against
/// <libpq-fe.h> when that header is installed (Debian's libpq-dev).
struct ABITests {
  static let header = ["/usr/include/postgresql/libpq-fe.h", "/usr/local/include/libpq-fe.h"]
    .first { FileManager.default.fileExists(atPath: $0) }
  static let shim = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/CLibPQShim")

  @Test(.enabled(if: header != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/cc"),
    "libpq-fe.h (libpq-dev) or cc is not installed: the ABI check is skipped"))
  func numbersMatchLibpq() throws {
    let header = try #require(Self.header)
    let source = """
      #include <stddef.h>
      #include "\(header)"
      #include "\(Self.shim.path)/pq_abi.h"
      #include "\(Self.shim.path)/include/clibpqshim.h"
      _Static_assert(OOTD_CONNECTION_OK == CONNECTION_OK, "CONNECTION_OK");
      _Static_assert(OOTD_PGRES_EMPTY_QUERY == PGRES_EMPTY_QUERY, "PGRES_EMPTY_QUERY");
      _Static_assert(OOTD_PGRES_COMMAND_OK == PGRES_COMMAND_OK, "PGRES_COMMAND_OK");
      _Static_assert(OOTD_PGRES_TUPLES_OK == PGRES_TUPLES_OK, "PGRES_TUPLES_OK");
      _Static_assert(OOTD_PGRES_FATAL_ERROR == PGRES_FATAL_ERROR, "PGRES_FATAL_ERROR");
      _Static_assert(OOTD_PGRES_PIPELINE_SYNC == PGRES_PIPELINE_SYNC, "PGRES_PIPELINE_SYNC");
      _Static_assert(OOTD_PGRES_PIPELINE_ABORTED == PGRES_PIPELINE_ABORTED, "PGRES_PIPELINE_ABORTED");
      _Static_assert(OOTD_PQTRANS_IDLE == PQTRANS_IDLE, "PQTRANS_IDLE");
      _Static_assert(OOTD_PQTRANS_INTRANS == PQTRANS_INTRANS, "PQTRANS_INTRANS");
      _Static_assert(OOTD_PQTRANS_INERROR == PQTRANS_INERROR, "PQTRANS_INERROR");
      _Static_assert(OOTD_PQTRANS_UNKNOWN == PQTRANS_UNKNOWN, "PQTRANS_UNKNOWN");
      _Static_assert(PG_DIAG_SQLSTATE == 'C', "PG_DIAG_SQLSTATE");
      _Static_assert(sizeof(ootd_Oid) == sizeof(Oid), "Oid");
      _Static_assert(sizeof(ootd_PQconninfoOption) == sizeof(PQconninfoOption), "PQconninfoOption");
      _Static_assert(offsetof(ootd_PQconninfoOption, keyword) == offsetof(PQconninfoOption, keyword), "keyword");
      _Static_assert(offsetof(ootd_PQconninfoOption, val) == offsetof(PQconninfoOption, val), "val");
      _Static_assert(offsetof(ootd_PQconninfoOption, dispsize) == offsetof(PQconninfoOption, dispsize), "dispsize");
      """
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("ootd-pq-abi-\(UUID().uuidString).c")
    try source.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
    process.arguments = ["-fsyntax-only", "-Werror=incompatible-pointer-types", "-Wno-unused-variable", file.path]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(message)")
  }
}
