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

extension AppEnvironment {
  /// Asks for a secret on the terminal without echoing it; nil at the end of input. The
  /// terminal's echo comes back before this returns.
  func askSecret(_ question: String) -> String? {
    errorOutput(question)
    var saved = termios()
    let hidden = tcgetattr(STDIN_FILENO, &saved) == 0
    if hidden {
      var quiet = saved
      quiet.c_lflag &= ~tcflag_t(ECHO)
      tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
    }
    let answer = readLine()
    if hidden { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
    errorOutput("\n")
    return answer
  }
}
