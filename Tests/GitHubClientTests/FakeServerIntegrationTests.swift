import HTTP
import Core
import FakeGitHubSupport
import Foundation
import TestTags
import Testing

@testable import GitHubClient

/// The fake GitHub server (``FakeGitHubProcess``) with a live client pointed at it.
typealias FakeGitHubServer = FakeGitHubProcess

extension FakeGitHubProcess {
  var baseURL: URL { URL(string: apiURL)! }

  struct LoggedRequest: Decodable {
    let method: String
    let path: String
    let authorization: Bool
    let if_none_match: String?
    let user_agent: String?
    let accept: String?
    let api_version: String?
    let header_names: [String]
    let status: Int
  }

  /// What the server received, in order.
  func log() throws -> [LoggedRequest] { try log(as: LoggedRequest.self) }

  /// A live client (libcurl) pointed at this server.
  func client(
    token: String? = "good-token", rateLimitWaitBound: TimeInterval = 15 * 60,
    sleeper: any Sleeper = RecordingSleeper(clock: TestClock()), events: EventLog? = nil,
    now: @escaping @Sendable () -> Date = { Date() }  // real clock: the fake server's rate-limit resets are real time
  ) throws -> GitHubClient {
    let configuration = try GitHubConfiguration(
      baseURL: baseURL, token: token, version: "9.9.9", rateLimitWaitBound: rateLimitWaitBound)
    var onEvent: (@Sendable (GitHubEvent) -> Void)?
    if let events { onEvent = { events.append($0) } }
    return GitHubClient(
      configuration: configuration,
      transport: CurlTransport(connectTimeout: 5, totalTimeout: 30),
      sleeper: sleeper,
      now: now,
      onEvent: onEvent)
  }
}

let grdb = RepositoryName("groue/GRDB.swift")!

/// A smaller history (the first `lines` commits of grdb.tsv) written to a temporary file.
func smallHistory(lines: Int) throws -> URL {
  let text = try String(contentsOf: Fixture.url("grdb.tsv"), encoding: .utf8)
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "history-\(UUID().uuidString).tsv")
  try text.split(separator: "\n").prefix(lines).joined(separator: "\n").write(
    to: url, atomically: true, encoding: .utf8)
  return url
}

