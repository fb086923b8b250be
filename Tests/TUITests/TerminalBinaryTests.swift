import Core
import Foundation
import Storage
import TUI
import TestTags
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `ootd tui` as a user runs it: the debug binary in a pseudo-terminal (forkpty), pinned to
/// the tests' instant and zone, driven by key bytes; the database is checked after `q`, and so
/// is the terminal (the output ends by leaving the alternate screen with the cursor shown).
@Suite(.tags(.binary)) struct TerminalBinaryTests {
  /// The built `ootd` beside the test bundle (as the CLI's binary tests find it).
  static let ootd: String = {
    let environmentPath = ProcessInfo.processInfo.environment["OOTD_BINARY"] ?? ""
    if !environmentPath.isEmpty { return URL(fileURLWithPath: environmentPath).standardizedFileURL.path }
    var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    while folder.path != "/" {
      let candidate = folder.appendingPathComponent("ootd").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    return "ootd-binary-not-built"
  }()

  /// A child in a pseudo-terminal of `columns`×`rows`, and everything it wrote.
  final class Pty {
    let pid: pid_t
    let master: Int32
    var output: [UInt8] = []

    init(_ arguments: [String], environment: [String: String], columns: UInt16 = 80, rows: UInt16 = 24) throws {
      var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
      // Everything the child needs is made before fork: after it, only execve.
      let argv = ([TerminalBinaryTests.ootd] + arguments).map { strdup($0) } + [nil]
      let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
      var master: Int32 = -1
      let pid = forkpty(&master, nil, nil, &size)
      if pid == 0 {
        execve(argv[0]!, argv, envp)
        _exit(127)
      }
      for pointer in argv + envp { free(pointer) }
      guard pid > 0 else { throw POSIXError(.EAGAIN) }
      self.pid = pid
      self.master = master
    }

    /// Whether ``exitStatus()`` waited for the child already.
    var reaped = false

    deinit {
      if !reaped {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
      }
      close(master)
    }

    func send(_ text: String) {
      let bytes = Array(text.utf8)
      _ = bytes.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
    }

    var text: String { String(decoding: output, as: UTF8.self) }

    /// Reads until `done` holds for what was written, or the child's output ends; a bounded
    /// wait (poll of at most 10 s a read, no sleeps), false when it did not come.
    @discardableResult
    func read(until done: (String) -> Bool) -> Bool {
      var buffer = [UInt8](repeating: 0, count: 65536)
      while !done(text) {
        var fd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&fd, 1, 10_000) > 0 else { return false }
        let count = Glibc.read(master, &buffer, buffer.count)
        guard count > 0 else { return done(text) }
        output += buffer.prefix(count)
      }
      return true
    }

    /// The child's exit status: its output is read to the end first (a bounded wait); a child
    /// still running then is killed (and the test fails on its status).
    func exitStatus() -> Int32 {
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        var fd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&fd, 1, 10_000) > 0 else {
          kill(pid, SIGKILL)
          break
        }
        let count = Glibc.read(master, &buffer, buffer.count)
        guard count > 0 else { break }
        output += buffer.prefix(count)
      }
      var status: Int32 = 0
      waitpid(pid, &status, 0)
      reaped = true
      return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
  }

  @Test func jxqTicksTheSecondTodoThroughTheJournalAndGivesTheTerminalBack() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.ootd), "build it first: swift build")
    let fixture = try Fixture()
    try fixture.add("Solve BOJ 1753", .high)
    try fixture.add("Write the README", .mid)
    let pty = try Pty(
      ["tui"],
      environment: [
        "OOTD_DB": fixture.path, "OOTD_NOW": TUIClock.instant, "TZ": "UTC", "TERM": "xterm-256color",
        "HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder, "PATH": "/usr/bin:/bin",
      ])
    // The first frame: the alternate screen, then the day's rows.
    #expect(pty.read { $0.contains("\u{1B}[?1049h") && $0.contains("Write the README") })
    pty.send("j")
    // The cursor's row is the only todo row rewritten with the cursor mark (bold `>`).
    #expect(pty.read { $0.contains("\u{1B}[4;1H\u{1B}[K\u{1B}[1m>") })
    pty.send("x")
    #expect(pty.read { $0.contains("Done #2 'Write the README'") })
    pty.send("q")
    #expect(pty.exitStatus() == 0)
    // The terminal is given back: cursor shown, then the main screen, as the last bytes.
    #expect(pty.text.hasSuffix("\u{1B}[?25h\u{1B}[?1049l"), "\(pty.text.suffix(40).debugDescription)")
    #expect(try fixture.todo(2).isDone)
    #expect(try fixture.journal().first?.command == "done 2")
  }

  @Test func showsAChangeMadeElsewhereAndGivesTheTerminalBackOnSIGTERM() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.ootd), "build it first: swift build")
    let fixture = try Fixture()
    try fixture.add("Solve BOJ 1753", .high)
    let pty = try Pty(
      ["tui"],
      environment: [
        "OOTD_DB": fixture.path, "OOTD_NOW": TUIClock.instant, "TZ": "UTC", "TERM": "xterm-256color",
        "HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder, "NO_COLOR": "1",
      ])
    #expect(pty.read { $0.contains("Solve BOJ 1753") })
    #expect(!pty.text.contains("\u{1B}[31m"), "NO_COLOR: no colours")
    // Another ootd ticks the todo: the screen shows it (data_version, checked every 0.5 s).
    let other = Process()
    other.executableURL = URL(fileURLWithPath: Self.ootd)
    other.arguments = ["done", "1"]
    other.environment = ["OOTD_DB": fixture.path, "OOTD_NOW": TUIClock.instant, "TZ": "UTC"]
    other.standardOutput = Pipe()
    try other.run()
    other.waitUntilExit()
    #expect(other.terminationStatus == 0)
    #expect(pty.read { $0.contains("1/1 done  100%") })
    kill(pty.pid, SIGTERM)
    #expect(pty.exitStatus() == 128 + SIGTERM)
    #expect(pty.text.hasSuffix("\u{1B}[?25h\u{1B}[?1049l"))
  }

  @Test func aDumbTerminalIsRefusedWithOneLineAndExit64() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.ootd), "build it first: swift build")
    let fixture = try Fixture()
    try fixture.add("Plan")
    let before = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
    let pty = try Pty(
      ["tui"],
      environment: [
        "OOTD_DB": fixture.path, "OOTD_NOW": TUIClock.instant, "TZ": "UTC", "TERM": "dumb",
        "HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder, "PATH": "/usr/bin:/bin",
      ])
    #expect(pty.exitStatus() == 64)
    // A real terminal, but no screen taken: one line (the pty turns \n into \r\n), no escape.
    #expect(pty.text.hasPrefix("ootd: error: ootd tui cannot run with TERM=dumb"), "\(pty.text.debugDescription)")
    #expect(pty.text.split(separator: "\r\n").count == 1)
    #expect(!pty.text.contains("\u{1B}"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.path)) == before)
  }

  @Test func withoutATerminalItSaysSoAndExits64() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.ootd), "build it first: swift build")
    let fixture = try Fixture()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.ootd)
    process.arguments = ["tui"]
    process.environment = ["OOTD_DB": fixture.path, "OOTD_NOW": TUIClock.instant, "TZ": "UTC"]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = Pipe()
    process.standardInput = Pipe()
    try process.run()
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 64)
    #expect(text.hasPrefix("ootd: error: ootd tui needs a terminal"))
    #expect(text.split(separator: "\n").count == 1)
  }
}
