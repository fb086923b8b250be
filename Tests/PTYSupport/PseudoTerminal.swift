import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal for the tests that run the built binary as a user at a terminal would
/// (the passphrase prompt of `remote set`, `ootd tui`): the side the test reads and types on
/// (`master`), and the side the program gets (`slave`), of `columns`×`rows`. One harness for
/// every such test: reading with a bounded wait (poll, no sleeps), typing, the terminal's modes.
public final class PseudoTerminal {
  public let master: Int32
  /// The program's side; -1 once a child started with ``spawn(_:arguments:environment:)``
  /// holds it (the test's copy is closed, so the output ends when the child's does).
  public private(set) var slave: Int32
  /// Everything read from the terminal so far.
  public private(set) var output: [UInt8] = []

  /// A libc function Swift's Glibc module leaves out (declared only under _XOPEN_SOURCE).
  static func libc<T>(_ name: String, as type: T.Type) throws -> T {
    let symbol = try #require(dlsym(dlopen(nil, RTLD_NOW), name), "libc has no \(name)")
    return unsafeBitCast(symbol, to: type)
  }

  public init(columns: UInt16 = 80, rows: UInt16 = 24) throws {
    typealias Open = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
    master = try Self.libc("posix_openpt", as: Open.self)(O_RDWR | O_NOCTTY)
    try #require(master >= 0)
    try #require(try Self.libc("grantpt", as: Open.self)(master) == 0)
    try #require(try Self.libc("unlockpt", as: Open.self)(master) == 0)
    let name = try #require(try Self.libc("ptsname", as: Name.self)(master).map { String(cString: $0) })
    slave = open(name, O_RDWR | O_NOCTTY)
    try #require(slave >= 0)
    resize(columns: columns, rows: rows)
  }

  deinit {
    close(master)
    if slave >= 0 { close(slave) }
  }

  /// Sets the window size (the program gets SIGWINCH when it is the terminal's foreground).
  public func resize(columns: UInt16, rows: UInt16) {
    var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
  }

  /// Starts `path` with `arguments` in a new session whose controlling terminal this is (as a
  /// terminal emulator starts a shell): its standard input, output and error. Everything the
  /// child needs is made before fork; after it, only async-signal-safe calls and execve.
  public func spawn(_ path: String, arguments: [String], environment: [String: String]) throws -> pid_t {
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    let (master, slave) = (self.master, self.slave)
    let pid = fork()
    if pid == 0 {
      _ = setsid()
      _ = ioctl(slave, UInt(TIOCSCTTY), 0)
      _ = dup2(slave, 0)
      _ = dup2(slave, 1)
      _ = dup2(slave, 2)
      if slave > 2 { _ = close(slave) }
      _ = close(master)
      execve(argv[0]!, argv, envp)
      _exit(127)
    }
    guard pid > 0 else { throw POSIXError(.EAGAIN) }
    close(slave)
    self.slave = -1
    return pid
  }

  /// The terminal's local modes (ECHO, ICANON, …).
  public var localModes: tcflag_t {
    var modes = termios()
    _ = tcgetattr(slave >= 0 ? slave : master, &modes)
    return modes.c_lflag
  }

  public var echoes: Bool { localModes & tcflag_t(ECHO) != 0 }

  /// What the terminal showed, as read so far.
  public var shown: String { String(decoding: output, as: UTF8.self) }

  /// Reads what is waiting (up to `milliseconds` for the first byte); false at the end of the
  /// output (the program and every copy of its side closed).
  @discardableResult
  public func read(waiting milliseconds: Int32) -> Bool {
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    var buffer = [UInt8](repeating: 0, count: 65536)
    var wait = milliseconds
    while poll(&descriptor, 1, wait) > 0 {
      guard descriptor.revents & Int16(POLLIN | POLLHUP) != 0 else { return true }
      let count = Glibc.read(master, &buffer, buffer.count)
      if count <= 0 { return false }
      output += buffer[..<count]
      wait = 0
    }
    return true
  }

  /// Reads until `done` holds for what was shown, or the output ends; a bounded wait (at most
  /// 10 s for each read), false when it did not come.
  @discardableResult
  public func read(until done: (String) -> Bool) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 65536)
    while !done(shown) {
      var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 10_000) > 0 else { return false }
      let count = Glibc.read(master, &buffer, buffer.count)
      guard count > 0 else { return done(shown) }
      output += buffer[..<count]
    }
    return true
  }

  /// Types `text` as a user would.
  public func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count) }
  }
}

/// A program running on its own ``PseudoTerminal`` (its controlling terminal), as a terminal
/// emulator runs it: what it shows, keys typed to it, its exit status.
public final class PTYProcess {
  public let terminal: PseudoTerminal
  public let pid: pid_t
  /// Whether ``exitStatus()`` waited for the child already.
  var reaped = false

  public init(
    _ path: String, _ arguments: [String], environment: [String: String], columns: UInt16 = 80, rows: UInt16 = 24
  ) throws {
    terminal = try PseudoTerminal(columns: columns, rows: rows)
    pid = try terminal.spawn(path, arguments: arguments, environment: environment)
  }

  deinit {
    if !reaped {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      waitpid(pid, &status, 0)
    }
  }

  public func send(_ text: String) { terminal.type(text) }

  public var text: String { terminal.shown }

  @discardableResult
  public func read(until done: (String) -> Bool) -> Bool { terminal.read(until: done) }

  /// The child's exit status (128 + the signal that ended it): its output is read to the end
  /// first (a bounded wait); a child still running then is killed (and the test fails on it).
  public func exitStatus() -> Int32 {
    while true {
      var descriptor = pollfd(fd: terminal.master, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 10_000) > 0 else {
        kill(pid, SIGKILL)
        break
      }
      if !terminal.read(waiting: 0) { break }
    }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    reaped = true
    return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
  }
}
