import HTTP
import Core
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The GitHub REST API as ootd uses it: who am I, which repositories, which commits.
///
/// Requests are made one at a time (GitHub asks clients not to run them concurrently). Every
/// request carries `User-Agent`, `Accept` and `X-GitHub-Api-Version`, plus the token only when
/// one is configured and the URL is on the configured API origin. The client follows redirects
/// (at most 5), retries server and network errors with exponential backoff, waits out rate
/// limits within `GitHubConfiguration.rateLimitWaitBound`, and follows `Link: rel="next"` URLs
/// exactly as GitHub sends them.
public struct GitHubClient: Sendable {
  /// Where and how the client talks to GitHub.
  public let configuration: GitHubConfiguration
  let transport: any HTTPTransport
  let sleeper: any Sleeper
  let now: @Sendable () -> Date
  let onEvent: (@Sendable (GitHubEvent) -> Void)?
  let state = SharedState()

  /// The most redirects followed for one request.
  public static let maxRedirects = 5

  /// Creates a client.
  ///
  /// - Parameters:
  ///   - configuration: base URL, token, user agent and limits.
  ///   - transport: how requests are sent; the default loads libcurl on first use.
  ///   - sleeper: how the client waits for retries and rate limits.
  ///   - now: the clock used to compute rate-limit waits (the caller's: no default below the CLI).
  ///   - onEvent: told about waits and retries, e.g. to print "rate limited, waiting 42 s".
  public init(
    configuration: GitHubConfiguration,
    transport: any HTTPTransport = CurlTransport(),
    sleeper: any Sleeper = TaskSleeper(),
    now: @escaping @Sendable () -> Date,
    onEvent: (@Sendable (GitHubEvent) -> Void)? = nil
  ) {
    self.configuration = configuration
    self.transport = transport
    self.sleeper = sleeper
    self.now = now
    self.onEvent = onEvent
  }

  /// The rate limit reported by the most recent response that carried `x-ratelimit-*` headers,
  /// or nil when none has (GitHub Enterprise may not send them).
  public var lastRateLimit: RateLimitStatus? { state.rateLimit }

  /// The last rate limit seen for one resource (`core`, `search`, ...), or nil.
  public func lastRateLimit(for resource: String) -> RateLimitStatus? {
    state.rateLimit(for: resource)
  }
}
