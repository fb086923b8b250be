import Core
import Foundation
import GitHubClient

#if canImport(Glibc)
import Glibc
#endif

/// Everything a command takes from the outside world: variables, the clock, the time zone,
/// whether it talks to a terminal, and where its output goes. Commands get it as a value, so
/// tests run them in-process with a fixed clock and captured output.
struct AppEnvironment {
  /// Environment variables.
  var variables: [String: String]
  /// The current instant.
  var now: Date
  /// The user's time zone (`TZ`, else the system's).
  var timeZone: TimeZone
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
  /// How GitHub requests are sent: nil for libcurl; tests pass a stub.
  var gitHubTransport: (any HTTPTransport)? = nil
  /// How the GitHub client waits for retries and rate limits: nil for real sleeping.
  var gitHubSleeper: (any Sleeper)? = nil
  /// Replaces the file at a path with the given text (tests may capture it instead).
  var writeFile: (_ path: String, _ text: String) throws(CLIError) -> Void = AppEnvironment.writeAtomically

  /// The environment of this process.
  static func live() -> AppEnvironment {
    let variables = ProcessInfo.processInfo.environment
    return AppEnvironment(
      variables: variables,
      now: Date(),
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
  }

  /// Runs `gh auth token --hostname HOST` when `gh` is on `path`; its output, or nil.
  static func ghToken(host: String, path: String) -> String? {
    guard let output = run("gh", ["auth", "token", "--hostname", host], path: path) else {
      return nil
    }
    let token = output.trimmingCharacters(in: .whitespacesAndNewlines)
    return token.isEmpty ? nil : token
  }

  /// Runs `program` (looked up on `path`) with `arguments` and this process's variables plus
  /// `environment`; its standard output when it exits with 0, else nil. Standard input and error
  /// are closed.
  static func run(
    _ program: String, _ arguments: [String], path: String, environment: [String: String] = [:]
  ) -> String? {
    let candidates = path.split(separator: ":").map { String($0) + "/" + program }
    guard let executable = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) })
    else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

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

  /// Whether everything written to standard output arrived (false after a full disk or a
  /// closed stream).
  var outputFailed: () -> String? = { StandardStream.output.failure }

  /// The zone named by `TZ` (with or without a leading `:`), else the system's zone.
  static func userTimeZone(_ variables: [String: String]) -> TimeZone {
    if var name = variables["TZ"], !name.isEmpty {
      if name.hasPrefix(":") { name.removeFirst() }
      if let zone = TimeZone(identifier: name) { return zone }
      if name == "UTC" || name == "UTC0" { return TimeZone(secondsFromGMT: 0)! }
    }
    return TimeZone.current
  }

  /// The folder relative paths are relative to.
  var currentDirectory: String = FileManager.default.currentDirectoryPath

  /// `path` made absolute: `~` expanded, a relative path taken from the current folder.
  func absolutePath(_ path: String) -> String {
    let expanded = expandTilde(path)
    guard !expanded.hasPrefix("/") else { return expanded }
    return URL(fileURLWithPath: expanded, relativeTo: URL(fileURLWithPath: currentDirectory + "/"))
      .standardizedFileURL.path
  }

  /// Today in the user's time zone.
  var today: Day { Day(now, in: timeZone) }

  /// Prints a line to standard output.
  func print(_ line: String = "") { output(line + "\n") }

  /// Prints a line to standard error.
  func printError(_ line: String) { errorOutput(line + "\n") }

  /// The database file: `--db`, else `OOTD_DB`, else `$XDG_DATA_HOME/ootd/ootd.sqlite`, else
  /// `~/.local/share/ootd/ootd.sqlite`.
  func databasePath(option: String?) throws(CLIError) -> String {
    if let option {
      guard !option.isEmpty else { throw .invalidValue("--db needs a file path") }
      return expandTilde(option)
    }
    if let path = variables["OOTD_DB"], !path.isEmpty { return expandTilde(path) }
    if let data = variables["XDG_DATA_HOME"], data.hasPrefix("/") {
      return data + "/ootd/ootd.sqlite"
    }
    guard let home = variables["HOME"], !home.isEmpty else { throw .noDatabasePath }
    return home + "/.local/share/ootd/ootd.sqlite"
  }

  func expandTilde(_ path: String) -> String {
    guard path == "~" || path.hasPrefix("~/"), let home = variables["HOME"] else { return path }
    return home + path.dropFirst()
  }

  /// Colour on a terminal unless `--no-color`, a non-empty `NO_COLOR`, or `TERM=dumb`.
  func style(noColor: Bool) -> Style {
    if noColor { return .plain }
    if let value = variables["NO_COLOR"], !value.isEmpty { return .plain }
    if variables["TERM"] == "dumb" { return .plain }
    if let force = variables["CLICOLOR_FORCE"], !force.isEmpty, force != "0" {
      return Style(colored: true)
    }
    return Style(colored: stdoutIsTerminal)
  }

  /// How wide lines of text may be before long titles are cut: the terminal's width on a
  /// terminal; nil (never cut) when the output goes to a pipe or a file.
  var lineWidth: Int? { stdoutIsTerminal ? terminalWidth : nil }

  /// The terminal's width in columns (`COLUMNS`, else the tty's, else 80).
  var terminalWidth: Int {
    if let columns = variables["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
    var size = winsize()
    if stdoutIsTerminal, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
      return Int(size.ws_col)
    }
    return 80
  }

  /// Asks a yes/no question on the terminal; false when the answer is not yes.
  func confirm(_ question: String) -> Bool {
    errorOutput(question + " [y/N] ")
    guard let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else {
      return false
    }
    return answer == "y" || answer == "yes"
  }
}

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
    lock.withLock {
      guard firstError == nil else { return }
      var bytes = Array(text.utf8)[...]
      while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        if written < 0 {
          if errno == EINTR { continue }
          firstError = errno
          return
        }
        bytes = bytes.dropFirst(written)
      }
    }
  }
}
