import Core
import Foundation
import GitHubClient
import Storage

/// Fetches a user's commits from GitHub into the database, repository by repository.
///
/// A repository's first listing covers `since` (a year by default); later ones start
/// ``overlap`` before the newest author date stored for it (GitHub's `since` is a committer date,
/// and a branch merged today brings commits committed days ago: without the overlap they would
/// never be listed) and send the ETag of the previous listing of the same query,
/// so an unchanged repository costs one conditional request (which GitHub does not count).
/// After a listing that moved the newest date, one more listing from the new date fetches the
/// ETag the next sync will send. Every page is stored with the listing's progress in one
/// transaction, and the starting point only moves once a listing completes, so a sync killed at
/// any moment loses nothing and the next one finishes the job.
struct CommitSync {
  let client: GitHubClient
  let database: AppDatabase
  let now: Date
  /// Told after each page and repository, for the progress line.
  var onProgress: (Progress) -> Void = { _ in }
  /// Told about repositories skipped with a warning (404).
  var onWarning: (String) -> Void = { _ in }

  /// How far a sync has come.
  struct Progress {
    var repositoriesDone = 0
    var repositoriesTotal = 0
    var commitsFound = 0
    var newCommits = 0
    var requestsLeft: Int?
  }

  /// What a sync did.
  struct Summary {
    var login: String
    var repositories = 0
    var skipped: [RepositoryName] = []
    var unchanged = 0
    var commitsFound = 0
    var newCommits = 0
    var requestsLeft: Int?
    var requestLimit: Int?
  }

  /// A sync that stopped on a GitHub error, with how much it had stored.
  struct Stopped: Error {
    var error: GitHubError
    var summary: Summary
  }

  /// The most listings of one repository in one sync (the main one, then the ETag refresh).
  static let maxListingsPerRepository = 3

  /// How far before the newest stored commit a later listing starts. Commits listed again are
  /// skipped by SHA, and an unchanged repository still answers the same query with a 304.
  static let overlap: TimeInterval = 14 * 86_400

  /// Syncs `repositories` for `login`: commits authored by `login`, from `since` on.
  ///
  /// - Throws: ``Stopped`` for a GitHub error that ends the sync (401, rate limit beyond the
  ///   wait bound, repeated server errors); ``StorageError`` for a database failure.
  func run(login: String, repositories: [RepositoryName], since: Date, sinceIsExplicit: Bool)
    async throws -> Summary
  {
    var summary = Summary(login: login)
    var progress = Progress(repositoriesTotal: repositories.count)
    let cachedBefore = try database.commitCount()
    for repository in repositories {
      do {
        let unchanged = try await sync(
          repository, login: login, since: since, sinceIsExplicit: sinceIsExplicit,
          progress: &progress)
        summary.repositories += 1
        if unchanged { summary.unchanged += 1 }
      } catch let error as GitHubError {
        if case .notFound = error {
          try database.recordSyncError(error.description, repository: repository, author: login)
          summary.skipped.append(repository)
          onWarning(
            "warning: skipping \(repository): not found, or the token cannot see it (404)")
        } else {
          try? database.recordSyncError(error.description, repository: repository, author: login)
          summary.commitsFound = progress.commitsFound
          // Pages of the interrupted listing are stored too: count what the database gained.
          summary.newCommits = ((try? database.commitCount()) ?? cachedBefore) - cachedBefore
          fillRateLimit(&summary)
          throw Stopped(error: error, summary: summary)
        }
      }
      progress.repositoriesDone += 1
      progress.requestsLeft = client.lastRateLimit?.remaining
      onProgress(progress)
    }
    summary.commitsFound = progress.commitsFound
    summary.newCommits = progress.newCommits
    fillRateLimit(&summary)
    return summary
  }

  private func fillRateLimit(_ summary: inout Summary) {
    summary.requestsLeft = client.lastRateLimit?.remaining
    summary.requestLimit = client.lastRateLimit?.limit
  }

  /// Lists one repository until its newest stored date is stable; true when it was unchanged.
  private func sync(
    _ repository: RepositoryName, login: String, since: Date, sinceIsExplicit: Bool,
    progress: inout Progress
  ) async throws -> Bool {
    let state = try database.syncState(of: repository, author: login)
    var querySince: Date
    if let pending = state?.pendingSince, state?.pendingPages ?? 0 > 0 {
      // A listing was interrupted: list again from where it started (or earlier if asked);
      // the pages it stored are skipped by SHA.
      querySince = sinceIsExplicit ? min(since, pending) : pending
    } else if let state, let windowStart = state.windowStart,
      !(sinceIsExplicit && since < windowStart)
    {
      querySince = Self.start(after: state.newestAuthoredAt, windowStart: windowStart, now: now)  // incremental
    } else {
      querySince = since  // first listing, or a wider window than ever listed
    }
    var etag = state?.etagSince == querySince ? state?.etag : nil
    var unchanged = false
    for _ in 0..<Self.maxListingsPerRepository {
      var pageProgress = progress
      let outcome = try await client.commits(
        CommitQuery(repository: repository, author: login, since: querySince, etag: etag)
      ) { page in
        let new = try database.storeCommitPage(
          page.commits, of: repository, author: login, since: querySince)
        pageProgress.commitsFound += page.commits.count
        pageProgress.newCommits += new
        pageProgress.requestsLeft = client.lastRateLimit?.remaining
        onProgress(pageProgress)
      }
      progress = pageProgress
      try database.finishListing(
        of: repository, author: login, since: querySince, etag: outcome.etag, now: now)
      guard case .fetched = outcome else {
        unchanged = outcome == .notModified
        break
      }
      let state = try database.syncState(of: repository, author: login)
      guard let windowStart = state?.windowStart else { break }
      let next = Self.start(after: state?.newestAuthoredAt, windowStart: windowStart, now: now)
      guard next != querySince else { break }
      // The starting point moved: list once more from it, for the ETag the next sync sends.
      querySince = next
      etag = nil
    }
    return unchanged
  }

  /// Where an incremental listing starts: ``overlap`` before the newest stored commit (or
  /// before now, when a skewed clock dated a commit in the future), never before the window
  /// already listed.
  static func start(after newest: Date?, windowStart: Date, now: Date) -> Date {
    guard let newest else { return windowStart }
    return max(windowStart, min(newest, now).addingTimeInterval(-overlap))
  }
}
