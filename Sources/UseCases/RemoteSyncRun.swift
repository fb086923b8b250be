import Core
import Foundation
import Zone

/// One `ootd remote sync`: pull what other machines pushed, push this machine's changes, then
/// publish the day figures the team board shows. It knows the two sides only through Core's
/// ``SyncJournal`` and ``SyncServer`` (and the figures through ``DayFigureSource``): no SQL, no
/// PostgreSQL, no environment; the CLI hands it the database, the server, the clock and where
/// its test fault points are (`reached`).
///
/// Each step is safe to stop at any moment (a lost connection, `kill -9`): a pulled page is
/// applied and the pull cursor moved in one local transaction; a pushed page is marked pushed
/// in a local transaction after the server took it, and pushing it again (when the process died
/// in between) is deduplicated by the server on the record ids. Nothing local is lost and the
/// next sync completes without duplicates.
public struct RemoteSyncRun {
  public let journal: any SyncJournal
  public let server: any SyncServer
  public let figures: any DayFigureSource
  /// The instant the sync runs at, its day and the user's zone.
  public let now: Date
  public let today: Day
  public let timeZone: any ZoneRules
  /// The database file's identity (device and inode numbers), nil when unknown: a copy has
  /// another, and so gets its own device id.
  public let fileIdentity: String?
  /// The name teammates see (`remote set --name`), nil for the role name.
  public let displayName: String?
  /// Called at each named step (the CLI's test fault points; nothing in a release build).
  public let reached: (String) -> Void
  /// This machine's running wall clock (the system's, whatever `now` is pinned to in a test),
  /// read around the server's to measure the skew; nil: the skew is not measured.
  public var physicalClock: (() -> Date)?
  /// Whether to push even when the clocks disagree by more than ``refusedSkewSeconds``.
  public var ignoreClockSkew = false
  /// Records a pull asks for at a time, each page committed alone (nil: ``pullPage``, commits
  /// every ``firstPullCommitBytes``, then more): a test's seam (`OOTD_PULL_PAGE`, debug
  /// builds), for a commit to fall between any two records.
  public var pagedBy: Int?
  /// The account the sync reaches (nil: the one the database synced with before): a database
  /// that synced with another starts over, a first sync.
  public var account: SyncAccount?

  public init(
    journal: any SyncJournal, server: any SyncServer, figures: any DayFigureSource, now: Date,
    today: Day, timeZone: any ZoneRules, fileIdentity: String?, displayName: String?,
    reached: @escaping (String) -> Void = { _ in }
  ) {
    self.journal = journal
    self.server = server
    self.figures = figures
    self.now = now
    self.today = today
    self.timeZone = timeZone
    self.fileIdentity = fileIdentity
    self.displayName = displayName
    self.reached = reached
  }

  /// How many records one pull asks for.
  public static let pullPage = 500
  /// The bytes of pulled records applied here in one local transaction (with the pull cursor):
  /// a few of the server's pages. A pull stopped part-way keeps what it committed (a first pull
  /// of 20,000 todos is ~11 MB: three commits), and each commit writes again the pages of the
  /// indexes its rows fell into (twelve commits of 1 MB wrote 38,000 pages for 11 MB of records).
  public static let pullCommitBytes = 4 << 20
  /// The bytes of the first commit of a pull (then twice as many each, up to
  /// ``pullCommitBytes``).
  public static let firstPullCommitBytes = 1 << 20
  /// The recent days whose figures a sync keeps published even without todos (a zero there is
  /// a true zero, and says commits were counted); before them, every day with todos or commits.
  public static let figureDays = 35
  /// How far back a sync looks for days with todos to publish.
  public static let historyDays = 100 * 366
  /// How far back it counts commits (GitHub's contribution history is a year; each day of the
  /// range costs a zone conversion).
  public static let commitDays = 2 * 366
  /// A skew past which a sync warns (issue 24): the hybrid clock's own tolerance.
  public static let warnedSkewSeconds = Double(HybridClock.maxLeadMilliseconds) / 1000
  /// A skew past which a sync pulls but does not push: a change stamped an hour off would win
  /// or lose against other machines' changes by the clock instead of by time, and a day
  /// computed from it may be another day.
  public static let refusedSkewSeconds: Double = 3600

