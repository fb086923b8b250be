import HTTP
import Core
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension GitHubClient {
  // MARK: - Endpoints

  /// The login of the token's owner (`GET /user`).
  ///
  /// - Throws: `GitHubError.unauthorized` for a bad, expired or missing token, or any other
  ///   `GitHubError`.
  public func authenticatedUser() async throws -> String {
    try await tokenOwner().login
  }

  /// The token's owner (`GET /user`) and the token's OAuth scopes (`X-OAuth-Scopes`; nil when
  /// GitHub sends none, as for fine-grained tokens).
  public func tokenOwner() async throws -> (login: String, scopes: [String]?) {
    let response = try await perform(url(path: "/user"))
    guard response.status == 200 else { throw failure(for: response) }
    let scopes = response.headers["x-oauth-scopes"].map {
      $0.split(separator: ",").map { $0.trimmingASCIIWhitespace() }.filter { !$0.isEmpty }
    }
    return (try decode(UserDTO.self, from: response, what: "the user").login, scopes)
  }

  /// The e-mail addresses linked to the token's owner (`GET /user/emails`), verified or not.
  ///
  /// - Returns: nil when the token may not read them (404 or 403: the `user:email` scope, or
  ///   "Email addresses: read" for a fine-grained token, is missing).
  public func linkedEmails() async throws -> [String]? {
    let response = try await perform(url(path: "/user/emails", query: [("per_page", "100")]))
    if [403, 404].contains(response.status) { return nil }
    guard response.status == 200 else { throw failure(for: response) }
    return try decode([EmailDTO].self, from: response, what: "the e-mails").map(\.email)
  }

  /// One repository (`GET /repos/{owner}/{repo}`), conditional on the ETag of the last answer.
  ///
  /// - Returns: nil when GitHub answers 304 to `etag` (nothing changed), else the repository
  ///   and its new ETag.
  /// - Throws: `GitHubError.notFound` (skip it), or any other `GitHubError`.
  public func repository(_ name: RepositoryName, etag: String?) async throws
    -> (repository: GitHubRepository, etag: String?)?
  {
    let response = try await perform(
      url(path: "/repos/\(Self.pathSegment(name.owner))/\(Self.pathSegment(name.name))"),
      etag: etag)
    if response.status == 304, etag != nil { return nil }
    if response.status == 404 { throw GitHubError.notFound(name) }
    guard response.status == 200 else { throw failure(for: response) }
    let repository = try decode(RepositoryDTO.self, from: response, what: "repository \(name)")
    return (try repository.toCore(), response.headers["etag"])
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
  public func repositories(
    for login: String, authenticatedAsLogin: Bool, pushedSince: Date? = nil
  ) async throws -> [GitHubRepository] {
    // Newest push first: once a page ends with a repository not pushed since `pushedSince`,
    // every later one is older still, and the caller knows them from earlier syncs.
    let sorted = [("sort", "pushed"), ("direction", "desc"), ("per_page", "100")]
    let first =
      authenticatedAsLogin
      ? try url(
        path: "/user/repos",
        query: [("affiliation", "owner,collaborator,organization_member")] + sorted)
      : try url(path: "/users/\(Self.pathSegment(login))/repos", query: sorted)
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
        if let pushedSince, let oldest = repositories.last?.pushedAt, oldest < pushedSince {
          throw StopPaging()
        }
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
    if let since = query.since { items.append(("since", Timestamp.string(since, .iso8601))) }
    if let until = query.until { items.append(("until", Timestamp.string(until, .iso8601))) }
    if let branch = query.branch { items.append(("sha", branch)) }
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
        case 422 where query.branch != nil && number == 1: return  // no such branch
        default: throw failure(for: response)
        }
      },
      onPage: { response, number in
        let dtos = try decode([CommitDTO].self, from: response, what: "commits page \(number)")
        let commits = try dtos.map { try $0.toCore(source: .gitHub(repository)) }
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
}
