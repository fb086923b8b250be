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
