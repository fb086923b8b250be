#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Zone

// The two sides of a sync, as the sync run (UseCases' `RemoteSyncRun`) sees them: this
// machine's journal (Storage's sync state, `database.sync`, implements ``SyncJournal``) and the
// server (Remote's `RemoteServer` implements ``SyncServer``), with the values that pass between
// them. The run knows neither SQL nor PostgreSQL, as the commit sync knows GitHub only through
// ``CommitStore``.

/// This machine's side of a sync: its journal, what it has pushed and pulled.
public protocol SyncJournal {
  /// Where the database stands with the server.
  func syncStatus() throws -> SyncStatus
  /// Prepares a sync (a new device id for a copied file, whose identity differs) with
  /// `account` (nil: the one it synced with before); starts over (a first sync) when the
  /// database synced with another account. Returns the device id and that other account.
  func beginSync(fileIdentity: String?, account: SyncAccount?, now: Date) throws -> SyncBeginning
  /// The server position pulled up to.
  func pullCursor() throws -> Int64
  /// Applies one pulled page in one transaction and moves the pull cursor past it. Unless
  /// `settling`, a clash of todo numbers the page leaves waits for the pull's last page
  /// (issue 24 §1: a later record may settle it as the machine that met it first did).
  func applyPulled(
    _ records: [(seq: Int64, record: SyncRecord)], today: Day, now: Date, clocks: SyncClocks, settling: Bool
  ) throws -> SyncPullResult
  /// The next records to push, nil when everything is pushed; with `after`, the records after
  /// that page, as if the server had taken it and ``markPushed(_:)`` recorded it (so the next
  /// page is read while the server stores the one before it).
  func pushPage(maxOperations: Int, after: SyncPushPage?) throws -> SyncPushPage?
  /// Records that the server took `page`; with `pullCursor`, the server's answer that the
  /// page's records lie right after the pull cursor (``SyncPushReceipt/pulledThrough``): the
  /// cursor moves past them when it is still at `from`, as a pull reading them back would.
  func markPushed(_ page: SyncPushPage, pullCursor: SyncCursorMove?) throws
  /// Records that a sync completed at `now`, and the server's instant of it (ms, in this
  /// machine's reckoning; nil when not measured), in one write.
  func finishSync(now: Date, serverTime: Int64?) throws
  /// The changes waiting to be pushed that were made while this machine's clock was wrong
  /// (``MisstampedChanges``): more than `toleranceMilliseconds` after `serverNow`, or before
  /// the previous sync's server instant (``finishSync(now:serverTime:)``).
  func misstampedChanges(serverNow: Int64, toleranceMilliseconds: Int64) throws -> MisstampedChanges
  /// The day figures this machine last published (``recordPublished(_:displayName:)``).
  func publishedFigures() throws -> [DayFigure]
  /// The display name the figures were last published with ("" for none: the role's name),
  /// nil before a publish recorded one.
  func publishedDisplayName() throws -> String?
  /// Remembers the day figures the server now has from this machine, and the display name
  /// ("" for none) it has.
  func recordPublished(_ figures: [DayFigure], displayName: String) throws
  /// Forgets the rows set aside at `seqs` (``SetAsideRow``): the server no longer holds them.
  func forgetSetAside(_ seqs: [Int64]) throws
}

extension SyncJournal {
  /// Prepares a sync with the account it synced with before; returns the device id.
  @discardableResult
  public func beginSync(fileIdentity: String?, now: Date) throws -> String {
    try beginSync(fileIdentity: fileIdentity, account: nil, now: now).device
  }

  /// Applies one pulled page, the last of its pull (its clashes of numbers settled).
  public func applyPulled(
    _ records: [(seq: Int64, record: SyncRecord)], today: Day, now: Date, clocks: SyncClocks
  ) throws -> SyncPullResult {
    try applyPulled(records, today: today, now: now, clocks: clocks, settling: true)
  }

  /// Applies one pulled page, the clocks being this machine's at `now` alone.
  public func applyPulled(_ records: [(seq: Int64, record: SyncRecord)], today: Day, now: Date) throws
    -> SyncPullResult
  {
    try applyPulled(records, today: today, now: now, clocks: SyncClocks(local: SyncClocks.milliseconds(now), server: nil))
  }

