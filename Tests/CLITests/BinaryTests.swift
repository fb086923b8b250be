import Core
import Foundation
import TestTags
import Testing

/// End-to-end runs of the built `ootd` binary: real processes, real stdout, stderr and exit codes.
/// `scripts/test` builds the binary first; it sits beside the test bundle in the build folder.
@Suite(.tags(.binary)) struct BinaryTests {
  static let binary: String = {
    let environmentPath = ProcessInfo.processInfo.environment["OOTD_BINARY"] ?? ""
    // Relative to where the tests were started (children may run elsewhere).
    if !environmentPath.isEmpty { return URL(fileURLWithPath: environmentPath).standardizedFileURL.path }
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    var folder = executable.deletingLastPathComponent()
    // The test runner lives in .build/<triple>/debug/ootdPackageTests.xctest (or inside it).
    while folder.path != "/" {
      let candidate = folder.appendingPathComponent("ootd").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    return "ootd-binary-not-built"
  }()

  struct Result {
    let code: Int32
    let stdout: String
    let stderr: String
  }

  static func run(
    _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil,
    directory: String? = nil, standardOutput: FileHandle? = nil, unprivileged: Bool = false,
    hangGuard: TimeInterval? = nil
  ) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    if unprivileged && getuid() == 0 {
      // Root ignores permission bits: run as nobody, as a normal user would.
      process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
      process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", binary] + arguments
    }
    process.environment = inherited(environment)
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = standardOutput ?? out
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let hangGuard {
      // Only keeps a command that would wait forever from stopping the suite: it is killed, and
      // its exit (by a signal) fails the test. SIGKILL: the child inherits the test runner's
      // blocked signals, SIGTERM among them.
      DispatchQueue.global().asyncAfter(deadline: .now() + hangGuard) { [process] in
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      }
    }
    if standardOutput != nil { try out.fileHandleForWriting.close() }
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      code: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self))
  }

  /// A test's `environment` with the pinned clock and zone (``TestClock``) where it names none.
  static func pinned(_ environment: [String: String]) -> [String: String] {
    TestClock.environment.merging(environment) { $1 }
  }

  /// This process's variables (without a clock, zone or fault point of its own: `.ci/run`'s
  /// second pass runs the tests with an awkward TZ and OOTD_NOW, which only an ootd a test
  /// forgot to pin gets), then `environment` pinned: what an `ootd` the tests start gets.
  static func inherited(_ environment: [String: String]) -> [String: String] {
    var variables = ProcessInfo.processInfo.environment
    for name in ["NO_COLOR", "CLICOLOR_FORCE", "OOTD_NOW", "OOTD_FAULT", "OOTD_IMPORT_CAP", "OOTD_CLOCK_OFFSET", "TZ", "OOTD_REMOTE_NEW_PASSPHRASE"] {
      variables.removeValue(forKey: name)
    }
    return variables.merging(SyncKeyTesting.environment) { $1 }.merging(pinned(environment)) { $1 }
  }


  /// `.ci/run`'s second pass names the day of its OOTD_NOW (OOTD_CI_UNPINNED_DAY): the test
  /// runner's zone is that pass's TZ, an ootd started with the runner's variables as they are
  /// (unpinned) runs at that pass's OOTD_NOW, and a pinned one at TestClock's.
  @Test(.enabled(if: ProcessInfo.processInfo.environment["OOTD_CI_UNPINNED_DAY"] != nil))
  func secondPass_awkwardZoneAndClock_reachOnlyWhatIsNotPinned() throws {
    let variables = ProcessInfo.processInfo.environment
    let fakedDay = try #require(variables["OOTD_CI_UNPINNED_DAY"])
    #expect(TimeZone.current.identifier == variables["TZ"], "the test runner's zone is not TZ")  // real zone: the check
    let folder = try TemporaryFolder()
    // Unpinned: this process's variables as they are.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.binary)
    process.arguments = ["add", "unpinned", "--json", "--db", folder.file("a.sqlite")]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let unpinned = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(unpinned["date"] as? String == fakedDay)
    // Pinned, as every test starts it.
    let pinned = try Self.run(["add", "pinned", "--json", "--db", folder.file("b.sqlite")])
    let object = try #require(JSONSerialization.jsonObject(with: Data(pinned.stdout.utf8)) as? [String: Any])
    #expect(object["date"] as? String == TestClock.day())
  }

  /// The debug build's seams (Sources/CLI/Environment/DebugSeams.swift): a value that is not
  /// one is one line on stderr and exit 64, before anything runs (no database is made).
  @Test(arguments: [
    ["OOTD_NOW": "2026-11-22"], ["OOTD_NOW": "tomorrow"], ["OOTD_NOW": ""],
    ["OOTD_FAULT": "remote-pulled"], ["OOTD_FAULT": "remote-pulled:0"], ["OOTD_FAULT": "remote-pulled:1:explode"],
    ["OOTD_FAULT": "wal-index:1"], ["OOTD_FAULT": "wal-index:1:kill"], ["OOTD_FAULT": "remote-pulled:1:full"],
  ])
  func debugSeams_aBadValue_isExit64WithOneLine(variables: [String: String]) throws {
    let folder = try TemporaryFolder()
    let result = try Self.run(["add", "x"], environment: variables.merging(["OOTD_DB": folder.file("ootd.sqlite")]) { $1 })
    #expect(result.code == 64)
    #expect(result.stderr.hasPrefix("ootd: error: OOTD_"), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder.file("ootd.sqlite")))
  }

  @Test func binaryExists() {
    #expect(FileManager.default.isExecutableFile(atPath: Self.binary), "build it first: swift build")
  }

  @Test func addListDone_workEndToEnd() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("nested/dir/ootd.sqlite")]
    let added = try Self.run(["add", "Solve BOJ 1753", "--priority", "high", "--json"], environment: env)
    #expect(added.code == 0, "\(added.stderr)")
    #expect(added.stdout.contains("\"title\" : \"Solve BOJ 1753\""))
    let attributes = try FileManager.default.attributesOfItem(atPath: folder.file("nested/dir/ootd.sqlite"))
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    #expect(try Self.run(["done", "1"], environment: env).code == 0)
    let listed = try Self.run(["list", "--json"], environment: env)
    let todos = try #require(
      JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    #expect(todos.count == 1)
    #expect(todos.first?["done"] as? Bool == true)
    #expect(listed.stderr.isEmpty)
  }

  @Test(arguments: [
    (["add", "x", "--priority", "urgent"], Int32(64)),
    (["add", "x", "--on", "2024-02-30"], 64),
    (["add", ""], 64),
    (["done", "abc"], 64),
    (["done", "7"], 1),
    (["rm", "1"], 64),
    (["list", "--from", "2026-02-01", "--to", "2026-01-01"], 64),
    (["frobnicate"], 64),
  ] as [([String], Int32)])
  func badInput_exitsWithItsCode_oneLineOnStderr_noTrace(arguments: [String], code: Int32) throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite")]
    #expect(try Self.run(["add", "keep"], environment: env).code == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: folder.file("ootd.sqlite")))
    let result = try Self.run(arguments, environment: env)
    #expect(result.code == code)
    #expect(result.stderr.hasPrefix("ootd: error: "), "\(result.stderr)")
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    let after = try Data(contentsOf: URL(fileURLWithPath: folder.file("ootd.sqlite")))
    #expect(before == after)
  }

  @Test func report_jsonAndSVG_workEndToEnd() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite"), "TZ": "UTC"]
    #expect(try Self.run(["add", "x", "--on", "2026-01-01"], environment: env).code == 0)
    #expect(try Self.run(["done", "1"], environment: env).code == 0)
    let report = try Self.run(
      ["report", "--from", "2025-12-31", "--to", "2026-01-02", "--json"], environment: env)
    #expect(report.code == 0, "\(report.stderr)")
    let object = try #require(
      JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
    #expect((object["days"] as? [[String: Any]])?.count == 3)
    #expect(object["currentStreak"] as? Int == 1)
    let svg = try Self.run(["report", "--svg", folder.file("a.svg")], environment: env)
    #expect(svg.code == 0, "\(svg.stderr)")
    #expect(FileManager.default.fileExists(atPath: folder.file("a.svg")))
    let unwritable = try Self.run(["report", "--svg", "/proc/ootd-no/a.svg"], environment: env)
    #expect(unwritable.code == 1)
    #expect(unwritable.stderr.hasPrefix("ootd: error: cannot write"))
  }

  @Test func anOutputThatCannotBeWritten_isAOneLineErrorNotACrash() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite")]
    _ = try Self.run(["add", "x"], environment: env)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.binary)
    process.arguments = ["list", "--all"]
    process.environment = Self.inherited(env)
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
    let err = Pipe()
    process.standardError = err
    try process.run()
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 1)
    #expect(stderr == "ootd: error: cannot write the output: No space left on device\n")
  }

  @Test func shellCompletion_offersBlockAndProjectNamesFromTheDatabase() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite")]
    // No database yet: no names, and none is created.
    let none = try Self.run(["---completion", "add", "--", "--block", "3", "2", "ootd", "add", "--block", "al"], environment: env)
    #expect(none.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: folder.file("ootd.sqlite")))
    _ = try Self.run(["project", "add", "ootd"], environment: env)
    let blocks = try Self.run(["---completion", "add", "--", "--block", "3", "2", "ootd", "add", "--block", "al"], environment: env)
    #expect(blocks.code == 0)
    #expect(blocks.stdout == "algorithm\n")
    let projects = try Self.run(["---completion", "project", "show", "--", "positional@0", "3", "1", "ootd", "project", "show", "o"], environment: env)
    #expect(projects.stdout == "ootd\n")
  }

  @Test func databasePathThatIsADirectory_failsWithExit1() throws {
    let folder = try TemporaryFolder()
    let result = try Self.run(["list"], environment: ["OOTD_DB": folder.path])
    #expect(result.code == 1)
    #expect(result.stderr.contains("is a directory"))
  }

  @Test func foreignFiles_areRefusedAndLeftUntouched() throws {
    let folder = try TemporaryFolder()
    let text = folder.file("notes.txt")
    try Data("my precious notes\n".utf8).write(to: URL(fileURLWithPath: text))
    let notDB = try Self.run(["add", "x"], environment: ["OOTD_DB": text])
    #expect(notDB.code == 1)
    #expect(notDB.stderr.contains("not an SQLite database"))
    #expect(try String(contentsOfFile: text, encoding: .utf8) == "my precious notes\n")

    let other = folder.file("other.sqlite")
    let sqlite = Process()
    sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    sqlite.arguments = ["python3", "-c", "import sqlite3; c = sqlite3.connect('\(other)'); c.execute('create table t(x)'); c.commit()"]
    try sqlite.run()
    sqlite.waitUntilExit()
    let before = try Data(contentsOf: URL(fileURLWithPath: other))
    let foreign = try Self.run(["add", "x"], environment: ["OOTD_DB": other])
    #expect(foreign.code == 1)
    #expect(foreign.stderr.contains("another program"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: other)) == before)
  }

  @Test func pipedOutput_hasNoColour_evenWithoutNO_COLOR() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite")]
    _ = try Self.run(["add", "x", "-p", "high"], environment: env)
    #expect(!(try Self.run(["list"], environment: env).stdout.contains("\u{1B}")))
    let forced = try Self.run(["list"], environment: env.merging(["CLICOLOR_FORCE": "1"]) { $1 })
    #expect(forced.stdout.contains("\u{1B}["))
    let both = try Self.run(
      ["list"], environment: env.merging(["CLICOLOR_FORCE": "1", "NO_COLOR": "1"]) { $1 })
    #expect(!both.stdout.contains("\u{1B}"))
  }

  @Test func todayFollowsTZ() throws {
    // UTC+14 and UTC-11 are always on different calendar days: at the pinned instant (noon UTC)
    // the day after the pinned day, and the pinned day.
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite")]
    for (zone, expected) in [("Pacific/Kiritimati", TestClock.day(1)), ("Pacific/Pago_Pago", TestClock.day(0))] {
      let result = try Self.run(["add", zone, "--json"], environment: env.merging(["TZ": zone]) { $1 })
      let object = try #require(
        JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
      #expect(object["date"] as? String == expected, "\(zone)")
    }
  }

  @Test func concurrentProcesses_neverLoseAWrite() throws {
    let folder = try TemporaryFolder()
    let env = ["OOTD_DB": folder.file("ootd.sqlite")]
    let writers = 6
    let each = 15
    let failures = LockedCounter()
    DispatchQueue.concurrentPerform(iterations: writers) { writer in
      for index in 0..<each {
        let result = try? Self.run(["add", "w\(writer)-\(index)"], environment: env)
        if result?.code != 0 { failures.increment() }
      }
    }
    #expect(failures.value == 0)
    let listed = try Self.run(["list", "--all", "--json"], environment: env)
    let todos = try #require(
      JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
    #expect(todos.count == writers * each)
    #expect(Set(todos.compactMap { $0["title"] as? String }).count == writers * each)
  }

  @Test func help_completions_version_demo() throws {
    let help = try Self.run(["--help"])
    #expect(help.code == 0)
    #expect(help.stdout.contains("USAGE: ootd"))
    // "ootd 0.1.0 (unknown)": the version, and the commit scripts/build-release links in (a
    // debug build, as here, has none).
    #expect(try Self.run(["--version"]).stdout.wholeMatch(of: /ootd [0-9]+\.[0-9]+\.[0-9]+ \([0-9a-z-]+\)\n/) != nil)
    let bash = try Self.run(["completions", "bash"])
    #expect(bash.code == 0)
    #expect(bash.stdout.contains("complete -o filenames -F _ootd ootd") || bash.stdout.contains("_ootd"))
    #expect(try Self.run(["completions", "tcsh"]).code == 64)
    let folder = try TemporaryFolder()
    let demo = try Self.run(["demo", "--days", "14"], environment: ["TMPDIR": folder.path])
    #expect(demo.code == 0, "\(demo.stderr)")
    #expect(demo.stdout.contains("today"))
    #expect(demo.stdout.contains("Demo database with 70 todos"))
  }
}

final class LockedCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  func increment() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}
