import Core
import Foundation
import Testing

/// The listing protocol as a table: stored state + what the sync wants → the next request, and
/// state + outcome → the next state.
@Suite struct ListingStateTests {
  static let day: TimeInterval = 86_400
  /// 2024-01-01T00:00:00Z, a UTC day start.
  static let t0 = Date(timeIntervalSince1970: 1_704_067_200)
  static func d(_ days: Double) -> Date { t0.addingTimeInterval(days * day) }
  static let now = d(400)

  struct Row: CustomTestStringConvertible, Sendable {
    var name: String
    var state: ListingState
    var since: Date
    var pushedAt: Date?
    var plan: ListingState.Plan
    var testDescription: String { name }
  }

  static let complete = ListingState(
    windowStart: d(0), newest: d(380.5), etag: "\"e\"", etagSince: d(366), pushedAt: d(390))

  static let rows: [Row] = [
    Row(
      name: "never listed: the whole window, no ETag", state: ListingState(), since: d(0),
      plan: .list(since: d(0), etag: nil)),
    Row(
      name: "complete, pushed_at unchanged: no request", state: complete, since: d(35),
      pushedAt: d(390), plan: .skip),
    Row(
      name: "complete, pushed_at older than known (a listing lags): no request", state: complete,
      since: d(35), pushedAt: d(389), plan: .skip),
    Row(
      name: "complete, pushed since: from the day two weeks before the newest, with its ETag",
      state: complete, since: d(35), pushedAt: d(395), plan: .list(since: d(366), etag: "\"e\"")),
    Row(
      name: "complete, push unknown: a conditional listing", state: complete, since: d(35),
      pushedAt: nil, plan: .list(since: d(366), etag: "\"e\"")),
    Row(
      name: "a wider window than ever listed: from its start, whatever the push",
      state: complete, since: d(-100), pushedAt: d(390), plan: .list(since: d(-100), etag: nil)),
    Row(
      name: "an interrupted listing: finished from where it started",
      state: ListingState(windowStart: d(0), newest: d(100), pendingSince: d(86), pendingPages: 3),
      since: d(35), pushedAt: d(390), plan: .list(since: d(86), etag: nil)),
    Row(
      name: "an interrupted first listing of a wider window (sync --since): its start, or wider",
      state: ListingState(pendingSince: d(-3000), pendingPages: 2), since: d(35),
      plan: .list(since: d(-3000), etag: nil)),
    Row(
      name: "an interrupted listing when asked for more: the wider window",
      state: ListingState(windowStart: d(0), pendingSince: d(0), pendingPages: 1),
      since: d(-50), plan: .list(since: d(-50), etag: nil)),
    Row(
      name: "complete but no commit: the window start, ETag of that query",
      state: ListingState(windowStart: d(0), etag: "\"z\"", etagSince: d(0)), since: d(35),
      plan: .list(since: d(0), etag: "\"z\"")),
  ]

  @Test(arguments: rows)
  func plan(_ row: Row) {
    #expect(row.state.plan(since: row.since, pushedAt: row.pushedAt, now: Self.now) == row.plan)
  }

  @Test(arguments: [
    (nil as Double?, 0.0),  // nothing stored yet: the whole window
    (1.0, 0.0),  // newest inside the first two weeks: clamped to the window
    (14.0, 0.0),
    (30.5, 16.0),  // otherwise the start of the UTC day two weeks before the newest commit
    (365.0, 351.0),
    (900.0, 386.0),  // a commit dated in the future (skewed clock): two weeks before now
  ])
  func incrementalStart(newestDays: Double?, expectedDays: Double) {
    let start = ListingState.incrementalStart(
      after: newestDays.map(Self.d), windowStart: Self.d(0), now: Self.now)
    #expect(start == Self.d(expectedDays))
  }

  @Test func pages_thenCompletion_moveTheWatermarkOnlyAtTheEnd() {
    var state = ListingState()
    state = state.pageStored(newest: Self.d(50), since: Self.d(0))
    state = state.pageStored(newest: Self.d(40), since: Self.d(0))
    #expect(state.isPending && state.pendingPages == 2 && state.pendingNewest == Self.d(50))
    #expect(state.newest == nil && state.windowStart == nil)
    state = state.completed(since: Self.d(0), result: .complete(etag: "\"a\""), pushedAt: Self.d(51))
    #expect(
      state
        == ListingState(
          windowStart: Self.d(0), newest: Self.d(50), etag: "\"a\"", etagSince: Self.d(0),
          pushedAt: Self.d(51)))
    // A 304 keeps the ETag and the query it belongs to; the push it was planned for is kept.
    let again = state.completed(since: Self.d(36), result: .notModified, pushedAt: Self.d(60))
    #expect(again.etag == "\"a\"" && again.etagSince == Self.d(0) && again.pushedAt == Self.d(60))
    #expect(again.windowStart == Self.d(0))
    // An empty repository completes without an ETag: the old one stays with its query.
    let empty = ListingState().completed(since: Self.d(5), result: .complete(etag: nil), pushedAt: nil)
    #expect(empty.windowStart == Self.d(5) && empty.etag == nil && empty.newest == nil)
  }

  @Test func encodedText_roundTrips_andOldRowsDecode() {
    let state = ListingState(
      windowStart: Self.d(0), newest: Self.d(2), etag: "W/\"x\"", etagSince: Self.d(1),
      pushedAt: Self.d(3), pendingSince: Self.d(1), pendingPages: 4, pendingNewest: Self.d(2))
    #expect(ListingState(encoded: state.encoded) == state)
    // What migration v9 writes from an old row: nulls and whole seconds.
    let migrated = ListingState(
      encoded: #"{"windowStart":1704067200,"newest":null,"etag":null,"etagSince":null,"pendingSince":null,"pendingPages":0,"pendingNewest":null}"#)
    #expect(migrated == ListingState(windowStart: Self.d(0)))
    #expect(ListingState(encoded: "not json") == nil)
  }

  @Test func discovery_searchesTheWholeWindowFirst_thenOnlyTheDaysSince() {
    let first = DiscoveryState()
    #expect(first.searchWindow(since: Self.d(0), now: Self.now) == (Self.d(0), Self.now))
    let searched = DiscoveryState(searchedFrom: Self.d(0), searchedThrough: Self.d(390))
    #expect(searched.searchWindow(since: Self.d(35), now: Self.now) == (Self.d(387), Self.now))
    #expect(searched.searchWindow(since: Self.d(-10), now: Self.now) == (Self.d(-10), Self.now))
    // A sync asked for more and did not finish: the next plain sync covers it.
    #expect(DiscoveryState(wantedSince: Self.d(-3000)).effectiveSince(Self.d(35)) == Self.d(-3000))
    #expect(DiscoveryState().effectiveSince(Self.d(35)) == Self.d(35))
  }
}
