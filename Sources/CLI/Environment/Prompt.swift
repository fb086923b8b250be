import Foundation

/// Asking the user a question.
extension AppEnvironment {
  /// Asks a yes/no question on the terminal; false when the answer is not yes.
  func confirm(_ question: String) -> Bool {
    errorOutput(question + " [y/N] ")
    guard let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else {
      // End of input (Ctrl-D): end the prompt's line, so what follows starts on its own.
      errorOutput("\n")
      return false
    }
    return answer == "y" || answer == "yes"
  }
}

#if canImport(Glibc)
import Glibc
#endif

/// The terminal's settings while a secret is asked, for the signal handler that gives the echo
/// back when Ctrl-C (or a SIGTERM) ends the process at the prompt.
nonisolated(unsafe) private var terminalBeforeSecret = termios()

private func restoreTerminalAndEnd(_ signalNumber: Int32) {
  tcsetattr(STDIN_FILENO, TCSANOW, &terminalBeforeSecret)
  signal(signalNumber, SIG_DFL)
  raise(signalNumber)
}

extension AppEnvironment {
  /// Asks for a secret on the terminal without echoing it; nil at the end of input. The
  /// terminal's echo comes back before this returns, and if Ctrl-C ends the process meanwhile.
  func askSecret(_ question: String) -> String? {
    errorOutput(question)
    var saved = termios()
    let hidden = tcgetattr(STDIN_FILENO, &saved) == 0
    var previous: [Int32: sighandler_t?] = [:]
    if hidden {
      terminalBeforeSecret = saved
      for signalNumber in [SIGINT, SIGTERM, SIGHUP] { previous[signalNumber] = signal(signalNumber, restoreTerminalAndEnd) }
      var quiet = saved
      quiet.c_lflag &= ~tcflag_t(ECHO)
      tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
    }
    let answer = readLine()
    if hidden {
      tcsetattr(STDIN_FILENO, TCSANOW, &saved)
      for (signalNumber, handler) in previous { signal(signalNumber, handler ?? SIG_DFL) }
    }
    errorOutput("\n")
    return answer
  }
}
