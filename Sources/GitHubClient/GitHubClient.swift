import Core
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The GitHub REST API as ootd uses it: who am I, which repositories, which commits.
///
/// Requests are made one at a time (GitHub asks clients not to run them concurrently). Every
/// request carries `User-Agent`, `Accept` and `X-GitHub-Api-Version`, plus the token only when
/// one is configured and the URL is on the configured API origin. The client follows redirects
/// (at most 5), retries server and network errors with exponential backoff, waits out rate
/// limits within `GitHubConfiguration.rateLimitWaitBound`, and follows `Link: rel="next"` URLs
/// exactly as GitHub sends them.
public struct GitHubClient: Sendable {
  /// Where and how the client talks to GitHub.
  public let configuration: GitHubConfiguration
  let transport: any HTTPTransport
  let sleeper: any Sleeper
  let now: @Sendable () -> Date
  let onEvent: (@Sendable (GitHubEvent) -> Void)?
  let state = SharedState()

  /// The most redirects followed for one request.
  public static let maxRedirects = 5

  /// Creates a client.
  ///
  /// - Parameters:
  ///   - configuration: base URL, token, user agent and limits.
  ///   - transport: how requests are sent; the default loads libcurl on first use.
  ///   - sleeper: how the client waits for retries and rate limits.
  ///   - now: the clock used to compute rate-limit waits.
  ///   - onEvent: told about waits and retries, e.g. to print "rate limited, waiting 42 s".
  public init(
    configuration: GitHubConfiguration,
    transport: any HTTPTransport = CurlTransport(),
    sleeper: any Sleeper = TaskSleeper(),
    now: @escaping @Sendable () -> Date = { Date() },
    onEvent: (@Sendable (GitHubEvent) -> Void)? = nil
  ) {
    self.configuration = configuration
    self.transport = transport
    self.sleeper = sleeper
    self.now = now
    self.onEvent = onEvent
  }

  /// The rate limit reported by the most recent response that carried `x-ratelimit-*` headers,
  /// or nil when none has (GitHub Enterprise may not send them).
  public var lastRateLimit: RateLimitStatus? { state.rateLimit }

  // MARK: - Endpoints

  /// The login of the token's owner (`GET /user`).
  ///
  /// - Throws: `GitHubError.unauthorized` for a bad, expired or missing token, or any other
  ///   `GitHubError`.
  public func authenticatedUser() async throws -> String {
    let response = try await perform(url(path: "/user"))
    guard response.status == 200 else { throw failure(for: response) }
    return try decode(UserDTO.self, from: response, what: "the user").login
  }

  /// The `core` rate-limit bucket from `GET /rate_limit` (which does not count against it).
  ///
  /// - Returns: nil when the server has no rate limiting (GitHub Enterprise answers 404).
  public func rateLimit() async throws -> RateLimitStatus? {
    let response = try await perform(url(path: "/rate_limit"))
    if response.status == 404 { return nil }
    guard response.status == 200 else { throw failure(for: response) }
    let body = try decode(RateLimitDTO.self, from: response, what: "the rate limit")
    guard let bucket = body.resources?.core ?? body.rate else {
      throw GitHubError.invalidResponse("the rate limit has no core bucket")
    }
    return RateLimitStatus(
      limit: bucket.limit, remaining: bucket.remaining,
      reset: Date(timeIntervalSince1970: bucket.reset), used: bucket.used, resource: "core")
  }

