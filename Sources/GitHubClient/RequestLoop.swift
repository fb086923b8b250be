import HTTP
import Core
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension GitHubClient {
  // MARK: - Requests

  /// Sends a GET, following redirects and waiting out rate limits and transient failures.
  ///
  /// Returns the final response for every status it does not retry: 2xx, 304 and 4xx other
  /// than rate limits. Throws once retries or the wait bound are exhausted.
  func perform(_ url: URL, etag: String? = nil) async throws -> HTTPResponse {
    var failures = 0
    var secondaryHits = 0
    var primaryWaits = 0
    let resource = rateLimitResource(of: url)
    while true {
      try await waitIfKnownToBeLimited(resource)
      let response: HTTPResponse
      do {
        response = try await sendFollowingRedirects(url, etag: etag)
      } catch let error as HTTPTransportError {
        switch error {
        case .unavailable(let reason):
          throw GitHubError.curlUnavailable(redact(reason))
        case .unsupported(let reason):
          throw GitHubError.invalidResponse(redact(reason))
        case .tooLarge(let reason):
          throw GitHubError.invalidResponse(redact(reason))
        case .network(let reason):
          failures += 1
          guard failures < configuration.maxAttempts else {
            throw GitHubError.network(redact(reason))
          }
          try await backoff(afterFailure: failures, reason: "network error: \(redact(reason))")
          continue
        }
      }
      if let rateLimit = RateLimitStatus(headers: response.headers) { state.record(rateLimit) }

      switch RateLimitKind(response, now: now()) {
      case .primary(let resetAt):
        primaryWaits += 1
        let seconds = max(0, resetAt.timeIntervalSince(now())) + 1
        guard primaryWaits < configuration.maxAttempts, seconds <= configuration.rateLimitWaitBound
        else { throw GitHubError.rateLimited(resetAt: resetAt) }
        onEvent?(.waitingForRateLimitReset(seconds: seconds, resetAt: resetAt))
        try await sleeper.sleep(seconds: seconds)
        state.forget(resource)
        continue
      case .secondary(let retryAfter):
        secondaryHits += 1
        let base = retryAfter ?? 60
        let seconds = base * Double(1 << min(secondaryHits - 1, 16))
        guard secondaryHits < configuration.maxAttempts,
          seconds <= configuration.rateLimitWaitBound
        else { throw GitHubError.secondaryRateLimited(retryAfter: seconds) }
        onEvent?(.waitingForSecondaryRateLimit(seconds: seconds))
        try await sleeper.sleep(seconds: seconds)
        continue
      case nil:
        break
      }

      if (500...599).contains(response.status) {
        failures += 1
        let message = errorMessage(in: response)
        guard failures < configuration.maxAttempts else {
          throw GitHubError.serverError(status: response.status, message: message)
        }
        try await backoff(afterFailure: failures, reason: "GitHub answered \(response.status)")
        continue
      }
      return response
    }
  }

  /// One request plus its redirects (301, 302, 303, 307, 308), at most `maxRedirects`.
  func sendFollowingRedirects(_ url: URL, etag: String?) async throws -> HTTPResponse {
    var current = url
    var redirects = 0
    while true {
      try refuseUnsafeTarget(current)
      let response = try await transport.send(request(for: current, etag: etag))
      guard
        let target = try redirectTarget(
          of: response, from: current, statuses: [301, 302, 303, 307, 308], redirects: &redirects)
      else { return response }
      current = target
    }
  }

  /// Refuses a plain-HTTP URL on a host that is not loopback (the token would travel in clear):
  /// checked before every request and every redirect, reads and writes alike.
  func refuseUnsafeTarget(_ url: URL) throws {
    guard configuration.isAllowedTarget(url) else {
      throw GitHubError.invalidResponse(
        "refusing a non-https URL on a non-loopback host (\(url.host ?? "?"))")
    }
  }

  /// Where a redirect `response` to a request for `current` leads, or nil when its status is
  /// not one of `statuses`. Counts `redirects`, and refuses past ``maxRedirects`` or without a
  /// usable `Location`. The one redirect rule of reads and writes (writes leave out 303, which
  /// would turn them into a GET).
  func redirectTarget(
    of response: HTTPResponse, from current: URL, statuses: Set<Int>, redirects: inout Int
  ) throws -> URL? {
    guard statuses.contains(response.status) else { return nil }
    redirects += 1
    guard redirects <= Self.maxRedirects else {
      throw GitHubError.tooManyRedirects(Self.maxRedirects)
    }
    guard let location = response.headers["location"],
      let target = URL(string: location, relativeTo: current)?.absoluteURL,
      target.host != nil
    else { throw GitHubError.invalidResponse("a redirect without a usable Location header") }
    return target
  }

  /// The request for `url`: fixed headers, plus the token only on the configured origin.
  func request(for url: URL, etag: String?) -> HTTPRequest {
    var headers = HTTPHeaders()
    headers.add(name: "User-Agent", value: configuration.userAgent)
    headers.add(name: "Accept", value: "application/vnd.github+json")
    headers.add(name: "X-GitHub-Api-Version", value: configuration.apiVersion)
    if let token = configuration.token, configuration.isSameOrigin(url) {
      headers.add(name: "Authorization", value: "Bearer \(token)")
    }
    if let etag { headers.add(name: "If-None-Match", value: etag) }
    return HTTPRequest(method: "GET", url: url, headers: headers)
  }

  /// When the last response of `resource` said its window is used up, wait for its reset (or
  /// give up) instead of spending a request on a certain 403. Search requests are also spaced
  /// once half of their small window (30 a minute with a token, 10 without) is spent: the rest
  /// is spread evenly over the time left, so a long discovery never hits the limit.
  func waitIfKnownToBeLimited(_ resource: String = "core") async throws {
    guard let limit = state.rateLimit(for: resource) else { return }
    let untilReset = limit.reset.timeIntervalSince(now()) + 1
    guard untilReset > 0 else { return }
    if limit.remaining == 0 {
      guard untilReset <= configuration.rateLimitWaitBound else {
        throw GitHubError.rateLimited(resetAt: limit.reset)
      }
      onEvent?(.waitingForRateLimitReset(seconds: untilReset, resetAt: limit.reset))
      try await sleeper.sleep(seconds: untilReset)
      state.forget(resource)
      return
    }
    if resource == "search", limit.remaining * 2 < limit.limit {
      let spacing = untilReset / Double(limit.remaining + 1)
      guard spacing <= configuration.rateLimitWaitBound else {
        throw GitHubError.rateLimited(resetAt: limit.reset)
      }
      onEvent?(.spacingSearchRequests(seconds: spacing))
      try await sleeper.sleep(seconds: spacing)
    }
  }

  func backoff(afterFailure failures: Int, reason: String) async throws {
    let seconds = configuration.retryBaseDelay * Double(1 << min(failures - 1, 16))
    onEvent?(.retrying(attempt: failures + 1, afterSeconds: seconds, reason: reason))
    try await sleeper.sleep(seconds: seconds)
  }
}
