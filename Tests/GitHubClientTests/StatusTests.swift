import HTTP
import Core
import Foundation
import Testing

@testable import GitHubClient

@Suite("Status classification")
struct StatusTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let response: HTTPResponse
    let expected: Result<CommitListingOutcome, GitHubError>
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "200 empty list", response: .json(200, "[]"),
      expected: .success(.fetched(etag: nil, pages: 1, commits: 0))),
    Case(
      name: "409 empty repository (current body, status as string)",
      response: .json(
        409,
        #"{"message":"Git Repository is empty.","documentation_url":"https://docs.github.com/rest/commits/commits#list-commits","status":"409"}"#
      ),
      expected: .success(.emptyRepository)),
    Case(
      name: "404 repository",
      response: .json(404, #"{"message":"Not Found","documentation_url":"x"}"#),
      expected: .failure(.notFound(.example))),
    Case(
      name: "401 bad credentials", response: .json(401, #"{"message":"Bad credentials"}"#),
      expected: .failure(.unauthorized)),
    Case(
      name: "403 permission",
      response: .json(403, #"{"message":"Resource not accessible by personal access token"}"#),
      expected: .failure(.forbidden(message: "Resource not accessible by personal access token"))),
    Case(
      name: "403 with HTML body", response: .json(403, "<html>Forbidden</html>"),
      expected: .failure(.forbidden(message: nil))),
    Case(
      name: "422 surfaces the message",
      response: .json(422, #"{"message":"Validation Failed","errors":[{"code":"invalid"}]}"#),
      expected: .failure(.unexpectedStatus(422, message: "Validation Failed"))),
    Case(
      name: "410 gone", response: .json(410, #"{"message":"Gone"}"#),
      expected: .failure(.unexpectedStatus(410, message: "Gone"))),
    Case(
      name: "502 HTML page, every try", response: .badGatewayHTML,
      expected: .failure(.serverError(status: 502, message: nil))),
    Case(
      name: "500 JSON, every try", response: .json(500, #"{"message":"Server Error"}"#),
      expected: .failure(.serverError(status: 500, message: "Server Error"))),
    Case(
      name: "200 that is not JSON", response: .json(200, "<html>hi</html>"),
      expected: .failure(
        .invalidResponse("commits page 1 is not the JSON expected (malformed JSON)"))),
  ]

  @Test(arguments: cases)
  func commitsListing_classifiesStatus(_ example: Case) async throws {
    let harness = try Harness(transport: StubTransport(always: example.response))
    let result: Result<CommitListingOutcome, GitHubError>
    do {
      result = .success(try await harness.listCommits().0)
    } catch let error as GitHubError {
      result = .failure(error)
    }
    #expect(result == example.expected)
  }

  @Test func emptyRepository_isNotRetried() async throws {
    let harness = try Harness(
      transport: StubTransport(always: .json(409, #"{"message":"Git Repository is empty."}"#)))
    _ = try await harness.listCommits()
    #expect(harness.transport.requests.count == 1)
    #expect(harness.sleeper.sleeps.isEmpty)
  }

  @Test func unknownUser_isUserNotFound() async throws {
    let harness = try Harness(
      transport: StubTransport(always: .json(404, #"{"message":"Not Found"}"#)))
    await #expect(throws: GitHubError.userNotFound("nobody")) {
      try await harness.client.repositories(for: "nobody", authenticatedAsLogin: false)
    }
  }

  @Test func curlMissing_isAClearErrorWithoutRetries() async throws {
    let harness = try Harness(
      transport: StubTransport(sequence: [.failure(.unavailable("cannot load libcurl.so.4"))]))
    await #expect(throws: GitHubError.curlUnavailable("cannot load libcurl.so.4")) {
      try await harness.client.authenticatedUser()
    }
    #expect(harness.transport.requests.count == 1)
  }

  @Test func rateLimitEndpoint_readsCoreBucket_and404MeansNoLimits() async throws {
    let body =
      #"{"resources":{"core":{"limit":5000,"used":12,"remaining":4988,"reset":1700003600}},"rate":{"limit":5000,"used":12,"remaining":4988,"reset":1700003600}}"#
    let harness = try Harness(transport: StubTransport(always: .json(200, body)))
    #expect(
      try await harness.client.rateLimit()
        == RateLimitStatus(
          limit: 5000, remaining: 4988, reset: Date(timeIntervalSince1970: 1_700_003_600), used: 12,
          resource: "core"))
    let enterprise = try Harness(
      transport: StubTransport(always: .json(404, #"{"message":"Not Found"}"#)))
    #expect(try await enterprise.client.rateLimit() == nil)
  }

  @Test func lastRateLimit_comesFromHeaders_andMissingHeadersMeanUnknown() async throws {
    let headers: HTTPHeaders = [
      "X-RateLimit-Limit": "5000", "X-RateLimit-Remaining": "4812",
      "X-RateLimit-Reset": "1611357669",
      "x-ratelimit-used": "188", "x-ratelimit-resource": "core",
    ]
    let harness = try Harness(
      transport: StubTransport(always: .json(200, #"{"login":"m"}"#, headers: headers)))
    #expect(harness.client.lastRateLimit == nil)
    _ = try await harness.client.authenticatedUser()
    #expect(
      harness.client.lastRateLimit
        == RateLimitStatus(
          limit: 5000, remaining: 4812, reset: Date(timeIntervalSince1970: 1_611_357_669),
          used: 188,
          resource: "core"))
    let enterprise = try Harness(transport: StubTransport(always: .json(200, #"{"login":"m"}"#)))
    _ = try await enterprise.client.authenticatedUser()
    #expect(enterprise.client.lastRateLimit == nil)
  }
}
