import Core
import GitHubClient
import Zone

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Fetches a user's commits from GitHub into a ``CommitStore``, repository by repository.
///
/// First it discovers repositories the listing does not show (public repositories the user
/// committed to or had pull requests merged into, through GitHub's search), then lists each
/// repository's default branch, and `gh-pages` for repositories with GitHub Pages. Each listing
/// follows `Core.ListingState`: where it starts, which ETag it sends, whether it is needed at all
/// (a repository whose `pushed_at` has not moved is skipped without a request). Every page is
/// stored with the listing's new state in one transaction, so a sync killed at any moment loses
/// nothing and the next one finishes the job, including the window an interrupted
/// `sync --since` asked for.
public struct CommitSync: Sendable {
  /// The client requests go through.
  public let client: GitHubClient
  /// Where commits and progress are kept.
  public let store: any CommitStore
  /// The sync's clock reading.
  public let now: Date
  /// Told after each page and repository, for the progress line.
  public var onProgress: @Sendable (Progress) -> Void
  /// Told one line for each thing skipped or not available (a 404, no search API).
  public var onWarning: @Sendable (String) -> Void

  /// Creates a sync service.
  public init(
    client: GitHubClient, store: any CommitStore, now: Date,
    onProgress: @escaping @Sendable (Progress) -> Void = { _ in },
    onWarning: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.client = client
    self.store = store
    self.now = now
    self.onProgress = onProgress
    self.onWarning = onWarning
  }

  /// A repository to sync and what its listing said about it (nil: ask GitHub once).
  public struct Target: Hashable, Sendable {
    /// The repository.
    public var name: RepositoryName
    /// The repository object of the listing (or search) that named it, with its last push.
    public var repository: GitHubRepository?
    /// How it was found: `listing`, `project`, `--repo`, `search`, `pull request`.
    public var foundBy: String

    /// Creates a target.
    public init(name: RepositoryName, repository: GitHubRepository? = nil, foundBy: String) {
      self.name = name
      self.repository = repository
      self.foundBy = foundBy
    }
  }

  /// How far a sync has come.
  public struct Progress: Hashable, Sendable {
    public var repositoriesDone = 0
    public var repositoriesTotal = 0
    public var pages = 0
    public var commitsFound = 0
    public var newCommits = 0
    public var requestsLeft: Int?
    public var searching = false
    public init() {}
  }

  /// What a sync did.
  public struct Summary: Hashable, Sendable {
    public var login: String
    public var repositories = 0
    public var skipped: [RepositoryName] = []
    public var unchanged = 0
    public var discovered: [RepositoryName] = []
    public var searches = 0
    public var commitsFound = 0
    public var newCommits = 0
    public var requestsLeft: Int?
    public var requestLimit: Int?
    public init(login: String) { self.login = login }
  }

  /// A sync that stopped on a GitHub error, with how much it had stored.
  public struct Stopped: Error {
    public var error: GitHubError
    public var summary: Summary
  }

  /// Remembers that a full sync of `login` was asked to cover commits from `since` (or further
  /// back, when an earlier one asked for more and did not complete), until a sync completes: a
  /// plain sync after an interrupted `sync --since` covers the older window in every
  /// repository, even those never started. The CLI calls it before its first request, so a
  /// sync stopped at any point is remembered; ``run(login:targets:since:discover:)`` again.
  @discardableResult
  public static func remember(since requested: Date, login: String, in store: some CommitStore) throws
    -> DiscoveryState
  {
    var discovery = try store.discoveryState(author: login)
    discovery.wantedSince = discovery.effectiveSince(requested)
    try store.saveDiscoveryState(discovery, author: login)
    return discovery
  }

  /// The login a window is remembered under (``remember(since:login:in:)``) before the sync
  /// knows whose commits it fetches (its first request asks GitHub for the token's owner): no
  /// GitHub login is empty.
  public static let ownerNotKnown = ""

  /// Moves a window remembered under `placeholder` to `login`, once the sync knows it.
  public static func adoptWindow(of placeholder: String, for login: String, in store: some CommitStore) throws {
    guard let wanted = try store.discoveryState(author: placeholder).wantedSince else { return }
    try remember(since: wanted, login: login, in: store)
    try store.saveDiscoveryState(DiscoveryState(), author: placeholder)
  }

