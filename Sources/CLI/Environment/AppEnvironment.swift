import HTTP
import Core
import Foundation
import Storage
import GitHubClient
import Zone

#if canImport(Glibc)
import Glibc
#endif

/// Everything a command takes from the outside world: variables, the clock, the time zone,
/// whether it talks to a terminal, and where its output goes. Commands get it as a value, so
/// tests run them in-process with a fixed clock and captured output.
struct AppEnvironment {
  /// Environment variables.
  var variables: [String: String]
  /// The command line's arguments, without the program name (the journal records them).
  var arguments: [String] = []
  /// The current instant.
  var now: Date
  /// The running clock, for what waits on real time while the command runs (a GitHub
  /// rate-limit reset): the one place below the CLI that reads it is handed this.
  var clock: @Sendable () -> Date = { Date() }
  /// The user's time zone (`TZ`, else the system's).
  var timeZone: any ZoneRules
  /// Whether standard output is a terminal.
  var stdoutIsTerminal: Bool
  /// Whether standard input is a terminal (we may ask questions).
  var stdinIsTerminal: Bool
  /// Writes to standard output.
  var output: (String) -> Void
  /// Writes to standard error.
  var errorOutput: (String) -> Void
  /// Reads one line of standard input.
  var readLine: () -> String?
  /// Whether standard error is a terminal (sync draws its progress line there only then).
  var stderrIsTerminal = false
  /// The token the GitHub CLI holds for a host (`gh auth token --hostname HOST`), or nil when
  /// `gh` is not installed or not logged in there. Tests replace it.
  var ghAuthToken: (_ host: String) -> String? = { _ in nil }
  /// Runs `git` with arguments and returns its standard output, or nil when git is missing
  /// or fails (e.g. the folder is not a repository). Tests replace it.
  var runGit: (_ arguments: [String]) -> String? = { _ in nil }
  /// This machine's host name, the default of its device name (``DeviceNaming``). Tests replace it.
  var hostName: () -> String? = { AppEnvironment.systemHostName() }
  /// The CalDAV collection a test hands in (nil: the real client, `CalDAVAccess.collection`).
  var calDAVCollection: (any CalendarCollection)? = nil
  /// How GitHub requests are sent: nil for libcurl; tests pass a stub.
  var gitHubTransport: (any HTTPTransport)? = nil
  /// How the GitHub client waits for retries and rate limits: nil for real sleeping.
  var gitHubSleeper: (any Sleeper)? = nil
  /// Writes UTF-8 bytes to standard output, when set: a streamed JSON document goes out as the
  /// bytes it was built as, without a String in between (nil: through `output`, as in tests).
  var outputBytes: ((UnsafeBufferPointer<UInt8>) -> Void)? = nil
  /// Replaces the file at a path with the given text (tests may capture it instead).
  var writeFile: (_ path: String, _ text: String) throws(CLIError) -> Void = AppEnvironment.writeAtomically
  /// Replaces the file at a path with text handed over a piece at a time (an export of any
  /// size in constant memory); see ``writeAtomically(_:producing:)``.
  var writeFileStreamed: (_ path: String, _ produce: (_ write: (String) throws -> Void) throws -> Void) throws -> Void =
    AppEnvironment.writeAtomically(_:producing:)

  /// The environment of this process.
  /// This process's environment variables, read once from `environ` (Foundation's
  /// `ProcessInfo.environment` costs 1.4 M instructions, a tenth of an `ootd add`). The first
  /// definition of a name wins, as `getenv` has it.
  static func processVariables() -> [String: String] {
    readEnvironment().variables
  }

  /// ``processVariables()``, and those of ``RawText/pathVariables`` whose value is not UTF-8
  /// (kept in `variables` as Swift decodes them, U+FFFD in place of each bad byte).
  static func readEnvironment() -> (variables: [String: String], notUTF8: [RawText.NotUTF8]) {
    var notUTF8: [RawText.NotUTF8] = []
    var count = 0
    while environ[count] != nil { count += 1 }
    // Sized once: growing a dictionary rehashes every name again.
    var variables: [String: String] = Dictionary(minimumCapacity: count)
    for index in 0..<count {
      let bytes = UnsafeRawPointer(environ[index]!).assumingMemoryBound(to: UInt8.self)
      let length = strlen(environ[index]!)
      let entry = UnsafeBufferPointer(start: bytes, count: length)
      guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { continue }
      let name = String(decoding: UnsafeBufferPointer(rebasing: entry[..<equals]), as: UTF8.self)
      if variables[name] == nil {
        let value = UnsafeBufferPointer(rebasing: entry[(equals + 1)...])
        if let text = RawText.decoded(value) {
          variables[name] = text
        } else {
          variables[name] = String(decoding: value, as: UTF8.self)
          if RawText.pathVariables.contains(name) { notUTF8.append(.init(source: name, shown: RawText.shown(value))) }
        }
      }
    }
    return (variables, notUTF8)
  }

