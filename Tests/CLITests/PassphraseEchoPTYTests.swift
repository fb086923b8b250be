import Foundation
import PTYSupport
import PostgresSupport
import TestTags
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 24 §6: the passphrase typed at `remote set`'s prompt is never echoed. The built binary
/// runs on a real pseudo-terminal (posix_openpt: its standard input, output and error are the
/// terminal), the test types at the prompts as a user would, once the prompt has turned the echo
/// off, and reads everything the terminal showed.
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct PassphraseEchoPTYTests {
  /// A pseudo-terminal: the side the test reads and types on, and the side ootd gets (the
  /// tests' one harness, Tests/PTYSupport).
  typealias Terminal = PseudoTerminal

  /// Starts the built ootd with `arguments` on `terminal`.
  static func start(_ arguments: [String], environment: [String: String], on terminal: Terminal) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: BinaryTests.binary)
    process.arguments = arguments
    process.environment = BinaryTests.inherited(environment)
    let handle = FileHandle(fileDescriptor: terminal.slave, closeOnDealloc: false)
    process.standardInput = handle
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    return process
  }

  /// Answers each prompt of `answers` once it is on the terminal and the echo is off, then
  /// waits for the end; what the terminal showed and the exit status.
  static func answer(
    _ process: Process, on terminal: Terminal, _ answers: [(prompt: String, answer: String)]
  ) throws -> (shown: String, status: Int32) {
    // A bound against a hang only (each step takes well under a second).
    let deadline = Date().addingTimeInterval(120)  // real clock: a bound against a hang only
    for (prompt, answer) in answers {
      // The prompt is written before the echo goes off (and each prompt differs from the one
      // before, whose echo came back before it was written): type only once both happened.
      while !(terminal.shown.contains(prompt) && !terminal.echoes) {
        try #require(Date() < deadline, "no prompt '\(prompt)' in: \(terminal.shown)")  // real clock: the bound
        try #require(process.isRunning, "ootd ended before '\(prompt)': \(terminal.shown)")
        terminal.read(waiting: 20)
      }
      terminal.type(answer + "\n")
    }
    while process.isRunning {
      try #require(Date() < deadline, "ootd did not end: \(terminal.shown)")  // real clock: the bound
      terminal.read(waiting: 20)
    }
    process.waitUntilExit()
    terminal.read(waiting: 0)
    return (terminal.shown, process.terminationStatus)
  }

  @Test("remote set on a terminal: the prompts show, the passphrase typed never does, and the terminal's modes come back")
  func passphraseNotEchoed() throws {
    let m = try SyncMachines()
    let phrase = "pty-typed-Passphrase-42"
    // No passphrase in the environment: asked on the terminal.
    let quiet = ["OOTD_REMOTE_PASSPHRASE": ""]

    // The first machine: a new passphrase, twice.
    let first = try Terminal()
    let before = first.localModes
    #expect(before & tcflag_t(ECHO) != 0 && before & tcflag_t(ICANON) != 0)
    let a = try Self.start(
      ["remote", "set", m.uri], environment: m.environment("a").merging(quiet) { $1 }, on: first)
    let (shownA, statusA) = try Self.answer(
      a, on: first, [("New sync passphrase for \(m.role)", phrase), ("Again, to be sure: ", phrase)])
    #expect(statusA == 0, "\(shownA)")
    #expect(shownA.contains("New sync passphrase for \(m.role)"), "\(shownA)")
    #expect(shownA.contains("Again, to be sure: "), "\(shownA)")
    #expect(shownA.contains("Sync key: new"), "\(shownA)")
    #expect(!shownA.contains(phrase), "\(shownA)")
    #expect(!shownA.contains("pty-typed"), "\(shownA)")
    #expect(first.localModes == before)

    // Another machine: the same passphrase, once.
    let second = try Terminal()
    let b = try Self.start(
      ["remote", "set", m.uri], environment: m.environment("b").merging(quiet) { $1 }, on: second)
    let (shownB, statusB) = try Self.answer(b, on: second, [("Sync passphrase for \(m.role): ", phrase)])
    #expect(statusB == 0, "\(shownB)")
    #expect(shownB.contains("Sync key: unlocked with your passphrase"), "\(shownB)")
    #expect(!shownB.contains(phrase), "\(shownB)")
    #expect(second.localModes == before)

    // The control: what is typed at a terminal that echoes does show (the test can see it).
    let control = try Terminal()
    control.type("echoed-\(phrase)\n")
    control.read(waiting: 1000)
    #expect(control.shown.contains("echoed-\(phrase)"))
  }
}
