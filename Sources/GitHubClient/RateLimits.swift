import HTTP
import Core
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: - Rate-limit classification

/// Which kind of rate limit a response signals, if any.
enum RateLimitKind: Equatable {
  /// `x-ratelimit-remaining: 0` on a 403/429: wait for `x-ratelimit-reset`.
  case primary(resetAt: Date)
  /// `Retry-After`, or a "secondary rate limit" / abuse message, on a 403/429.
  case secondary(retryAfter: TimeInterval?)

  init?(_ response: HTTPResponse, now: Date) {
    guard response.status == 403 || response.status == 429 else { return nil }
    let headers = response.headers
    if headers["x-ratelimit-remaining"]?.trimmingASCIIWhitespace() == "0" {
      let reset = headers["x-ratelimit-reset"].flatMap { Double($0.trimmingASCIIWhitespace()) }
      self = .primary(resetAt: reset.map(Date.init(timeIntervalSince1970:)) ?? now + 60)
      return
    }
    if let retryAfter = headers["retry-after"] {
      self = .secondary(retryAfter: Self.seconds(retryAfter: retryAfter, now: now))
      return
    }
    let body = try? JSONDecoder().decode(ErrorBodyDTO.self, from: response.body)
    let message = body?.message?.lowercased() ?? ""
    let documentation = body?.documentationURL?.lowercased() ?? ""
    if message.contains("secondary rate limit") || message.contains("abuse detection")
      || documentation.hasSuffix("secondary-rate-limits")
      || documentation.hasSuffix("#abuse-rate-limits")
    {
      self = .secondary(retryAfter: nil)
      return
    }
    if response.status == 429 {  // Too Many Requests without details: a secondary limit
      self = .secondary(retryAfter: nil)
      return
    }
    return nil
  }

  /// `Retry-After` as seconds: a number, or an HTTP-date; nil when unreadable.
  static func seconds(retryAfter: String, now: Date) -> TimeInterval? {
    let text = retryAfter.trimmingASCIIWhitespace()
    if let seconds = Double(text), seconds >= 0 { return seconds }
    guard let date = HTTPDate.parse(text) else { return nil }
    return max(0, date.timeIntervalSince(now))
  }
}

/// Parses the IMF-fixdate form of HTTP dates: `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
  static func parse(_ text: String) -> Date? {
    let parts = text.split(separator: " ")
    guard parts.count == 6, parts[5] == "GMT",
      let day = Int(parts[1]), let year = Int(parts[3])
    else { return nil }
    let months = [
      "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    guard let monthIndex = months.firstIndex(of: parts[2].lowercased()),
      (1...31).contains(day), (1...9999).contains(year)
    else { return nil }
    let time = parts[4].split(separator: ":").compactMap { Int($0) }
    // A server's header must never overflow the arithmetic below.
    guard time.count == 3, (0...23).contains(time[0]), (0...59).contains(time[1]),
      (0...60).contains(time[2])
    else { return nil }
    guard let date = Day(year: year, month: monthIndex + 1, day: day) else { return nil }
    let seconds = date.ordinal * 86_400 + time[0] * 3600 + time[1] * 60 + time[2]
    return Date(timeIntervalSince1970: Double(seconds))
  }
}

// MARK: - Shared mutable state

/// The little state a client shares across copies: the last rate limit seen for each resource
/// (`core`, `search`, ...), since GitHub counts each resource's requests apart.
final class SharedState: @unchecked Sendable {
  private let queue = DispatchQueue(label: "ootd.GitHubClient.state")
  private var limits: [String: RateLimitStatus] = [:]
  private var latestResource = "core"

  /// The last limit seen for `resource`.
  func rateLimit(for resource: String) -> RateLimitStatus? {
    queue.sync { limits[resource] }
  }

  /// Records a response's limit under its resource (`core` when the header names none).
  func record(_ limit: RateLimitStatus) {
    queue.sync {
      let resource = limit.resource ?? "core"
      limits[resource] = limit
      latestResource = resource
    }
  }

  /// Forgets `resource`'s limit (after waiting for its reset).
  func forget(_ resource: String) {
    queue.sync { _ = limits.removeValue(forKey: resource) }
  }

  /// The `core` limit, else the latest seen.
  var rateLimit: RateLimitStatus? {
    queue.sync { limits["core"] ?? limits[latestResource] }
  }
}

/// The resource a request to `url` spends: `search` for the search API, else `core`.
func rateLimitResource(of url: URL) -> String {
  url.path.contains("/search/") ? "search" : "core"
}