  /// Syncs `targets` (and, with `discover`, the repositories search finds) for `login`:
  /// commits authored by `login` from `since` on, or from further back when an earlier sync
  /// asked for more and did not complete.
  ///
  /// - Throws: ``Stopped`` for a GitHub error that ends the sync (401, rate limit beyond the
  ///   wait bound, repeated server errors); the store's error for a database failure.
  public func run(login: String, targets: [Target], since requested: Date, discover: Bool)
    async throws -> Summary
  {
    var summary = Summary(login: login)
    var discovery = try store.discoveryState(author: login)
    let since = discovery.effectiveSince(requested)
    if discover { discovery = try Self.remember(since: since, login: login, in: store) }

    // Each repository once: the listing's and projects' first, then those earlier searches
    // found (they stay in every sync, whatever today's search finds).
    var seen = Set<String>()
    var all = targets.filter { seen.insert($0.name.description.lowercased()).inserted }
    if discover {
      all += try store.discoveredRepositories(author: login)
        .filter { seen.insert($0.description.lowercased()).inserted }
        .map { Target(name: $0, foundBy: "search") }
    }
    var progress = Progress()
    progress.repositoriesTotal = all.count
    let cachedBefore = try store.commitCount()
    try await sync(all, login: login, since: since, progress: &progress, summary: &summary,
      cachedBefore: cachedBefore)

    if discover {
      // Search after listing: a window whose results the stored commits already account for
      // needs no more than its first page.
      do {
        let window = discovery.searchWindow(since: since, now: now)
        let (targets, stopped) = try await self.discover(login: login, window: window, summary: &summary)
        let found = targets.filter { seen.insert($0.name.description.lowercased()).inserted }
        if stopped == nil {
          discovery.searchedFrom = min(discovery.searchedFrom ?? window.from, window.from)
          discovery.searchedThrough = now
          try store.saveDiscoveryState(discovery, author: login)
        }
        summary.discovered = found.map(\.name)
        progress.repositoriesTotal += found.count
        // What the commit search found is listed even when the pull-request search stopped
        // (its window is searched again by the next sync).
        try await sync(found, login: login, since: since, progress: &progress, summary: &summary,
          cachedBefore: cachedBefore)
        if let stopped { throw stopped }
      } catch let error as GitHubError {
        if case .unauthorized = error { throw Stopped(error: error, summary: summary) }
        onWarning("warning: \(Self.searchWarning(error)); synced the other repositories")
      }
    }
    if discover {
      discovery.wantedSince = nil  // the whole window is covered
      try store.saveDiscoveryState(discovery, author: login)
    }
    summary.commitsFound = progress.commitsFound
    summary.newCommits = progress.newCommits
    fillRateLimit(&summary)
    return summary
  }

  /// Syncs each target in turn, skipping (with a warning) those GitHub says are missing.
  private func sync(
    _ targets: [Target], login: String, since: Date, progress: inout Progress,
    summary: inout Summary, cachedBefore: Int
  ) async throws {
    for target in targets {
      do {
        let unchanged = try await sync(target, login: login, since: since, progress: &progress)
        summary.repositories += 1
        if unchanged { summary.unchanged += 1 }
      } catch let error as GitHubError {
        if case .notFound = error {
          try store.recordListingError(
            error.description, listing: ListingKey(repository: target.name, author: login))
          summary.skipped.append(target.name)
          onWarning(
            "warning: skipping \(target.name): not found, or the token cannot see it (404)")
        } else {
          try? store.recordListingError(
            error.description, listing: ListingKey(repository: target.name, author: login))
          summary.commitsFound = progress.commitsFound
          // Pages of the interrupted listing are stored too: count what the store gained.
          summary.newCommits = ((try? store.commitCount()) ?? cachedBefore) - cachedBefore
          fillRateLimit(&summary)
          throw Stopped(error: error, summary: summary)
        }
      }
      progress.repositoriesDone += 1
      progress.requestsLeft = client.lastRateLimit(for: "core")?.remaining
      onProgress(progress)
    }
  }

