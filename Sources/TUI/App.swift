#if canImport(Glibc)
import Glibc
#endif

/// The input loop: keys from the terminal to the session, frames from the renderer to the
/// screen writer, and every half second (when no key came) a look at SQLite's `data_version`
/// for changes made by another process.
public enum App {
  /// Runs the TUI on the terminal until `q` (or Ctrl-C, or the terminal goes away). The
  /// terminal must be taken (``Terminal/enter()``); it is given back before returning.
  public static func run(_ session: Session, renderer: Renderer) {
    defer { Terminal.leave() }
    let decoder = KeyDecoder()
    var screen = ScreenWriter()
    var size = Terminal.size()
    var lastCheck = monotonicMilliseconds()
    // Bytes a read ended in the middle of (a UTF-8 character, an escape sequence, a paste).
    var pending: [UInt8] = []
    Terminal.write(screen.update(to: renderer.render(session.state, width: size.width, height: size.height)))
    while !session.state.quits {
      let (events, endOfInput) = Terminal.wait(milliseconds: 500)
      if endOfInput { return }
      if events.resized || events.resumed {
        size = Terminal.size()
        screen.invalidate()
      }
      var bytes = pending + events.bytes
      pending = []
      if !events.bytes.isEmpty, bytes.count < 1 << 20 {
        // Kept for the next read; decoded as they are when the next wait brings nothing.
        let tail = decoder.pendingTail(bytes)
        pending = Array(bytes.suffix(tail))
        bytes.removeLast(tail)
      }
      for key in decoder.keys(bytes) {
        if key == .control("z") {
          Terminal.suspend()
          size = Terminal.size()
          screen.invalidate()
          continue
        }
        session.handle(key)
        if session.state.quits { return }
      }
      let now = monotonicMilliseconds()
      if now - lastCheck >= 500 {
        lastCheck = now
        session.rollOverIfTheDayChanged()
        session.reloadIfChangedElsewhere()
      }
      Terminal.write(screen.update(to: renderer.render(session.state, width: size.width, height: size.height)))
    }
  }

  /// A clock for intervals only (never a date): CLOCK_MONOTONIC in milliseconds.
  static func monotonicMilliseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time.tv_sec * 1000 + time.tv_nsec / 1_000_000
  }
}
