import Core
import Encryption
import Foundation
import PostgresSupport
import Remote
import Storage
import TestTags
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Two (or more) machines, each a database file, syncing through a real PostgreSQL as one
/// member role, by running the built `ootd` binary.
struct SyncMachines {
  let cluster: PostgresCluster
  let database: String
  let role: String
  let folder: TemporaryFolder

  init(cluster: PostgresCluster? = nil) throws {
    self.cluster = try cluster ?? PostgresCluster.shared()
    folder = try TemporaryFolder()
    database = try self.cluster.createDatabase()
    role = self.cluster.uniqueName("me")
    try self.cluster.createRole(role, password: "pw-me", member: true)
    try RemoteSchema.migrate(PostgresConnection(uri: self.cluster.uri(database: database)))
  }

  var uri: String { cluster.uri(role: role, database: database) }

  /// The seconds after ``TestClock/now`` the next command runs at: each command a second
  /// later than the one before, so an edit made after another is later by the clock too (the
  /// same field edited on two machines keeps the later edit), whatever the real clock does.
  private let seconds = Seconds()

  final class Seconds: @unchecked Sendable {
    private let lock = NSLock()
    private var elapsed = 0
    func next() -> Int { lock.withLock { elapsed += 1; return elapsed } }
  }

  /// The variables of a command on `machine`, at the next second.
  func environment(_ machine: String) -> [String: String] {
    [
      "OOTD_DB": folder.file("\(machine).sqlite"), "OOTD_REMOTE": uri, "TZ": "UTC",
      "OOTD_NOW": Timestamp.string(TestClock.now.addingTimeInterval(Double(seconds.next())), .iso8601),
    ]
  }

  @discardableResult
  func run(_ machine: String, _ arguments: String...) throws -> BinaryTests.Result {
    try BinaryTests.run(arguments, environment: environment(machine))
  }

  /// `remote sync --json`, which must succeed.
  @discardableResult
  func sync(_ machine: String) throws -> [String: Any] {
    let result = try run(machine, "remote", "sync", "--json")
    #expect(result.code == 0, "\(result.stderr)")
    return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
  }

  /// The contract's comparison: the set of (uuid, title, priority, date, done, project, block).
  func shapes(_ machine: String) throws -> Set<String> {
    let result = try run(machine, "list", "--all", "--json")
    #expect(result.code == 0, "\(result.stderr)")
    let todos = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
    return Set(todos.map { todo in
      ["uuid", "title", "priority", "date", "done", "project", "block"]
        .map { key in key == "done" ? "\(todo[key] as? Bool ?? false)" : "\(todo[key] ?? "nil")" }
        .joined(separator: "|")
    })
  }

  /// `list --all --json`, decoded.
  func todos(_ machine: String) throws -> [[String: Any]] {
    let result = try run(machine, "list", "--all", "--json")
    #expect(result.code == 0, "\(result.stderr)")
    return try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
  }

  /// The days of the todos, sorted (a day twice when two todos are on it).
  func dates(_ machine: String) throws -> [String] {
    try todos(machine).map { $0["date"] as? String ?? "nil" }.sorted()
  }

  func titles(_ machine: String) throws -> [String] {
    try shapes(machine).map { $0.split(separator: "|", omittingEmptySubsequences: false)[1] }.map(String.init).sorted()
  }

  /// The member's server as their machines see it: payloads sealed and opened with the sync key
  /// of machine a (once a has one).
  func server() throws -> RemoteServer {
    let server = try RemoteServer(connection: PostgresConnection(uri: uri))
    if let text = try? String(contentsOfFile: folder.file("a.sqlite") + ".sync-key", encoding: .utf8),
      let key = DataKey(fileText: text)
    {
      server.sealer = try PayloadCipher(key)
    }
    return server
  }
}