  static func searchWarning(_ error: GitHubError) -> String {
    switch error {
    case .searchUnavailable:
      return "this GitHub server has no search API (404): repositories outside your listing are not found"
    case .unexpectedStatus(422, let message):
      return "GitHub refused the search (422\(message.map { ": \($0)" } ?? ""))"
    default:
      return "the repository search stopped (\(error.description))"
    }
  }

  private func fillRateLimit(_ summary: inout Summary) {
    let core = client.lastRateLimit(for: "core")
    summary.requestsLeft = core?.remaining
    summary.requestLimit = core?.limit
  }

  // MARK: - Discovery

  /// Searches commits (in windows under the 1,000-result cap) and merged pull requests of
  /// `login` in `window`, and returns the repositories they are in.
  ///
  /// A window's first page gives its `total_count`: when the commits already stored from
  /// repositories that are not forks account for it, the window holds no repository the sync
  /// does not know, and it is not read further. Else a window over the cap (or a timed-out one)
  /// is halved, and one under it is read to its end. The window is whole UTC days (search
  /// dates are UTC); a `since` inside a UTC day starts it the next day, as the listing never
  /// covered the hours before.
  /// Returns the repositories found, and the error that stopped the pull-request search (the
  /// commit search's finds stand; the caller must not count the window as searched).
  func discover(login: String, window: (from: Date, to: Date), summary: inout Summary)
    async throws -> (targets: [Target], stopped: GitHubError?)
  {
    let startDay = Day(window.from, in: Self.utc)
    let first = startDay.start(in: Self.utc) < window.from ? startDay.adding(days: 1) : startDay
    let last = Day(window.to, in: Self.utc)
    guard first <= last else { return ([], nil) }
    var hits: [RepositoryName: Int] = [:]
    var repositories: [RepositoryName: GitHubRepository] = [:]
    var pending: [(Day, Day)] = [(first, last)]
    var progress = Progress()
    progress.searching = true
    var stopped: GitHubError?
    while let (from, to) = pending.popLast() {
      let outcome: CommitSearchOutcome
      do {
        outcome = try await client.searchCommits(
          author: login, from: from.description, to: to.description
        ) { total, incomplete in
          let stored = try store.searchableCommitCount(
            author: login, from: from.start(in: Self.utc), to: to.adding(days: 1).start(in: Self.utc))
          if !incomplete && total <= stored { return .enough }
          return from < to && (incomplete || total > GitHubClient.searchResultCap) ? .split : .readAll
        }
      } catch let error as GitHubError {
        // A search that stops (its rate limit beyond the wait bound, a refusal) keeps what the
        // windows before it found.
        if case .unauthorized = error { throw error }
        stopped = error
        break
      }
      summary.searches += 1
      switch outcome {
      case .split:
        // Too many results for one search (or a timed-out one): halve the window.
        let middle = from.adding(days: (to.ordinal - from.ordinal) / 2)
        pending.append((middle.adding(days: 1), to))
        pending.append((from, middle))
      case .found(let findings):
        summary.searches += max(0, findings.pages - 1)
        for (name, count) in findings.hits { hits[name, default: 0] += count }
        repositories.merge(findings.repositories) { $1 }
        if findings.incomplete {
          onWarning("warning: GitHub's search timed out for \(from); some repositories may be missing")
        }
      }
      progress.pages = summary.searches
      onProgress(progress)
    }
    try store.recordSearchHits(hits, author: login)
    var targets = hits.keys.sorted().map {
      Target(name: $0, repository: repositories[$0], foundBy: "search")
    }
    if let stopped { return (targets, stopped) }
    let pulls: SearchFindings
    do {
      pulls = try await client.searchMergedPullRequests(
        author: login, from: first.description, to: last.description)
    } catch let error as GitHubError {
      if case .unauthorized = error { throw error }
      return (targets, error)
    }
    summary.searches += max(1, pulls.pages)
    // A project where a pull request of the user was merged meets GitHub's rule that the user
    // opened an issue or pull request there; one only the commit search found may not.
    for index in targets.indices where pulls.hits[targets[index].name] != nil {
      targets[index].foundBy = Self.foundByPullRequest
    }
    var pullHits: [RepositoryName: Int] = [:]
    for name in pulls.hits.keys.sorted() where hits[name] == nil {
      targets.append(Target(name: name, foundBy: Self.foundByPullRequest))
      pullHits[name] = 0
    }
    try store.recordSearchHits(pullHits, author: login)
    return (targets, nil)
  }

