#if canImport(Glibc)
import Glibc
#endif

/// The terminal as the TUI holds it: raw mode (termios), the alternate screen, the cursor
/// hidden, and given back as it was on every way out: `q`, Ctrl-C, SIGTERM, SIGHUP, a crash
/// (SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS), and Ctrl-Z (taken back on `fg`). Resizes and
/// resumes reach the input loop through a pipe the signal handlers write to.
///
/// The signal handlers only call what is async-signal-safe (`write`, `tcsetattr`, `signal`,
/// `raise`, `_exit`) on state prepared before they are installed.
public enum Terminal {
  /// What the terminal was before raw mode.
  nonisolated(unsafe) static var saved = termios()
  /// Raw mode as the TUI sets it.
  nonisolated(unsafe) static var raw = termios()
  /// The file descriptors: the terminal read, the terminal written, the wake-up pipe.
  nonisolated(unsafe) static var input: Int32 = STDIN_FILENO
  nonisolated(unsafe) static var output: Int32 = STDOUT_FILENO
  nonisolated(unsafe) static var wake: (read: Int32, write: Int32) = (-1, -1)
  nonisolated(unsafe) static var active = false

  /// The bytes that enter the TUI's screen and leave it.
  /// (Bracketed paste on: pasted text comes marked, as text, not as keys.)
  static let enterBytes = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[?2004h\u{1B}[H".utf8)
  static let leaveBytes = Array("\u{1B}[0m\u{1B}[?2004l\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l".utf8)

  /// What the wake-up pipe carries.
  static let resized: UInt8 = UInt8(ascii: "W")
  static let resumed: UInt8 = UInt8(ascii: "C")

  /// Takes the terminal: raw mode, the alternate screen, the cursor hidden, and the handlers
  /// that give it back. Fails when the input is no terminal.
  public static func enter() -> Bool {
    guard tcgetattr(input, &saved) == 0 else { return false }
    raw = saved
    // As cfmakeraw, but output processing kept (\n still starts a line) and reads wait for a byte.
    raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
    raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
    raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return false }
    wake = (fds[0], fds[1])
    _ = fcntl(wake.read, F_SETFL, fcntl(wake.read, F_GETFL) | O_NONBLOCK)
    _ = fcntl(wake.write, F_SETFL, fcntl(wake.write, F_GETFL) | O_NONBLOCK)
    install()
    // A parent may have blocked signals (they are inherited across exec): the ones that must
    // give the terminal back are let through.
    var handled = sigset_t()
    sigemptyset(&handled)
    for signal in [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT, SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE] {
      sigaddset(&handled, signal)
    }
    _ = pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    take()
    return true
  }

  /// Raw mode and the TUI's screen (again, after `fg`).
  static func take() {
    _ = tcsetattr(input, TCSAFLUSH, &raw)
    writeAll(enterBytes)
    active = true
  }

  /// Gives the terminal back as it was: the main screen, the cursor, cooked mode.
  public static func leave() {
    guard active else { return }
    active = false
    writeAll(leaveBytes)
    _ = tcsetattr(input, TCSAFLUSH, &saved)
  }

  /// Writes `text` to the terminal whole.
  public static func write(_ text: String) {
    guard !text.isEmpty else { return }
    writeAll(Array(text.utf8))
  }

  static func writeAll(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(output, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR || errno == EAGAIN { continue }
          return
        }
        offset += written
      }
    }
  }

  /// The terminal's size in columns and rows (80×24 when it does not say).
  public static func size() -> (width: Int, height: Int) {
    var size = winsize()
    if ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
      return (Int(size.ws_col), Int(size.ws_row))
    }
    return (80, 24)
  }

  /// What woke the input loop.
  public struct Events {
    public var bytes: [UInt8] = []
    public var resized = false
    public var resumed = false
  }

  /// Waits up to `timeout` milliseconds for key bytes or a signal's wake-up (poll(2), no busy
  /// waiting); what arrived (nothing after a timeout). `endOfInput` when the terminal is gone.
  public static func wait(milliseconds timeout: Int32) -> (events: Events, endOfInput: Bool) {
    var events = Events()
    var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
    let ready = poll(&fds, 2, timeout)
    if ready <= 0 { return (events, false) }
    if fds[1].revents & Int16(POLLIN) != 0 {
      var buffer = [UInt8](repeating: 0, count: 64)
      let count = read(wake.read, &buffer, 64)
      for byte in buffer.prefix(max(0, count)) {
        if byte == resized { events.resized = true }
        if byte == resumed { events.resumed = true }
      }
    }
    if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = read(input, &buffer, 4096)
      if count <= 0 {
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return (events, false) }
        return (events, true)
      }
      events.bytes = Array(buffer.prefix(count))
    }
    return (events, false)
  }

  /// Ctrl-Z pressed (raw mode reads it as a key): gives the terminal back and stops as the
  /// shell expects; on `fg`, takes it again. The caller redraws the whole screen.
  public static func suspend() {
    leave()
    _ = kill(getpid(), SIGSTOP)
    take()
  }

  // MARK: - Signals

  private static func install() {
    for signal in [SIGTERM, SIGHUP, SIGINT, SIGQUIT] { _ = Glibc.signal(signal, onExitSignal) }
    for signal in [SIGSEGV, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE] { _ = Glibc.signal(signal, onCrash) }
    _ = Glibc.signal(SIGWINCH, onResize)
    _ = Glibc.signal(SIGTSTP, onStop)
    _ = Glibc.signal(SIGCONT, onContinue)
  }
}

/// Async-signal-safe: the bytes that give the screen back, and cooked mode.
private func restoreForSignal() {
  guard Terminal.active else { return }
  Terminal.active = false
  Terminal.leaveBytes.withUnsafeBufferPointer { buffer in
    _ = write(Terminal.output, buffer.baseAddress, buffer.count)
  }
  _ = tcsetattr(Terminal.input, TCSAFLUSH, &Terminal.saved)
}

private func onExitSignal(_ signal: Int32) {
  restoreForSignal()
  _exit(128 + signal)
}

private func onCrash(_ signal: Int32) {
  restoreForSignal()
  // Dies of the same signal, as it would have (a core dump, the shell's message).
  _ = Glibc.signal(signal, SIG_DFL)
  _ = raise(signal)
}

private func onResize(_ signal: Int32) {
  var byte = Terminal.resized
  _ = write(Terminal.wake.write, &byte, 1)
}

/// SIGTSTP from outside (`kill -TSTP`): the terminal back, then stop as the default would.
private func onStop(_ signal: Int32) {
  restoreForSignal()
  _ = Glibc.signal(SIGTSTP, SIG_DFL)
  _ = raise(SIGTSTP)
}

/// Continued (`fg`): raw mode and the screen again, the handler back, a full redraw asked.
private func onContinue(_ signal: Int32) {
  _ = Glibc.signal(SIGTSTP, onStop)
  if !Terminal.active {
    _ = tcsetattr(Terminal.input, TCSAFLUSH, &Terminal.raw)
    Terminal.enterBytes.withUnsafeBufferPointer { buffer in
      _ = write(Terminal.output, buffer.baseAddress, buffer.count)
    }
    Terminal.active = true
  }
  var byte = Terminal.resumed
  _ = write(Terminal.wake.write, &byte, 1)
}
