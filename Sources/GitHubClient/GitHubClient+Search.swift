import HTTP
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

/// What to do with a search once its first page gave `total_count` and `incomplete_results`.
public enum SearchDecision: Hashable, Sendable {
  /// The first page is enough.
  case enough
  /// Stop: the window must be split.
  case split
  /// Read every page (at most the 1,000 results search returns).
  case readAll
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
  /// - Parameter decide: told the first page's `total_count` and `incomplete_results`; says
  ///   whether that page is enough, the window must be split (one request spent), or every
  ///   page is read.
  /// - Throws: `GitHubError.searchUnavailable` for a 404 (no search API, as on some GitHub
  ///   Enterprise servers), `.unexpectedStatus(422, ...)` for a query GitHub refuses, and the
  ///   other `GitHubError` cases.
  nonisolated(nonsending)
  public func searchCommits(
    author login: String, from: String, to: String,
    decide: (_ totalCount: Int, _ incomplete: Bool) async throws -> SearchDecision
  ) async throws -> CommitSearchOutcome {
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
        var decision = SearchDecision.readAll
        if number == 1 {
          findings.totalCount = page.totalCount
          decision = try await decide(page.totalCount, page.incompleteResults == true)
          if decision == .split {
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
        if decision == .enough { throw StopPaging() }
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