  /// Every repository to look for `login`'s commits in, all pages.
  ///
  /// - Parameters:
  ///   - login: the GitHub user.
  ///   - authenticatedAsLogin: true when the token belongs to `login`; then the listing is
  ///     `GET /user/repos` (owned, collaborator and organisation repositories, private ones
  ///     included), else `GET /users/{login}/repos` (the user's public repositories).
  /// - Returns: the repositories of every page, in GitHub's order.
  /// - Throws: `GitHubError.userNotFound` for an unknown login, or any other `GitHubError`.
  public func repositories(for login: String, authenticatedAsLogin: Bool) async throws
    -> [GitHubRepository]
  {
    let first =
      authenticatedAsLogin
      ? try url(
        path: "/user/repos",
        query: [("affiliation", "owner,collaborator,organization_member"), ("per_page", "100")])
      : try url(path: "/users/\(Self.pathSegment(login))/repos", query: [("per_page", "100")])
    var repositories: [GitHubRepository] = []
    _ = try await forEachPage(
      from: first, etag: nil,
      onFailure: { response, _ in
        if response.status == 404 && !authenticatedAsLogin {
          throw GitHubError.userNotFound(login)
        }
        throw failure(for: response)
      },
      onPage: { response, number in
        let page = try decode(
          [RepositoryDTO].self, from: response, what: "repositories page \(number)")
        repositories += try page.map { try $0.toCore() }
      })
    return repositories
  }

  /// Lists a repository's commits (`GET /repos/{owner}/{repo}/commits`), newest first, handing
  /// each page to `onPage` as soon as it arrives so the caller can store it in one transaction.
  ///
  /// Pages already handed over stay delivered even when a later page fails (for example with
  /// `GitHubError.rateLimited`). Store the returned ETag only after a listing completes.
  ///
  /// - Parameters:
  ///   - query: the repository, optional author and date window, and the ETag of the previous
  ///     complete listing of the same query, sent as `If-None-Match` for the first page.
  ///   - onPage: receives each non-empty page in order; an error it throws stops the listing.
  /// - Returns: `.notModified` when GitHub answers 304 to the ETag, `.emptyRepository` for a
  ///   repository without commits (409), else `.fetched` with the first page's new ETag.
  /// - Throws: `GitHubError.notFound` (skip the repository), `.unauthorized`, `.rateLimited`,
  ///   and the other `GitHubError` cases; or what `onPage` throws.
  nonisolated(nonsending)
    public func commits(
      _ query: CommitQuery, onPage: (CommitPage) async throws -> Void
    ) async throws -> CommitListingOutcome
  {
    var items: [(String, String)] = []
    if let author = query.author { items.append(("author", author)) }
    if let since = query.since { items.append(("since", ISO8601Timestamp.string(since))) }
    if let until = query.until { items.append(("until", ISO8601Timestamp.string(until))) }
    items.append(("per_page", "100"))
    let repository = query.repository
    let first = try url(
      path:
        "/repos/\(Self.pathSegment(repository.owner))/\(Self.pathSegment(repository.name))/commits",
      query: items)
    var commitCount = 0
    let end = try await forEachPage(
      from: first, etag: query.etag,
      onFailure: { response, number in
        switch response.status {
        case 409 where number == 1: return  // "Git Repository is empty."
        case 404: throw GitHubError.notFound(repository)
        default: throw failure(for: response)
        }
      },
      onPage: { response, number in
        let dtos = try decode([CommitDTO].self, from: response, what: "commits page \(number)")
        let commits = try dtos.map { try $0.toCore(repository: repository) }
        guard !commits.isEmpty else { return }
        commitCount += commits.count
        try await onPage(CommitPage(number: number, commits: commits))
      })
    switch end {
    case .notModified: return .notModified
    case .stoppedQuietly: return .emptyRepository
    case .finished(let etag, let pages):
      return .fetched(etag: etag, pages: pages, commits: commitCount)
    }
  }

  // MARK: - Pagination

  enum PaginationEnd {
    case notModified
    case stoppedQuietly
    case finished(etag: String?, pages: Int)
  }

