import Core

/// How text is decorated: ANSI colours on a terminal, nothing when piped or with `NO_COLOR`.
struct Style: Sendable {
  /// Whether ANSI escape codes are written.
  let colored: Bool

  static let plain = Style(colored: false)

  private func wrap(_ text: String, _ code: String) -> String {
    colored ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  func bold(_ text: String) -> String { wrap(text, "1") }
  func dim(_ text: String) -> String { wrap(text, "2") }
  func red(_ text: String) -> String { wrap(text, "31") }
  func green(_ text: String) -> String { wrap(text, "32") }
  func yellow(_ text: String) -> String { wrap(text, "33") }
  func blue(_ text: String) -> String { wrap(text, "34") }
  func magenta(_ text: String) -> String { wrap(text, "35") }
  func cyan(_ text: String) -> String { wrap(text, "36") }
  func strike(_ text: String) -> String { wrap(text, "2;9") }

  /// The ANSI codes of heatmap levels 0…4: dim for nothing, then four greens (256 colours),
  /// darkest to brightest, like a GitHub contribution graph on a dark terminal.
  static let heatCodes = ["2", "38;5;22", "38;5;28", "38;5;34", "38;5;46"]

  /// `text` shaded as heatmap level `level` (0…4).
  func heat(_ level: Int, _ text: String) -> String {
    wrap(text, Self.heatCodes[min(4, max(0, level))])
  }
}
