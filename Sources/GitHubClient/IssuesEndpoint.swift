import HTTP
import Core

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A write whose outcome is not known: the request went out but no answer came back (timeout,
/// lost connection) or the answer was a server error. It is never resent by itself.
public struct GitHubWriteUncertain: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was asked, e.g. `closing gr/app#12`.
  public var what: String
  /// Why there is no answer.
  public var reason: String

  /// Creates the error.
  public init(what: String, reason: String) {
    self.what = what
    self.reason = reason
  }

  public var description: String {
    "\(what) may or may not have been applied (\(reason)); it was not resent: check on GitHub"
  }
}

extension GitHubClient {
  /// The open issues and pull requests assigned to the token's owner, in every repository
  /// (`GET /issues?filter=assigned&state=open`), all pages.
  public func assignedOpenIssues() async throws -> [GitHubIssue] {
    let first = try url(
      path: "/issues",
      query: [("filter", "assigned"), ("state", "open"), ("per_page", "100")])
    var issues: [GitHubIssue] = []
    _ = try await forEachPage(
      from: first, etag: nil,
      onFailure: { response, _ in throw failure(for: response) },
      onPage: { response, number in
        let page = try decode([IssueDTO].self, from: response, what: "issues page \(number)")
        issues += try page.map { try $0.toCore() }
      })
    return issues
  }

  /// The open pull requests awaiting `login`'s review
  /// (`GET /search/issues?q=is:open is:pr review-requested:LOGIN`), all pages.
  ///
  /// - Returns: nil when the server has no search endpoint (404, as some GitHub Enterprise
  ///   servers).
  public func pullRequestsAwaitingReview(by login: String) async throws -> [GitHubIssue]? {
    let first = try url(
      path: "/search/issues",
      query: [("q", "is:open is:pr review-requested:\(login)"), ("per_page", "100")])
    var issues: [GitHubIssue] = []
    var missing = false
    _ = try await forEachPage(
      from: first, etag: nil,
      onFailure: { response, number in
        if response.status == 404, number == 1 {
          missing = true
          return
        }
        throw failure(for: response)
      },
      onPage: { response, number in
        let page = try decode(IssueSearchDTO.self, from: response, what: "search page \(number)")
        issues += try page.items.map { try $0.toCore() }
      })
    return missing ? nil : issues
  }

  /// One issue (`GET /repos/{o}/{r}/issues/{n}`), following a transferred issue's redirect.
  public func issue(_ reference: IssueReference) async throws -> IssueLookup {
    let response = try await perform(issueURL(reference))
    switch response.status {
    case 200: return .found(try decode(IssueDTO.self, from: response, what: "the issue").toCore())
    case 404, 410: return .gone
    default: throw failure(for: response)
    }
  }

  /// Closes an issue or pull request (`PATCH /repos/{o}/{r}/issues/{n}` with
  /// `{"state":"closed"}`), sent once: a timeout, a lost connection or a server error throws
  /// ``GitHubWriteUncertain`` and nothing is resent. A redirect (the issue was transferred) is
  /// followed, since GitHub applied nothing then.
  ///
  /// - Returns: the issue as GitHub now has it, or nil when it is gone (404, 410).
  public func closeIssue(_ reference: IssueReference) async throws -> GitHubIssue? {
    let body = Data(#"{"state":"closed"}"#.utf8)
    let response = try await sendWrite(
      "PATCH", to: try issueURL(reference), body: body, what: "closing \(reference)")
    switch response.status {
    case 200: return try decode(IssueDTO.self, from: response, what: "the issue").toCore()
    case 404, 410: return nil
    default:
      if RateLimitKind(response, now: now()) != nil {
        throw GitHubError.forbidden(
          message: "rate limited; \(reference) was not closed (GitHub applied nothing): try again later")
      }
      throw failure(for: response)
    }
  }

  func issueURL(_ reference: IssueReference) throws -> URL {
    try url(
      path: "/repos/\(Self.pathSegment(reference.repository.owner))/"
        + "\(Self.pathSegment(reference.repository.name))/issues/\(reference.number)")
  }

  /// Sends a non-idempotent request once. Redirects (301, 302, 307, 308) are followed with the
  /// same method and body, at most ``maxRedirects``: the server answered without applying
  /// anything. A failure without an answer, or a 5xx answer, throws ``GitHubWriteUncertain``.
  func sendWrite(_ method: String, to url: URL, body: Data, what: String) async throws
    -> HTTPResponse
  {
    var current = url
    var redirects = 0
    while true {
      try refuseUnsafeTarget(current)
      var request = request(for: current, etag: nil)
      request.method = method
      request.body = body
      request.headers.add(name: "Content-Type", value: "application/json")
      let response: HTTPResponse
      do {
        response = try await transport.send(request)
      } catch let error as HTTPTransportError {
        switch error {
        case .network(let reason), .tooLarge(let reason):
          throw GitHubWriteUncertain(what: what, reason: redact(reason))
        case .unavailable(let reason):
          throw GitHubError.curlUnavailable(redact(reason))
        case .unsupported(let reason):
          throw GitHubError.invalidResponse(redact(reason))
        }
      }
      if let rateLimit = RateLimitStatus(headers: response.headers) { state.record(rateLimit) }
      if (500...599).contains(response.status) {
        throw GitHubWriteUncertain(what: what, reason: "GitHub answered \(response.status)")
      }
      guard
        let target = try redirectTarget(
          of: response, from: current, statuses: [301, 302, 307, 308], redirects: &redirects)
      else { return response }
      current = target
    }
  }
}

/// The issue import run reaches GitHub through Core's ``IssueSource``.
extension GitHubClient: IssueSource {}
