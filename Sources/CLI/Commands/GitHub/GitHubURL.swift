import ArgumentParser
import Core
import Foundation
import GitHubClient
import Storage

extension Ootd.GitHubCommand {
  /// `ootd github url URL`: the API for GitHub Enterprise Server.
  struct URLCommand: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "url",
      abstract: "Save the GitHub REST API URL (GitHub Enterprise Server: https://HOST/api/v3).",
      discussion: """
        A bare host (ghe.example.com) becomes https://ghe.example.com/api/v3. Plain http:// is \
        accepted only for loopback hosts. $OOTD_GITHUB_API_URL overrides the saved URL.

        Examples:
          ootd github url ghe.example.com
          ootd github url https://ghe.example.com/api/v3
          ootd github url              # prints the URL in use
          ootd github url --reset
        """)

    @Argument(help: ArgumentHelp("The API URL or GHES host.", valueName: "url"))
    var url: String?

    @Flag(name: .long, help: "Go back to https://api.github.com.")
    var reset = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if url != nil && reset { throw ValidationError("give a URL or --reset, not both") }
    }

    /// `ghe.example.com` → `https://ghe.example.com/api/v3`; URLs are kept as given.
    static func normalized(_ text: String) -> String {
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      if trimmed.contains("://") { return trimmed }
      var host = trimmed
      while host.hasSuffix("/") { host.removeLast() }
      return host == "api.github.com" ? "https://api.github.com" : "https://\(host)/api/v3"
    }

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment)
      if reset {
        try database.settings.setGitHubSetting(.apiURL, to: nil)
        environment.print("GitHub API: https://api.github.com")
      } else if let url {
        let validated = try GitHubAccess.validatedURL(Self.normalized(url), what: "the API URL")
        try database.settings.setGitHubSetting(.apiURL, to: validated.absoluteString)
        environment.print("GitHub API: \(validated.absoluteString)")
      } else {
        let access = try GitHubAccess.resolve(environment, database: database)
        environment.print(access.baseURL.absoluteString)
      }
    }
  }
}