@Suite("Live libcurl transport against the fake GitHub server", .tags(.network), .serialized)
struct FakeServerIntegrationTests {
  @Test func fullHistory_isFetchedPageByPage() async throws {
    let server = try FakeGitHubServer([
      "--repo", "groue/GRDB.swift=\(try Fixture.url("grdb.tsv").path)", "--token", "good-token",
    ])
    defer { server.stop() }
    let client = try server.client()
    var pageSizes: [Int] = []
    var shas: [String] = []
    var first: Commit?
    let outcome = try await client.commits(CommitQuery(repository: grdb)) { page in
      pageSizes.append(page.commits.count)
      shas += page.commits.map(\.sha)
      if first == nil { first = page.commits.first }
    }
    #expect(shas.count == 11_308)
    #expect(Set(shas).count == 11_308)
    #expect(pageSizes.count == 114)
    #expect(pageSizes.dropLast().allSatisfy { $0 == 100 })
    guard case .fetched(let etag, 114, 11_308) = outcome else {
      Issue.record("unexpected outcome \(outcome)")
      return
    }
    #expect(etag?.hasPrefix("\"") == true)
    let newest = try #require(first)
    #expect(newest.sha == "18497b68fdbb3a09528d260a0a0e1e7e61c8c53d")
    #expect(newest.parentCount == 2)
    #expect(newest.subject == "Merge branch 'development'")
    #expect(newest.authorDate == Timestamp.date("2025-10-02T06:11:07Z", .iso8601))
    #expect(newest.authorLogin == nil)

    let log = try server.log()
    #expect(log.count == 114)
    #expect(log.allSatisfy { $0.authorization && $0.user_agent == "ootd/9.9.9" })
    #expect(
      log.allSatisfy {
        $0.accept == "application/vnd.github+json" && $0.api_version == "2022-11-28"
      })
    #expect(log.dropFirst().allSatisfy { $0.path.hasPrefix("/repositories/") })
  }

  @Test func badGateway_thenSuccess() async throws {
    let history = try smallHistory(lines: 150)
    defer { try? FileManager.default.removeItem(at: history) }
    let server = try FakeGitHubServer([
      "--repo", "groue/GRDB.swift=\(history.path)", "--fault", "502@1",
    ])
    defer { server.stop() }
    let clock = TestClock()
    let sleeper = RecordingSleeper(clock: clock)
    let events = EventLog()
    let client = try server.client(sleeper: sleeper, events: events)
    var count = 0
    let outcome = try await client.commits(CommitQuery(repository: grdb)) {
      count += $0.commits.count
    }
    #expect(count == 150)
    #expect(outcome.etag != nil)
    #expect(sleeper.sleeps == [1])
    #expect(
      events.events == [.retrying(attempt: 2, afterSeconds: 1, reason: "GitHub answered 502")])
    #expect(try server.log().map(\.status) == [502, 200, 200])
  }

  @Test func primaryRateLimit_twoSecondsAhead_isWaitedOutUntilTheReset() async throws {
    // Given: the first request hits a primary limit that resets 2 s after the client's clock
    let clock = TestClock()
    let reset = clock.now + 2
    let history = try smallHistory(lines: 50)
    defer { try? FileManager.default.removeItem(at: history) }
    let server = try FakeGitHubServer([
      "--repo", "groue/GRDB.swift=\(history.path)",
      "--fault", "primaryonce@1:at=\(Int(reset.timeIntervalSince1970))",
    ])
    defer { server.stop() }
    let events = EventLog()
    let sleeper = RecordingSleeper(clock: clock)
    let client = try server.client(
      rateLimitWaitBound: 10, sleeper: sleeper, events: events, now: { clock.now })
    // When
    var count = 0
    _ = try await client.commits(CommitQuery(repository: grdb)) { count += $0.commits.count }
    // Then: it waited once, until the reset plus a second's margin, then listed everything
    #expect(count == 50)
    #expect(sleeper.sleeps == [3])
    #expect(events.events == [.waitingForRateLimitReset(seconds: 3, resetAt: reset)])
    #expect(try server.log().map(\.status) == [403, 200])
  }

  @Test func primaryRateLimit_beyondBound_stopsAtOnce() async throws {
    let server = try FakeGitHubServer(["--empty-repo", "me/empty", "--fault", "primary@1:120"])
    defer { server.stop() }
    let client = try server.client(rateLimitWaitBound: 5, sleeper: TaskSleeper())
    await #expect {
      _ = try await client.commits(CommitQuery(repository: RepositoryName("me/empty")!)) { _ in }
    } throws: { error in
      guard case GitHubError.rateLimited(let resetAt) = error else { return false }
      return resetAt.timeIntervalSinceNow > 60  // real clock: the fake server's reset, in real time
    }
    #expect(try server.log().count == 1)
  }

  @Test func emptyRepository_hasNoCommits() async throws {
    let server = try FakeGitHubServer(["--empty-repo", "me/empty"])
    defer { server.stop() }
    let outcome = try await server.client().commits(
      CommitQuery(repository: RepositoryName("me/empty")!)
    ) { _ in
      Issue.record("no page expected")
    }
    #expect(outcome == .emptyRepository)
  }

  @Test func unknownRepository_isNotFound() async throws {
    let server = try FakeGitHubServer(["--missing-repo", "me/gone"])
    defer { server.stop() }
    let gone = RepositoryName("me/gone")!
    await #expect(throws: GitHubError.notFound(gone)) {
      _ = try await server.client().commits(CommitQuery(repository: gone)) { _ in }
    }
  }

  @Test func secondFetchWithETag_isNotModified() async throws {
    let history = try smallHistory(lines: 250)
    defer { try? FileManager.default.removeItem(at: history) }
    let server = try FakeGitHubServer([
      "--repo", "groue/GRDB.swift=\(history.path)", "--link-email", "gr@pierlis.com=gr",
    ])
    defer { server.stop() }
    let client = try server.client()
    let query = CommitQuery(
      repository: grdb, author: "gr", since: Timestamp.date("2025-01-01T00:00:00Z", .iso8601))
    var firstRun: [Commit] = []
    let first = try await client.commits(query) { firstRun += $0.commits }
    #expect(!firstRun.isEmpty)
    #expect(firstRun.allSatisfy { $0.authorLogin == "gr" && $0.committerDate >= query.since! })
    let etag = try #require(first.etag)

    var stored = query
    stored.etag = etag
    let second = try await client.commits(stored) { _ in Issue.record("no page expected") }
    #expect(second == .notModified)
    let last = try #require(try server.log().last)
    #expect(last.status == 304)
    #expect(last.if_none_match == etag)
    #expect(last.path.contains("author=gr&since=2025-01-01T00%3A00%3A00Z&per_page=100"))
  }

  @Test func wrongToken_isUnauthorized_andNoTokenSendsNoAuthorization() async throws {
    let server = try FakeGitHubServer([
      "--token", "good-token", "--login", "mona", "--empty-repo", "mona/empty",
    ])
    defer { server.stop() }
    await #expect(throws: GitHubError.unauthorized) {
      _ = try await server.client(token: "bad-token").authenticatedUser()
    }
    #expect(try await server.client().authenticatedUser() == "mona")
    let anonymous = try server.client(token: nil)
    let repositories = try await anonymous.repositories(for: "mona", authenticatedAsLogin: false)
    #expect(repositories.map(\.fullName.description) == ["mona/empty"])
    #expect(try server.log().map(\.authorization) == [true, true, false])
  }

  @Test func secondaryRateLimit_withRetryAfter_isRetried() async throws {
    let server = try FakeGitHubServer(["--login", "mona", "--fault", "secondary429@1:3"])
    defer { server.stop() }
    let sleeper = RecordingSleeper(clock: TestClock())
    #expect(try await server.client(sleeper: sleeper).authenticatedUser() == "mona")
    #expect(sleeper.sleeps == [3])
  }
}
