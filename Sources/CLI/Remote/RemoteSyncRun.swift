import Core
import Foundation
import Remote
import Storage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One `ootd remote sync`: pull what other machines pushed, push this machine's changes, then
/// publish the day figures the team board shows.
///
/// Each step is safe to stop at any moment (a lost connection, `kill -9`): a pulled page is
/// applied and the pull cursor moved in one local transaction; a pushed page is marked pushed
/// in a local transaction after the server took it, and pushing it again (when the process died
/// in between) is deduplicated by the server on the record ids. Nothing local is lost and the
/// next sync completes without duplicates.
struct RemoteSyncRun {
  let database: AppDatabase
  let server: RemoteServer
  let environment: AppEnvironment
  /// The name teammates see (`remote set --name`), nil for the role name.
  let displayName: String?

  /// How many records one pull asks for.
  static let pullPage = 500
  /// How many days of figures a sync publishes (a first sync: a year).
  static let figureDays = 35
  static let firstFigureDays = 366

  struct Summary {
    var pushed = 0
    var pushedRecords = 0
    var pulled = 0
    var pulledRecords = 0
    var changed = 0
    var conflicts: [SyncConflictReport] = []
    /// Todos the merge left breaking a rule, mended by the fixed resolution (``TodoRules``).
    var ruleConflicts: [String] = []
    var device = ""
    /// The device id this database had before it found itself a copy of another file.
    var copiedFrom: String?
    /// Rows pulled from the server and set aside instead of applied.
    var setAside: [SetAsideRow] = []
  }

  func run() throws -> Summary {
    var summary = Summary()
    let before = try database.syncStatus()
    let firstSync = before.lastSync == nil
    summary.device = try database.beginSync(
      fileIdentity: Self.fileIdentity(database.path), now: environment.now)
    if before.deviceAssigned && summary.device != before.device {
      summary.copiedFrom = before.device
    }
    try server.registerDevice(summary.device, name: nil)
    while true {
      let page = try server.pull(after: try database.pullCursor(), limit: Self.pullPage)
      if page.isEmpty { break }
      DebugFault.reached("remote-pull-fetched")
      let result = try database.applyPulled(page, today: environment.today, now: environment.now)
      DebugFault.reached("remote-pull-applied")
      summary.pulled += result.operations
      summary.pulledRecords += result.records
      summary.changed += result.changed
      summary.conflicts += result.conflicts
      summary.ruleConflicts += result.ruleConflicts
      summary.setAside += result.setAside
      // A page may be short for its bytes (``RemoteServer/pullPageBytes``): read on until empty.
    }
    DebugFault.reached("remote-pulled")
    while let page = try database.pushPage() {
      try server.push(page.records)
      DebugFault.reached("remote-push-sent")
      try database.markPushed(page)
      DebugFault.reached("remote-push-marked")
      summary.pushed += page.operations
      summary.pushedRecords += page.records.count
    }
    try publishFigures(days: firstSync ? Self.firstFigureDays : Self.figureDays)
    DebugFault.reached("remote-figures")
    try database.finishSync(now: environment.now)
    return summary
  }

  /// Publishes (date, total, done, commits) of the last `days` days, counted as `report` and
  /// the team board count them (``LocalDayFigures``).
  func publishFigures(days count: Int) throws {
    let today = environment.today
    let range = try DayRange(from: today.adding(days: -(count - 1)), to: today)
    try server.publishDayFigures(
      try LocalDayFigures.figures(database, range: range, environment: environment),
      displayName: displayName)
  }

  /// The database file's device and inode numbers: a copy of the file has others, so it gets
  /// its own device id at its next sync (see ``AppDatabase/beginSync(fileIdentity:now:)``).
  static func fileIdentity(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return "\(info.st_dev):\(info.st_ino)"
  }
}
