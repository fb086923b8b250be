import Core

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything that can go wrong talking to GitHub, each with a one-line message for the user.
///
/// Messages never contain the token.
public enum GitHubError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The configured API base URL is not a usable `https://` (or loopback `http://`) URL.
  case invalidBaseURL(String)
  /// The base URL uses plain `http://` for a host that is not loopback.
  case insecureBaseURL(String)
  /// The token holds a control character, a space or a non-ASCII character, so it cannot be
  /// sent (it could end the header line and add headers of its own). The token is not shown.
  case invalidToken
  /// libcurl (`libcurl.so.4`) could not be loaded, so no request can be made.
  case curlUnavailable(String)
  /// No response arrived after every try (DNS, connect, TLS, timeout).
  case network(String)
  /// 401: the token is wrong or expired, or the endpoint needs one and none was given.
  case unauthorized
  /// 403 that is not a rate limit: missing permission, SSO, a blocked user agent.
  case forbidden(message: String?)
  /// 404 for a repository: it does not exist, or the token cannot see it. Callers skip it.
  case notFound(RepositoryName)
  /// 404 for a user's repositories: the account does not exist.
  case userNotFound(String)
  /// 404 for the search API: this server has none (some GitHub Enterprise servers).
  case searchUnavailable
  /// The primary rate limit is exhausted until `resetAt`, later than the client may wait.
  case rateLimited(resetAt: Date)
  /// A secondary rate limit persisted through every try, or asked for a longer wait than allowed.
  case secondaryRateLimited(retryAfter: TimeInterval)
  /// A 5xx answer persisted through every try.
  case serverError(status: Int, message: String?)
  /// Any other status the client does not expect for this call (400, 409, 410, 422, ...).
  case unexpectedStatus(Int, message: String?)
  /// The response could not be understood (malformed JSON, a bad `Location`, a bad next link).
  case invalidResponse(String)
  /// More than the allowed number of redirects in a row.
  case tooManyRedirects(Int)
  /// A listing had more pages than the configured cap.
  case tooManyPages(limit: Int)
  /// A listing's `next` link pointed at a page that was already fetched.
  case paginationLoop(URL)

  /// One line for the user.
  public var description: String {
    switch self {
    case .invalidBaseURL(let url):
      return "Invalid GitHub API URL: \(url)."
    case .insecureBaseURL(let url):
      return "Refusing plain http:// for \(url); use https:// (http is only for loopback hosts)."
    case .invalidToken:
      return
        "The GitHub token holds a control character, a space or a non-ASCII character; a token is one word of visible ASCII."
    case .curlUnavailable(let reason):
      return
        "ootd needs libcurl to talk to GitHub (\(reason)): install libcurl4, e.g. 'apt-get install libcurl4'."
    case .network(let reason):
      return "Cannot reach GitHub: \(reason)."
    case .unauthorized:
      return "GitHub rejected the token: bad or expired token (401)."
    case .forbidden(let message):
      return "GitHub refused access (403)\(Self.suffix(message))"
    case .notFound(let repository):
      return "Repository \(repository) was not found, or the token cannot access it (404)."
    case .userNotFound(let login):
      return "GitHub user \(login) was not found (404)."
    case .searchUnavailable:
      return "This GitHub server has no search API (404)."
    case .rateLimited(let resetAt):
      return
        "GitHub rate limit exhausted; it resets at \(Self.timestamp(resetAt)). Try again then."
    case .secondaryRateLimited(let retryAfter):
      return
        "GitHub secondary rate limit hit; wait at least \(Int(retryAfter.rounded(.up))) s before trying again."
    case .serverError(let status, let message):
      return "GitHub server error \(status)\(Self.suffix(message))"
    case .unexpectedStatus(let status, let message):
      return "Unexpected GitHub response \(status)\(Self.suffix(message))"
    case .invalidResponse(let reason):
      return "Unexpected GitHub response: \(reason)."
    case .tooManyRedirects(let count):
      return "GitHub redirected more than \(count) times in a row."
    case .tooManyPages(let limit):
      return "Stopped after \(limit) pages: the listing is longer than the page cap."
    case .paginationLoop(let url):
      return "GitHub's pagination looped back to \(url.absoluteString)."
    }
  }

  private static func suffix(_ message: String?) -> String {
    guard let message, !message.isEmpty else { return "." }
    return ": \(message)"
  }

  private static func timestamp(_ date: Date) -> String {
    date.formatted(.iso8601)
  }
}