  public struct Summary: Sendable {
    public var pushed = 0
    public var pushedRecords = 0
    public var pulled = 0
    public var pulledRecords = 0
    public var changed = 0
    public var conflicts: [SyncConflictReport] = []
    /// Todos the merge left breaking a rule, mended by the fixed resolution (``TodoRules``).
    public var ruleConflicts: [String] = []
    public var device = ""
    /// The device id this database had before it found itself a copy of another file.
    public var copiedFrom: String?
    /// The account (its name) the database synced with before, when it was another: this sync
    /// was a first sync there.
    public var previousAccount: String?
    /// Rows pulled from the server and set aside instead of applied.
    public var setAside: [SetAsideRow] = []
    /// Rows an earlier sync set aside that the server no longer holds (its owner deleted
    /// them), forgotten here by this sync.
    public var forgottenSetAside: [Int64] = []
    /// Todos whose number changed here.
    public var renumbered: [SyncRenumbering] = []
    /// How far this machine's clock is ahead of the server's, in seconds (negative: behind),
    /// half the round trip compensated; 0 when not measured.
    public var clockSkewSeconds: Double = 0
    /// Whether the push was refused for the skew (``refusedSkewSeconds``) or for changes made
    /// while the clock was wrong (``misstamped``): pulled, nothing pushed.
    public var pushRefused = false
    /// The changes waiting here made while this machine's clock was wrong, when they refused the push.
    public var misstamped: MisstampedChanges?
    /// Journal entries pushed (one a command, as `remote status` counts them).
    public var pushedChanges = 0
    /// Of ``pushedChanges`` and ``pushed``, a sync's own settling (``SyncPushPage/settled``).
    public var pushedSettled = 0
    public var pushedSettledOperations = 0
    /// The bytes of the rows pulled from the server (payloads, ids, clocks).
    public var pulledBytes = 0
    /// Days whose figures were published (those that changed since the last publish).
    public var publishedDays = 0

    public init() {}
  }

