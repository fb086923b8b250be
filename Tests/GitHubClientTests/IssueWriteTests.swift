import HTTP
import Core
import FakeGitHubSupport
import Foundation
import GitHubClient
import TestTags
import Testing

/// Closing an issue is a PATCH: never resent after a timeout, a lost connection or a 5xx, while
/// GETs keep their retries.
@Suite("Issue endpoints and the one-shot PATCH", .tags(.network))
struct IssueWriteTests {
  static let reference = IssueReference(repository: RepositoryName("gr/app")!, number: 12)

  static let closedIssue = """
    {"number":12,"title":"Fix it","html_url":"https://github.com/gr/app/issues/12","node_id":"I_1",
     "state":"closed","closed_at":"2026-11-20T23:30:00Z","labels":[{"name":"P1"}],
     "milestone":null,"repository_url":"https://api.github.com/repos/gr/app"}
    """

  @Test func closeIssue_sendsOnePatchWithTheStateAsJSON() async throws {
    let harness = try Harness(transport: StubTransport(always: .json(200, Self.closedIssue)))
    let issue = try await harness.client.closeIssue(Self.reference)
    #expect(issue?.isOpen == false)
    #expect(issue?.closedAt == Timestamp.date("2026-11-20T23:30:00Z", .iso8601))
    let requests = harness.transport.requests
    #expect(requests.count == 1)
    #expect(requests.first?.method == "PATCH")
    #expect(requests.first?.url.absoluteString == "https://api.github.com/repos/gr/app/issues/12")
    #expect(requests.first.flatMap { $0.body.map { String(decoding: $0, as: UTF8.self) } } == #"{"state":"closed"}"#)
    #expect(requests.first?.headers["Content-Type"] == "application/json")
    #expect(requests.first?.headers["Authorization"] == "Bearer ghp_test_token_123")
  }

  @Test(arguments: [
    Result<HTTPResponse, HTTPTransportError>.failure(.network("Operation timed out")),
    .failure(.network("Connection reset by peer")),
    .success(.badGatewayHTML),
    .success(.json(500, #"{"message":"Server Error"}"#)),
  ])
  func closeIssue_noAnswerOrServerError_isUncertain_andNeverResent(
    first: Result<HTTPResponse, HTTPTransportError>
  ) async throws {
    // Given: the first answer fails, a second would succeed
    let transport = StubTransport(sequence: [first, .success(.json(200, Self.closedIssue))])
    let harness = try Harness(transport: transport)
    // When / Then
    await #expect(throws: GitHubWriteUncertain.self) {
      _ = try await harness.client.closeIssue(Self.reference)
    }
    #expect(transport.requests.count == 1, "a PATCH was resent")
    #expect(harness.sleeper.sleeps.isEmpty)
  }

  @Test func uncertainMessage_saysItMayHaveBeenApplied() {
    let error = GitHubWriteUncertain(what: "closing gr/app#12", reason: "timed out")
    #expect(error.description.contains("may or may not have been applied"))
    #expect(error.description.contains("not resent"))
  }

  @Test func closeIssue_followsATransfersRedirectWithTheSameMethod() async throws {
    let transport = StubTransport { request, index in
      index == 0
        ? HTTPResponse(status: 301, headers: ["Location": "https://api.github.com/repos/gr/new/issues/3"])
        : .json(200, Self.closedIssue)
    }
    let harness = try Harness(transport: transport)
    _ = try await harness.client.closeIssue(Self.reference)
    #expect(transport.requests.map(\.method) == ["PATCH", "PATCH"])
    #expect(transport.requests.last?.url.absoluteString == "https://api.github.com/repos/gr/new/issues/3")
    #expect(transport.requests.last?.body == transport.requests.first?.body)
  }

  @Test func getsAreStillRetriedAfterANetworkError() async throws {
    let transport = StubTransport(sequence: [
      .failure(.network("reset")), .success(.json(200, Self.closedIssue)),
    ])
    let harness = try Harness(transport: transport)
    let lookup = try await harness.client.issue(Self.reference)
    #expect(transport.requests.count == 2)
    #expect(transport.requests.allSatisfy { $0.method == "GET" && $0.body == nil })
    guard case .found(let issue) = lookup else {
      Issue.record("expected the issue")
      return
    }
    #expect(issue.repository.description == "gr/app")
  }

  @Test(arguments: [404, 410])
  func issueGone(status: Int) async throws {
    let harness = try Harness(transport: StubTransport(always: .json(status, #"{"message":"gone"}"#)))
    #expect(try await harness.client.issue(Self.reference) == .gone)
  }

  @Test func searchMissing_isNil_andAMalformedQueryThrows() async throws {
    let missing = try Harness(transport: StubTransport(always: .json(404, #"{"message":"Not Found"}"#)))
    #expect(try await missing.client.pullRequestsAwaitingReview(by: "gr") == nil)
    let invalid = try Harness(
      transport: StubTransport(always: .json(422, #"{"message":"Validation Failed"}"#)))
    await #expect(throws: GitHubError.self) {
      _ = try await invalid.client.pullRequestsAwaitingReview(by: "gr")
    }
  }

  @Test func isIdempotent_onlyForMethodsThatMayBeRepeated() throws {
    let url = URL(string: "https://api.github.com/x")!
    #expect(HTTPRequest(method: "GET", url: url).isIdempotent)
    #expect(!HTTPRequest(method: "PATCH", url: url).isIdempotent)
    #expect(!HTTPRequest(method: "POST", url: url).isIdempotent)
  }

  /// The live transport sends a PATCH with its body once, against the fake server.
  @Test func curlTransport_sendsPatchWithBody_toTheFake() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ootd-issues-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let issues = folder.appendingPathComponent("issues.json").path
    try #"{"issues":[{"repo":"gr/app","number":12,"title":"Fix it","state":"open","assignees":["gr"]}]}"#
      .write(toFile: issues, atomically: true, encoding: .utf8)
    let server = try FakeGitHubProcess(["--login", "gr", "--token", "tok", "--issues", issues])
    defer { server.stop() }
    let configuration = try GitHubConfiguration(
      baseURL: URL(string: server.apiURL)!, token: "tok", version: "1.2.3")
    let client = GitHubClient(
      configuration: configuration, transport: CurlTransport(), now: { Date(timeIntervalSince1970: 1_795_000_000) })
    let issue = try await client.closeIssue(Self.reference)
    #expect(issue?.isOpen == false)
    let patches = try String(contentsOfFile: issues + ".patches.jsonl", encoding: .utf8)
      .split(separator: "\n")
    #expect(patches.count == 1)
    #expect(patches.first?.contains(#"\"state\":\"closed\""#) == true)
    // A GET after the PATCH on the same connection still works.
    #expect(try await client.assignedOpenIssues().isEmpty)
  }
}
