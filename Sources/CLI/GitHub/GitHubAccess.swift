import HTTP
import Core
import Foundation
import GitHubClient
import Storage

/// Where ootd talks to GitHub and with which token, resolved from the environment and the
/// saved settings. The token lives only in memory: it is never printed, logged or stored.
struct GitHubAccess {
  /// The REST API base URL.
  var baseURL: URL
  /// Where `baseURL` came from.
  var baseURLSource: String
  /// The token, or nil for anonymous (public data only, 60 requests an hour).
  var token: String?
  /// Where the token came from (`GITHUB_TOKEN`, `GH_TOKEN`, `gh auth token`), or nil.
  var tokenSource: String?
  /// The saved login, if any.
  var savedLogin: String?

  /// Resolves the API URL (`OOTD_GITHUB_API_URL`, else the saved one, else api.github.com) and
  /// the token (`GITHUB_TOKEN`, else `GH_TOKEN`, else `gh auth token` for the API's host; never
  /// for a loopback test server, so a real token cannot leak to it).
  static func resolve(_ environment: AppEnvironment, database: AppDatabase) throws -> GitHubAccess {
    let saved = try database.settings.gitHubSetting(.apiURL)
    let url: URL
    let urlSource: String
    if let text = environment.variables["OOTD_GITHUB_API_URL"], !text.isEmpty {
      url = try validatedURL(text, what: "OOTD_GITHUB_API_URL")
      urlSource = "OOTD_GITHUB_API_URL"
    } else if let saved {
      url = try validatedURL(saved, what: "the saved API URL")
      urlSource = "saved with 'ootd github url'"
    } else {
      url = GitHubConfiguration.gitHubDotCom
      urlSource = "default"
    }
    var token: String?
    var tokenSource: String?
    for name in ["GH_TOKEN", "GITHUB_TOKEN"] {  // as gh: GH_TOKEN wins
      if let value = environment.variables[name]?.trimmingCharacters(in: .whitespacesAndNewlines),
        !value.isEmpty
      {
        token = value
        tokenSource = name
        break
      }
    }
    if token == nil, let host = ghHost(for: url), let value = environment.ghAuthToken(host) {
      token = value
      tokenSource = "gh auth token"
    }
    if let token, let tokenSource, !GitHubConfiguration.isUsableToken(token) {
      // Never echo the token: it may be a real one with a stray character.
      throw CLIError.invalidValue(
        "the token from \(tokenSource) holds a control character, a space or a non-ASCII character; a GitHub token is one word of visible ASCII")
    }
    return GitHubAccess(
      baseURL: url, baseURLSource: urlSource, token: token, tokenSource: tokenSource,
      savedLogin: try database.settings.gitHubSetting(.login))
  }

  /// The host `gh` knows the API by: `github.com` for api.github.com, the GHES host for
  /// `https://HOST/api/v3`; nil for loopback and plain-http URLs.
  static func ghHost(for url: URL) -> String? {
    guard url.scheme?.lowercased() == "https", let host = url.host?.lowercased() else {
      return nil
    }
    if host == "api.github.com" { return "github.com" }
    if host.hasPrefix("api.") && host.hasSuffix(".ghe.com") { return String(host.dropFirst(4)) }
    return host
  }

  /// Checks `text` the way GitHubClient will, reporting problems as invalid values (exit 64).
  static func validatedURL(_ text: String, what: String) throws -> URL {
    guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)) else {
      throw CLIError.invalidValue("\(what) is not a URL: \(text)")
    }
    do {
      return try GitHubConfiguration(baseURL: url, version: Ootd.version).baseURL
    } catch let error as GitHubError {
      throw CLIError.invalidValue("\(what): \(error.description)")
    }
  }

  /// The client for this access. `onEvent` hears about waits and retries.
  func client(
    _ environment: AppEnvironment, rateLimitWaitBound: TimeInterval = 15 * 60,
    maxAttempts: Int = 3, onEvent: (@Sendable (GitHubEvent) -> Void)? = nil
  ) throws -> GitHubClient {
    let configuration = try GitHubConfiguration(
      baseURL: baseURL, token: token, version: Ootd.version,
      rateLimitWaitBound: rateLimitWaitBound, maxAttempts: maxAttempts)
    return GitHubClient(
      configuration: configuration, transport: DebugFault.watching(try environment.gitHubTransport ?? Self.liveTransport(environment)),
      sleeper: environment.gitHubSleeper ?? TaskSleeper(), now: environment.clock, onEvent: onEvent)
  }

  /// libcurl as `LiveTransport` makes it (`OOTD_GITHUB_TIMEOUT`: the seconds one request may
  /// take, default 60); a missing library is `GitHubError.curlUnavailable`.
  static func liveTransport(_ environment: AppEnvironment) throws -> CurlTransport {
    do {
      return try LiveTransport.curl(environment, timeoutVariable: "OOTD_GITHUB_TIMEOUT")
    } catch HTTPTransportError.unavailable(let reason) {
      throw GitHubError.curlUnavailable(reason)
    }
  }

  /// The API host and path for display, e.g. `api.github.com` or `ghe.example.com/api/v3`.
  var displayHost: String {
    var text = baseURL.absoluteString
    for prefix in ["https://", "http://"] where text.hasPrefix(prefix) {
      text.removeFirst(prefix.count)
    }
    return text
  }
}
