import HTTP
import Core
import Foundation
import Testing

@testable import GitHubClient

/// The search endpoints: the contract's URLs, the 1,000-result cap, incomplete results, 404 and
/// 422, and the search rate limit kept apart from the core one.
@Suite("Search")
struct SearchTests {
  static func searchPage(total: Int, incomplete: Bool = false, repos: [String], headers: HTTPHeaders = [:])
    -> HTTPResponse
  {
    let items = repos.enumerated().map { index, name in
      let parts = name.split(separator: "/")
      return #"{"sha":"\#(String(format: "%040x", index))","repository":{"name":"\#(parts[1])","full_name":"\#(name)","owner":{"login":"\#(parts[0])"},"fork":false,"has_pages":true,"pushed_at":"2026-01-02T03:04:05Z"}}"#
    }
    return .json(
      200,
      #"{"total_count":\#(total),"incomplete_results":\#(incomplete),"items":[\#(items.joined(separator: ","))]}"#,
      headers: headers)
  }

  static func searchLimit(remaining: Int, resetIn seconds: Int, clock: TestClock) -> HTTPHeaders {
    [
      "x-ratelimit-limit": "30", "x-ratelimit-remaining": "\(remaining)",
      "x-ratelimit-reset": "\(Int(clock.now.timeIntervalSince1970) + seconds)",
      "x-ratelimit-resource": "search",
    ]
  }

  @Test func commitSearch_sendsTheContractsQuery_andCollectsRepositories() async throws {
    let harness = try Harness(
      transport: StubTransport(always: Self.searchPage(total: 3, repos: ["up/a", "up/a", "b/c"])))
    let outcome = try await harness.client.searchCommits(
      author: "mona", from: "2026-01-01", to: "2026-01-31"
    ) { _, _ in .readAll }
    #expect(
      harness.transport.requests.map(\.url.absoluteString) == [
        "https://api.github.com/search/commits?q=author:mona+author-date:2026-01-01..2026-01-31&per_page=100"
      ])
    guard case .found(let findings) = outcome else {
      Issue.record("expected findings, got \(outcome)")
      return
    }
    #expect(findings.hits == [RepositoryName("up/a")!: 2, RepositoryName("b/c")!: 1])
    #expect(findings.repositories[RepositoryName("up/a")!]?.hasPages == true)
  }

  @Test(arguments: [(1001, false), (10, true)])
  func overTheCapOrIncomplete_isSplitAfterOneRequest(total: Int, incomplete: Bool) async throws {
    let harness = try Harness(
      transport: StubTransport(
        always: Self.searchPage(total: total, incomplete: incomplete, repos: ["up/a"])))
    var told: (Int, Bool)?
    let outcome = try await harness.client.searchCommits(
      author: "mona", from: "2026-01-01", to: "2026-12-31"
    ) { total, incomplete in
      told = (total, incomplete)
      return total > GitHubClient.searchResultCap || incomplete ? .split : .readAll
    }
    #expect(outcome == .split(totalCount: total, incomplete: incomplete))
    #expect(told?.0 == total && told?.1 == incomplete)
    #expect(harness.transport.requests.count == 1)
  }

  @Test func missingSearchAPI_isSearchUnavailable_and422IsAValidationError() async throws {
    let missing = try Harness(transport: StubTransport(always: .json(404, #"{"message":"Not Found"}"#)))
    await #expect(throws: GitHubError.searchUnavailable) {
      _ = try await missing.client.searchCommits(author: "m", from: "2026-01-01", to: "2026-01-02") {
        _, _ in .readAll
      }
    }
    let refused = try Harness(
      transport: StubTransport(always: .json(422, #"{"message":"Validation Failed"}"#)))
    await #expect(throws: GitHubError.unexpectedStatus(422, message: "Validation Failed")) {
      _ = try await refused.client.searchMergedPullRequests(author: "m", from: "2026-01-01", to: "2026-01-02")
    }
    #expect(
      refused.transport.requests.first?.url.absoluteString
        == "https://api.github.com/search/issues?q=author:m+type:pr+is:merged+merged:2026-01-01..2026-01-02&per_page=100"
    )
  }

  @Test func searchLimit_isTrackedApartFromCore_andSpacedOnceHalfSpent() async throws {
    let clock = TestClock()
    // The search bucket is used up for 20 s; the core bucket has plenty left.
    let exhausted = Self.searchPage(
      total: 0, repos: [], headers: Self.searchLimit(remaining: 0, resetIn: 20, clock: clock))
    let core = HTTPResponse.json(
      200, #"{"login":"m"}"#,
      headers: ["x-ratelimit-limit": "5000", "x-ratelimit-remaining": "4000",
        "x-ratelimit-reset": "\(Int(clock.now.timeIntervalSince1970) + 3000)",
        "x-ratelimit-resource": "core"])
    let harness = try Harness(
      transport: StubTransport { request, _ in
        request.url.path.hasPrefix("/search/") ? exhausted : core
      })
    _ = try await harness.client.searchCommits(author: "m", from: "2026-01-01", to: "2026-01-02") {
      _, _ in .readAll
    }
    // A core request does not wait for the search bucket...
    _ = try await harness.client.authenticatedUser()
    #expect(harness.sleeper.sleeps.isEmpty)
    #expect(harness.client.lastRateLimit(for: "search")?.remaining == 0)
    #expect(harness.client.lastRateLimit(for: "core")?.remaining == 4000)
    // ...a search does, until the search bucket resets.
    _ = try await harness.client.searchCommits(author: "m", from: "2026-01-01", to: "2026-01-02") {
      _, _ in .readAll
    }
    #expect(harness.sleeper.sleeps == [21])

    // With 9 of 30 searches left and 50 s to go, the next search waits 50 s / 10 (+ the margin).
    let spaced = Self.searchPage(
      total: 0, repos: [], headers: Self.searchLimit(remaining: 9, resetIn: 49, clock: clock))
    let second = try Harness(transport: StubTransport(always: spaced))
    for _ in 0..<2 {
      _ = try await second.client.searchCommits(author: "m", from: "2026-01-01", to: "2026-01-02") {
        _, _ in .readAll
      }
    }
    #expect(second.sleeper.sleeps.count == 1)
    #expect(abs((second.sleeper.sleeps.first ?? 0) - 5) < 0.01)
    #expect(second.events.events.contains(.spacingSearchRequests(seconds: 5)))
  }
}
