import ArgumentParser

/// `--yes` for commands that delete: without it they ask on a terminal and refuse elsewhere.
struct ConfirmOption: ParsableArguments {
  @Flag(name: [.short, .long], help: "Do not ask for confirmation.")
  var yes = false

  /// Returns when the user agrees to `action` (`delete 2 todos`): at once with `--yes`; on a
  /// terminal after showing `preview` on standard error and asking `Action? DETAIL`. Throws
  /// ``CLIError/confirmationRequired(_:)`` without a terminal, ``CLIError/cancelled`` unless
  /// the answer is yes.
  func confirm(
    action: String, detail: String? = nil, preview: () -> [String] = { [] },
    environment: AppEnvironment
  ) throws(CLIError) {
    if yes { return }
    guard environment.stdinIsTerminal else { throw .confirmationRequired(action) }
    for line in preview() { environment.errorOutput(line + "\n") }
    let question = action.prefix(1).uppercased() + action.dropFirst() + "?"
    guard environment.confirm(question + (detail.map { " " + $0 } ?? "")) else {
      throw .cancelled
    }
  }
}
