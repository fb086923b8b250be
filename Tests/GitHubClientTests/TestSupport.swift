import HTTP
import Core
import Foundation
import GitHubClient

// MARK: - Stub transport

/// A transport that answers from a closure and records every request it was sent.
final class StubTransport: HTTPTransport, @unchecked Sendable {
  typealias Handler = @Sendable (_ request: HTTPRequest, _ index: Int) throws -> HTTPResponse

  private let lock = NSLock()
  private var recorded: [HTTPRequest] = []
  private let handler: Handler

  init(_ handler: @escaping Handler) { self.handler = handler }

  /// Answers the n-th request with the n-th response; the last one repeats.
  convenience init(sequence: [Result<HTTPResponse, HTTPTransportError>]) {
    self.init { _, index in try sequence[min(index, sequence.count - 1)].get() }
  }

  /// Answers every request with the same response.
  convenience init(always response: HTTPResponse) {
    self.init { _, _ in response }
  }

  /// Answers by exact URL; unknown URLs get a 404.
  convenience init(routes: [String: HTTPResponse]) {
    self.init { request, _ in
      routes[request.url.absoluteString] ?? .json(404, #"{"message":"Not Found"}"#)
    }
  }

  var requests: [HTTPRequest] { lock.withLock { recorded } }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let index = lock.withLock {
      recorded.append(request)
      return recorded.count - 1
    }
    return try handler(request, index)
  }
}

extension HTTPResponse {
  /// A response with a JSON (or any text) body.
  static func json(_ status: Int, _ body: String, headers: HTTPHeaders = [:]) -> HTTPResponse {
    HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
  }

  /// The HTML page a proxy sends for 502.
  static let badGatewayHTML = HTTPResponse(
    status: 502, headers: ["Content-Type": "text/html"],
    body: Data("<html><body><h1>502 Bad Gateway</h1></body></html>".utf8))
}

// MARK: - Clock and sleeper

/// A clock that only moves when the recording sleeper sleeps.
final class TestClock: @unchecked Sendable {
  private let lock = NSLock()
  private var current: Date
  init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) { current = start }
  var now: Date { lock.withLock { current } }
  func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

/// Records how long the client asked to sleep, advances the test clock, returns at once.
final class RecordingSleeper: Sleeper, @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [TimeInterval] = []
  let clock: TestClock
  init(clock: TestClock) { self.clock = clock }
  var sleeps: [TimeInterval] { lock.withLock { recorded } }
  func sleep(seconds: TimeInterval) async throws {
    lock.withLock { recorded.append(seconds) }
    clock.advance(seconds)
  }
}

/// Collects the client's progress events.
final class EventLog: @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [GitHubEvent] = []
  var events: [GitHubEvent] { lock.withLock { recorded } }
  func append(_ event: GitHubEvent) { lock.withLock { recorded.append(event) } }
}

// MARK: - Harness

/// A client wired to a stub transport, a test clock, a recording sleeper and an event log.
struct Harness {
  let transport: StubTransport
  let clock = TestClock()
  let sleeper: RecordingSleeper
  let events = EventLog()
  let client: GitHubClient

  init(
    token: String? = "ghp_test_token_123",
    baseURL: String = "https://api.github.com",
    rateLimitWaitBound: TimeInterval = 15 * 60,
    maxPages: Int = 1000,
    transport: StubTransport
  ) throws {
    self.transport = transport
    sleeper = RecordingSleeper(clock: clock)
    let configuration = try GitHubConfiguration(
      baseURL: URL(string: baseURL)!, token: token, version: "1.2.3",
      rateLimitWaitBound: rateLimitWaitBound, maxPages: maxPages)
    let clock = self.clock
    let events = self.events
    client = GitHubClient(
      configuration: configuration, transport: transport, sleeper: sleeper,
      now: { clock.now }, onEvent: { events.append($0) })
  }

  /// Lists commits and collects every delivered page.
  func listCommits(_ query: CommitQuery = CommitQuery(repository: .example)) async throws
    -> (CommitListingOutcome, [CommitPage])
  {
    var pages: [CommitPage] = []
    let outcome = try await client.commits(query) { pages.append($0) }
    return (outcome, pages)
  }
}

extension RepositoryName {
  static let example = RepositoryName("octo/hello")!
}

// MARK: - Fixtures

enum Fixture {
  static func url(_ name: String) throws -> URL {
    let base = (name as NSString).deletingPathExtension
    let ext = (name as NSString).pathExtension
    guard
      let url = Bundle.module.url(forResource: base, withExtension: ext, subdirectory: "Fixtures")
    else { throw FixtureMissing(name: name) }
    return url
  }

  static func data(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }

  struct FixtureMissing: Error { let name: String }
}

/// Builds a GitHub-shaped commit JSON object for stub pages.
func commitJSON(sha: String, login: String? = "octocat", parents: Int = 1) -> String {
  let author = login.map { #"{"login":"\#($0)","id":1}"# } ?? "null"
  let parentList = (0..<parents).map { #"{"sha":"p\#($0)","url":"u"}"# }.joined(separator: ",")
  return #"""
    {"sha":"\#(sha)","commit":{"author":{"name":"Mona","email":"mona@example.com","date":"2024-03-01T10:00:00Z"},"committer":{"name":"Mona","email":"mona@example.com","date":"2024-03-01T11:00:00Z"},"message":"Subject \#(sha)\n\nBody"},"html_url":"https://github.com/octo/hello/commit/\#(sha)","author":\#(author),"parents":[\#(parentList)]}
    """#
}

func page(_ shas: [String], next: String? = nil, etag: String? = nil) -> HTTPResponse {
  var headers: HTTPHeaders = [:]
  if let next { headers.add(name: "Link", value: "<\(next)>; rel=\"next\"") }
  if let etag { headers.add(name: "ETag", value: etag) }
  return .json(
    200, "[" + shas.map { commitJSON(sha: $0) }.joined(separator: ",") + "]", headers: headers)
}
