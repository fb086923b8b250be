import HTTP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: - Sleeping

/// How GitHubClient waits (retry backoff, rate limits). Tests inject one that records and
/// returns at once; the CLI uses `TaskSleeper`.
public protocol Sleeper: Sendable {
  /// Suspends for `seconds` (never negative). Throws if the wait is cancelled.
  func sleep(seconds: TimeInterval) async throws
}

/// The real sleeper: `Task.sleep`, which ends early with `CancellationError` on cancellation.
public struct TaskSleeper: Sleeper {
  /// Creates the real sleeper.
  public init() {}

  /// Sleeps for `seconds` of wall time.
  public func sleep(seconds: TimeInterval) async throws {
    guard seconds > 0 else { return }
    // Capped at a day so that no value a server sends can overflow the conversion.
    try await Task.sleep(nanoseconds: UInt64(min(seconds, 86_400) * 1_000_000_000))
  }
}

// MARK: - Progress

/// Something the client is doing that the user may want to hear about (it is slow or retrying).
public enum GitHubEvent: Hashable, Sendable, CustomStringConvertible {
  /// The primary rate limit is exhausted; the client waits `seconds` until `resetAt`.
  case waitingForRateLimitReset(seconds: TimeInterval, resetAt: Date)
  /// A secondary rate limit hit; the client waits `seconds` before trying again.
  case waitingForSecondaryRateLimit(seconds: TimeInterval)
  /// A request failed (`reason`); try number `attempt` follows after `seconds`.
  case retrying(attempt: Int, afterSeconds: TimeInterval, reason: String)
  /// The search API's small rate limit is half spent: the next search waits `seconds`.
  case spacingSearchRequests(seconds: TimeInterval)

  /// One line for the user, e.g. "rate limited, waiting 42 s".
  public var description: String {
    switch self {
    case .waitingForRateLimitReset(let seconds, _):
      return "GitHub rate limit reached, waiting \(Self.whole(seconds)) s for it to reset"
    case .waitingForSecondaryRateLimit(let seconds):
      return "GitHub secondary rate limit hit, waiting \(Self.whole(seconds)) s"
    case .retrying(let attempt, let seconds, let reason):
      return "\(reason); retrying in \(Self.whole(seconds)) s (try \(attempt))"
    case .spacingSearchRequests(let seconds):
      return "spacing GitHub searches (30 a minute), waiting \(Self.whole(seconds)) s"
    }
  }

  private static func whole(_ seconds: TimeInterval) -> Int { Int(seconds.rounded(.up)) }
}

// MARK: - Rate limit

/// The state of one GitHub rate-limit bucket, from `GET /rate_limit` or `x-ratelimit-*` headers.
public struct RateLimitStatus: Hashable, Sendable {
  /// Requests allowed per window.
  public var limit: Int
  /// Requests left in the current window.
  public var remaining: Int
  /// When the window resets.
  public var reset: Date
  /// Requests used in the current window, when reported.
  public var used: Int?
  /// The bucket (`core`, `search`, …), when reported.
  public var resource: String?

  /// Creates a rate-limit status.
  public init(limit: Int, remaining: Int, reset: Date, used: Int? = nil, resource: String? = nil) {
    self.limit = limit
    self.remaining = remaining
    self.reset = reset
    self.used = used
    self.resource = resource
  }

  /// Reads `x-ratelimit-*` headers; nil when they are missing (GitHub Enterprise may disable
  /// rate limiting, and missing headers mean "unknown", never "0 left").
  init?(headers: HTTPHeaders) {
    guard let limit = headers["x-ratelimit-limit"].flatMap({ Int($0) }),
      let remaining = headers["x-ratelimit-remaining"].flatMap({ Int($0) }),
      let reset = headers["x-ratelimit-reset"].flatMap({ Double($0) })
    else { return nil }
    self.init(
      limit: limit, remaining: remaining, reset: Date(timeIntervalSince1970: reset),
      used: headers["x-ratelimit-used"].flatMap { Int($0) },
      resource: headers["x-ratelimit-resource"])
  }
}
