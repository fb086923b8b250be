import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What the terminal is like: colours and width.
extension AppEnvironment {
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
}
