import Core
import Foundation
import GRDB
import Storage
import Testing

#if canImport(Glibc)
import Glibc
#endif

// MARK: - Scratch folders

/// A fresh, empty folder under the system temporary directory. Every test makes its own: no
/// database file is ever shared between tests.
///
/// Folders are removed when the test process exits rather than in `deinit`, because Swift may end
/// a local's lifetime at its last use, while the database opened inside it is still in use.
final class Scratch: Sendable {
  let folder: String

  init() {
    _ = Scratch.cleanupAtExit
    let base = FileManager.default.temporaryDirectory.path
    folder = base + "/ootd-storage-tests-" + UUID().uuidString
    try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    Scratch.folders.withLock { $0.append(folder) }
  }

  private static let folders = Locked<[String]>([])

  private static let cleanupAtExit: Void = {
    atexit {
      for folder in Scratch.folders.withLock({ $0 }) {
        // Restore permissions changed by a test so that removal works for non-root users.
        if let walker = FileManager.default.enumerator(atPath: folder) {
          for case let relative as String in walker { chmod(folder + "/" + relative, 0o700) }
        }
        try? FileManager.default.removeItem(atPath: folder)
      }
    }
  }()

  /// A path inside the folder.
  func path(_ relative: String = "ootd.sqlite") -> String { folder + "/" + relative }

  /// Opens a fresh ootd database in this folder.
  func freshDatabase(_ name: String = "ootd.sqlite") throws -> AppDatabase {
    try AppDatabase.open(path: path(name))
  }
}

// MARK: - Files

/// The exact bytes and modification time of a file, to prove ootd left it untouched.
struct FileSnapshot: Equatable {
  let bytes: Data
  let modifiedSeconds: Int
  let modifiedNanoseconds: Int
  let mode: UInt32

  init(_ path: String) throws {
    bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    var info = stat()
    guard stat(path, &info) == 0 else { throw POSIXError(.ENOENT) }
    modifiedSeconds = info.st_mtim.tv_sec
    modifiedNanoseconds = info.st_mtim.tv_nsec
    mode = info.st_mode
  }
}

/// The permission bits of a file or folder.
func permissions(_ path: String) -> Int {
  var info = stat()
  guard stat(path, &info) == 0 else { return -1 }
  return Int(info.st_mode & 0o777)
}

/// The names in a folder, sorted.
func listing(_ folder: String) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
}

/// Whether the tests run as root, for whom permission bits do not stop writes.
var isRoot: Bool { getuid() == 0 }

// MARK: - Reading the file directly

/// Opens the file with plain GRDB (not through AppDatabase), runs `body` and closes it.
func withRawDatabase<T>(_ path: String, _ body: (Database) throws -> T) throws -> T {
  let queue = try DatabaseQueue(path: path)
  return try queue.writeWithoutTransaction { db in try body(db) }
}

/// Every row of every table, plus the identifying pragmas, as text: two dumps are equal exactly
/// when the database content is.
func dump(_ path: String) throws -> [String] {
  try withRawDatabase(path) { db in
    var lines: [String] = []
    lines.append("application_id=\(try Int.fetchOne(db, sql: "PRAGMA application_id") ?? -1)")
    lines.append("user_version=\(try Int.fetchOne(db, sql: "PRAGMA user_version") ?? -1)")
    let objects = try Row.fetchAll(
      db, sql: "SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
    for object in objects { lines.append("schema \(object)") }
    let tables = try String.fetchAll(
      db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    for table in tables {
      // A plain scan reads rowid order, or primary-key order for WITHOUT ROWID tables.
      for row in try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"") {
        lines.append("\(table) \(row)")
      }
    }
    return lines
  }
}

// MARK: - Values

/// A fixed instant, so that stored timestamps can be compared exactly.
let fixedNow = Date(timeIntervalSince1970: 1_795_000_000)

/// The day of ``fixedNow`` (2026-11-18T11:06:40Z) in UTC: the `today` the tests pass.
let fixedToday = Day(iso: "2026-11-18")!

/// A day literal that must parse.
func day(_ text: String) -> Day { Day(iso: text)! }

/// A valid todo draft.
func draft(
  _ title: String, _ priority: Priority = .mid, on text: String = "2026-11-22",
  project: String? = nil, block: String? = nil
) throws -> NewTodo {
  try NewTodo(title: title, priority: priority, day: day(text), project: project, block: block)
}

/// Every todo in the database, in list order.
func allTodos(_ database: AppDatabase) throws -> [Todo] {
  try database.todos(matching: TodoFilter(days: .all))
}

// MARK: - Threads

/// A value shared between threads behind a lock.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value
  init(_ value: Value) { self.value = value }
  func withLock<T>(_ body: (inout Value) -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}

/// Runs `body(index)` on `count` real threads released at the same moment, and waits for all.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let arrived = Locked(0)
  let start = DispatchSemaphore(value: 0)
  let finished = DispatchGroup()
  for index in 0..<count {
    finished.enter()
    let thread = Thread {
      let everyone = arrived.withLock { value -> Bool in
        value += 1
        return value == count
      }
      if everyone { for _ in 0..<count { start.signal() } }
      start.wait()
      body(index)
      finished.leave()
    }
    thread.stackSize = 1 << 20
    thread.start()
  }
  finished.wait()
}
