import Core
import Foundation
import GitHubClient
import GitHubSync

/// The sync's progress line: redrawn in place on standard error when it is a terminal, silent
/// otherwise. Waits and retries are told on the line too; long waits are told even when piped.
final class ProgressLine: @unchecked Sendable {
  private let environment: AppEnvironment
  private let lock = NSLock()
  private var drawn = false

  init(environment: AppEnvironment) { self.environment = environment }

  func update(_ progress: CommitSync.Progress) {
    guard environment.stderrIsTerminal else { return }
    if progress.searching {
      draw("searching for your repositories: \(counted(progress.pages, "search", "searches"))")
      return
    }
    var text =
      "syncing: \(progress.repositoriesDone)/\(progress.repositoriesTotal) repositories, \(counted(progress.newCommits, "new commit", digits: group))"
    if let left = progress.requestsLeft { text += ", \(group(left)) requests left" }
    draw(text)
  }

  func event(_ event: GitHubEvent) {
    // A retry's reason may quote what the network layer said.
    let line = TerminalText.printable(event.description)
    if environment.stderrIsTerminal {
      draw(line)
    } else if case .waitingForRateLimitReset(let seconds, _) = event, seconds >= 10 {
      environment.printError("ootd: \(line)")
    }
  }

  private func draw(_ text: String) {
    lock.lock()
    defer { lock.unlock() }
    environment.errorOutput("\r\u{1B}[2K" + text)
    drawn = true
  }

  /// Clears the line and prints `message` on its own line of standard error, made safe.
  func warn(_ message: String) {
    clear()
    environment.printError("ootd: \(TerminalText.printable(message))")
  }

  func clear() {
    lock.lock()
    defer { lock.unlock() }
    guard drawn else { return }
    environment.errorOutput("\r\u{1B}[2K")
    drawn = false
  }
}