  /// Walks `rel="next"` links from `first`, following each URL exactly as given.
  ///
  /// `onFailure` gets every non-2xx final response: it throws the right error, or returns to
  /// end the listing quietly (409 on an empty repository).
  nonisolated(nonsending)
    func forEachPage(
      from first: URL, etag: String?,
      onFailure: (HTTPResponse, Int) throws -> Void,
      onPage: (HTTPResponse, Int) async throws -> Void
    ) async throws -> PaginationEnd
  {
    var next: URL? = first
    var seen: Set<String> = []
    var pages = 0
    var firstETag: String?
    while let url = next {
      guard seen.insert(url.absoluteString).inserted else {
        throw GitHubError.paginationLoop(url)
      }
      guard pages < configuration.maxPages else {
        throw GitHubError.tooManyPages(limit: configuration.maxPages)
      }
      pages += 1
      let response = try await perform(url, etag: pages == 1 ? etag : nil)
      if pages == 1 {
        if response.status == 304, etag != nil { return .notModified }
        firstETag = response.headers["etag"]
      }
      guard (200..<300).contains(response.status) else {
        try onFailure(response, pages)
        return .stoppedQuietly
      }
      try await onPage(response, pages)
      next = try nextPage(of: response)
    }
    return .finished(etag: firstETag, pages: pages)
  }

  func nextPage(of response: HTTPResponse) throws -> URL? {
    let links = LinkHeader(response.headers.values(for: "link"))
    guard let target = links.target(for: "next") else { return nil }
    guard let url = URL(string: target), url.scheme != nil, url.host != nil else {
      throw GitHubError.invalidResponse("the next-page link is not an absolute URL")
    }
    return url
  }

  // MARK: - Requests

  /// Sends a GET, following redirects and waiting out rate limits and transient failures.
  ///
  /// Returns the final response for every status it does not retry: 2xx, 304 and 4xx other
  /// than rate limits. Throws once retries or the wait bound are exhausted.
  func perform(_ url: URL, etag: String? = nil) async throws -> HTTPResponse {
    var failures = 0
    var secondaryHits = 0
    var primaryWaits = 0
    while true {
      try await waitIfKnownToBeLimited()
      let response: HTTPResponse
      do {
        response = try await sendFollowingRedirects(url, etag: etag)
      } catch let error as HTTPTransportError {
        switch error {
        case .unavailable(let reason):
          throw GitHubError.curlUnavailable(redact(reason))
        case .unsupported(let reason):
          throw GitHubError.invalidResponse(redact(reason))
        case .tooLarge(let reason):
          throw GitHubError.invalidResponse(redact(reason))
        case .network(let reason):
          failures += 1
          guard failures < configuration.maxAttempts else {
            throw GitHubError.network(redact(reason))
          }
          try await backoff(afterFailure: failures, reason: "network error: \(redact(reason))")
          continue
        }
      }
      if let rateLimit = RateLimitStatus(headers: response.headers) { state.rateLimit = rateLimit }

      switch RateLimitKind(response, now: now()) {
      case .primary(let resetAt):
        primaryWaits += 1
        let seconds = max(0, resetAt.timeIntervalSince(now())) + 1
        guard primaryWaits < configuration.maxAttempts, seconds <= configuration.rateLimitWaitBound
        else { throw GitHubError.rateLimited(resetAt: resetAt) }
        onEvent?(.waitingForRateLimitReset(seconds: seconds, resetAt: resetAt))
        try await sleeper.sleep(seconds: seconds)
        state.rateLimit = nil
        continue
      case .secondary(let retryAfter):
        secondaryHits += 1
        let base = retryAfter ?? 60
        let seconds = base * Double(1 << min(secondaryHits - 1, 16))
        guard secondaryHits < configuration.maxAttempts,
          seconds <= configuration.rateLimitWaitBound
        else { throw GitHubError.secondaryRateLimited(retryAfter: seconds) }
        onEvent?(.waitingForSecondaryRateLimit(seconds: seconds))
        try await sleeper.sleep(seconds: seconds)
        continue
      case nil:
        break
      }

      if (500...599).contains(response.status) {
        failures += 1
        let message = errorMessage(in: response)
        guard failures < configuration.maxAttempts else {
          throw GitHubError.serverError(status: response.status, message: message)
        }
        try await backoff(afterFailure: failures, reason: "GitHub answered \(response.status)")
        continue
      }
      return response
    }
  }