  public func run() throws -> Summary {
    var summary = Summary()
    let before = try journal.syncStatus()
    let beginning = try journal.beginSync(fileIdentity: fileIdentity, account: account, now: now)
    summary.device = beginning.device
    summary.previousAccount = beginning.previousAccount
    if before.deviceAssigned && summary.device != before.device {
      summary.copiedFrom = before.device
    }
    // One round trip: the device registered, the server's clock and the first page after
    // where the last pull stopped (read once: the pull goes on from it).
    var cursor = try journal.pullCursor()
    let limit = pagedBy ?? Self.pullPage
    let opening = try server.openSync(
      device: summary.device, after: cursor, limit: limit, clock: physicalClock)
    let clocks = measureClocks(opening, &summary)
    // Rows set aside before that the server's owner deleted since: forgotten, not listed by
    // `remote status` for ever (a database that starts over with another account has none).
    if summary.previousAccount == nil, !before.setAside.isEmpty {
      let held = try server.heldRecords(before.setAside.map(\.seq))
      summary.forgottenSetAside = before.setAside.map(\.seq).filter { !held.contains($0) }
      if !summary.forgottenSetAside.isEmpty { try journal.forgetSetAside(summary.forgottenSetAside) }
    }
    var first: [(seq: Int64, record: SyncRecord)]? = opening.firstPage
    var drained = false
    // The first commit comes after one page, each next after twice as many bytes up to
    // ``pullCommitBytes``: a pull of a few MB stopped past its half has committed some of it
    // too (1, 3, 7, 11 MB…; with 4 MB from the start, a 5 MB pull stopped at 3 MB kept nothing).
    var commitBytes = Self.firstPullCommitBytes
    // The todos the pulls so far created here: renumbered by a later one, not reported.
    var arrived = Set<String>()
    // Whether the last page applied settled the clashes of numbers: only the pull's last does
    // (one a commit left waits for the records after it, issue 24 §1).
    var settled = false
    func apply(_ pages: [(seq: Int64, record: SyncRecord)], settling: Bool) throws {
      let result = try journal.applyPulled(pages, today: today, now: now, clocks: clocks, settling: settling)
      settled = settling
      summary.pulled += result.operations
      summary.pulledRecords += result.records
      summary.changed += result.changed
      summary.conflicts = SyncConflictReport.combined(summary.conflicts, result.conflicts)
      summary.ruleConflicts += result.ruleConflicts
      summary.setAside += result.setAside
      summary.renumbered = SyncRenumbering.combined(summary.renumbered, result.renumbered, arrived: arrived)
      arrived.formUnion(result.arrived)
    }
    while !drained {
      // Pages of about ``RemoteServer``'s page size are read until ``pullCommitBytes`` or the
      // end, then applied and committed with the cursor at once (issue 24: each commit of a
      // first pull wrote again every page of the uuid indexes its random rows fell into).
      var pages: [(seq: Int64, record: SyncRecord)] = []
      var bytes = 0
      defer { commitBytes = min(commitBytes * 2, Self.pullCommitBytes) }
      while bytes < commitBytes {
        let page = try first ?? server.pull(after: cursor, limit: limit)
        first = nil
        guard let last = page.last else {
          drained = true
          break
        }
        cursor = last.seq
        let read = page.reduce(0) { $0 + $1.record.bytes }
        bytes += read
        summary.pulledBytes += read
        reached("remote-pull-fetched")
        pages += page
        if pagedBy != nil { break }
      }
      // A page may be short for its bytes (the server caps a page's size): read on until empty.
      if pages.isEmpty { break }
      try apply(pages, settling: drained)
      reached("remote-pull-applied")
    }
    // The pull read everything: what a page left waiting (or a sync stopped after one) settles.
    if !settled { try apply([], settling: true) }
    reached("remote-pulled")
    if try refusesPush(clocks, &summary) {
      // Pulled, nothing pushed or published, and not a completed sync: the CLI says how to go on.
      summary.pushRefused = true
      return summary
    }
    var next = try journal.pushPage()
    while let page = next {
      // The server stores this page (sealed on the way, on a thread of its own) while the next
      // one is read and encoded here (issue 24: a first push of 20,000 todos did each in turn).
      // The next page is read as if this one were marked pushed; it is marked once the server
      // took it, as before.
      // Given the pull cursor, the server says whether the page's records are all it holds
      // past it: the cursor then moves past them, and the next sync does not download this
      // machine's own records again (issue 24, session 18).
      let sending = Concurrently { [server, cursor] in try server.push(page.records, after: cursor) }
      let following = Result { try journal.pushPage(after: page) }
      let receipt = try sending.wait()
      reached("remote-push-sent")
      let move = receipt.pulledThrough.map { SyncCursorMove(from: cursor, to: $0) }
      try journal.markPushed(page, pullCursor: move)
      if let move { cursor = move.to }
      reached("remote-push-marked")
      summary.pushed += page.operations
      summary.pushedRecords += page.records.count
      summary.pushedChanges += page.changes
      summary.pushedSettled += page.settled
      summary.pushedSettledOperations += page.settledOperations
      next = try following.get()
    }
    summary.publishedDays = try publishFigures()
    reached("remote-figures")
    try journal.finishSync(now: now, serverTime: clocks.server)
    return summary
  }

  /// Whether the push is refused for a wrong clock (issue 24 §2), unless ``ignoreClockSkew``:
  /// the clock is more than ``refusedSkewSeconds`` off the server's now, or changes waiting
  /// here were made while it was (``MisstampedChanges``, recorded in `summary`): more than
  /// ``refusedSkewSeconds`` ahead of the server's now, or as far before the previous sync by
  /// the server's clock (a change made after it cannot honestly be earlier). The same hour
  /// either way as for the clock now: a clock a little off (drift, or half an hour, warned
  /// about at each sync) pushes its changes as it pushes itself. A fast
  /// change is refused rather than re-stamped to the server's time: its edit may have been
  /// meant for a day that its date chose, as a slow one's was.
  func refusesPush(_ clocks: SyncClocks, _ summary: inout Summary) throws -> Bool {
    if ignoreClockSkew { return false }
    if abs(summary.clockSkewSeconds) > Self.refusedSkewSeconds { return true }
    guard let server = clocks.server else { return false }
    let found = try journal.misstampedChanges(
      serverNow: server, toleranceMilliseconds: Int64(Self.refusedSkewSeconds * 1000))
    guard found.count > 0 else { return false }
    summary.misstamped = found
    return true
  }

  /// Records in `summary` the skew the opening measured (positive: this machine is ahead):
  /// the server's instant is taken as the middle of the round trip that read it. Returns the
  /// clocks the pull caps and judges with.
  func measureClocks(_ opening: SyncOpening, _ summary: inout Summary) -> SyncClocks {
    guard let before = opening.sentAt, let after = opening.answeredAt, let serverTime = opening.serverTime else {
      return SyncClocks(local: SyncClocks.milliseconds(now), server: nil)
    }
    let middle = before.addingTimeInterval(after.timeIntervalSince(before) / 2)
    let skew = middle.timeIntervalSince(serverTime)
    summary.clockSkewSeconds = skew
    return SyncClocks(
      milliseconds: SyncClocks.milliseconds(now), skewMilliseconds: Int64((skew * 1000).rounded()))
  }