  static func live() -> AppEnvironment {
    let (variables, variablesNotUTF8) = readEnvironment()
    #if DEBUG
    // Test seams (DebugSeams.swift): a pinned clock, a fault point checked at once.
    let now = debugPinnedNow(variables) ?? Date()
    _ = DebugFault.plan
    #else
    let now = Date()
    #endif
    var environment = AppEnvironment(
      variables: variables,
      now: now,
      timeZone: userTimeZone(variables),
      stdoutIsTerminal: isatty(STDOUT_FILENO) == 1,
      stdinIsTerminal: isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1,
      output: { text in StandardStream.output.write(text) },
      errorOutput: { text in StandardStream.error.write(text) },
      readLine: { Swift.readLine(strippingNewline: true) },
      stderrIsTerminal: isatty(STDERR_FILENO) == 1,
      ghAuthToken: { host in ghToken(host: host, path: variables["PATH"] ?? "/usr/bin:/bin") },
      runGit: { arguments in
        run(
          "git", SafeGit.options + arguments, path: variables["PATH"] ?? "/usr/bin:/bin",
          environment: SafeGit.environment)
      }
    )
    #if DEBUG
    if let offset = debugClockOffset(variables) { environment.clock = { Date().addingTimeInterval(offset) } }
    #endif
    environment.outputBytes = { bytes in StandardStream.output.write(bytes: bytes) }
    environment.openDatabases = OpenDatabases(keptUntilExit: true)
    environment.notUTF8 = RawText.firstArgumentNotUTF8() ?? variablesNotUTF8.first
    return environment
  }

  /// Whether everything written to standard output arrived (false after a full disk or a
  /// closed stream).
  var outputFailed: () -> String? = { StandardStream.output.failure }

  /// Notes printed on standard error after the command succeeded.
  var afterSuccess = AfterSuccess()

  /// An argument, or a variable ootd reads as a path, that is not UTF-8 (``RawText``): the
  /// command is refused before it starts.
  var notUTF8: RawText.NotUTF8? = nil

  /// The databases the command opened, closed when it ends.
  var openDatabases = OpenDatabases(keptUntilExit: false)

  /// The folder relative paths are relative to.
  var currentDirectory: String = FileManager.default.currentDirectoryPath

  /// Today in the user's time zone.
  var today: Day { Day(now, in: timeZone) }

  /// Prints a line to standard output.
  func print(_ line: String = "") { output(line + "\n") }

  /// Prints a line to standard error.
  func printError(_ line: String) { errorOutput(line + "\n") }
}

/// The databases a command opened (shared by the copies of one environment): ``closeAll()``
/// closes them when the command ends, whether it succeeded or failed, before anything is
/// printed about their files.
///
/// In the ootd process (`keptUntilExit`) a closed database is then kept, never released, until
/// the process exits: releasing GRDB's `DatabaseQueue` unregisters it from `NotificationCenter`,
/// whose first use costs ~0.8 M instructions, a tenth of an `ootd add`; a closed database holds
/// nothing the exit does not free.
final class OpenDatabases {
  private let keptUntilExit: Bool
  private var databases: [AppDatabase] = []
  /// Whether the command changed any row of a database it opened (see ``closeAll()``).
  private(set) var changedAnything = false

  init(keptUntilExit: Bool) { self.keptUntilExit = keptUntilExit }

  /// Closes `database` when the command ends.
  func keep(_ database: AppDatabase) { databases.append(database) }

  /// Closes every database the command opened.
  func closeAll() {
    for database in databases {
      if database.hasChanged { changedAnything = true }
      database.close()
      if keptUntilExit { _ = Unmanaged.passRetained(database) }
    }
    databases = []
  }
}

/// Notes a command leaves for after it succeeded (shared by the copies of one environment).
final class AfterSuccess {
  private var notes: [(path: String, line: String)] = []

  /// Prints `line` on standard error after the command succeeded, if `path` exists then.
  func noteIfExists(_ path: String, _ line: String) { notes.append((path, line)) }

  /// Prints the notes whose file exists, once.
  func flush(_ environment: AppEnvironment) {
    for note in notes where access(note.path, F_OK) == 0 { environment.printError(note.line) }
    notes = []
  }
}