  /// The next records to push, whole journal entries up to about 20,000 row-level operations.
  public func pushPage(after page: SyncPushPage? = nil) throws -> SyncPushPage? {
    try pushPage(maxOperations: 20_000, after: page)
  }

  /// Records that the server took `page`, the pull cursor left where it is.
  public func markPushed(_ page: SyncPushPage) throws {
    try markPushed(page, pullCursor: nil)
  }
}

/// A pull cursor moved past records this machine pushed: from `from` (where the push found
/// it) to `to` (the server's position of the last of them).
public struct SyncCursorMove: Hashable, Sendable {
  public var from: Int64
  public var to: Int64

  public init(from: Int64, to: Int64) {
    self.from = from
    self.to = to
  }
}

/// What the server answered a push.
public struct SyncPushReceipt: Hashable, Sendable {
  /// Records it stored (those it held already are skipped).
  public var inserted: Int
  /// When every record of the role the server holds past the pull cursor the push was given is
  /// one this push stored, the position of the last: a pull would read back only this
  /// machine's own records up to there. Nil otherwise (another machine's records in between, a
  /// record stored by an earlier push, nothing stored).
  public var pulledThrough: Int64?

  public init(inserted: Int, pulledThrough: Int64?) {
    self.inserted = inserted
    self.pulledThrough = pulledThrough
  }
}

/// The server's side of a sync.
public protocol SyncServer {
  /// Makes this device known to the server.
  func registerDevice(_ device: String, name: String?) throws
  /// Up to `limit` records after server position `seq`, in order.
  func pull(after seq: Int64, limit: Int) throws -> [(seq: Int64, record: SyncRecord)]
  /// Stores `records` (deduplicated on their ids); returns how many were new.
  func push(_ records: [SyncRecord]) throws -> Int
  /// Stores `records` as ``push(_:)`` does and, given the pull cursor `seq`, says whether they
  /// are all the role's records past it (``SyncPushReceipt/pulledThrough``).
  func push(_ records: [SyncRecord], after seq: Int64?) throws -> SyncPushReceipt
  /// Publishes this device's day figures for its teams' boards.
  func publishDayFigures(_ days: [DayFigure], displayName: String?) throws
  /// The server's clock, now.
  func serverTime() throws -> Date
  /// A sync's first exchange: makes `device` known, reads the server's clock between two
  /// readings of `clock` (when given) and the first page of the pull after `seq`. A server may
  /// send it all in one round trip (issue 24: a sync with nothing to do is mostly round trips).
  func openSync(device: String, after seq: Int64, limit: Int, clock: (() -> Date)?) throws -> SyncOpening
  /// Which of `seqs` (rows a sync set aside here) the server still holds; the others were
  /// deleted there (by the server's owner).
  func heldRecords(_ seqs: [Int64]) throws -> Set<Int64>
}

extension SyncServer {
  /// A push that never moves the pull cursor.
  public func push(_ records: [SyncRecord], after seq: Int64?) throws -> SyncPushReceipt {
    SyncPushReceipt(inserted: try push(records), pulledThrough: nil)
  }

  /// The three calls one after another.
  public func openSync(device: String, after seq: Int64, limit: Int, clock: (() -> Date)?) throws -> SyncOpening {
    try registerDevice(device, name: nil)
    var opening = SyncOpening(serverTime: nil, sentAt: nil, answeredAt: nil, firstPage: [])
    if let clock {
      opening.sentAt = clock()
      opening.serverTime = try serverTime()
      opening.answeredAt = clock()
    }
    opening.firstPage = try pull(after: seq, limit: limit)
    return opening
  }
}

/// The account a database syncs with: a role's data on one server's database.
public struct SyncAccount: Hashable, Sendable {
  /// What the server is, whatever the URI's spelling (`localhost` or `127.0.0.1`): an identity
  /// the server holds for the role (its sync key's record, see `RemoteServer.accountIdentity`);
  /// nil when it holds none.
  public var identity: String?
  /// The account as the URI names it (`alice@db.example.com:5432/ootd`): for messages, and the
  /// identity of a state recorded before identities were.
  public var name: String

