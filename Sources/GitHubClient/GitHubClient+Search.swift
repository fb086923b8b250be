import Core

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What one search window found: the repositories holding results, with how many each.
public struct SearchFindings: Hashable, Sendable {
  /// `total_count` of the search.
  public var totalCount: Int
  /// True when GitHub said the search timed out (`incomplete_results: true`).
  public var incomplete: Bool
  /// Results per repository.
  public var hits: [RepositoryName: Int]
  /// The repository objects search results carried (fork, Pages, last push), by name.
  public var repositories: [RepositoryName: GitHubRepository]
  /// Pages fetched.
  public var pages: Int

  /// Creates findings.
  public init(
    totalCount: Int = 0, incomplete: Bool = false, hits: [RepositoryName: Int] = [:],
    repositories: [RepositoryName: GitHubRepository] = [:], pages: Int = 0
  ) {
    self.totalCount = totalCount
    self.incomplete = incomplete
    self.hits = hits
    self.repositories = repositories
    self.pages = pages
  }
}

/// How a commit search of one window ended.
public enum CommitSearchOutcome: Hashable, Sendable {
  /// More results than search can return (1,000), or a timed-out search: split the window.
  case split(totalCount: Int, incomplete: Bool)
  /// Every result was read (or, for a window that cannot be split, as many as search returns).
  case found(SearchFindings)
}

extension GitHubClient {
  /// The most results a search returns, whatever its `total_count`.
  public static let searchResultCap = 1000

  /// Searches commits authored by `login` on the days `from` through `to` (`YYYY-MM-DD`):
  /// `GET /search/commits?q=author:LOGIN+author-date:FROM..TO&per_page=100`, following `Link`.
  ///
  /// - Parameter splittable: when true, a first page whose `total_count` is over the cap or
  ///   whose results are incomplete ends the search with ``CommitSearchOutcome/split(totalCount:incomplete:)``
  ///   (one request); when false (a single day), as many results as search returns are read.
  /// - Throws: `GitHubError.searchUnavailable` for a 404 (no search API, as on some GitHub
  ///   Enterprise servers), `.unexpectedStatus(422, ...)` for a query GitHub refuses, and the
  ///   other `GitHubError` cases.
  public func searchCommits(author login: String, from: String, to: String, splittable: Bool)
    async throws -> CommitSearchOutcome
  {
    let first = try url(
      path: "/search/commits",
      rawQuery: "q=author:\(Self.queryEscape(login))+author-date:\(from)..\(to)&per_page=100")
    var findings = SearchFindings()
    var split: CommitSearchOutcome?
    _ = try await forEachPage(
      from: first, etag: nil,
      onFailure: { response, _ in throw searchFailure(response) },
      onPage: { response, number in
        let page = try decode(
          SearchDTO<SearchCommitDTO>.self, from: response, what: "search results page \(number)")
        if number == 1 {
          findings.totalCount = page.totalCount
          if splittable && (page.totalCount > Self.searchResultCap || page.incompleteResults == true)
          {
            split = .split(totalCount: page.totalCount, incomplete: page.incompleteResults == true)
            throw StopPaging()
          }
        }
        findings.incomplete = findings.incomplete || page.incompleteResults == true
        findings.pages = number
        for item in page.items {
          guard let dto = item.repository, let repository = try? dto.toCore() else { continue }
          findings.hits[repository.fullName, default: 0] += 1
          findings.repositories[repository.fullName] = repository
        }
      })
    return split ?? .found(findings)
  }

  /// Searches the merged pull requests `login` opened:
  /// `GET /search/issues?q=author:LOGIN+type:pr+is:merged+merged:FROM..TO&per_page=100`.
  ///
  /// - Returns: the repositories of those pull requests, with how many each.
  public func searchMergedPullRequests(author login: String, from: String, to: String)
    async throws -> SearchFindings
  {
    let first = try url(
      path: "/search/issues",
      rawQuery:
        "q=author:\(Self.queryEscape(login))+type:pr+is:merged+merged:\(from)..\(to)&per_page=100")
    var findings = SearchFindings()
    _ = try await forEachPage(
      from: first, etag: nil,
      onFailure: { response, _ in throw searchFailure(response) },
      onPage: { response, number in
        let page = try decode(
          SearchDTO<SearchIssueDTO>.self, from: response, what: "search results page \(number)")
        findings.totalCount = page.totalCount
        findings.incomplete = findings.incomplete || page.incompleteResults == true
        findings.pages = number
        for item in page.items {
          guard let text = item.repositoryURL, let url = URL(string: text) else { continue }
          let parts = url.path.split(separator: "/")
          guard parts.count >= 2,
            let name = RepositoryName(
              owner: String(parts[parts.count - 2]), name: String(parts[parts.count - 1]))
          else { continue }
          findings.hits[name, default: 0] += 1
        }
      })
    return findings
  }

  func searchFailure(_ response: HTTPResponse) -> GitHubError {
    if response.status == 404 { return .searchUnavailable }
    return failure(for: response)
  }
}
