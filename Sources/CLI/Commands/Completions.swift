import ArgumentParser
import Core
import Foundation
import Storage

extension Ootd {
  /// `ootd completions`: prints a shell completion script.
  struct Completions: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "completions",
      abstract: "Print the completion script for bash, zsh or fish.",
      discussion: """
        Examples:
          ootd completions bash > ~/.local/share/bash-completion/completions/ootd
          ootd completions zsh > ~/.zfunc/_ootd        # with fpath+=~/.zfunc in .zshrc
          ootd completions fish > ~/.config/fish/completions/ootd.fish
        scripts/install does this for you.
        """)

    @Argument(help: "bash, zsh or fish.", completion: .list(["bash", "zsh", "fish"]))
    var shell: String

    /// Taken as every command takes them (`ootd --no-color completions bash` was refused as an
    /// unknown option); a completion script has no colour and reads no database.
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      guard let kind = CompletionShell(rawValue: shell) else {
        throw CLIError.invalidValue("unknown shell '\(shell)': use bash, zsh or fish")
      }
      environment.output(CompletionScript.text(for: kind))
    }
  }
}
