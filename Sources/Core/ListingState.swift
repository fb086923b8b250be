#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where the commit listing of one repository branch stands for one author: the whole listing
/// protocol as a pure value. ``plan(since:pushedAt:now:)`` says which request comes next (or
/// that none is needed), ``pageStored(newest:since:)`` and ``completed(since:result:pushedAt:now:)``
/// give the state after each outcome. Storage keeps it as opaque text (``encoded`` /
/// ``init(encoded:)``); GitHubClient only sends the requests.
///
/// A first listing covers the wanted window; later ones start ``overlap`` before the newest
/// stored author date (GitHub's `since` is a committer date: a branch merged today brings
/// commits committed days ago), at the start of that UTC day so that the same query, and its
/// ETag, serve every sync of the day. A repository whose `pushed_at` has not moved since the
/// last complete listing is not listed at all. A listing's pages are stored with `pending`
/// progress and the starting point only moves once it completes, so a sync killed at any moment
/// loses nothing and the next one finishes the job.
public struct ListingState: Hashable, Sendable, Codable {
  /// The earliest `since` a complete listing covered, or nil before the first one completed.
  public var windowStart: Date?
  /// The newest author date among the commits of complete listings.
  public var newest: Date?
  /// The ETag of the first page of the last complete listing, and the `since` it belongs to.
  public var etag: String?
  public var etagSince: Date?
  /// The repository's `pushed_at` when the last complete listing started, if known.
  public var pushedAt: Date?
  /// An unfinished listing: where it started, pages stored, and the newest author date seen.
  public var pendingSince: Date?
  public var pendingPages: Int
  public var pendingNewest: Date?

  /// How far before the newest stored commit a later listing starts.
  public static let overlap: TimeInterval = 14 * 86_400

  /// Creates a state (the empty state: never listed).
  public init(
    windowStart: Date? = nil, newest: Date? = nil, etag: String? = nil, etagSince: Date? = nil,
    pushedAt: Date? = nil, pendingSince: Date? = nil, pendingPages: Int = 0,
    pendingNewest: Date? = nil
  ) {
    self.windowStart = windowStart
    self.newest = newest
    self.etag = etag
    self.etagSince = etagSince
    self.pushedAt = pushedAt
    self.pendingSince = pendingSince
    self.pendingPages = pendingPages
    self.pendingNewest = pendingNewest
  }

  /// What to do next for this branch.
  public enum Plan: Hashable, Sendable {
    /// Nothing changed since the last complete listing: no request.
    case skip
    /// List commits committed from `since` on, sending `etag` as `If-None-Match` when given.
    case list(since: Date, etag: String?)
  }

  /// How a listing ended.
  public enum Result: Hashable, Sendable {
    /// 304 to the ETag: nothing new.
    case notModified
    /// Every page arrived (or the repository is empty); `etag` is the first page's, if any.
    case complete(etag: String?)
  }

  /// True while a listing has stored pages but not completed.
  public var isPending: Bool { pendingPages > 0 && pendingSince != nil }

  /// The next request, for a sync that wants commits from `since` on; `pushedAt` is the
  /// repository's last push as the repository listing reports it (nil when unknown).
  public func plan(since: Date, pushedAt: Date?, now: Date) -> Plan {
    let widening = windowStart.map { since < $0 } ?? true
    if isPending, let pendingSince {
      // Finish the interrupted listing from where it started (its stored pages are skipped by
      // SHA), or from earlier when the wanted window reaches further back than ever covered.
      let start = widening ? min(pendingSince, since) : pendingSince
      return .list(since: start, etag: nil)
    }
    guard let windowStart, !widening else {
      return .list(since: since, etag: etagSince == since ? etag : nil)
    }
    if let pushedAt, let known = self.pushedAt, pushedAt <= known { return .skip }
    let start = Self.incrementalStart(after: newest, windowStart: windowStart, now: now)
    return .list(since: start, etag: etagSince == start ? etag : nil)
  }

  /// The state after a page whose newest author date is `newest` was stored, for a listing
  /// that started at `since`.
  public func pageStored(newest pageNewest: Date?, since: Date) -> ListingState {
    var next = self
    next.pendingSince = since
    next.pendingPages += 1
    if let pageNewest, pageNewest > (pendingNewest ?? .distantPast) { next.pendingNewest = pageNewest }
    return next
  }

  /// The state after the listing from `since` ended with `result`; `pushedAt` is the push the
  /// plan was made for (nil keeps the one known).
  public func completed(since: Date, result: Result, pushedAt: Date?) -> ListingState {
    var next = self
    next.windowStart = min(windowStart ?? since, since)
    if let pendingNewest, pendingNewest > (newest ?? .distantPast) { next.newest = pendingNewest }
    if case .complete(let etag?) = result {
      next.etag = etag
      next.etagSince = since
    }
    if let pushedAt { next.pushedAt = pushedAt }
    next.pendingSince = nil
    next.pendingPages = 0
    next.pendingNewest = nil
    return next
  }

  /// Where an incremental listing starts: ``overlap`` before the newest stored commit (or
  /// before now, when a skewed clock dated a commit in the future), at the start of that UTC
  /// day, never before the window already listed.
  public static func incrementalStart(after newest: Date?, windowStart: Date, now: Date) -> Date {
    guard let newest else { return windowStart }
    let back = min(newest, now).addingTimeInterval(-overlap).timeIntervalSince1970
    let day = (back / 86_400).rounded(.down) * 86_400
    return max(windowStart, Date(timeIntervalSince1970: day))
  }

  // MARK: - Opaque text

  /// The state as text for storage (JSON with whole seconds since 1970).
  public var encoded: String {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    encoder.outputFormatting = .sortedKeys
    let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
    return String(decoding: data, as: UTF8.self)
  }

  /// Reads ``encoded`` text; nil when it is not a state.
  public init?(encoded: String) {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    guard let value = try? decoder.decode(ListingState.self, from: Data(encoded.utf8)) else {
      return nil
    }
    self = value
  }

  enum CodingKeys: String, CodingKey {
    case windowStart, newest, etag, etagSince, pushedAt, pendingSince, pendingPages, pendingNewest
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    windowStart = try c.decodeIfPresent(Date.self, forKey: .windowStart)
    newest = try c.decodeIfPresent(Date.self, forKey: .newest)
    etag = try c.decodeIfPresent(String.self, forKey: .etag)
    etagSince = try c.decodeIfPresent(Date.self, forKey: .etagSince)
    pushedAt = try c.decodeIfPresent(Date.self, forKey: .pushedAt)
    pendingSince = try c.decodeIfPresent(Date.self, forKey: .pendingSince)
    pendingPages = try c.decodeIfPresent(Int.self, forKey: .pendingPages) ?? 0
    pendingNewest = try c.decodeIfPresent(Date.self, forKey: .pendingNewest)
  }
}

/// Which listing a ``ListingState`` belongs to: a repository's branch, for an author.
public struct ListingKey: Hashable, Sendable, CustomStringConvertible {
  /// The repository listed.
  public var repository: RepositoryName
  /// The author the listing is filtered by (a login).
  public var author: String
  /// The branch listed, or nil for the default branch.
  public var branch: String?

  /// Creates a key.
  public init(repository: RepositoryName, author: String, branch: String? = nil) {
    self.repository = repository
    self.author = author
    self.branch = branch
  }

  /// `owner/name` or `owner/name@gh-pages`.
  public var description: String {
    repository.description + (branch.map { "@\($0)" } ?? "")
  }
}