@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct RemoteSyncBinaryTests {
  @Test("two machines converge: the same (uuid, title, priority, date, done, project, block) on both")
  func converge() throws {
    let m = try SyncMachines()
    try m.run("a", "project", "add", "ootd")
    try m.run("a", "add", "Read the GRDB guide", "--project", "ootd", "--priority", "high")
    try m.run("b", "add", "Write the README", "--on", "tomorrow")
    try m.run("b", "add", "Solve BOJ 1753", "--block", "algorithm")
    // Before its first sync a database has no device id worth showing: that sync assigns it.
    let before = try m.run("a", "remote", "status", "--json")
    let beforeJSON = try JSONSerialization.jsonObject(with: Data(before.stdout.utf8)) as? [String: Any] ?? [:]
    #expect(beforeJSON.keys.contains("device") && beforeJSON["device"] is NSNull)
    #expect(try m.run("a", "remote", "status").stdout.contains("Device:     none yet (assigned at the first sync)"))
    let first = try m.sync("a")
    let after = try m.run("a", "remote", "status", "--json")
    let afterJSON = try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any] ?? [:]
    #expect(afterJSON["device"] as? String == first["device"] as? String)
    #expect(first["pushed"] as? Int ?? 0 > 0)
    #expect(first["pulled"] as? Int == 0 && first["conflicts"] as? Int == 0)
    try m.sync("b")
    try m.sync("a")
    #expect(try m.shapes("a") == m.shapes("b"))
    #expect(try m.shapes("a").count == 3)
    #expect(try m.shapes("b").contains { $0.contains("|Read the GRDB guide|high|") && $0.contains("|ootd|") })
    // Built-in blocks never appear twice.
    let blocks = try m.run("a", "block", "list", "--json")
    #expect(blocks.stdout.components(separatedBy: "\"algorithm\"").count == 2)
    // Both machines numbered a todo #1: the same todo keeps it on both (the smaller uuid), the
    // other has the same new number on both.
    let numbers = { (machine: String) in try m.todos(machine).map { "\($0["uuid"] ?? "") \($0["id"] ?? "")" }.sorted() }
    #expect(try numbers("a") == numbers("b"))
    // A sync with nothing to do pushes and pulls nothing (once a's renumbering of b's todo, if
    // a moved it, has reached b).
    try m.sync("b")
    let idle = try m.sync("b")
    #expect(idle["pushed"] as? Int == 0 && idle["pulled"] as? Int == 0)
    // A copy of a's file gets its own device id at its first sync, and stays in step.
    for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: m.folder.file("a.sqlite" + suffix)) {
      try FileManager.default.copyItem(atPath: m.folder.file("a.sqlite" + suffix), toPath: m.folder.file("c.sqlite" + suffix))
    }
    let fromA = try m.sync("a")["device"] as? String
    let fromCopy = try m.sync("c")["device"] as? String
    #expect(fromA != nil && fromCopy != nil && fromA != fromCopy)
    try m.run("c", "add", "From the copy")
    try m.sync("c")
    try m.sync("a")
    #expect(try m.shapes("a") == m.shapes("c"))
    #expect(try m.shapes("a").count == 4)
    let status = try m.run("b", "remote", "status", "--json")
    let json = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any] ?? [:]
    #expect(json["waitingChanges"] as? Int == 0)
    #expect(json["lastSync"] is String)
    #expect((json["server"] as? String)?.contains(m.role) == true)
    // The sync's line counts as status counts: one command is one change, with its row-level
    // operations in brackets (ticking a todo writes several fields).
    try m.run("a", "done", "1")
    #expect(try m.run("a", "remote", "status").stdout.contains("To push:    1 change ("))
    let line = try m.run("a", "remote", "sync")
    #expect(line.code == 0 && line.stdout.hasPrefix("Pushed 1 change ("), "\(line.stdout)")
  }

  @Test("different fields merge; the same field keeps the later edit and --json lists the conflict")
  func fieldsAndConflicts() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Read")
    try m.sync("a")
    try m.sync("b")
    // Ticked on a, retitled on b: both kept.
    try m.run("a", "done", "1")
    try m.run("b", "edit", "1", "--title", "Read SICP")
    try m.sync("a")
    try m.sync("b")
    try m.sync("a")
    #expect(try m.shapes("a") == m.shapes("b"))
    #expect(try m.shapes("a").first?.contains("|Read SICP|mid|") == true)
    #expect(try m.shapes("a").first?.contains("|true|") == true)
    // The same field on both: b edits later, so b's title wins on both, reported by b's sync.
    try m.run("a", "edit", "1", "--title", "From a")
    try m.sync("a")
    try m.run("b", "edit", "1", "--title", "From b")
    let b = try m.sync("b")
    try m.sync("a")
    #expect(try m.titles("a") == ["From b"])
    #expect(try m.titles("b") == ["From b"])
    #expect(b["conflicts"] as? Int == 1)
    let list = b["conflictList"] as? [[String: Any]] ?? []
    #expect(list.first?["kind"] as? String == "same-field")
    #expect(list.first?["field"] as? String == "title")
    #expect(list.first?["kept"] as? String == "From b")
    #expect(list.first?["lost"] as? String == "From a")
    // Text output says it in one line per conflict.
    try m.run("a", "edit", "1", "--title", "A again")
    try m.sync("a")
    try m.run("b", "edit", "1", "--title", "B again")
    let text = try m.run("b", "remote", "sync")
    #expect(text.code == 0)
    #expect(text.stdout.contains("1 conflict resolved"))
    #expect(text.stdout.contains("#1 'B again': title changed on two machines; kept 'B again' (the later), over 'A again'"))
  }

  @Test("deleted on one machine and edited on the other: stays deleted on both, reported")
  func deleteWins() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Read")
    try m.sync("a")
    try m.sync("b")
    try m.run("a", "rm", "1", "--yes")
    try m.run("b", "edit", "1", "--title", "Read more")
    let a = try m.sync("a")
    let b = try m.sync("b")
    let again = try m.sync("a")
    #expect(try m.shapes("a").isEmpty)
    #expect(try m.shapes("b").isEmpty)
    let kinds = [a, b, again].flatMap { ($0["conflictList"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String } }
    #expect(kinds.contains("edit-of-deleted"))
  }

  @Test("the day's routine planned on both machines appears once; undo of a pushed rm comes back everywhere")
  func routineAndUndo() throws {
    let m = try SyncMachines()
    // On each machine the routine plans itself on the (pinned) today, and `plan` plans tomorrow.
    let today = TestClock.day(0)
    let tomorrow = TestClock.day(1)
    for machine in ["a", "b"] {
      try m.run(machine, "block", "routine", "algorithm")
      try m.run(machine, "plan", "--on", tomorrow)
      #expect(try m.dates(machine) == [today, tomorrow])
    }
    for machine in ["a", "b", "a", "b"] { try m.sync(machine) }
    // Each day's routine once, the same on both.
    #expect(try m.dates("a") == [today, tomorrow])
    #expect(try m.shapes("a") == m.shapes("b"))
    // rm of today's on a, pushed, applied on b; then undone on a: back on b.
    let todays = try #require(
      try m.todos("a").first { $0["date"] as? String == today }?["id"] as? Int, "no todo on \(today)")
    let removed = try m.run("a", "rm", "\(todays)", "--yes")
    #expect(removed.code == 0, "\(removed.stderr)")
    try m.sync("a")
    try m.sync("b")
    #expect(try m.dates("b") == [tomorrow])
    let undo = try m.run("a", "undo")
    #expect(undo.code == 0, "\(undo.stderr)")
    try m.sync("a")
    try m.sync("b")
    #expect(try m.dates("b") == [today, tomorrow])
    #expect(try m.shapes("a") == m.shapes("b"))
  }

  @Test("a sync killed with kill -9 at each step of push and of pull: the next sync completes without duplicates")
  func killed() throws {
    let m = try SyncMachines()
    let count = 5_000
    try Self.fill(m.folder.file("a.sqlite"), count: count)
    // a's first sync killed (OOTD_FAULT, see Sources/CLI/Environment/DebugSeams.swift) after
    // the pull, before anything was pushed; after the server took the snapshot, before it was
    // marked pushed here (so it is pushed again); after it was marked; after the figures were
    // published, before the sync was finished.
    for point in ["remote-pulled:1", "remote-push-sent:1", "remote-push-marked:1", "remote-figures:1"] {
      try Self.killSync(m, "a", at: point)
    }
    try m.sync("a")
    // b's first sync killed after the page of a's records was fetched, before it was applied;
    // after it was applied; after b's own snapshot reached the server, before it was marked.
    for point in ["remote-pull-fetched:1", "remote-pull-applied:1", "remote-push-sent:1"] {
      try Self.killSync(m, "b", at: point)
    }
    try m.sync("b")
    #expect(try m.shapes("b").count == count)
    #expect(try m.shapes("a") == m.shapes("b"))
    // b pushed only its own rows (the built-in blocks), not the todos it pulled.
    let back = try m.sync("a")
    #expect(back["pulled"] as? Int ?? 0 < 100)
    // No record twice on the server, and nothing left to push or pull.
    let records = try m.server().operationCount()
    let idle = try m.sync("a")
    #expect(idle["pushed"] as? Int == 0 && idle["pulled"] as? Int == 0)
    #expect(try m.server().operationCount() == records)
  }

  @Test("the server stopped mid-sync: exit 1 with one line, nothing lost; after a restart the sync completes")
  func serverStopped() throws {
    let cluster = try PostgresCluster()
    defer { cluster.stop() }
    let m = try SyncMachines(cluster: cluster)
    let count = 5_000
    try Self.fill(m.folder.file("a.sqlite"), count: count)
    let before = try m.shapes("a")
    // The sync stops itself once it has pulled (connected, nothing pushed yet); the server is
    // stopped while it waits; then it goes on, to push to a server that is gone.
    let process = try Self.start(m, "a", fault: "remote-pulled:1:stop")
    try Self.waitUntilStopped(process)
    try cluster.pause()
    kill(process.processIdentifier, SIGCONT)
    process.waitUntilExit()
    let stderr = String(decoding: (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationReason == .exit && process.terminationStatus == 1, "\(stderr)")
    #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
    #expect(stderr.hasPrefix("ootd: error:"), "\(stderr)")
    #expect(try m.shapes("a") == before)
    // While the server is down: exit 1, one line.
    let down = try m.run("a", "remote", "sync")
    #expect(down.code == 1)
    #expect(down.stderr.split(separator: "\n").count == 1)
    #expect(down.stderr.hasPrefix("ootd: error:"))
    try cluster.resume()
    try m.sync("a")
    try m.sync("b")
    #expect(try m.shapes("b") == before)
  }

  /// `count` todos written straight through Storage (one change), quicker than the binary.
  static func fill(_ path: String, count: Int) throws {
    let database = try AppDatabase.open(path: path, command: "import")
    let day = Day(iso: "2026-11-20")!
    _ = try database.addTodos(
      try (0..<count).map { (try NewTodo(title: "todo \($0)", priority: .mid, day: day), $0 % 3 == 0) }, now: TestClock.now)
  }

  /// Starts `remote sync` on `machine` with the fault point `fault` (`OOTD_FAULT`).
  static func start(_ m: SyncMachines, _ machine: String, fault: String) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: BinaryTests.binary)
    process.arguments = ["remote", "sync"]
    process.environment = BinaryTests.inherited(m.environment(machine).merging(["OOTD_FAULT": fault]) { $1 })
    process.standardOutput = Pipe()
    process.standardError = Pipe()
    try process.run()
    return process
  }

  /// Runs `remote sync` on `machine` until it kills itself at `point`; fails unless it did.
  static func killSync(_ m: SyncMachines, _ machine: String, at point: String) throws {
    let process = try start(m, machine, fault: point)
    process.waitUntilExit()
    let stderr = String(decoding: (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(
      process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL,
      "\(machine)'s sync was not killed at \(point): \(process.terminationStatus) \(stderr)")
  }

  /// Waits until `process` has stopped itself (state T in /proc); fails if it exits first.
  static func waitUntilStopped(_ process: Process) throws {
    let stat = "/proc/\(process.processIdentifier)/stat"
    // A bound only against a hang (the sync reaches its point in well under a second).
    let deadline = Date().addingTimeInterval(120)  // real clock: a bound against a hang only
    while true {
      try #require(Date() < deadline, "the sync never reached its fault point")  // real clock: the bound
      let text = try String(contentsOfFile: stat, encoding: .utf8)
      // pid (comm) STATE ...: the state follows the last parenthesis.
      let state = text[text.index(after: try #require(text.lastIndex(of: ")")))...].split(separator: " ").first
      if state == "T" { return }
      try #require(state != "Z" && process.isRunning, "the sync ended before it reached its fault point")
      usleep(10_000)
    }
  }
}
