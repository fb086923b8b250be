import HTTP
import Core
import Foundation
import Testing

@testable import GitHubClient

@Suite("Retries and rate limits")
struct RetryAndRateLimitTests {
  // MARK: - Server and network errors

  @Test func serverErrors_areRetriedWithExponentialBackoff() async throws {
    let harness = try Harness(
      transport: StubTransport(sequence: [
        .success(.badGatewayHTML), .success(.json(503, "")),
        .success(.json(200, #"{"login":"m"}"#)),
      ]))
    #expect(try await harness.client.authenticatedUser() == "m")
    #expect(harness.sleeper.sleeps == [1, 2])
    #expect(harness.transport.requests.count == 3)
    #expect(
      harness.events.events == [
        .retrying(attempt: 2, afterSeconds: 1, reason: "GitHub answered 502"),
        .retrying(attempt: 3, afterSeconds: 2, reason: "GitHub answered 503"),
      ])
  }

  @Test func serverErrors_stopAfterThreeTries() async throws {
    let harness = try Harness(transport: StubTransport(always: .badGatewayHTML))
    await #expect(throws: GitHubError.serverError(status: 502, message: nil)) {
      try await harness.client.authenticatedUser()
    }
    #expect(harness.transport.requests.count == 3)
    #expect(harness.sleeper.sleeps == [1, 2])
  }

  @Test func networkErrors_areRetried_thenReported() async throws {
    let harness = try Harness(
      transport: StubTransport(sequence: [.failure(.network("Connection refused"))]))
    await #expect(throws: GitHubError.network("Connection refused")) {
      try await harness.client.authenticatedUser()
    }
    #expect(harness.transport.requests.count == 3)
    #expect(harness.sleeper.sleeps == [1, 2])

    let recovering = try Harness(
      transport: StubTransport(sequence: [
        .failure(.network("Timeout was reached")), .success(.json(200, #"{"login":"m"}"#)),
      ]))
    #expect(try await recovering.client.authenticatedUser() == "m")
    #expect(recovering.sleeper.sleeps == [1])
  }

  // MARK: - Primary rate limit

  static func primaryLimit(resetIn seconds: Int, from clock: TestClock, status: Int = 403)
    -> HTTPResponse
  {
    let reset = Int(clock.now.timeIntervalSince1970) + seconds
    return .json(
      status, #"{"message":"API rate limit exceeded for user ID 1."}"#,
      headers: [
        "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "\(reset)",
        "x-ratelimit-used": "5000",
      ])
  }

  @Test(arguments: [403, 429])
  func primaryLimit_withinBound_waitsUntilResetPlusOneSecond(_ status: Int) async throws {
    let clock = TestClock()
    let limited = Self.primaryLimit(resetIn: 42, from: clock, status: status)
    let harness = try Harness(
      transport: StubTransport(sequence: [
        .success(limited), .success(.json(200, #"{"login":"m"}"#)),
      ]))
    // The harness has its own clock at the same start instant.
    #expect(try await harness.client.authenticatedUser() == "m")
    #expect(harness.sleeper.sleeps == [43])
    #expect(
      harness.events.events == [
        .waitingForRateLimitReset(seconds: 43, resetAt: clock.now + 42)
      ])
    #expect(
      harness.events.events.first?.description
        == "GitHub rate limit reached, waiting 43 s for it to reset")
  }

  @Test func primaryLimit_beyondBound_stopsWithResetTime_keepingDeliveredPages() async throws {
    let clock = TestClock()
    let limited = Self.primaryLimit(resetIn: 3600, from: clock)
    let transport = StubTransport { request, _ in
      request.url.query?.contains("page=2") == true
        ? limited
        : page(["a1", "a2"], next: "https://api.github.com/repositories/1/commits?page=2")
    }
    let harness = try Harness(transport: transport)
    var delivered: [String] = []
    await #expect(throws: GitHubError.rateLimited(resetAt: clock.now + 3600)) {
      _ = try await harness.client.commits(CommitQuery(repository: .example)) { page in
        delivered += page.commits.map(\.sha)
      }
    }
    #expect(delivered == ["a1", "a2"])
    #expect(harness.sleeper.sleeps.isEmpty)
  }

