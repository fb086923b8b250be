import HTTP
import Core
import Foundation
import GitHubClient
import Testing

@testable import CLI

/// Output captured from an in-process run.
final class Captured: @unchecked Sendable {
  var stdout = ""
  var stderr = ""
  var answers: [String] = []
}

/// A temporary folder removed when the value is deinitialised.
final class TemporaryFolder {
  let path: String

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/ootd-cli-tests-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    path = String(cString: try #require(made))
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  func file(_ name: String) -> String { path + "/" + name }
}

/// The one "now" of the CLI tests: no test reads the real date, time or time zone.
///
/// Every `ootd` the tests start gets it as `OOTD_NOW` (read by debug builds only, see
/// Sources/CLI/Environment/DebugSeams.swift) with `TZ` (``BinaryTests/pinned(_:)``), unless the
/// test names its own; dates the tests write or expect are computed from ``today``. `.ci/run`
/// runs the binary tests a second time under libfaketime at an awkward instant, so a test that
/// still reads the real clock fails there.
enum TestClock {
  /// Noon in UTC: the same calendar day in every zone from UTC-12 to UTC+11.
  static let instant = "2026-11-22T12:00:00Z"
  /// The zone the binaries run in unless a test names another.
  static let zone = "UTC"
  /// ``instant`` as a date.
  static let now = Timestamp.date(instant, .iso8601)!
  /// The day of ``instant`` in ``zone`` (a Sunday).
  static let today = Day(iso: "2026-11-22")!
  /// `today` moved by `offset` days, as `YYYY-MM-DD`.
  static func day(_ offset: Int = 0) -> String { today.adding(days: offset).description }
  /// The variables that pin a binary's clock and zone.
  static var environment: [String: String] { ["OOTD_NOW": instant, "TZ": zone] }
}

/// The sync passphrase every ootd the tests run has (`OOTD_REMOTE_PASSPHRASE`), in-process
/// (``Harness``) or started (``BinaryTests/inherited(_:)``), so that `remote set` and a first
/// `remote sync` set up or unlock the sync key without a terminal; a test passes its own value,
/// or "" for none. Keys are wrapped at Argon2id's minimum cost (`OOTD_DEBUG_CHEAP_KDF`, debug
/// builds only): the suites set up hundreds of machines.
enum SyncKeyTesting {
  static let passphrase = "a test sync passphrase"
  static let environment = ["OOTD_REMOTE_PASSPHRASE": passphrase, "OOTD_DEBUG_CHEAP_KDF": "1"]
}

/// Runs ootd in-process with a fixed clock and time zone and a database in `folder`.
struct Harness {
  let folder: TemporaryFolder
  var now: Date
  var timeZone = TimeZone(identifier: "Asia/Seoul")!
  var terminal = false
  /// The command's variables; a sync passphrase and the cheap key cost as a binary test's
  /// (``SyncKeyTesting/environment``), so remote commands run without a terminal.
  var variables: [String: String] = SyncKeyTesting.environment
  /// GitHub requests go here instead of the network.
  var transport: (any HTTPTransport)? = nil
  /// What `git ARGUMENTS` prints (nil: git fails).
  var runGit: @Sendable ([String]) -> String? = { _ in nil }
  /// How the GitHub client waits (retries, rate limits): at once, by default.
  var sleeper: any Sleeper = InstantSleeper()
  /// The running clock a command reads while it runs (a rate limit's reset); nil: the real one.
  var clock: (@Sendable () -> Date)? = nil
  /// What `gh auth token --hostname HOST` answers.
  var ghAuthToken: @Sendable (String) -> String? = { _ in nil }
  /// The CalDAV collection `caldav` commands reach (nil: the real client).
  var calDAVCollection: (any CalendarCollection)? = nil

  init(now: String = "2026-11-22T09:00:00+09:00") throws {
    folder = try TemporaryFolder()
    self.now = try #require(ISO8601DateFormatter().date(from: now))
  }

  var databasePath: String { folder.file("ootd.sqlite") }

  /// Runs one command line on this task; returns the exit code and what it printed.
  @discardableResult
  func run(_ arguments: [String], answers: [String] = []) async -> (
    code: Int32, stdout: String, stderr: String
  ) {
    let (environment, captured) = makeEnvironment(answers: answers)
    let code = await Ootd.run(arguments: arguments, environment: environment)
    return (code, captured.stdout, captured.stderr)
  }

  private func makeEnvironment(answers: [String]) -> (AppEnvironment, Captured) {
    let captured = Captured()
    captured.answers = answers
    var variables = self.variables
    if variables["OOTD_DB"] == nil { variables["OOTD_DB"] = databasePath }
    let environment = AppEnvironment(
      variables: variables, now: now, timeZone: timeZone, stdoutIsTerminal: terminal,
      stdinIsTerminal: terminal,
      output: { captured.stdout += $0 }, errorOutput: { captured.stderr += $0 },
      readLine: { captured.answers.isEmpty ? nil : captured.answers.removeFirst() })
    var configured = environment
    configured.gitHubTransport = transport
    configured.ghAuthToken = ghAuthToken
    configured.runGit = runGit
    configured.stderrIsTerminal = terminal
    configured.gitHubSleeper = sleeper
    if let clock { configured.clock = clock }
    configured.calDAVCollection = calDAVCollection
    // Not this machine's host name: the default device name is the same on every machine.
    configured.hostName = { "test-host.example" }
    return (configured, captured)
  }

  /// Runs `list --all --json` and decodes it.
  func allTodos() async throws -> [[String: Any]] {
    let result = await run(["list", "--all", "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    return try #require(
      JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
  }
}

/// Returns at once: in-process tests never really wait.
struct InstantSleeper: Sleeper {
  func sleep(seconds: TimeInterval) async throws {}
}
