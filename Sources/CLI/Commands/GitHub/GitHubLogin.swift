import ArgumentParser
import Core
import Foundation
import GitHubClient
import Storage

extension Ootd.GitHubCommand {
  /// `ootd github login NAME`.
  struct Login: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "login",
      abstract: "Save the GitHub login whose commits ootd syncs and graphs.",
      discussion: """
        Examples:
          ootd github login octocat
          ootd github login            # prints the saved login
          ootd github login --forget
        """)

    @Argument(help: ArgumentHelp("The GitHub login.", valueName: "login"))
    var login: String?

    @Flag(name: .long, help: "Forget the saved login.")
    var forget = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if let login, !Ootd.Sync.isLogin(login) {
        throw ValidationError("'\(login)' is not a GitHub login")
      }
      if login != nil && forget { throw ValidationError("give a login or --forget, not both") }
    }

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment)
      if forget {
        try database.settings.setGitHubSetting(.login, to: nil)
        environment.print("Forgot the GitHub login.")
      } else if let login {
        try database.settings.setGitHubSetting(.login, to: login)
        environment.print(TerminalText.printable("GitHub login: \(login)"))
      } else {
        environment.print(TerminalText.printable(try database.settings.gitHubSetting(.login) ?? "(no login saved)"))
      }
    }
  }
}
