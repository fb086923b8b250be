import HTTP
import Core
import Foundation
import Testing

@testable import GitHubClient

@Suite("Pagination and conditional requests")
struct PaginationTests {
  @Test func nextLinks_areFollowedExactlyAsGiven() async throws {
    let first = "https://api.github.com/repos/octo/hello/commits?per_page=100"
    // Real GitHub switches to /repositories/<id>/ and re-encodes the query; follow it verbatim.
    let second =
      "https://api.github.com/repositories/42/commits?since=2013-03-01T00%3A00%3A00Z&per_page=100&page=2"
    let third = "https://api.github.com/repositories/42/commits?top=master&last_sha=abc,def"
    let transport = StubTransport(routes: [
      first: page(["c1", "c2"], next: second, etag: #"W/"first""#),
      second: page(["c3"], next: third),
      third: page(["c4"]),
    ])
    let harness = try Harness(transport: transport)
    let (outcome, pages) = try await harness.listCommits()
    #expect(harness.transport.requests.map(\.url.absoluteString) == [first, second, third])
    #expect(pages.map(\.number) == [1, 2, 3])
    #expect(pages.flatMap(\.commits).map(\.sha) == ["c1", "c2", "c3", "c4"])
    #expect(outcome == .fetched(etag: #"W/"first""#, pages: 3, commits: 4))
  }

  @Test func pageCap_stopsWithAnError_afterDeliveringTheCap() async throws {
    let transport = StubTransport { _, index in
      page(["s\(index)"], next: "https://api.github.com/repositories/1/commits?page=\(index + 2)")
    }
    let harness = try Harness(maxPages: 3, transport: transport)
    var delivered = 0
    await #expect(throws: GitHubError.tooManyPages(limit: 3)) {
      _ = try await harness.client.commits(CommitQuery(repository: .example)) { _ in delivered += 1
      }
    }
    #expect(delivered == 3)
    #expect(harness.transport.requests.count == 3)
  }

  @Test func aNextLinkSeenTwice_stopsWithALoopError() async throws {
    let first = "https://api.github.com/repos/octo/hello/commits?per_page=100"
    let second = "https://api.github.com/repositories/1/commits?page=2"
    let harness = try Harness(
      transport: StubTransport(routes: [
        first: page(["a"], next: second), second: page(["b"], next: first),
      ]))
    await #expect(throws: GitHubError.paginationLoop(URL(string: first)!)) {
      _ = try await harness.listCommits()
    }
    #expect(harness.transport.requests.count == 2)
  }

  @Test func relativeNextLink_isAnInvalidResponse() async throws {
    let harness = try Harness(
      transport: StubTransport(always: page(["a"], next: "/repositories/1/commits?page=2")))
    await #expect(throws: GitHubError.invalidResponse("the next-page link is not an absolute URL"))
    {
      _ = try await harness.listCommits()
    }
  }

  @Test func storedETag_isSentOnFirstPageOnly_and304MeansNothingNew() async throws {
    let notModified = HTTPResponse.json(304, "", headers: ["ETag": #""abc""#])
    let harness = try Harness(transport: StubTransport(always: notModified))
    let (outcome, pages) = try await harness.listCommits(
      CommitQuery(repository: .example, etag: #"W/"abc""#))
    #expect(outcome == .notModified)
    #expect(outcome.etag == nil)
    #expect(pages.isEmpty)
    #expect(harness.transport.requests.map { $0.headers["If-None-Match"] } == [#"W/"abc""#])

    let first = "https://api.github.com/repos/octo/hello/commits?per_page=100"
    let second = "https://api.github.com/repositories/1/commits?page=2"
    let changed = try Harness(
      transport: StubTransport(routes: [
        first: page(["a"], next: second, etag: #""new""#), second: page(["b"]),
      ]))
    let (changedOutcome, _) = try await changed.listCommits(
      CommitQuery(repository: .example, etag: #""old""#))
    #expect(changedOutcome.etag == #""new""#)
    #expect(changed.transport.requests.map { $0.headers["If-None-Match"] } == [#""old""#, nil])
  }

  @Test func emptyPages_areNotDelivered() async throws {
    let harness = try Harness(transport: StubTransport(always: .json(200, "[]")))
    let (outcome, pages) = try await harness.listCommits()
    #expect(pages.isEmpty)
    #expect(outcome == .fetched(etag: nil, pages: 1, commits: 0))
  }

  @Test func callbackError_stopsTheListing() async throws {
    struct Full: Error {}
    let first = "https://api.github.com/repos/octo/hello/commits?per_page=100"
    let harness = try Harness(
      transport: StubTransport(routes: [first: page(["a"], next: "https://api.github.com/p2")]))
    await #expect(throws: Full.self) {
      _ = try await harness.client.commits(CommitQuery(repository: .example)) { _ in throw Full() }
    }
    #expect(harness.transport.requests.count == 1)
  }

  @Test func repositories_followAllPages() async throws {
    let repo = { (name: String) in
      #"{"name":"\#(name)","full_name":"mona/\#(name)","owner":{"login":"mona"},"private":false,"fork":false,"default_branch":"main","pushed_at":null,"archived":true}"#
    }
    let first = "https://api.github.com/users/mona/repos?sort=pushed&direction=desc&per_page=100"
    let second = "https://api.github.com/user/1/repos?per_page=100&page=2"
    let harness = try Harness(
      transport: StubTransport(routes: [
        first: .json(
          200, "[\(repo("a")),\(repo("b"))]", headers: ["Link": "<\(second)>; rel=\"next\""]),
        second: .json(200, "[\(repo("c"))]"),
      ]))
    let repositories = try await harness.client.repositories(
      for: "mona", authenticatedAsLogin: false)
    #expect(repositories.map(\.fullName.description) == ["mona/a", "mona/b", "mona/c"])
    #expect(repositories.allSatisfy { $0.isArchived && $0.pushedAt == nil })
  }

  @Test func repositories_sortedByPush_stopAtTheFirstPageEndingBeforeTheLastSync() async throws {
    let repo = { (name: String, pushed: String) in
      #"{"name":"\#(name)","full_name":"mona/\#(name)","owner":{"login":"mona"},"fork":false,"pushed_at":"\#(pushed)"}"#
    }
    let first = "https://api.github.com/users/mona/repos?sort=pushed&direction=desc&per_page=100"
    let second = "https://api.github.com/user/1/repos?per_page=100&page=2"
    let harness = try Harness(
      transport: StubTransport(routes: [
        first: .json(
          200, "[\(repo("new", "2026-11-20T00:00:00Z")),\(repo("old", "2026-01-01T00:00:00Z"))]",
          headers: ["Link": "<\(second)>; rel=\"next\""]),
        second: .json(200, "[\(repo("older", "2025-01-01T00:00:00Z"))]"),
      ]))
    let since = Timestamp.date("2026-06-01T00:00:00Z", .iso8601)
    let stopped = try await harness.client.repositories(
      for: "mona", authenticatedAsLogin: false, pushedSince: since)
    #expect(stopped.map(\.name) == ["new", "old"])
    #expect(harness.transport.requests.count == 1)
    let all = try await harness.client.repositories(for: "mona", authenticatedAsLogin: false)
    #expect(all.map(\.name) == ["new", "old", "older"])
  }
}