  /// One request plus its redirects (301, 302, 303, 307, 308), at most `maxRedirects`.
  func sendFollowingRedirects(_ url: URL, etag: String?) async throws -> HTTPResponse {
    var current = url
    var redirects = 0
    while true {
      guard configuration.isAllowedTarget(current) else {
        throw GitHubError.invalidResponse(
          "refusing a non-https URL on a non-loopback host (\(current.host ?? "?"))")
      }
      let response = try await transport.send(request(for: current, etag: etag))
      guard [301, 302, 303, 307, 308].contains(response.status) else { return response }
      redirects += 1
      guard redirects <= Self.maxRedirects else {
        throw GitHubError.tooManyRedirects(Self.maxRedirects)
      }
      guard let location = response.headers["location"],
        let target = URL(string: location, relativeTo: current)?.absoluteURL,
        target.host != nil
      else { throw GitHubError.invalidResponse("a redirect without a usable Location header") }
      current = target
    }
  }

  /// The request for `url`: fixed headers, plus the token only on the configured origin.
  func request(for url: URL, etag: String?) -> HTTPRequest {
    var headers = HTTPHeaders()
    headers.add(name: "User-Agent", value: configuration.userAgent)
    headers.add(name: "Accept", value: "application/vnd.github+json")
    headers.add(name: "X-GitHub-Api-Version", value: configuration.apiVersion)
    if let token = configuration.token, configuration.isSameOrigin(url) {
      headers.add(name: "Authorization", value: "Bearer \(token)")
    }
    if let etag { headers.add(name: "If-None-Match", value: etag) }
    return HTTPRequest(method: "GET", url: url, headers: headers)
  }

  /// When the last response said the window is used up, wait for its reset (or give up)
  /// instead of spending a request on a certain 403.
  func waitIfKnownToBeLimited() async throws {
    guard let limit = state.rateLimit, limit.remaining == 0,
      limit.resource == nil || limit.resource == "core"
    else { return }
    let seconds = limit.reset.timeIntervalSince(now()) + 1
    guard seconds > 0 else { return }
    guard seconds <= configuration.rateLimitWaitBound else {
      throw GitHubError.rateLimited(resetAt: limit.reset)
    }
    onEvent?(.waitingForRateLimitReset(seconds: seconds, resetAt: limit.reset))
    try await sleeper.sleep(seconds: seconds)
    state.rateLimit = nil
  }

  func backoff(afterFailure failures: Int, reason: String) async throws {
    let seconds = configuration.retryBaseDelay * Double(1 << min(failures - 1, 16))
    onEvent?(.retrying(attempt: failures + 1, afterSeconds: seconds, reason: reason))
    try await sleeper.sleep(seconds: seconds)
  }

  // MARK: - Helpers

  /// The error for a final non-success response that the endpoint has no special meaning for.
  func failure(for response: HTTPResponse) -> GitHubError {
    let message = errorMessage(in: response)
    switch response.status {
    case 401: return .unauthorized
    case 403: return .forbidden(message: message)
    default: return .unexpectedStatus(response.status, message: message)
    }
  }

  /// The JSON body's `message`, on one line, shortened, with the token redacted; nil for
  /// non-JSON bodies such as a proxy's HTML error page.
  func errorMessage(in response: HTTPResponse) -> String? {
    guard let body = try? JSONDecoder().decode(ErrorBodyDTO.self, from: response.body),
      let message = body.message
    else { return nil }
    let oneLine = message.split(whereSeparator: \.isNewline).joined(separator: " ")
      .trimmingASCIIWhitespace()
    guard !oneLine.isEmpty else { return nil }
    let short = oneLine.count > 200 ? String(oneLine.prefix(200)) + "…" : oneLine
    return redact(short)
  }

  /// Replaces the token wherever it appears, so no message can leak it.
  func redact(_ text: String) -> String {
    guard let token = configuration.token, !token.isEmpty else { return text }
    return text.replacing(token, with: "[redacted]")
  }

