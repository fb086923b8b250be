import HTTP
import Core
import Foundation
import Testing

@testable import GitHubClient

@Suite("The token never leaks")
struct SecrecyTests {
  static let token = "ghp_SuperSecretToken0123456789"

  /// Responses that could make the client put server text (echoing the token) into an error.
  static let responses: [HTTPResponse] = [
    .json(401, #"{"message":"Bad credentials for ghp_SuperSecretToken0123456789"}"#),
    .json(403, #"{"message":"token ghp_SuperSecretToken0123456789 lacks scope"}"#),
    .json(404, #"{"message":"Not Found ghp_SuperSecretToken0123456789"}"#),
    .json(422, #"{"message":"Validation Failed: ghp_SuperSecretToken0123456789"}"#),
    .json(500, #"{"message":"oops ghp_SuperSecretToken0123456789"}"#),
    .json(
      403, #"{"message":"secondary rate limit ghp_SuperSecretToken0123456789"}"#,
      headers: ["Retry-After": "99999"]),
    .json(
      403, #"{"message":"ghp_SuperSecretToken0123456789"}"#,
      headers: ["x-ratelimit-remaining": "0", "x-ratelimit-reset": "9999999999"]),
    .json(302, "", headers: ["Location": "ftp://ghp_SuperSecretToken0123456789@x/"]),
    .json(200, "not json ghp_SuperSecretToken0123456789"),
  ]

  @Test(arguments: responses)
  func errorDescriptions_neverContainTheToken(_ response: HTTPResponse) async throws {
    let harness = try Harness(token: Self.token, transport: StubTransport(always: response))
    do {
      _ = try await harness.listCommits()
      Issue.record("expected an error")
    } catch let error as GitHubError {
      #expect(!error.description.contains(Self.token))
      #expect(!String(describing: error).contains(Self.token))
      #expect(!String(reflecting: error).contains(Self.token))
      #expect(!error.description.contains("\n"))
    }
    for event in harness.events.events {
      #expect(!event.description.contains(Self.token))
    }
  }

  @Test func transportMessages_areRedactedToo() async throws {
    let harness = try Harness(
      token: Self.token,
      transport: StubTransport(sequence: [.failure(.network("reset while sending \(Self.token)"))]))
    await #expect(throws: GitHubError.network("reset while sending [redacted]")) {
      try await harness.client.authenticatedUser()
    }
    #expect(harness.events.events.allSatisfy { !$0.description.contains(Self.token) })
  }

  /// Issue 21, item 14: a short token was replaced inside words ("[redacted]he response body is
  /// larger [redacted]han 32 MiB" for the token `t`); only whole tokens are redacted.
  @Test func aShortToken_isRedactedWhole_neverInsideAWord() async throws {
    let harness = try Harness(
      token: "t",
      transport: StubTransport(sequence: [.failure(.network("the response body is larger than 32 MiB (t, token=t)"))]))
    await #expect(throws: GitHubError.network("the response body is larger than 32 MiB ([redacted], token=[redacted])")) {
      try await harness.client.authenticatedUser()
    }
    let long = try Harness(token: Self.token, transport: StubTransport(always: .json(200, "[]")))
    for (text, redacted) in [
      ("\(Self.token)", "[redacted]"), ("Bearer \(Self.token)!", "Bearer [redacted]!"),
      ("x-access-token:\(Self.token)@github.com", "x-access-token:[redacted]@github.com"),
      ("\(Self.token)\(Self.token)", "\(Self.token)\(Self.token)"), ("a \(Self.token)_b", "a \(Self.token)_b"),
      ("\"\(Self.token)\",\(Self.token)", "\"[redacted]\",[redacted]"),
    ] {
      #expect(long.client.redact(text) == redacted, "\(text)")
    }
    let short = try Harness(token: "ab", transport: StubTransport(always: .json(200, "[]")))
    #expect(short.client.redact("aab ab abab ab.") == "aab [redacted] abab [redacted].")
  }

  @Test func configurationClientAndRequests_printWithoutTheToken() async throws {
    let harness = try Harness(token: Self.token, transport: StubTransport(always: .json(200, "[]")))
    _ = try await harness.listCommits()
    let request = try #require(harness.transport.requests.first)
    #expect(request.headers["Authorization"] == "Bearer \(Self.token)")
    var dumped = ""
    dump(harness.client, to: &dumped)
    dump(request, to: &dumped)
    let printed = [
      String(describing: harness.client.configuration),
      String(reflecting: harness.client.configuration),
      String(describing: harness.client), String(reflecting: request),
      String(describing: request.headers),
      dumped,
    ]
    for text in printed {
      #expect(!text.contains(Self.token))
    }
    #expect(String(describing: harness.client.configuration).contains("[redacted]"))
  }
}