  static let utc = ZoneInfo.utc

  /// How a repository holding a merged pull request of the user was found.
  public static let foundByPullRequest = "pull request"

  /// How `target` was found, as remembered: the first way, except that a merged pull request
  /// found later says more (GitHub counts the user's commits there).
  static func foundBy(_ known: KnownRepository?, _ target: Target) -> String {
    target.foundBy == foundByPullRequest ? target.foundBy : known?.foundBy ?? target.foundBy
  }

  // MARK: - One repository

  /// Lists one repository's default branch (and `gh-pages` when it has Pages); true when no
  /// listing found anything changed.
  private func sync(
    _ target: Target, login: String, since: Date, progress: inout Progress
  ) async throws -> Bool {
    let info = try await repositoryInfo(target)
    var unchanged = true
    for branch in info.hasPages ? [nil, "gh-pages"] : [String?.none] {
      let key = ListingKey(repository: target.name, author: login, branch: branch)
      do {
        unchanged = try await list(key, pushedAt: info.pushedAt, since: since, progress: &progress)
          && unchanged
      } catch GitHubError.notFound(_) where branch != nil {
        // A Pages site built from another branch: there is no gh-pages to list.
        try store.saveCompletedListing(
          key,
          state: (try store.listingState(key) ?? ListingState()).completed(
            since: since, result: .complete(etag: nil), pushedAt: info.pushedAt),
          syncedAt: now)
      }
    }
    return unchanged
  }

  /// What the listing said about the repository, else what GitHub says now (one conditional
  /// request, answered 304 when nothing changed), remembered in the store.
  private func repositoryInfo(_ target: Target) async throws -> KnownRepository {
    let known = try store.knownRepository(target.name)
    if let repository = target.repository, repository.pushedAt != nil || known == nil {
      let info = KnownRepository(
        name: target.name, isFork: repository.isFork, hasPages: repository.hasPages,
        pushedAt: repository.pushedAt, etag: known?.etag, foundBy: Self.foundBy(known, target))
      if info != known { try store.saveRepository(info) }
      return info
    }
    guard let answer = try await client.repository(target.name, etag: known?.etag) else {
      // 304: as it was, but for a merged pull request found since
      var info = known!
      info.foundBy = Self.foundBy(known, target)
      if info != known { try store.saveRepository(info) }
      return info
    }
    let info = KnownRepository(
      name: target.name, isFork: answer.repository.isFork, hasPages: answer.repository.hasPages,
      pushedAt: answer.repository.pushedAt, etag: answer.etag, foundBy: Self.foundBy(known, target))
    try store.saveRepository(info)
    return info
  }

  /// One listing as its state plans it; true when it was skipped or answered 304.
  private func list(
    _ key: ListingKey, pushedAt: Date?, since: Date, progress: inout Progress
  ) async throws -> Bool {
    var state = try store.listingState(key) ?? ListingState()
    guard case .list(let start, let etag) = state.plan(since: since, pushedAt: pushedAt, now: now)
    else {
      try store.saveCompletedListing(key, state: state, syncedAt: now)  // checked: unchanged
      return true
    }
    var pageProgress = progress
    let outcome = try await client.commits(
      CommitQuery(
        repository: key.repository, author: key.author, since: start, etag: etag,
        branch: key.branch)
    ) { page in
      state = state.pageStored(newest: page.commits.map(\.authorDate).max(), since: start)
      let new = try store.storeCommits(page.commits, listing: key, state: state)
      pageProgress.pages += 1
      pageProgress.commitsFound += page.commits.count
      pageProgress.newCommits += new
      pageProgress.requestsLeft = client.lastRateLimit(for: "core")?.remaining
      onProgress(pageProgress)
    }
    progress = pageProgress
    let result: ListingState.Result
    switch outcome {
    case .notModified: result = .notModified
    case .emptyRepository: result = .complete(etag: nil)
    case .fetched(let etag, _, _): result = .complete(etag: etag)
    }
    state = state.completed(since: start, result: result, pushedAt: pushedAt)
    try store.saveCompletedListing(key, state: state, syncedAt: now)
    return outcome == .notModified
  }
}
