import Foundation

/// Asking the user a question.
extension AppEnvironment {
  /// Asks a yes/no question on the terminal; false when the answer is not yes.
  func confirm(_ question: String) -> Bool {
    errorOutput(question + " [y/N] ")
    guard let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() else {
      return false
    }
    return answer == "y" || answer == "yes"
  }
}