  /// Decodes a JSON body. A body whose text is not valid Unicode (a lone UTF-16 surrogate such
  /// as `"\ud800"` in a commit message, bytes that are not UTF-8) is decoded again with that
  /// text replaced by U+FFFD, so one bad message never costs the rest of its page.
  func decode<T: Decodable>(_ type: T.Type, from response: HTTPResponse, what: String) throws -> T {
    do {
      return try JSONDecoder().decode(type, from: response.body)
    } catch {
      if let repaired = LenientJSON.repaired(response.body),
        let value = try? JSONDecoder().decode(type, from: repaired)
      {
        return value
      }
      throw GitHubError.invalidResponse(
        "\(what) is not the JSON expected (\(Self.summary(of: error)))")
    }
  }

  static func summary(of error: any Error) -> String {
    guard let error = error as? DecodingError else { return "unreadable" }
    switch error {
    case .dataCorrupted(let context), .keyNotFound(_, let context),
      .typeMismatch(_, let context), .valueNotFound(_, let context):
      let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
        .joined(separator: ".")
      return path.isEmpty ? "malformed JSON" : "bad value at \(path)"
    @unknown default:
      return "unreadable"
    }
  }

  func url(path: String, query: [(String, String)] = []) throws -> URL {
    var text = configuration.baseURL.absoluteString + path
    if !query.isEmpty {
      text +=
        "?"
        + query.map { "\(Self.queryEscape($0.0))=\(Self.queryEscape($0.1))" }
        .joined(separator: "&")
    }
    guard let url = URL(string: text) else { throw GitHubError.invalidBaseURL(text) }
    return url
  }

  static func queryEscape(_ text: String) -> String {
    escape(text, keeping: ",")
  }

  static func pathSegment(_ text: String) -> String {
    escape(text, keeping: "")
  }

  private static func escape(_ text: String, keeping extra: String) -> String {
    var result = ""
    for byte in text.utf8 {
      let scalar = Unicode.Scalar(byte)
      if (byte < 0x80
        && (scalar.properties.isASCIIHexDigit || Character(scalar).isLetter
          || Character(scalar).isNumber))
        || "-._~".unicodeScalars.contains(scalar)
        || extra.unicodeScalars.contains(scalar)
      {
        result.unicodeScalars.append(scalar)
      } else {
        result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
      }
    }
    return result
  }
}

// MARK: - Listing values

/// What to list with `GitHubClient.commits(_:onPage:)`.
public struct CommitQuery: Hashable, Sendable {
  /// The repository to list.
  public var repository: RepositoryName
  /// A GitHub login or e-mail; only commits by that author are listed. Nil lists everyone's.
  public var author: String?
  /// Only commits committed at or after this instant (GitHub filters on the committer date).
  public var since: Date?
  /// Only commits committed before this instant.
  public var until: Date?
  /// The ETag returned by the last complete listing of this same query, or nil.
  public var etag: String?

  /// Creates a query.
  public init(
    repository: RepositoryName, author: String? = nil, since: Date? = nil, until: Date? = nil,
    etag: String? = nil
  ) {
    self.repository = repository
    self.author = author
    self.since = since
    self.until = until
    self.etag = etag
  }
}

/// One page of a commit listing, handed to the caller as soon as it arrives.
public struct CommitPage: Hashable, Sendable {
  /// The page's position in the listing, from 1.
  public var number: Int
  /// The page's commits, in GitHub's order (newest first).
  public var commits: [GitHubCommit]

  /// Creates a page.
  public init(number: Int, commits: [GitHubCommit]) {
    self.number = number
    self.commits = commits
  }
}

/// How a commit listing ended.
public enum CommitListingOutcome: Hashable, Sendable {
  /// GitHub answered 304 to the stored ETag: nothing new since the last listing.
  case notModified
  /// The repository has no commits at all (GitHub answers 409 "Git Repository is empty.").
  case emptyRepository
  /// Every page was delivered. `etag` is the first page's new ETag (store it for next time).
  case fetched(etag: String?, pages: Int, commits: Int)