  public init(identity: String?, name: String) {
    self.identity = identity
    self.name = name
  }
}

/// What ``SyncJournal/beginSync(fileIdentity:account:now:)`` found.
public struct SyncBeginning: Hashable, Sendable {
  /// This database's device id.
  public var device: String
  /// The account (its name) the database synced with before, when it was another one: its
  /// sync state was dropped, this sync is a first sync.
  public var previousAccount: String?

  public init(device: String, previousAccount: String?) {
    self.device = device
    self.previousAccount = previousAccount
  }
}

/// What ``SyncServer/openSync(device:after:limit:clock:)`` learnt.
public struct SyncOpening: Sendable {
  /// The server's clock, read between ``sentAt`` and ``answeredAt`` (this machine's clock).
  public var serverTime: Date?
  public var sentAt: Date?
  public var answeredAt: Date?
  /// The first page of the pull.
  public var firstPage: [(seq: Int64, record: SyncRecord)]

  public init(serverTime: Date?, sentAt: Date?, answeredAt: Date?, firstPage: [(seq: Int64, record: SyncRecord)]) {
    self.serverTime = serverTime
    self.sentAt = sentAt
    self.answeredAt = answeredAt
    self.firstPage = firstPage
  }
}

/// Where a machine's day figures come from: per day, the todos planned and done as the report
/// counts them (``DayFigures``), and the commits synced from GitHub, if any.
public protocol DayFigureSource {
  /// The todos planned and done on each day of `range` that has any.
  func tallies(in range: DayRange) throws -> [(day: Day, tally: Tally)]
  /// The commits of `range` by day in `timeZone` (the saved login's), nil before any sync.
  func commits(in range: DayRange, timeZone: any ZoneRules) throws -> CommitCalendar?
}

/// Where this database stands with the sync server, for `ootd remote status`.
public struct SyncStatus: Hashable, Sendable {
  /// This database's device id.
  public var device: String
  /// Whether `device` is final: the first sync gives the database a new one, so before it the
  /// id above is provisional and not worth showing.
  public var deviceAssigned: Bool
  /// When the last sync completed, if one did.
  public var lastSync: Date?
  /// Whether this database has never pushed its rows (its first sync pushes all of them).
  public var firstSyncPending: Bool
  /// Local journal entries not yet pushed.
  public var waitingChanges: Int
  /// Their row-level operations.
  public var waitingOperations: Int
  /// The server position pulled up to.
  public var pulledThrough: Int64
  /// Rows pulled from the server and set aside, oldest first.
  public var setAside: [SetAsideRow] = []

  public init(
    device: String, deviceAssigned: Bool, lastSync: Date?, firstSyncPending: Bool,
    waitingChanges: Int, waitingOperations: Int, pulledThrough: Int64, setAside: [SetAsideRow] = []
  ) {
    self.device = device
    self.deviceAssigned = deviceAssigned
    self.lastSync = lastSync
    self.firstSyncPending = firstSyncPending
    self.waitingChanges = waitingChanges
    self.waitingOperations = waitingOperations
    self.pulledThrough = pulledThrough
    self.setAside = setAside
  }
}

/// A row pulled from the server that this machine set aside instead of applying (see
/// ``SyncJournal/applyPulled(_:today:now:clocks:)``).
public struct SetAsideRow: Hashable, Sendable {
  /// The server's position of the row.
  public var seq: Int64
  /// The device that pushed it, as the server has it (server text: made printable before it is
  /// shown).
  public var device: String
  /// Why, in words.
  public var reason: String
  /// The row's op id, when known (server text).
  public var opID: String?
  /// Whether its payload could not be opened (``SyncRecord/unopened``): changed on the server,
  /// or not sealed with this person's key. The sync that meets one fails (exit 1) after doing
  /// the rest (issue 24 §6: refused, naming the row; issue 21: the next sync does not stop on it).
  public var unopened: Bool

  public init(seq: Int64, device: String, reason: String, opID: String? = nil, unopened: Bool = false) {
    self.seq = seq
    self.device = device
    self.reason = reason
    self.opID = opID
    self.unopened = unopened
  }
}