  /// Publishes (date, total, done, commits), counted as `report` and the team board count
  /// them, of the days whose figures changed since the last publish (issue 24: not every day,
  /// every sync): every day with todos or commits, the last ``figureDays`` days, and as zero a
  /// day published before that has none any more. So a board shows the real figures of any
  /// range, never a zero for a day that had todos. Returns how many days it published.
  func publishFigures() throws -> Int {
    let current = try Self.publishedFigures(figures, today: today, timeZone: timeZone)
    let before = try journal.publishedFigures()
    let kept = Dictionary(current.map { ($0.date, $0) }) { a, _ in a }
    let was = Dictionary(before.map { ($0.date, $0) }) { a, _ in a }
    var changed = current.filter { was[$0.date] != $0 }
    for old in before where kept[old.date] == nil {
      changed.append(DayFigure(date: old.date, total: 0, done: 0, commits: nil))
    }
    // The display name goes with every publish, even of no day when it changed since the last
    // one; with no day changed and the same name, nothing is sent (issue 24: a sync with
    // nothing to do was four of its thirteen round trips here, and a write).
    let name = displayName ?? ""
    if changed.isEmpty, try journal.publishedDisplayName() == name { return 0 }
    try server.publishDayFigures(changed.sorted { $0.date < $1.date }, displayName: displayName)
    try journal.recordPublished(current, displayName: name)
    return changed.count
  }

  /// The figures a machine keeps published: the last ``figureDays`` days (zeros too) and every
  /// earlier day, back ``historyDays``, with todos or commits.
  public static func publishedFigures(
    _ source: any DayFigureSource, today: Day, timeZone: any ZoneRules
  ) throws -> [DayFigure] {
    let range = try DayRange(from: today.adding(days: -historyDays), to: today)
    let recent = try DayRange(from: today.adding(days: -(figureDays - 1)), to: today)
    var tallies: [Day: Tally] = [:]
    for (day, tally) in try source.tallies(in: range) { tallies[day, default: .zero] += tally }
    let counted = try DayRange(from: today.adding(days: -(commitDays - 1)), to: today)
    let commits = try source.commits(in: counted, timeZone: timeZone)
    var days = Set(recent)
    for (day, tally) in tallies where tally.total > 0 || tally.done > 0 { days.insert(day) }
    for (day, count) in commits?.days ?? [] where count > 0 && counted.contains(day) { days.insert(day) }
    return days.sorted().map { day in
      let tally = tallies[day] ?? .zero
      return DayFigure(
        date: day, total: tally.total, done: tally.done,
        commits: counted.contains(day) ? commits?.count(on: day) : nil)
    }
  }

  /// A machine's day figures over `range`, as a team sees them: one per day, the todos planned
  /// and done (the report's counts) and the commits synced from GitHub, if any.
  public static func dayFigures(
    _ source: any DayFigureSource, range: DayRange, timeZone: any ZoneRules
  ) throws -> [DayFigure] {
    var tallies: [Day: Tally] = [:]
    for (day, tally) in try source.tallies(in: range) { tallies[day, default: .zero] += tally }
    let commits = try source.commits(in: range, timeZone: timeZone)
    return range.map { day in
      let tally = tallies[day] ?? .zero
      return DayFigure(date: day, total: tally.total, done: tally.done, commits: commits?.count(on: day))
    }
  }
}

/// `body` run on a thread of its own, its result waited for with ``wait()``: the sync's push
/// sends a page while this thread reads the next. Whoever made it must call ``wait()`` before
/// touching what `body` uses.
final class Concurrently<Value>: @unchecked Sendable {
  private let body: () throws -> Value
  private var result: Result<Value, any Error>?
  private let finished = DispatchSemaphore(value: 0)

  init(_ body: @escaping () throws -> Value) {
    self.body = body
    Thread { [self] in
      result = Result { try self.body() }
      finished.signal()
    }.start()
  }

  /// Waits for `body` to return and gives what it returned or threw.
  func wait() throws -> Value {
    finished.wait()
    return try result!.get()
  }
}