  /// The ETag to store after this listing, when there is a new one.
  public var etag: String? {
    if case .fetched(let etag, _, _) = self { return etag }
    return nil
  }
}

// MARK: - Rate-limit classification

/// Which kind of rate limit a response signals, if any.
enum RateLimitKind: Equatable {
  /// `x-ratelimit-remaining: 0` on a 403/429: wait for `x-ratelimit-reset`.
  case primary(resetAt: Date)
  /// `Retry-After`, or a "secondary rate limit" / abuse message, on a 403/429.
  case secondary(retryAfter: TimeInterval?)

  init?(_ response: HTTPResponse, now: Date) {
    guard response.status == 403 || response.status == 429 else { return nil }
    let headers = response.headers
    if headers["x-ratelimit-remaining"]?.trimmingASCIIWhitespace() == "0" {
      let reset = headers["x-ratelimit-reset"].flatMap { Double($0.trimmingASCIIWhitespace()) }
      self = .primary(resetAt: reset.map(Date.init(timeIntervalSince1970:)) ?? now + 60)
      return
    }
    if let retryAfter = headers["retry-after"] {
      self = .secondary(retryAfter: Self.seconds(retryAfter: retryAfter, now: now))
      return
    }
    let body = try? JSONDecoder().decode(ErrorBodyDTO.self, from: response.body)
    let message = body?.message?.lowercased() ?? ""
    let documentation = body?.documentationURL?.lowercased() ?? ""
    if message.contains("secondary rate limit") || message.contains("abuse detection")
      || documentation.hasSuffix("secondary-rate-limits")
      || documentation.hasSuffix("#abuse-rate-limits")
    {
      self = .secondary(retryAfter: nil)
      return
    }
    if response.status == 429 {  // Too Many Requests without details: a secondary limit
      self = .secondary(retryAfter: nil)
      return
    }
    return nil
  }

  /// `Retry-After` as seconds: a number, or an HTTP-date; nil when unreadable.
  static func seconds(retryAfter: String, now: Date) -> TimeInterval? {
    let text = retryAfter.trimmingASCIIWhitespace()
    if let seconds = Double(text), seconds >= 0 { return seconds }
    guard let date = HTTPDate.parse(text) else { return nil }
    return max(0, date.timeIntervalSince(now))
  }
}

/// Parses the IMF-fixdate form of HTTP dates: `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
  static func parse(_ text: String) -> Date? {
    let parts = text.split(separator: " ")
    guard parts.count == 6, parts[5] == "GMT",
      let day = Int(parts[1]), let year = Int(parts[3])
    else { return nil }
    let months = [
      "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    guard let monthIndex = months.firstIndex(of: parts[2].lowercased()),
      (1...31).contains(day), (1...9999).contains(year)
    else { return nil }
    let time = parts[4].split(separator: ":").compactMap { Int($0) }
    // A server's header must never overflow the arithmetic below.
    guard time.count == 3, (0...23).contains(time[0]), (0...59).contains(time[1]),
      (0...60).contains(time[2])
    else { return nil }
    guard let date = Day(year: year, month: monthIndex + 1, day: day) else { return nil }
    let seconds = date.ordinal * 86_400 + time[0] * 3600 + time[1] * 60 + time[2]
    return Date(timeIntervalSince1970: Double(seconds))
  }
}

// MARK: - Shared mutable state

/// The little state a client shares across copies: the last seen rate limit.
final class SharedState: @unchecked Sendable {
  private let queue = DispatchQueue(label: "ootd.GitHubClient.state")
  private var storedRateLimit: RateLimitStatus?

  var rateLimit: RateLimitStatus? {
    get { queue.sync { storedRateLimit } }
    set { queue.sync { storedRateLimit = newValue } }
  }
}
