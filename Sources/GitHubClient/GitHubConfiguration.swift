import HTTP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where and how GitHubClient talks to GitHub: base URL, token, identity and patience.
public struct GitHubConfiguration: Sendable, Hashable {
  /// The public GitHub.com REST API.
  public static let gitHubDotCom = URL(string: "https://api.github.com")!

  /// The REST API root, without a trailing slash, e.g. `https://api.github.com` or
  /// `https://HOST/api/v3`. Every request URL is this plus a path.
  public let baseURL: URL
  /// The token sent as `Authorization: Bearer …`, or nil to call the API anonymously.
  public let token: String?
  /// The `User-Agent` header, `ootd/VERSION`.
  public let userAgent: String
  /// The longest the client waits for a primary rate limit to reset before giving up with
  /// `GitHubError.rateLimited`. Also caps a single secondary-limit wait.
  public var rateLimitWaitBound: TimeInterval
  /// How many times one request is tried in all before a server or network error is final.
  public var maxAttempts: Int
  /// The first backoff delay between retries; it doubles after each failed try.
  public var retryBaseDelay: TimeInterval
  /// The most pages one listing may follow before failing with `GitHubError.tooManyPages`.
  public var maxPages: Int
  /// The value of `X-GitHub-Api-Version`.
  public var apiVersion: String

  /// Creates a configuration, validating the base URL.
  ///
  /// - Parameters:
  ///   - baseURL: `https://…` for any host; plain `http://` only for loopback hosts
  ///     (127.0.0.0/8, `::1`, `localhost`), which is what test servers use.
  ///   - token: the personal access token, or nil.
  ///   - version: ootd's version, sent as `User-Agent: ootd/VERSION`.
  ///   - rateLimitWaitBound: the longest wait for a rate limit, in seconds (15 minutes).
  ///   - maxAttempts: tries per request for server and network errors (3).
  ///   - retryBaseDelay: the first retry delay in seconds, doubled after each failure (1).
  ///   - maxPages: the page cap of one listing (1000).
  ///   - apiVersion: the `X-GitHub-Api-Version` to request (`2022-11-28`).
  /// - Throws: `GitHubError.invalidBaseURL` or `GitHubError.insecureBaseURL`;
  ///   `GitHubError.invalidToken` for a token that is not one word of visible ASCII.
  public init(
    baseURL: URL = GitHubConfiguration.gitHubDotCom,
    token: String? = nil,
    version: String,
    rateLimitWaitBound: TimeInterval = 15 * 60,
    maxAttempts: Int = 3,
    retryBaseDelay: TimeInterval = 1,
    maxPages: Int = 1000,
    apiVersion: String = "2022-11-28"
  ) throws {
    self.baseURL = try Self.validated(baseURL)
    // Spaces and line breaks around a token are dropped (`$(cat token-file)`); inside, they
    // make it unusable.
    let trimmedToken = token?.trimmingWhitespace()
    if let trimmedToken, !Self.isUsableToken(trimmedToken) { throw GitHubError.invalidToken }
    self.token = (trimmedToken?.isEmpty ?? true) ? nil : trimmedToken
    self.userAgent = "ootd/\(version)"
    self.rateLimitWaitBound = max(0, rateLimitWaitBound)
    self.maxAttempts = max(1, maxAttempts)
    self.retryBaseDelay = max(0, retryBaseDelay)
    self.maxPages = max(1, maxPages)
    self.apiVersion = apiVersion
  }

  /// True when `token` can be sent in a header as it is: visible ASCII only (U+0021–U+007E).
  ///
  /// Tokens are single words of printable ASCII; a control character (CR and LF above all) would
  /// let the token end the `Authorization` line and add headers of its own, and a space or a
  /// non-ASCII character is never part of a real token.
  public static func isUsableToken(_ token: String) -> Bool {
    token.unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) }
  }

  /// Checks scheme, host and credentials of a base URL and drops a trailing slash.
  static func validated(_ url: URL) throws -> URL {
    guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let scheme = components.scheme?.lowercased(),
      let host = components.host, !host.isEmpty
    else { throw GitHubError.invalidBaseURL(url.absoluteString) }
    guard components.user == nil, components.password == nil else {
      // Never echo the URL: its user-info part may be a credential.
      throw GitHubError.invalidBaseURL("a URL with user-info (credentials belong in the token)")
    }
    guard components.query == nil, components.fragment == nil else {
      throw GitHubError.invalidBaseURL(url.absoluteString)
    }
    switch scheme {
    case "https": break
    case "http":
      guard isLoopback(host: host) else { throw GitHubError.insecureBaseURL(url.absoluteString) }
    default: throw GitHubError.invalidBaseURL(url.absoluteString)
    }
    var text = url.absoluteString
    while text.hasSuffix("/") { text.removeLast() }
    guard let cleaned = URL(string: text) else { throw GitHubError.invalidBaseURL(text) }
    return cleaned
  }

  /// True for `localhost`, `::1` and IPv4 addresses in 127.0.0.0/8 (`HTTP.Origin`'s rule).
  static func isLoopback(host: String) -> Bool { Origin.isLoopback(host: host) }

  /// True when `url` has the same scheme, host and port as the base URL, so it may receive
  /// the token.
  func isSameOrigin(_ url: URL) -> Bool { Origin.isSameOrigin(baseURL, url) }

  /// True when the client may send any request to `url`: https, or http to a loopback host.
  func isAllowedTarget(_ url: URL) -> Bool { Origin.isAllowedTarget(url) }
}

// MARK: - Printing without the token

extension GitHubConfiguration: CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// A summary that says whether a token is set but never shows it.
  public var description: String {
    "GitHubConfiguration(baseURL: \(baseURL.absoluteString), token: \(token == nil ? "none" : "[redacted]"), userAgent: \(userAgent))"
  }

  /// Same as `description`.
  public var debugDescription: String { description }

  /// A mirror without the token, so `dump` and `String(reflecting:)` cannot print it.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "baseURL": baseURL, "token": token == nil ? "none" : "[redacted]", "userAgent": userAgent,
        "rateLimitWaitBound": rateLimitWaitBound, "maxAttempts": maxAttempts,
        "maxPages": maxPages, "apiVersion": apiVersion,
      ])
  }
}
