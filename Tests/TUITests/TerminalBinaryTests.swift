import Core
import Foundation
import PTYSupport
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

  /// `ootd` (the built one) with `arguments` on its own pseudo-terminal (Tests/PTYSupport).
  static func Pty(_ arguments: [String], environment: [String: String], columns: UInt16 = 80, rows: UInt16 = 24) throws
    -> PTYProcess
  {
    try PTYProcess(ootd, arguments, environment: environment, columns: columns, rows: rows)
  }

  @Test func jxqTicksTheSecondTodoThroughTheJournalAndGivesTheTerminalBack() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.ootd), "build it first: swift build")
    let fixture = try Fixture()
    try fixture.add("Solve BOJ 1753", .high)
    try fixture.add("Write the README", .mid)
    let pty = try Self.Pty(
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
    let pty = try Self.Pty(
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
    let pty = try Self.Pty(
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
