import Core
import Foundation
import Storage
import TUI
import Testing

@testable import CLI

/// The one "now" of the TUI tests (as `TestClock` of the CLI tests): noon UTC on a Sunday.
enum TUIClock {
  static let instant = "2026-11-22T12:00:00Z"
  static let now = Timestamp.date(instant, .iso8601)!
  static let today = Day(iso: "2026-11-22")!
  static let zone = TimeZone(identifier: "UTC")!  // real zone: none, a named fixed zone
}

/// A real SQLite file in a temporary folder, the CLI's environment over it (pinned clock and
/// zone, output captured), and sessions of the TUI on it with the CLI's own host.
final class Fixture {
  let folder: String
  let database: AppDatabase
  var environment: AppEnvironment

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/ootd-tui-tests-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    folder = String(cString: try #require(made))
    let path = folder + "/ootd.sqlite"
    database = try AppDatabase.open(path: path)
    environment = AppEnvironment(
      variables: ["OOTD_DB": path], now: TUIClock.now, timeZone: TUIClock.zone, stdoutIsTerminal: false,
      stdinIsTerminal: false, output: { _ in }, errorOutput: { _ in }, readLine: { nil })
    environment.clock = { TUIClock.now }
  }

  deinit {
    database.close()
    try? FileManager.default.removeItem(atPath: folder)
  }

  var path: String { folder + "/ootd.sqlite" }

  /// Adds a todo `offset` days from today (nil: the backlog) as `ootd add` would.
  @discardableResult
  func add(
    _ title: String, _ priority: Priority = .mid, day offset: Int? = 0, done: Bool = false, tags: [String] = []
  ) throws -> Todo {
    var draft = try NewTodo(title: title, priority: priority, day: offset.map { TUIClock.today.adding(days: $0) })
    draft.tags = tags
    return try database.recording(as: CommandText.from(["add", title])).addTodo(draft, done: done, now: TUIClock.now)
  }

  /// A session on the database with the CLI's host, as `ootd tui` makes it.
  func session(keys: KeyMap = .standard) throws -> Session {
    try Session(
      database: database, today: TUIClock.today, host: Ootd.Tui.host(environment), reducer: Reducer(keys: keys))
  }

  /// Every todo, by id.
  func todos() throws -> [Todo] {
    var todos: [Todo] = []
    try database.forEachTodo(matching: TodoFilter(days: .all)) {
      todos.append($0)
      return true
    }
    return todos.sorted { $0.id < $1.id }
  }

  func todo(_ id: Int64) throws -> Todo { try #require(try todos().first { $0.id == id }) }

  /// The journal, newest first.
  func journal() throws -> [JournalEntry] { try database.journal(limit: 50) }
}

/// Keys from a string: each character a key (`"jjx"`).
func keys(_ text: String) -> [Key] { text.map { Key.character($0) } }

/// The rows of `ootd list` without colour, for the renderer's tests.
func plainRows() -> ListRows { ListRows(style: .plain) }
