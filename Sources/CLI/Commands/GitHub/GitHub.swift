import ArgumentParser
import Core
import Foundation
import GitHubClient
import Storage

extension Ootd {
  /// `ootd github`: the GitHub connection (login, API URL, token status).
  struct GitHubCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "github",
      abstract: "Show and set up the GitHub connection used by 'ootd sync'.",
      discussion: """
        The token is never stored: ootd reads $GH_TOKEN, else $GITHUB_TOKEN, else asks \
        'gh auth token'. Without one, public data still works (60 requests an hour).

        Examples:
          ootd github status
          ootd github login octocat
          ootd github url https://ghe.example.com/api/v3     # GitHub Enterprise Server
          ootd github doctor    # why the graph may differ from the profile
        """,
      subcommands: [Status.self, Login.self, URLCommand.self, Issues.self, Doctor.self],
      defaultSubcommand: Status.self)
  }
}
