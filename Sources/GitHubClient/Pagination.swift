import HTTP
import Core
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension GitHubClient {
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
      do {
        try await onPage(response, pages)
      } catch is StopPaging {
        return .finished(etag: firstETag, pages: pages)
      }
      next = try nextPage(of: response)
    }
    return .finished(etag: firstETag, pages: pages)
  }

  /// Thrown by an `onPage` that has seen enough: the listing ends there, as if it were the last
  /// page.
  struct StopPaging: Error {}

  func nextPage(of response: HTTPResponse) throws -> URL? {
    let links = LinkHeader(response.headers.values(for: "link"))
    guard let target = links.target(for: "next") else { return nil }
    guard let url = URL(string: target), url.scheme != nil, url.host != nil else {
      throw GitHubError.invalidResponse("the next-page link is not an absolute URL")
    }
    return url
  }
}
