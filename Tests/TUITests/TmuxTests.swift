import Core
import Foundation
import TestTags
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A tmux server of its own (a socket in a temporary folder) with one 80×24 pane running an
/// interactive `sh` (dash: it restores no terminal mode itself, so what the pane shows after
/// `ootd tui` is what ootd left), and a control-mode client whose output lines say when the
/// pane changed: a wait is a poll on that pipe, bounded, never a sleep.
final class Tmux {
  static let path = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
  static var available: Bool { path != nil }

  /// The server's socket, in a folder of its own (not the fixture's: the fixture may be gone
  /// first, and a server whose socket is gone is never stopped).
  let folder: String
  let socket: String
  /// The server's pid: killed at the end whatever happened.
  var server: pid_t = 0
  /// The control-mode client: its pid, the end the test writes (kept open: it stays), the
  /// end it reads the client's notices from.
  var control: pid_t = 0
  var controlInput: Int32 = -1
  var controlOutput: Int32 = -1

  init(folder _: String, environment: [String: String], width: Int = 80, height: Int = 24) throws {
    var template = Array((NSTemporaryDirectory() + "/ootd-tmux-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    folder = String(cString: try #require(made))
    socket = folder + "/socket"
    let variables = environment.map { "\($0.key)=\(Self.quoted($0.value))" }.sorted().joined(separator: " ")
    try run(
      ["-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "\(width)", "-y", "\(height)",
       "env -i \(variables) PS1='$ ' /bin/sh -i"])
    server = pid_t(try run(["display-message", "-p", "#{pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    try run(["set-option", "-g", "window-size", "manual"])
    try run(["set-option", "-g", "status", "off"])
    try run(["resize-window", "-t", "t", "-x", "\(width)", "-y", "\(height)"])
    var input: [Int32] = [0, 0]
    var output: [Int32] = [0, 0]
    guard Self.pipe(&input), Self.pipe(&output) else { throw POSIXError(.EMFILE) }
    control = try Self.spawn(["-S", socket, "-C", "attach-session", "-t", "t"], input: input[0], output: output[1])
    close(input[0])
    close(output[1])
    controlInput = input[1]
    controlOutput = output[0]
  }

  deinit {
    close(controlInput)
    if control > 0 { kill(control, SIGTERM) }
    _ = try? run(["kill-server"])
    var status: Int32 = 0
    if control > 0 { waitpid(control, &status, 0) }
    close(controlOutput)
    if server > 0 { kill(server, SIGKILL) }
    try? FileManager.default.removeItem(atPath: folder)
  }

  /// A pipe whose ends a child does not inherit (only what posix_spawn puts on 0 and 1).
  static func pipe(_ fds: inout [Int32]) -> Bool {
    guard Glibc.pipe(&fds) == 0 else { return false }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return true
  }

  static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

  /// tmux with `arguments`, its standard input and output these descriptors (-1: /dev/null),
  /// started with posix_spawn: Foundation's Process waits forever for a `new-session`, whose
  /// server keeps what it inherited open.
  static func spawn(_ arguments: [String], input: Int32 = -1, output: Int32 = -1) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if input >= 0 { posix_spawn_file_actions_adddup2(&actions, input, 0) } else {
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }
    if output >= 0 { posix_spawn_file_actions_adddup2(&actions, output, 1) } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path!] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, path!, &actions, nil, argv, environ)
    guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
    return pid
  }

  /// `tmux -S socket ARGUMENTS`, its output (read to its end, then the client waited for).
  @discardableResult
  func run(_ arguments: [String]) throws -> String {
    var fds: [Int32] = [0, 0]
    guard Self.pipe(&fds) else { throw POSIXError(.EMFILE) }
    // The server (started by new-session) must not hold the pipe: it gets /dev/null.
    let starts = arguments.contains("new-session")
    let pid = try Self.spawn(["-S", socket] + arguments, output: starts ? -1 : fds[1])
    close(fds[1])
    var data: [UInt8] = []
    if starts { close(fds[0]) }
    var buffer = [UInt8](repeating: 0, count: 65536)
    while !starts {
      let count = Glibc.read(fds[0], &buffer, buffer.count)
      if count <= 0 {
        close(fds[0])
        break
      }
      data += buffer[..<count]
    }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return String(decoding: data, as: UTF8.self)
  }

  /// Keys by tmux's names (`Enter`, `Escape`, `Space`, `C-z`, `j`).
  func keys(_ names: String...) throws { try run(["send-keys", "-t", "t"] + names) }

  /// Text typed as it is.
  func type(_ text: String) throws { try run(["send-keys", "-t", "t", "-l", text]) }

  /// The pane's lines as shown (no colours).
  func screen() throws -> [String] {
    var lines = try run(["capture-pane", "-p", "-t", "t"]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }  // the output's last newline
    return lines
  }

  /// The pane's lines once `done` holds for them: looked at again each time the pane changes
  /// (the control client says so), or after 0.3 s without a change; at most 15 s in all.
  @discardableResult
  func wait(_ comment: Comment? = nil, until done: ([String]) -> Bool) throws -> [String] {
    let descriptor = controlOutput
    var buffer = [UInt8](repeating: 0, count: 65536)
    for _ in 0..<50 {
      let lines = try screen()
      if done(lines) { return lines }
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      if poll(&poller, 1, 300) > 0 { _ = Glibc.read(descriptor, &buffer, buffer.count) }
    }
    let lines = try screen()
    #expect(done(lines), "\(comment ?? "")\n\(lines.joined(separator: "\n"))")
    return lines
  }

  /// The pid of the program the pane's shell runs in the foreground (nil: none).
  func foregroundChild() throws -> pid_t? {
    let shell = try run(["display-message", "-p", "-t", "t", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
    return children.split(separator: " ").first.flatMap { pid_t($0) }
  }
}

/// `ootd tui` driven in a real terminal as the issue's acceptance checks drive it: an 80×24 tmux
/// pane with TERM=xterm-256color, the contract's keys sent with `send-keys`, the pane read
/// with `capture-pane`; after `q` the pane is back at the shell prompt, and the database holds
/// what the same CLI commands leave on a twin database (`list --all --json`).
@Suite(.tags(.binary), .serialized, .enabled(if: Tmux.available, "tmux is not installed (scripts/bootstrap installs it)"))
struct TmuxTests {
  static var ootd: String { TerminalBinaryTests.ootd }

  /// The pane's environment: the twin fixtures' database, the pinned clock and zone.
  static func environment(_ fixture: Fixture) -> [String: String] {
    [
      "OOTD_DB": fixture.path, "OOTD_NOW": TUIClock.instant, "TZ": "UTC", "TERM": "xterm-256color",
      "HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder, "LANG": "C.UTF-8",
      "PATH": URL(fileURLWithPath: ootd).deletingLastPathComponent().path + ":/usr/bin:/bin",
    ]
  }

  /// `ootd ARGUMENTS` on `fixture`'s database (the CLI side of the comparison).
  @discardableResult
  static func cli(_ fixture: Fixture, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ootd)
    process.arguments = arguments
    process.environment = environment(fixture)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = Pipe()
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// `list --all --json` without what differs between two databases made alike: uuids (random)
  /// and instants (the TUI's clock runs on from OOTD_NOW; the CLI's stays on it).
  static func listing(_ fixture: Fixture) throws -> NSObject {
    let (status, output) = try cli(fixture, ["list", "--all", "--json"])
    #expect(status == 0)
    func strip(_ value: Any) -> Any {
      if let object = value as? [String: Any] {
        return object.filter { $0.key != "uuid" && !$0.key.hasSuffix("At") }.mapValues(strip)
      }
      if let array = value as? [Any] { return array.map(strip) }
      return value
    }
    return strip(try JSONSerialization.jsonObject(with: Data(output.utf8))) as! NSObject
  }

  /// The row of the cursor (`>` first).
  static func cursorRow(_ lines: [String]) -> String? { lines.first { $0.hasPrefix(">") } }

  @Test func aMorningPlanAndAnUndoWithTheContractsKeysLeaveWhatTheCLIWould() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.ootd), "build it first: swift build")
    // Today: #1 high, #2 mid (+docs), #3 low; #4 yesterday (overdue); #5 in the backlog.
    let fixture = try SessionTests.fixture()
    let twin = try SessionTests.fixture()
    let tmux = try Tmux(folder: fixture.folder, environment: Self.environment(fixture))
    try tmux.wait { $0.contains { $0.hasPrefix("$") } }
    try tmux.type("ootd tui")
    try tmux.keys("Enter")
    var lines = try tmux.wait { $0.first?.hasPrefix("Sun 2026-11-22 · today  0/3 done") == true }
    #expect(Self.cursorRow(lines)?.contains("Solve BOJ 1753") == true, "the cursor starts on the first row")
    #expect(lines.count == 24 && lines.allSatisfy { DisplayWidth.of($0) <= 80 })

    // j space: #2 done; k x: #1 done (each row stays where it is).
    try tmux.keys("j")
    try tmux.wait { Self.cursorRow($0)?.contains("Write the README") == true }
    try tmux.keys("Space")
    lines = try tmux.wait { $0.contains { $0.contains("Done #2 'Write the README'") } }
    #expect(Self.cursorRow(lines)?.contains("[x] 2") == true, "a ticked todo stays where it is")
    try tmux.keys("k", "x")
    try tmux.wait { $0.contains { $0.contains("Done #1 'Solve BOJ 1753'") } }
    // a + text + Enter: added to the day shown, the cursor on it.
    try tmux.keys("a")
    try tmux.type("Review the PR +work")
    try tmux.keys("Enter")
    lines = try tmux.wait { $0.contains { $0.contains("Added #6 for 2026-11-22") } }
    #expect(Self.cursorRow(lines)?.contains("Review the PR") == true)
    // d: the new todo dropped.
    try tmux.keys("d")
    try tmux.wait { $0.contains { $0.contains("Dropped #6 'Review the PR'") } }
    // c: yesterday's todo carried to today; u takes it back, U does it again.
    try tmux.keys("c")
    try tmux.wait { $0.contains { $0.contains("Carried 1 todo to today") } }
    try tmux.keys("u")
    try tmux.wait { $0.contains { $0.hasPrefix("Undid 'carry'") } }
    try tmux.keys("U")
    lines = try tmux.wait { $0.contains { $0.hasPrefix("Redid 'carry'") } }
    #expect(lines.contains { $0.contains("Yesterday's review") } && !lines.contains { $0.hasPrefix("Overdue") })
    // v marks (the cursor stays), j j, v: two marked; x ticks both as one change.
    try tmux.keys("k")
    lines = try tmux.wait { Self.cursorRow($0)?.contains("Yesterday's review") == true }
    try tmux.keys("v")
    lines = try tmux.wait { $0.contains { $0.contains("1 marked") } }
    #expect(Self.cursorRow(lines)?.contains("Yesterday's review") == true, "v leaves the cursor where it is")
    try tmux.keys("j", "j", "v")
    lines = try tmux.wait { $0.contains { $0.contains("2 marked") } }
    #expect(Self.cursorRow(lines)?.contains("Read GRDB docs") == true)
    try tmux.keys("x")
    try tmux.wait { $0.contains { $0.contains("Done 2 todos") } }
    // /: a live filter; Enter keeps it; x acts on what it shows; Esc clears it.
    try tmux.keys("/")
    try tmux.type("READ")
    lines = try tmux.wait { $0.contains { $0.contains("filter 'READ' 2/5") } }
    #expect(!lines.contains { $0.contains("Solve BOJ 1753") })
    try tmux.keys("Enter", "x")
    try tmux.wait { $0.contains { $0.contains("Reopened #2 'Write the README'") } }
    try tmux.keys("Escape")
    try tmux.wait { lines in lines.contains { $0.contains("Solve BOJ 1753") } && !lines.contains { $0.contains("filter '") } }
    // u: the reopening undone.
    try tmux.keys("u")
    try tmux.wait { $0.contains { $0.hasPrefix("Undid 'undone 2'") } }
    // h, l, T: yesterday, today, tomorrow, back to today.
    try tmux.keys("h")
    try tmux.wait { $0.first?.hasPrefix("Sat 2026-11-21") == true }
    try tmux.keys("l", "l")
    try tmux.wait { $0.first?.hasPrefix("Mon 2026-11-23") == true }
    try tmux.keys("T")
    try tmux.wait { $0.first?.hasPrefix("Sun 2026-11-22 · today") == true }
    // ?: the help; ? closes it, and Esc does too.
    try tmux.keys("?")
    try tmux.wait { $0.first?.hasPrefix("Keys") == true }
    try tmux.keys("?")
    try tmux.wait { $0.first?.hasPrefix("Sun 2026-11-22") == true }
    try tmux.keys("?")
    try tmux.wait { $0.first?.hasPrefix("Keys") == true }
    try tmux.keys("Escape")
    try tmux.wait { $0.first?.hasPrefix("Sun 2026-11-22") == true }
    // q: back at the shell prompt, on the main screen (the command line typed is there).
    try tmux.keys("q")
    lines = try tmux.wait { lines in lines.contains("$ ootd tui") && lines.last { !$0.isEmpty } == "$" }
    #expect(!lines.contains { $0.contains("Solve BOJ 1753") })

    // The same changes by the CLI on the twin database.
    let commands: [[String]] = [
      ["done", "2"], ["done", "1"], ["add", "Review", "the", "PR", "+work"], ["drop", "6"], ["carry"], ["undo"], ["redo"],
      ["done", "4", "3"], ["undone", "2"], ["undo"],
    ]
    for command in commands { #expect(try Self.cli(twin, command).status == 0, "\(command)") }
    #expect(try Self.listing(fixture) == Self.listing(twin))
    // And the same journal: the same commands, the same kinds.
    let journal = try fixture.journal().map { "\($0.kind) \($0.command)" }
    #expect(journal == (try twin.journal().map { "\($0.kind) \($0.command)" }))
  }

  @Test func ctrlZGivesTheTerminalBackAndFgTakesItAgainAndRedraws() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.ootd), "build it first: swift build")
    let fixture = try SessionTests.fixture()
    let tmux = try Tmux(folder: fixture.folder, environment: Self.environment(fixture))
    try tmux.wait { $0.contains { $0.hasPrefix("$") } }
    try tmux.type("ootd tui")
    try tmux.keys("Enter")
    try tmux.wait { $0.first?.hasPrefix("Sun 2026-11-22") == true }
    try tmux.keys("C-z")
    // The shell's prompt on the main screen, in cooked mode: what stty says, and typing echoes.
    try tmux.wait { lines in lines.contains("$ ootd tui") && lines.last { !$0.isEmpty } == "$" }
    try tmux.type("stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo")
    try tmux.keys("Enter")
    // Both of stty's lines printed (the pane can be read between the two).
    let modes = try tmux.wait { lines in
      (lines.contains("icanon") || lines.contains("-icanon")) && (lines.contains("echo") || lines.contains("-echo"))
    }
    #expect(modes.contains("icanon") && modes.contains("echo"), "\(modes)")
    #expect(!modes.contains("-icanon") && !modes.contains("-echo"))
    // fg: the TUI's screen again, whole, and raw mode (j moves the cursor, nothing echoes).
    try tmux.type("fg")
    try tmux.keys("Enter")
    try tmux.wait { $0.first?.hasPrefix("Sun 2026-11-22") == true && Self.cursorRow($0)?.contains("Solve BOJ") == true }
    try tmux.keys("j")
    let lines = try tmux.wait { Self.cursorRow($0)?.contains("Write the README") == true }
    #expect(!lines.contains("j"))
    try tmux.keys("q")
    try tmux.wait { $0.last { !$0.isEmpty } == "$" }
  }

  /// SIGTERM and SIGHUP end ootd (status 128 + the signal); SIGSEGV and SIGABRT stand for a
  /// crash (the handler is the one a real fault runs): the terminal comes back, then ootd dies
  /// of the same signal, as the shell reports it.
  @Test(arguments: [SIGTERM, SIGHUP, SIGSEGV, SIGABRT])
  func aSignalGivesTheTerminalBack(_ signal: Int32) throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.ootd), "build it first: swift build")
    let fixture = try SessionTests.fixture()
    let tmux = try Tmux(folder: fixture.folder, environment: Self.environment(fixture))
    try tmux.wait { $0.contains { $0.hasPrefix("$") } }
    // After ootd: its exit status and the terminal's modes, as the shell finds them.
    try tmux.type("ootd tui; echo status $?; stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo")
    try tmux.keys("Enter")
    try tmux.wait { $0.first?.hasPrefix("Sun 2026-11-22") == true }
    let pid = try #require(try tmux.foregroundChild())
    #expect(kill(pid, signal) == 0)
    let lines = try tmux.wait { $0.contains("status \(128 + signal)") && ($0.contains("echo") || $0.contains("-echo")) }
    #expect(lines.contains("icanon") && lines.contains("echo"), "\(lines)")
    #expect(!lines.contains("-icanon") && !lines.contains("-echo"))
    #expect(!lines.contains { $0.contains("Solve BOJ") }, "the main screen")
  }

  @Test func aResizeRedrawsAtTheNewSizeAnd50x15Works() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.ootd), "build it first: swift build")
    let fixture = try SessionTests.fixture()
    try fixture.add("한국어 제목이 아주 길어서 잘려야 하는 할 일입니다 😀🎉 and more words to cut", .high)
    let tmux = try Tmux(folder: fixture.folder, environment: Self.environment(fixture))
    try tmux.wait { $0.contains { $0.hasPrefix("$") } }
    try tmux.type("ootd tui")
    try tmux.keys("Enter")
    try tmux.wait { $0.first?.hasPrefix("Sun 2026-11-22") == true }
    try tmux.run(["resize-window", "-t", "t", "-x", "50", "-y", "15"])
    // (tmux keeps the old frame's last 15 lines until ootd redraws: wait for the new heading.)
    let lines = try tmux.wait { lines in
      lines.count == 15 && lines.first?.hasPrefix("Sun 2026-11-22") == true && lines.last?.hasPrefix("j move") == true
        && lines.contains { $0.contains("한국어") }
    }
    #expect(lines.first?.hasPrefix("Sun 2026-11-22") == true)
    for line in lines { #expect(DisplayWidth.of(line) <= 50, "\(line)") }
    #expect(lines.contains { $0.contains("한국어") })
    try tmux.keys("q")
    try tmux.wait { $0.last { !$0.isEmpty } == "$" }
  }
}