/// Some of the records to push, and how far pushing them takes the push cursor.
public struct SyncPushPage: Sendable {
  /// The records, in order.
  public var records: [SyncRecord]
  /// How many row-level operations they carry.
  public var operations: Int
  /// Where pushing it takes the push cursor: the journal's bookkeeping, read back by the
  /// journal that made the page (``SyncJournal/markPushed(_:)``).
  public let throughOperation: Int64
  public let throughClock: Int64
  public let snapshot: Bool
  /// Of a first sync's page: the last row it holds (the journal's cursor) and whether it is the
  /// last page.
  public let snapshotThrough: String?
  public let snapshotDone: Bool
  /// How many journal entries they carry (the first sync's rows count as one), as `remote
  /// status` counts the changes waiting: a large entry travels as several records.
  public var changes: Int
  /// Of `changes` and `operations`, those of a sync's own settling (``SyncState``'s
  /// resolution entries: a todo renumbered, a rule kept), which `remote sync` reports apart
  /// from the user's changes (tryout 18 W3).
  public var settled = 0
  public var settledOperations = 0

  public init(
    records: [SyncRecord], operations: Int, throughOperation: Int64, throughClock: Int64,
    snapshot: Bool, snapshotThrough: String? = nil, snapshotDone: Bool = true, changes: Int = 1
  ) {
    self.snapshotThrough = snapshotThrough
    self.snapshotDone = snapshotDone
    self.records = records
    self.operations = operations
    self.changes = changes
    self.throughOperation = throughOperation
    self.throughClock = throughClock
    self.snapshot = snapshot
  }
}

/// A conflict a pull resolved, with the name of the row (a todo's title, else the name).
public struct SyncConflictReport: Hashable, Sendable {
  public var conflict: SyncConflict
  public var name: String?
  /// A todo's number here (or, deleted here, the last one it had).
  public var number: Int64?
  /// The rule that decided it (``SyncClocks/rule(winner:loser:)``).
  public var rule: SyncConflict.Rule

  public init(conflict: SyncConflict, name: String?, number: Int64? = nil, rule: SyncConflict.Rule = .later) {
    self.conflict = conflict
    self.name = name
    self.number = number
    self.rule = rule
  }

  /// How a line names the row: `#3 'Read SICP'` for a todo, `project 'ootd'`.
  public var subject: String { RowSubject.of(conflict.entity, number: number, name: name) }

  /// The value kept, in the user's words (a deleted row: `deleted`; a tag: `+home`, or
  /// `without +home`).
  public var kept: ConflictWords {
    switch conflict.kind {
    case .editOfDeleted: ConflictWords("deleted")
    case .tag: ConflictWords(tag: conflict.kept, else: conflict.lost)
    default: ConflictWords(conflict.entity, field: conflict.field, conflict.kept)
    }
  }

  /// The value lost, in the user's words (edits of a row deleted since: `edited`).
  public var lost: ConflictWords {
    switch conflict.kind {
    case .editOfDeleted where conflict.field == nil: ConflictWords("edited")
    case .tag: ConflictWords(tag: conflict.lost, else: conflict.kept)
    default: ConflictWords(conflict.entity, field: conflict.field, conflict.lost)
    }
  }

