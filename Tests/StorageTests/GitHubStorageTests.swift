import Core
import Foundation
import GRDB
import TestTags
import Testing

@testable import Storage

/// A database in a temporary folder, removed with the value.
final class TemporaryDatabase {
  let folder: String
  let database: AppDatabase

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/ootd-storage-tests-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    folder = String(cString: try #require(made))
    database = try AppDatabase.open(path: folder + "/ootd.sqlite")
  }

  deinit { try? FileManager.default.removeItem(atPath: folder) }
}

let grdbRepo = RepositoryName("groue/GRDB.swift")!
let forkRepo = RepositoryName("someone/GRDB.swift")!

func instant(_ text: String) -> Date {
  ISO8601DateFormatter().date(from: text)!
}

func commit(
  _ sha: String, _ authored: String, repository: RepositoryName = grdbRepo,
  login: String? = "gr", email: String = "gr@pierlis.com", parents: Int = 1
) -> Commit {
  Commit(
    sha: String(repeating: sha, count: 40 / sha.count), source: .gitHub(repository),
    authorLogin: login, authorName: "Gwendal", authorEmail: email,
    authorDate: instant(authored), committerDate: instant(authored), subject: "s \(sha)",
    htmlURL: nil, parentCount: parents)
}

func range(_ from: String, _ to: String) throws -> DayRange {
  try DayRange(from: #require(Day(iso: from)), to: #require(Day(iso: to)))
}

extension GitHubCache {
  /// Stores a page of `repository`'s listing from `since` the way the sync does: the commits
  /// with the listing's next state, in one transaction.
  @discardableResult
  func storeCommitPage(
    _ commits: [Commit], of repository: RepositoryName, author: String, since: Date?
  ) throws -> Int {
    let key = ListingKey(repository: repository, author: author)
    let state = (try listingState(key) ?? ListingState()).pageStored(
      newest: commits.map(\.authorDate).max(), since: since ?? Date(timeIntervalSince1970: 0))
    return try storeCommits(commits, listing: key, state: state)
  }

  /// The same range counted through each filtered path, for cross-checks.
  func calendarTotals(_ days: DayRange, _ zone: TimeZone) throws
    -> (repositoryFilter: [Int], authorFilter: [Int], perRepository: Int?)
  {
    (
      try commitCalendar(days, timeZone: zone, filter: CommitFilter(repository: grdbRepo)).counts,
      try commitCalendar(days, timeZone: zone, filter: CommitFilter(author: "gr")).counts,
      try commitsByRepository(days, timeZone: zone).first?.commits
    )
  }
}

@Suite struct GitHubStorageTests {
  @Test func storingAPageTwice_neverDuplicates() throws {
    // Given
    let temporary = try TemporaryDatabase()
    let db = temporary.database
    let page = [commit("a", "2026-01-01T10:00:00Z"), commit("b", "2026-01-02T10:00:00Z")]
    // When
    let first = try db.gitHub.storeCommitPage(page, of: grdbRepo, author: "gr", since: nil)
    let second = try db.gitHub.storeCommitPage(page, of: grdbRepo, author: "gr", since: nil)
    // Then
    #expect(first == 2)
    #expect(second == 0)
    #expect(try db.gitHub.commitCount() == 2)
  }

  @Test func forkSharingHistory_countsEachSHAOnce_butInBothRepositories() throws {
    let temporary = try TemporaryDatabase()
    let db = temporary.database
    try db.gitHub.storeCommitPage(
      [commit("a", "2026-01-01T10:00:00Z"), commit("b", "2026-01-01T11:00:00Z")],
      of: grdbRepo, author: "gr", since: nil)
    try db.gitHub.storeCommitPage(
      [
        commit("a", "2026-01-01T10:00:00Z", repository: forkRepo),
        commit("c", "2026-01-01T12:00:00Z", repository: forkRepo),
      ],
      of: forkRepo, author: "gr", since: nil)
    let utc = TimeZone(identifier: "UTC")!
    let all = try db.gitHub.commitCalendar(range("2026-01-01", "2026-01-01"), timeZone: utc)
    #expect(all.counts == [3])
    let fork = try db.gitHub.commitCalendar(
      range("2026-01-01", "2026-01-01"), timeZone: utc, filter: CommitFilter(repository: forkRepo))
    #expect(fork.counts == [2])
    let byRepo = try db.gitHub.commitsByRepository(range("2026-01-01", "2026-01-01"), timeZone: utc)
    #expect(byRepo.map(\.commits) == [2, 2])
  }

  @Test func authorFilter_matchesLoginOrEmail_ignoringCase() throws {
    let temporary = try TemporaryDatabase()
    let db = temporary.database
    try db.gitHub.storeCommitPage(
      [
        commit("a", "2026-01-01T10:00:00Z"),
        commit("b", "2026-01-01T11:00:00Z", login: nil, email: "GR@pierlis.com"),
        commit("c", "2026-01-01T12:00:00Z", login: "other", email: "o@x.org"),
      ], of: grdbRepo, author: "gr", since: nil)
    let utc = TimeZone(identifier: "UTC")!
    let days = try range("2026-01-01", "2026-01-01")
    #expect(
      try db.gitHub.commitCalendar(days, timeZone: utc, filter: CommitFilter(author: "GR")).total == 1)
    #expect(
      try db.gitHub.commitCalendar(days, timeZone: utc, filter: CommitFilter(author: "gr@pierlis.com"))
        .total == 2)
    #expect(try db.gitHub.commitCalendar(days, timeZone: utc).total == 3)
  }

  /// Zones with 45-minute offsets and with daylight-saving changes inside the range.
  @Test(.tags(.slow), arguments: [
    "Asia/Kathmandu", "America/New_York", "Europe/Paris", "Asia/Seoul", "UTC",
    "Australia/Lord_Howe", "Pacific/Chatham",
  ])
  func calendar_bucketsByAuthorDateInZone_likeANaiveComputation(zoneName: String) throws {
    // Given: a commit every 29-37 minutes over 2026-03-06 ... 2026-04-07 (US and EU DST changes)
    let zone = try #require(TimeZone(identifier: zoneName))
    let temporary = try TemporaryDatabase()
    let db = temporary.database
    var commits: [Commit] = []
    var t = instant("2026-03-06T00:00:00Z")
    var n = 0
    while t < instant("2026-04-08T00:00:00Z") {
      n += 1
      commits.append(
        Commit(
          sha: String(format: "%040x", n), source: .gitHub(grdbRepo), authorLogin: "gr",
          authorName: "G", authorEmail: "gr@pierlis.com", authorDate: t, committerDate: t,
          subject: "x", htmlURL: nil, parentCount: 1))
      t += 1753 + Double(n % 5) * 120
    }
    try db.gitHub.storeCommitPage(commits, of: grdbRepo, author: "gr", since: nil)
    let days = try range("2026-03-07", "2026-04-06")
    // When
    let calendar = try db.gitHub.commitCalendar(days, timeZone: zone)
    // Then: the same as bucketing each instant with Foundation's Calendar in that zone
    var gregorian = Calendar(identifier: .gregorian)
    gregorian.timeZone = zone
    var naive: [Day: Int] = [:]
    for commit in commits {
      let c = gregorian.dateComponents([.year, .month, .day], from: commit.authorDate)
      let day = try #require(Day(year: c.year!, month: c.month!, day: c.day!))
      if days.contains(day) { naive[day, default: 0] += 1 }
    }
    #expect(calendar.counts == days.map { naive[$0] ?? 0 })
    // The filtered paths (read commit by commit) and the per-repository totals (whole UTC days
    // plus partial edge days) agree with the slot totals.
    let byRepository = try db.gitHub.calendarTotals(days, zone)
    #expect(byRepository.repositoryFilter == calendar.counts)
    #expect(byRepository.authorFilter == calendar.counts)
    #expect(byRepository.perRepository == calendar.total)
  }

  @Test func calendar_kathmandu_putsCommitsOnEitherSideOfLocalMidnight() throws {
    // 18:14:59 UTC is 23:59:59 in Kathmandu (+05:45); 18:15 UTC is midnight of the next day.
    let temporary = try TemporaryDatabase()
    let db = temporary.database
    try db.gitHub.storeCommitPage(
      [commit("a", "2026-05-01T18:14:59Z"), commit("b", "2026-05-01T18:15:00Z")],
      of: grdbRepo, author: "gr", since: nil)
    let calendar = try db.gitHub.commitCalendar(
      range("2026-05-01", "2026-05-02"), timeZone: TimeZone(identifier: "Asia/Kathmandu")!)
    #expect(calendar.counts == [1, 1])
  }

  @Test func calendar_newYorkSpringForwardDay_has23Hours() throws {
    // 2026-03-08 in New York runs from 05:00 UTC to 04:00 UTC the next day.
    let temporary = try TemporaryDatabase()
    let db = temporary.database
    try db.gitHub.storeCommitPage(
      [
        commit("a", "2026-03-08T04:59:59Z"), commit("b", "2026-03-08T05:00:00Z"),
        commit("c", "2026-03-09T03:59:59Z"), commit("d", "2026-03-09T04:00:00Z"),
      ], of: grdbRepo, author: "gr", since: nil)
    let calendar = try db.gitHub.commitCalendar(
      range("2026-03-07", "2026-03-09"), timeZone: TimeZone(identifier: "America/New_York")!)
    #expect(calendar.counts == [1, 2, 1])
  }

  @Test func pageAndSyncState_areWrittenInOneTransaction() throws {
    let temporary = try TemporaryDatabase()
    let db = temporary.database
    let since = instant("2025-01-01T00:00:00Z")
    // A page stores the listing's progress with it...
    try db.gitHub.storeCommitPage(
      [commit("a", "2026-01-03T10:00:00Z"), commit("b", "2026-01-02T10:00:00Z")],
      of: grdbRepo, author: "GR", since: since)
    var state = try #require(try db.gitHub.syncState(of: grdbRepo, author: "gr"))
    #expect(state.pendingPages == 1)
    #expect(state.pendingSince == since)
    // ...but the watermark only moves once the listing completes.
    #expect(state.newestAuthoredAt == nil)
    #expect(state.lastSyncAt == nil)
    // A page with an invalid commit (too short a SHA) is rolled back whole, state included.
    var bad = commit("c", "2026-01-05T10:00:00Z")
    bad.sha = "x"
    #expect(throws: StorageError.self) {
      try db.gitHub.storeCommitPage(
        [commit("d", "2026-01-04T10:00:00Z"), bad], of: grdbRepo, author: "gr", since: since)
    }
    #expect(try db.gitHub.commitCount() == 2)
    state = try #require(try db.gitHub.syncState(of: grdbRepo, author: "gr"))
    #expect(state.pendingPages == 1)
    // Completing the listing moves the watermark and keeps the ETag.
    let now = instant("2026-02-01T00:00:00Z")
    let key = ListingKey(repository: grdbRepo, author: "gr")
    try db.gitHub.saveCompletedListing(
      key,
      state: try #require(try db.gitHub.listingState(key)).completed(
        since: since, result: .complete(etag: "\"e1\""), pushedAt: nil),
      syncedAt: now)
    state = try #require(try db.gitHub.syncState(of: grdbRepo, author: "gr"))
    #expect(state.newestAuthoredAt == instant("2026-01-03T10:00:00Z"))
    #expect(state.etag == "\"e1\"")
    #expect(state.listing.etagSince == since)
    #expect(state.windowStart == since)
    #expect(state.lastSyncAt == now)
    #expect(state.pendingPages == 0)
    #expect(try db.gitHub.lastCommitSync() == now)
  }

  @Test func commitsFoundOnlyInAFork_areLeftOut_unlessForksAreIncluded() throws {
    // Given: upstream holds a and b; a fork (marked "fork": true) holds a and its own c
    let temporary = try TemporaryDatabase()
    let db = temporary.database
    try db.gitHub.saveRepository(
      KnownRepository(name: forkRepo, isFork: true, hasPages: false, pushedAt: nil, foundBy: "listing"))
    try db.gitHub.storeCommitPage(
      [
        commit("a", "2026-01-01T10:00:00Z", repository: forkRepo),
        commit("c", "2026-01-01T12:00:00Z", repository: forkRepo),
      ],
      of: forkRepo, author: "gr", since: nil)
    let utc = TimeZone(identifier: "UTC")!
    let day = try range("2026-01-01", "2026-01-01")
    #expect(try db.gitHub.commitCalendar(day, timeZone: utc).counts == [0])
    // When upstream lists a, it counts; c (only in the fork) still does not
    try db.gitHub.storeCommitPage(
      [commit("a", "2026-01-01T10:00:00Z"), commit("b", "2026-01-01T11:00:00Z")],
      of: grdbRepo, author: "gr", since: nil)
    // Then: every path agrees
    #expect(try db.gitHub.commitCalendar(day, timeZone: utc).counts == [2])
    #expect(try db.gitHub.commitCalendar(day, timeZone: utc, filter: CommitFilter(author: "gr")).counts == [2])
    #expect(
      try db.gitHub.commitCalendar(day, timeZone: utc, filter: CommitFilter(repository: forkRepo)).counts
        == [1])
    #expect(
      try db.gitHub.commitCalendar(day, timeZone: utc, filter: CommitFilter(includeForks: true)).counts
        == [3])
    let byRepo = try db.gitHub.commitsByRepository(day, timeZone: utc)
    #expect(Dictionary(uniqueKeysWithValues: byRepo.map { ($0.repository, $0.commits) })
      == [grdbRepo.description: 2, forkRepo.description: 1])
    // And when the repository turns out not to be a fork after all, c counts too
    try db.gitHub.saveRepository(
      KnownRepository(name: forkRepo, isFork: false, hasPages: false, pushedAt: nil, foundBy: "listing"))
    #expect(try db.gitHub.commitCalendar(day, timeZone: utc).counts == [3])
  }

  @Test func settings_roundTrip() throws {
    let temporary = try TemporaryDatabase()
    let db = temporary.database
    #expect(try db.settings.gitHubSetting(.login) == nil)
    try db.settings.setGitHubSetting(.login, to: "gr")
    try db.settings.setGitHubSetting(.login, to: "groue")
    #expect(try db.settings.gitHubSetting(.login) == "groue")
    try db.settings.setGitHubSetting(.login, to: nil)
    #expect(try db.settings.gitHubSetting(.login) == nil)
  }
}