  @Test func exhaustedWindow_isWaitedForBeforeSpendingARequest() async throws {
    let clock = TestClock()
    let reset = Int(clock.now.timeIntervalSince1970) + 10
    let lastOfWindow = HTTPResponse.json(
      200, "[]",
      headers: [
        "x-ratelimit-limit": "60", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "\(reset)",
      ])
    let harness = try Harness(transport: StubTransport(always: lastOfWindow))
    _ = try await harness.listCommits()
    #expect(harness.sleeper.sleeps.isEmpty)
    _ = try await harness.listCommits()
    #expect(harness.sleeper.sleeps == [11])
    #expect(harness.transport.requests.count == 2)
  }

  // MARK: - Secondary rate limit

  static let secondaryMessage =
    #"{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again","documentation_url":"https://docs.github.com/free-pro-team@latest/rest/overview/resources-in-the-rest-api#secondary-rate-limits"}"#

  @Test(arguments: [403, 429])
  func secondaryLimit_withRetryAfter_waitsAsTold(_ status: Int) async throws {
    let limited = HTTPResponse.json(status, Self.secondaryMessage, headers: ["Retry-After": "8"])
    let harness = try Harness(
      transport: StubTransport(sequence: [
        .success(limited), .success(.json(200, #"{"login":"m"}"#)),
      ]))
    #expect(try await harness.client.authenticatedUser() == "m")
    #expect(harness.sleeper.sleeps == [8])
    #expect(harness.events.events == [.waitingForSecondaryRateLimit(seconds: 8)])
  }

  @Test func secondaryLimit_withoutRetryAfter_waitsAMinute_thenBacksOff() async throws {
    let limited = HTTPResponse.json(
      403, Self.secondaryMessage, headers: ["x-ratelimit-remaining": "4000", "gh-limited-by": "x"])
    let harness = try Harness(
      transport: StubTransport(sequence: [
        .success(limited), .success(limited), .success(.json(200, #"{"login":"m"}"#)),
      ]))
    #expect(try await harness.client.authenticatedUser() == "m")
    #expect(harness.sleeper.sleeps == [60, 120])
  }

  @Test func secondaryLimit_thatPersists_fails() async throws {
    let limited = HTTPResponse.json(429, "", headers: ["Retry-After": "5"])
    let harness = try Harness(transport: StubTransport(always: limited))
    await #expect(throws: GitHubError.secondaryRateLimited(retryAfter: 20)) {
      try await harness.client.authenticatedUser()
    }
    #expect(harness.sleeper.sleeps == [5, 10])
  }

  @Test func secondaryLimit_longerThanBound_failsWithoutWaiting() async throws {
    let limited = HTTPResponse.json(403, Self.secondaryMessage, headers: ["Retry-After": "3600"])
    let harness = try Harness(rateLimitWaitBound: 600, transport: StubTransport(always: limited))
    await #expect(throws: GitHubError.secondaryRateLimited(retryAfter: 3600)) {
      try await harness.client.authenticatedUser()
    }
    #expect(harness.sleeper.sleeps.isEmpty)
  }

  @Test func retryAfter_asHTTPDate_isConvertedToSeconds() {
    let now = Date(timeIntervalSince1970: 784_111_747)  // Sun, 06 Nov 1994 08:49:07 GMT
    #expect(RateLimitKind.seconds(retryAfter: "Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 30)
    #expect(RateLimitKind.seconds(retryAfter: " 12 ", now: now) == 12)
    #expect(RateLimitKind.seconds(retryAfter: "soon", now: now) == nil)
  }

  @Test func plain403_isNotRetried() async throws {
    let harness = try Harness(
      transport: StubTransport(
        always: .json(403, #"{"message":"Missing or invalid User Agent string."}"#)))
    await #expect(throws: GitHubError.forbidden(message: "Missing or invalid User Agent string.")) {
      try await harness.client.authenticatedUser()
    }
    #expect(harness.transport.requests.count == 1)
  }
}
