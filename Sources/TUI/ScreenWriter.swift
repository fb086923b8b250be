/// Turns frames into the bytes that change the terminal from the last frame to the next: only
/// the lines that differ are written (cursor moved to the line, the line erased, the new one
/// written), never a full clear, so nothing flickers.
public struct ScreenWriter: Sendable {
  /// The lines on the terminal now (empty: unknown, the next frame is written whole).
  public private(set) var shown: [String] = []

  public init() {}

  /// Forgets what is shown: the next frame is written whole (after a resize or `fg`).
  public mutating func invalidate() { shown = [] }

  /// The bytes that turn the screen into `lines` (line 1 at the top).
  public mutating func update(to lines: [String]) -> String {
    var output = ""
    let whole = shown.count != lines.count
    for (index, line) in lines.enumerated() where whole || shown[index] != line {
      // Erased before it is written: after a line that fills the last column the cursor stays
      // on that column (autowrap is off), where an erase after it would take the last character.
      output += "\u{1B}[\(index + 1);1H\u{1B}[K" + line + "\u{1B}[0m"
    }
    if whole && !lines.isEmpty {
      // Below the last line (a terminal taller than the frame says): erased once.
      output += "\u{1B}[J"
    }
    shown = lines
    return output
  }
}
