import Core
import Foundation
import Testing

@testable import GitHubClient

@Suite("Requests: headers, URLs, redirects")
struct RequestTests {
  @Test func everyRequest_carriesIdentityHeaders_andBearerToken() async throws {
    let harness = try Harness(transport: StubTransport(always: .json(200, #"{"login":"mona"}"#)))
    let login = try await harness.client.authenticatedUser()
    #expect(login == "mona")
    let request = try #require(harness.transport.requests.first)
    #expect(request.method == "GET")
    #expect(request.url.absoluteString == "https://api.github.com/user")
    #expect(request.headers["user-agent"] == "ootd/1.2.3")
    #expect(request.headers["ACCEPT"] == "application/vnd.github+json")
    #expect(request.headers["X-GitHub-Api-Version"] == "2022-11-28")
    #expect(request.headers["Authorization"] == "Bearer ghp_test_token_123")
    #expect(request.headers["If-None-Match"] == nil)
  }

  @Test func withoutToken_noAuthorizationHeaderAtAll() async throws {
    let harness = try Harness(token: nil, transport: StubTransport(always: .json(200, "[]")))
    _ = try await harness.listCommits()
    let request = try #require(harness.transport.requests.first)
    #expect(request.headers.values(for: "Authorization").isEmpty)
    #expect(request.headers["User-Agent"] == "ootd/1.2.3")
  }

  @Test func commitsURL_carriesAuthorSinceUntilAndPerPage() async throws {
    let harness = try Harness(
      baseURL: "https://ghe.example.com/api/v3/", transport: StubTransport(always: .json(200, "[]"))
    )
    let since = Date(timeIntervalSince1970: 1_704_067_200)  // 2024-01-01T00:00:00Z
    let until = Date(timeIntervalSince1970: 1_706_745_600)  // 2024-02-01T00:00:00Z
    _ = try await harness.listCommits(
      CommitQuery(repository: .example, author: "mona+x@example.com", since: since, until: until))
    #expect(
      harness.transport.requests.first?.url.absoluteString
        == "https://ghe.example.com/api/v3/repos/octo/hello/commits?author=mona%2Bx%40example.com&since=2024-01-01T00%3A00%3A00Z&until=2024-02-01T00%3A00%3A00Z&per_page=100"
    )
  }

  @Test(arguments: [true, false])
  func repositoriesURL_dependsOnWhoIsAuthenticated(_ authenticatedAsLogin: Bool) async throws {
    let harness = try Harness(transport: StubTransport(always: .json(200, "[]")))
    _ = try await harness.client.repositories(
      for: "mona", authenticatedAsLogin: authenticatedAsLogin)
    let expected =
      authenticatedAsLogin
      ? "https://api.github.com/user/repos?affiliation=owner,collaborator,organization_member&sort=pushed&direction=desc&per_page=100"
      : "https://api.github.com/users/mona/repos?sort=pushed&direction=desc&per_page=100"
    #expect(harness.transport.requests.map(\.url.absoluteString) == [expected])
  }

  @Test func redirectToAnotherHost_dropsAuthorization() async throws {
    let transport = StubTransport { request, _ in
      if request.url.host == "api.github.com" {
        return .json(
          301, #"{"message":"Moved Permanently"}"#,
          headers: ["Location": "https://elsewhere.example.com/repositories/7/commits?per_page=100"]
        )
      }
      return .json(200, "[]")
    }
    let harness = try Harness(transport: transport)
    _ = try await harness.listCommits()
    let requests = harness.transport.requests
    #expect(requests.count == 2)
    #expect(requests[0].headers["Authorization"] != nil)
    #expect(
      requests[1].url.absoluteString
        == "https://elsewhere.example.com/repositories/7/commits?per_page=100")
    #expect(requests[1].headers["Authorization"] == nil)
    #expect(requests[1].headers["User-Agent"] == "ootd/1.2.3")
  }

  @Test(arguments: [301, 302, 307])
  func redirectOnSameOrigin_keepsAuthorization_andResolvesRelativeLocation(_ status: Int)
    async throws
  {
    let transport = StubTransport { request, _ in
      if request.url.path.hasPrefix("/repos/") {
        return .json(status, "", headers: ["Location": "/repositories/7/commits?per_page=100"])
      }
      return .json(200, "[]")
    }
    let harness = try Harness(transport: transport)
    let (outcome, _) = try await harness.listCommits()
    #expect(outcome == .fetched(etag: nil, pages: 1, commits: 0))
    let requests = harness.transport.requests
    #expect(
      requests.map(\.url.absoluteString).last
        == "https://api.github.com/repositories/7/commits?per_page=100")
    #expect(requests.last?.headers["Authorization"] == "Bearer ghp_test_token_123")
  }

  @Test func sameHostOtherPort_isAnotherOrigin() async throws {
    let transport = StubTransport { request, _ in
      request.url.port == nil
        ? .json(302, "", headers: ["Location": "https://api.github.com:8443/x"])
        : .json(200, #"{"login":"mona"}"#)
    }
    let harness = try Harness(transport: transport)
    _ = try await harness.client.authenticatedUser()
    #expect(harness.transport.requests.last?.headers["Authorization"] == nil)
  }

  @Test func moreThanFiveRedirects_fail() async throws {
    let transport = StubTransport { request, index in
      .json(302, "", headers: ["Location": "https://api.github.com/hop\(index)"])
    }
    let harness = try Harness(transport: transport)
    await #expect(throws: GitHubError.tooManyRedirects(5)) {
      try await harness.client.authenticatedUser()
    }
    #expect(harness.transport.requests.count == 6)
  }

  @Test func redirectToPlainHTTP_isRefused() async throws {
    let transport = StubTransport { _, _ in
      .json(301, "", headers: ["Location": "http://evil.example.com/user"])
    }
    let harness = try Harness(transport: transport)
    await #expect {
      try await harness.client.authenticatedUser()
    } throws: { error in
      guard case GitHubError.invalidResponse = error else { return false }
      return true
    }
    #expect(harness.transport.requests.count == 1)
  }

  @Test func redirectWithoutLocation_isAnInvalidResponse() async throws {
    let harness = try Harness(transport: StubTransport(always: .json(302, "")))
    await #expect(
      throws: GitHubError.invalidResponse("a redirect without a usable Location header")
    ) {
      try await harness.client.authenticatedUser()
    }
  }
}