  /// The conflicts of one sync made of several pulls and records: `earlier`, then `later`, one
  /// per row, field and kind (issue 24 §3: a conflict is reported once). A field decided twice
  /// in one sync (this machine's value lost to one record's, which lost to a later record's) is
  /// one conflict: kept as the last decision kept it (its winner and rule), over what was here
  /// before the first (its lost value and loser), in the first one's place; a field that ends
  /// where it began was no conflict and is left out.
  public static func combined(_ earlier: [SyncConflictReport], _ later: [SyncConflictReport])
    -> [SyncConflictReport]
  {
    struct Key: Hashable {
      let kind: SyncConflict.Kind, entity: Entity, row: String, field: String?, tag: FieldValue?
    }
    func key(_ report: SyncConflictReport) -> Key {
      let conflict = report.conflict
      // A tag's conflict is the tag's own (``SyncConflict/Kind/tag``: the tag is the kept or lost value).
      // (An edit of a row deleted since is one conflict of the row, whichever fields it set.)
      return Key(
        kind: conflict.kind, entity: conflict.entity, row: conflict.row,
        field: conflict.kind == .editOfDeleted ? nil : conflict.field,
        tag: conflict.kind == .tag ? (conflict.kept?.text != nil ? conflict.kept : conflict.lost) : nil)
    }
    var result: [SyncConflictReport] = []
    var places: [Key: Int] = [:]
    for report in earlier + later {
      guard let place = places[key(report)] else {
        places[key(report)] = result.count
        result.append(report)
        continue
      }
      var joined = report
      // (A tag's conflict names its tag in `kept` or `lost`: the last decision is said whole.)
      if report.conflict.kind != .tag {
        joined.conflict.lost = result[place].conflict.lost
        joined.conflict.loser = result[place].conflict.loser
      }
      result[place] = joined
    }
    return result.filter { $0.conflict.kind != .sameField || $0.conflict.kept != $0.conflict.lost }
  }
}

/// What one pull applied.
public struct SyncPullResult: Sendable {
  /// Records applied (records of this device itself are skipped and not counted).
  public var records: Int
  /// The row-level operations they carried.
  public var operations: Int
  /// Row-level operations that changed something here.
  public var changed: Int
  /// Conflicts resolved.
  public var conflicts: [SyncConflictReport]
  /// Todos the merge left breaking a rule (``TodoRules``), mended by the fixed resolution as a
  /// change of this machine (pushed like any other): one sentence each.
  public var ruleConflicts: [String] = []
  /// Records set aside instead of applied, in server order.
  public var setAside: [SetAsideRow] = []
  /// Todos whose number changed here (one each), in the order it happened.
  public var renumbered: [SyncRenumbering] = []
  /// Todos this pull created here (uuids): a later pull of the same sync does not report them
  /// renumbered (``SyncRenumbering/combined(_:_:arrived:)``).
  public var arrived = Set<String>()

  public init(records: Int, operations: Int, changed: Int, conflicts: [SyncConflictReport]) {
    self.records = records
    self.operations = operations
    self.changed = changed
    self.conflicts = conflicts
  }
}


/// A todo whose number (`id`) changed on this machine in a sync: another todo had its number
/// on another machine (the smaller uuid keeps it, on every machine). Only a todo that was
/// here with one number before the sync and has another after it (issue 24 §1).
public struct SyncRenumbering: Hashable, Sendable {
  public var uuid: String
  public var title: String
  public var from: Int64
  public var to: Int64

  public init(uuid: String, title: String, from: Int64, to: Int64) {
    self.uuid = uuid
    self.title = title
    self.from = from
    self.to = to
  }

  /// The renumberings of one sync made of several pulls (each its own transaction): `earlier`,
  /// the pulls so far, then `later`, the next one's. One per todo, from its number before the
  /// sync to its number after; a todo back at its number is left out, and so is one that
  /// `arrived` (created here by an earlier pull of this sync: it had no number here before the
  /// sync, issue 24 §1).
  public static func combined(
    _ earlier: [SyncRenumbering], _ later: [SyncRenumbering], arrived: Set<String>
  ) -> [SyncRenumbering] {
    var result = earlier
    for renumbering in later where !arrived.contains(renumbering.uuid) {
      if let index = result.firstIndex(where: { $0.uuid == renumbering.uuid }) {
        result[index].to = renumbering.to
        result[index].title = renumbering.title
      } else {
        result.append(renumbering)
      }
    }
    return result.filter { $0.from != $0.to }
  }
}

extension SyncClocks {
  /// The later of this machine's clock and the server's, as an instant: what a pull judges "a
  /// day after today" by (``TodoRules/latestDay(at:)``), so that a machine whose clock is days
  /// slow does not move other machines' done work onto its own past today (tryout 19 S3).
  public var latestInstant: Date { Date(timeIntervalSince1970: Double(max(local, server ?? local)) / 1000) }

  /// The milliseconds since 1970 of `date`, as the hybrid clock counts them.
  public static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
  }
}
