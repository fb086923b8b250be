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
  /// How many days of figures a sync publishes (a first sync: a year).
  public static let figureDays = 35
  public static let firstFigureDays = 366

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
    /// Rows pulled from the server and set aside instead of applied.
    public var setAside: [SetAsideRow] = []
    /// Todos whose number changed here.
    public var renumbered: [SyncRenumbering] = []

    public init() {}
  }

  public func run() throws -> Summary {
    var summary = Summary()
    let before = try journal.syncStatus()
    let firstSync = before.lastSync == nil
    summary.device = try journal.beginSync(fileIdentity: fileIdentity, now: now)
    if before.deviceAssigned && summary.device != before.device {
      summary.copiedFrom = before.device
    }
    try server.registerDevice(summary.device, name: nil)
    while true {
      let page = try server.pull(after: try journal.pullCursor(), limit: Self.pullPage)
      if page.isEmpty { break }
      reached("remote-pull-fetched")
      let result = try journal.applyPulled(page, today: today, now: now)
      reached("remote-pull-applied")
      summary.pulled += result.operations
      summary.pulledRecords += result.records
      summary.changed += result.changed
      summary.conflicts += result.conflicts
      summary.ruleConflicts += result.ruleConflicts
      summary.setAside += result.setAside
      summary.renumbered += result.renumbered
      // A page may be short for its bytes (the server caps a page's size): read on until empty.
    }
    reached("remote-pulled")
    while let page = try journal.pushPage() {
      _ = try server.push(page.records)
      reached("remote-push-sent")
      try journal.markPushed(page)
      reached("remote-push-marked")
      summary.pushed += page.operations
      summary.pushedRecords += page.records.count
    }
    try publishFigures(days: firstSync ? Self.firstFigureDays : Self.figureDays)
    reached("remote-figures")
    try journal.finishSync(now: now)
    return summary
  }

  /// Publishes (date, total, done, commits) of the last `days` days, counted as `report` and
  /// the team board count them.
  func publishFigures(days count: Int) throws {
    let range = try DayRange(from: today.adding(days: -(count - 1)), to: today)
    try server.publishDayFigures(
      try Self.dayFigures(figures, range: range, timeZone: timeZone), displayName: displayName)
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
