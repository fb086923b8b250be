import Core
import Foundation

/// A device of the connecting role, as the server remembers it.
public struct RemoteDevice: Sendable, Equatable {
  public var device: String
  public var name: String?
  /// When it last synced (set by ``RemoteServer/registerDevice(_:name:)``).
  public var lastSync: Date?
}

/// The ootd schema on a server, seen by one member's connection.
///
/// Every query runs as the connection's role; row-level security decides what it sees, so this
/// type never filters by owner itself.
public final class RemoteServer {
  /// The connection it uses.
  public let connection: PostgresConnection

  /// Seals every payload pushed and opens every payload pulled (end-to-end encryption, see
  /// RemoteServer+Keys.swift); nil only for tests of the server itself.
  public var sealer: (any RecordSealer)?

  /// Rows per INSERT statement in ``push(_:)`` and ``publishDayFigures(_:displayName:)``.
  static let pushBatch = 5_000

  /// `values` as a PostgreSQL array literal of quoted elements: `{"a","b \"c\""}`. Built as
  /// bytes (a push's payloads are megabytes): `"` and `\` are escaped byte by byte, which is
  /// exact in UTF-8 (neither byte occurs inside another character's encoding).
  static func arrayLiteral(_ values: [String]) -> String {
    let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
    var literal: [UInt8] = [UInt8(ascii: "{")]
    literal.reserveCapacity(values.reduce(2) { $0 + $1.utf8.count + 3 })
    for (index, value) in values.enumerated() {
      if index > 0 { literal.append(UInt8(ascii: ",")) }
      literal.append(quote)
      var value = value
      value.withUTF8 { bytes in
        var start = 0
        for index in bytes.indices where bytes[index] == quote || bytes[index] == backslash {
          literal.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
          literal.append(backslash)
          start = index
        }
        literal.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
      }
      literal.append(quote)
    }
    literal.append(UInt8(ascii: "}"))
    return String(decoding: literal, as: UTF8.self)
  }

  /// What a connection asks first, in one round trip (``PostgresConnection/answers(to:)``:
  /// `RemoteAccess` sends them with the connection's own set-up): the group role, the
  /// membership (asked only when the group exists: pg_has_role fails on a role that does not)
  /// and whether the version table exists; then the schema's version with the role's key
  /// record (``keyRecord()``), which fails on a server without the schema or the keys table (the
  /// first answer then says why, or the version is asked alone).
  public static let openingStatements = [
    PostgresStatement(
      """
      SELECT g.found, CASE WHEN g.found THEN pg_catalog.pg_has_role(current_user, 'ootd_member', 'MEMBER') END,
        \(RemoteSchema.versionTableExists)
      FROM (SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = 'ootd_member') AS found) g
      """),
    PostgresStatement(
      """
      SELECT (SELECT coalesce(max(version), 0) FROM ootd.schema_version)::text, \(keyColumns)
      FROM (VALUES (1)) AS one (x) LEFT JOIN ootd.keys k ON k.owner = current_user
      """),
  ]

  /// The key record's columns, as ``keyRecord(_:)`` reads them, then the microseconds of its
  /// creation (``accountIdentity``).
  static let keyColumns = """
    k.key_id::text, k.salt, k.ops_limit::text, k.mem_limit::text, k.wrapped_key,
    (extract(epoch FROM k.created_at) * 1000000)::bigint::text
    """

  /// What the server is to the connecting role, whatever the URI's spelling: the role, its key
  /// record's id and the microsecond the server created the record (`role/key_id@created`), read
  /// with the key record (the opening round trip, or ``keyRecord()``); nil before the role has
  /// one. (The role: a server's owner may copy one role's record to others, as
  /// scripts/bench-remote-load.py does, in one transaction: the same id and time.)
  ///
  /// The record is the role's on this server's database, written once: members may not change
  /// its id nor its creation time, nor delete it. Its id alone is not enough: a machine
  /// re-creates the key record, with the key id of its key file, on a server that has none (a
  /// new server, a server re-created empty), and that server holds none of the data the
  /// database's sync state counts as pushed; the creation time tells them apart. A copy of the
  /// server's database (pg_dump, a replica) is the same account, as it holds the same records.
  public internal(set) var accountIdentity: String?

  /// The identity in `role`'s key record `row` (``keyColumns``), nil without one.
  static func accountIdentity(_ row: [String?], role: String) -> String? {
    guard row.count >= 6, let keyID = row[0], let created = row[5] else { return nil }
    return "\(role)/\(keyID.lowercased())@\(created)"
  }

  /// The role's key record read with the opening statements, until ``keyRecord()`` takes it
  /// (nil: not read; .some(nil): the role has none).
  var openingKeyRecord: ServerKeyRecord??

  /// Checks that the server has the current ootd schema and that the connection's role is a
  /// member of `ootd_member`.
  public init(connection: PostgresConnection) throws(RemoteError) {
    self.connection = connection
    let role = connection.role
    let answers = connection.answers(to: Self.openingStatements)
    let checks = try answers[0].get().rows.first
    guard checks?[0] == "t" else { throw .noSchema }
    guard checks?[1] == "t" else { throw .notMember(role: role) }
    guard checks?[2] == "t" else { throw .noSchema }
    let version: Int?
    if case .success(let rows) = answers[1], let row = rows.rows.first {
      version = row[0].flatMap { Int($0) }
      openingKeyRecord = .some(Self.keyRecord(Array(row.dropFirst())))
      accountIdentity = Self.accountIdentity(Array(row.dropFirst()), role: role)
    } else {
      // No keys table (a schema before version 5) or another failure: the version alone.
      version = try RemoteSchema.installedVersion(connection, tableExists: true)
    }
    guard let version, version > 0 else { throw .noSchema }
    if version < RemoteSchema.currentVersion {
      throw .schemaOutdated(server: version, known: RemoteSchema.currentVersion)
    }
    if version > RemoteSchema.currentVersion {
      throw .schemaTooNew(server: version, known: RemoteSchema.currentVersion)
    }
  }

  // MARK: - Operations

  /// Stores `records` as the connection's role, in one transaction; a record already stored
  /// (same op_id) is skipped, so pushing again after a failure never duplicates. Returns how many
  /// were new.
  @discardableResult
  public func push(_ records: [SyncRecord]) throws(RemoteError) -> Int {
    try push(records, after: nil).inserted
  }

  /// Stores `records` as ``push(_:)`` does and, given the pull cursor `seq` of the pushing
  /// machine, says whether the role's records past it are exactly the ones this push stored
  /// (``SyncPushReceipt/pulledThrough``): asked in the push's transaction, after its rows, while
  /// it holds the role's push turn (``RemoteSchema``'s `serialise_push`). A push of the role that
  /// committed before this one took the turn has smaller positions, and is seen by a statement
  /// begun after the turn was taken (read committed: each statement sees what committed before
  /// it; under a stricter isolation, which sees the transaction's first snapshot, the answer is
  /// no). One that commits after has larger ones. So the positions up to the last stored hold
  /// nothing a pull of this machine would not skip as its own.
  public func push(_ records: [SyncRecord], after seq: Int64?) throws(RemoteError) -> SyncPushReceipt {
    guard !records.isEmpty else { return SyncPushReceipt(inserted: 0, pulledThrough: nil) }
    let records = try sealed(records)
    do {
      return try connection.transaction { () throws -> SyncPushReceipt in
        var stored: [Int64] = []
        var start = 0
        while start < records.count {
          let batch = records[start..<min(start + Self.pushBatch, records.count)]
          stored += try insert(batch).rows.compactMap { $0.first.flatMap { $0 }.flatMap { Int64($0) } }
          start += batch.count
        }
        guard let seq, let first = stored.min(), let last = stored.max(), first > seq else {
          return SyncPushReceipt(inserted: stored.count, pulledThrough: nil)
        }
        let alone = try connection.query(Self.storedAlone, [String(seq), String(first)])
        return SyncPushReceipt(inserted: stored.count, pulledThrough: alone.rows.first?.first == "t" ? last : nil)
      }
    } catch let error as RemoteError {
      throw error
    } catch {
      throw .refused(String(describing: error))
    }
  }

  /// Whether the role holds no record between positions $1 and $2 (both excluded), asked in a
  /// push's transaction under read committed (``push(_:after:)``).
  static let storedAlone = """
    SELECT pg_catalog.current_setting('transaction_isolation') = 'read committed'
      AND NOT EXISTS (SELECT 1 FROM ootd.ops WHERE owner = current_user AND seq > $1::bigint AND seq < $2::bigint)
    """

  /// A batch's records past which its average payload makes the batch a few large records
  /// (a first sync's, ~500 KB each): sent as parameters of their own, not as array literals.
  static let largeRecordBytes = 16 << 10

  /// Inserts `batch` (in its order: the server numbers the records as they come), skipping a
  /// record already stored; one row per record inserted, its position.
  private func insert(_ batch: ArraySlice<SyncRecord>) throws(RemoteError) -> PostgresRows {
    let conflict = "ON CONFLICT (owner, op_id) DO NOTHING RETURNING seq"
    if batch.reduce(0, { $0 + $1.payload.utf8.count }) / batch.count < Self.largeRecordBytes {
      // Many small records: four array parameters instead of four parameters a row, one short
      // statement to plan, whatever the batch size.
      return try connection.query(
        """
        INSERT INTO ootd.ops (op_id, device, clock, payload)
        SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) \(conflict)
        """,
        [
          Self.arrayLiteral(batch.map(\.opID)), Self.arrayLiteral(batch.map(\.device)),
          Self.arrayLiteral(batch.map(\.clock)), Self.arrayLiteral(batch.map(\.payload)),
        ])
    }
    // A few large ones: the server parsed an array literal of megabytes character by character
    // (60-100 ms a page of a first push, more than inserting it); a parameter is taken as it is.
    var sql = "INSERT INTO ootd.ops (op_id, device, clock, payload) VALUES "
    var params: [String?] = []
    params.reserveCapacity(batch.count * 4)
    for (index, record) in batch.enumerated() {
      let base = index * 4
      sql += (index > 0 ? "," : "") + "($\(base + 1)::uuid,$\(base + 2),$\(base + 3),$\(base + 4))"
      params += [record.opID, record.device, record.clock, record.payload]
    }
    return try connection.query(sql + " " + conflict, params)
  }

  /// The payload bytes one ``pull(after:limit:)`` page brings at most (past its first row).
  /// Small enough that a first pull of thousands of todos commits in many pages (a pull stopped
  /// half-way keeps what it applied, issue 24), large enough to be a few records of 1,000 rows:
  /// each page is a local transaction, and each commit writes again every page of the uuid
  /// indexes the page's rows fell into (512 KB pages: 51,000 page writes for 20,000 todos).
  public static let pullPageBytes = 1 << 20
  /// The longest device id a pulled row keeps (a longer one comes back empty: ootd's are 36).
  static let deviceBytes = 64

  /// The connection's role's operations stored after `seq`, oldest first, at most `limit` and
  /// about ``pullPageBytes`` of payloads (at least one row). Pass the last `seq` returned to read
  /// on, until a page is empty; every operation is returned exactly once in seq order (pushes of
  /// one owner commit in seq order, see the schema's `ops_serialise`).
  ///
  /// Any member can write anything into their own rows, so nothing here trusts their sizes: a
  /// payload larger than ``Caps/payloadBytes`` is never fetched (the server sends its length:
  /// ``SyncRecord/withheldBytes``), a device id longer than ``deviceBytes`` comes back empty and
  /// a clock is cut to 40 characters; the caller sets such rows aside.
  public func pull(after seq: Int64, limit: Int) throws(RemoteError) -> [(seq: Int64, record: SyncRecord)] {
    let statement = Self.pullStatement(after: seq, limit: limit)
    return try page(try connection.query(statement.sql, statement.params), after: seq)
  }

  /// The statement of ``pull(after:limit:)``.
  static func pullStatement(after seq: Int64, limit: Int) -> PostgresStatement {
    PostgresStatement(
      """
      SELECT p.seq, p.op_id, p.device, p.clock, CASE WHEN p.size <= $3 THEN o.payload END, p.size
      FROM (
        SELECT seq, op_id, device, clock, size,
          sum(least(size, $3)) OVER (ORDER BY seq) - least(size, $3) AS before
        FROM (
          SELECT seq, op_id, CASE WHEN octet_length(device) <= $5 THEN device END AS device,
            left(clock, 40) AS clock, octet_length(payload)::bigint AS size
          FROM ootd.ops WHERE owner = current_user AND seq > $1 ORDER BY seq LIMIT $2
        ) page
      ) p JOIN ootd.ops o ON o.seq = p.seq
      WHERE p.before < $4 ORDER BY p.seq
      """,
      [
        String(seq), String(max(0, limit)), String(Caps.payloadBytes), String(Self.pullPageBytes),
        String(Self.deviceBytes),
      ])
  }

  /// The page ``pullStatement(after:limit:)`` answered with `rows`, checked and opened.
  func page(_ rows: PostgresRows, after seq: Int64) throws(RemoteError) -> [(seq: Int64, record: SyncRecord)] {
    let page = rows.rows.map { row in
      let size = Int(row[5] ?? "") ?? 0
      return (
        seq: Int64(row[0] ?? "") ?? 0,
        record: SyncRecord(
          opID: row[1] ?? "", device: row[2] ?? "", clock: row[3] ?? "", payload: row[4] ?? "",
          withheldBytes: row[4] == nil && size > Caps.payloadBytes ? size : nil)
      )
    }
    if let bad = Self.firstOutOfOrder(page.map(\.seq), after: seq) {
      // The cursor moves to a page's last seq: a page that does not move it on would be asked
      // for again and again.
      throw .refused(
        "the server sent change \(bad) after asking for those past \(seq) in order: it is not a server ootd can sync with")
    }
    return try opened(page)
  }

  /// A sync's first round trip (issue 24: a sync with nothing to do is mostly round trips):
  /// registers `device` (``registerDevice(_:name:)``), reads the server's clock and the first
  /// page of the pull (``pull(after:limit:)``), sent together. `clock` is read just before and
  /// after, to place the server's instant.
  public func openSync(device: String, after seq: Int64, limit: Int, clock: (() -> Date)?) throws(RemoteError)
    -> SyncOpening
  {
    let sentAt = clock?()
    var answeredAt: Date?
    // The clock's answer is placed when it arrives, before the page's rows are read.
    let answers = connection.pipeline([
      PostgresStatement(Self.registration, [device, nil]), Self.pullStatement(after: seq, limit: limit),
    ]) { index in
      if index == 0 { answeredAt = clock?() }
    }
    let time = try Self.serverInstant(try answers[0].get())
    return SyncOpening(
      serverTime: time, sentAt: sentAt, answeredAt: answeredAt, firstPage: try page(try answers[1].get(), after: seq))
  }

  /// Which of `seqs` (rows a sync set aside) the connection's role still holds: the server's
  /// owner may delete a bad row from `ootd.ops`, and the machines that set it aside forget it.
  public func heldRecords(_ seqs: [Int64]) throws(RemoteError) -> Set<Int64> {
    guard !seqs.isEmpty else { return [] }
    let rows = try connection.query(
      "SELECT seq FROM ootd.ops WHERE owner = current_user AND seq = ANY($1::bigint[])",
      [Self.arrayLiteral(seqs.map(String.init))])
    return Set(rows.rows.compactMap { $0.first.flatMap { $0 }.flatMap { Int64($0) } })
  }

  /// The first of `seqs` (a pulled page's) that is not past `cursor` and past the one before
  /// it, nil when the page reads on in order.
  public static func firstOutOfOrder(_ seqs: [Int64], after cursor: Int64) -> Int64? {
    var last = cursor
    for seq in seqs {
      if seq <= last { return seq }
      last = seq
    }
    return nil
  }

  /// The server's clock now (`clock_timestamp()`: the instant of the statement, not of its
  /// transaction), to measure this machine's skew against.
  public func serverTime() throws(RemoteError) -> Date {
    try Self.serverInstant(try connection.query("SELECT extract(epoch FROM clock_timestamp())::float8::text"))
  }

  /// The instant the first value of `rows` says (seconds since 1970 as text).
  static func serverInstant(_ rows: PostgresRows) throws(RemoteError) -> Date {
    guard let text = rows.rows.first?.first.flatMap({ $0 }), let seconds = Self.serverSeconds(text) else {
      throw .refused("the server did not say a usable time")
    }
    return Date(timeIntervalSince1970: seconds)
  }

  /// The seconds since 1970 the server's clock answered, nil unless a finite instant between
  /// 1970 and 2200: a hostile server's `Infinity`, `NaN` or 1e300 never reaches arithmetic.
  public static func serverSeconds(_ text: String) -> Double? {
    guard text.utf8.count <= 40, let seconds = Double(text), seconds.isFinite,
      (0...7_258_118_400).contains(seconds)
    else { return nil }
    return seconds
  }

  /// How many operations of the connection's role the server holds.
  public func operationCount() throws(RemoteError) -> Int {
    Int(try connection.query("SELECT count(*) FROM ootd.ops WHERE owner = current_user")
      .rows.first?.first.flatMap { $0 } ?? "0") ?? 0
  }

  // MARK: - Devices and display name

  /// Records that `device` synced now (creating it on first use), with a readable name.
  public func registerDevice(_ device: String, name: String?) throws(RemoteError) {
    _ = try connection.query(Self.registration, [device, name])
  }

  /// ``registerDevice(_:name:)``'s statement ($1 the device, $2 its name), answering the
  /// server's clock (`clock_timestamp()`, as ``serverTime()``) for ``openSync(device:after:limit:clock:)``.
  static let registration = """
    INSERT INTO ootd.devices (device, name, last_sync) VALUES ($1, $2, now())
    ON CONFLICT (owner, device) DO UPDATE
    SET name = coalesce(excluded.name, ootd.devices.name), last_sync = excluded.last_sync
    RETURNING extract(epoch FROM clock_timestamp())::float8::text
    """

  /// When `device` last synced, or nil when it never did.
  public func lastSync(device: String) throws(RemoteError) -> Date? {
    try devices().first { $0.device == device }?.lastSync
  }

  /// The connection's role's devices.
  public func devices() throws(RemoteError) -> [RemoteDevice] {
    let rows = try connection.query(
      """
      SELECT device, name, extract(epoch FROM last_sync)::float8::text FROM ootd.devices
      WHERE owner = current_user ORDER BY device
      """)
    return rows.rows.map { row in
      RemoteDevice(
        device: row[0] ?? "", name: row[1],
        lastSync: row[2].flatMap { Double($0) }.map { Date(timeIntervalSince1970: $0) })
    }
  }

  /// Sets the name teammates see (nil: the role name). Names are unique by the server's rule
  /// (schema version 6: the server folds the name with `ootd.name_key` and holds the keys
  /// unique): a name folding like another member's display name, or like another member's role
  /// name, is refused with ``nameTaken(_:)``.
  public func setDisplayName(_ name: String?) throws(RemoteError) {
    do {
      try connection.execute(
        """
        INSERT INTO ootd.members (display_name) VALUES ($1)
        ON CONFLICT (owner) DO UPDATE SET display_name = excluded.display_name, updated_at = now()
        """, [name])
    } catch RemoteError.server(let state, _) where state == "23505" {
      throw Self.nameTaken(name ?? connection.role)
    }
  }

  /// The member's row as it is, or (none yet) one with no display name: the board then shows
  /// the role's name, refused as ``setDisplayName(_:)`` refuses it when it folds like another's.
  func keepDisplayName() throws(RemoteError) {
    do {
      try connection.execute(
        "INSERT INTO ootd.members (display_name) VALUES (NULL) ON CONFLICT (owner) DO NOTHING")
    } catch RemoteError.server(let state, _) where state == "23505" {
      throw Self.nameTaken(connection.role)
    }
  }

  /// The display name the server holds for this member (set from any of their machines), or
  /// nil without one (teammates then see the role name).
  public func displayName() throws(RemoteError) -> String? {
    let rows = try connection.query("SELECT display_name FROM ootd.members WHERE owner = current_user")
    return rows.rows.first?.first ?? nil
  }

  /// The refusal of a display name (`shown`) that folds like another member's.
  static func nameTaken(_ shown: String) -> RemoteError {
    .refused(
      "the name '\(shown)' is taken by another member of this server (names are compared ignoring case and width): choose another with 'ootd remote set URI --name NAME'")
  }

  // MARK: - Day figures

  /// Stores (or replaces) the figures of `days` and the display name, in one transaction. A
  /// day published without commits (a machine that does not sync GitHub) keeps the commits
  /// another machine of the same person published for it.
  public func publishDayFigures(_ days: [DayFigure], displayName: String?) throws(RemoteError) {
    do {
      try connection.transaction { () throws in
        // A machine without a name of its own (`remote set --name` was given on another) keeps
        // the name the member has: it only makes the member's row when there is none.
        if let displayName { try setDisplayName(displayName) } else { try keepDisplayName() }
        var start = 0
        while start < days.count {
          let batch = days[start..<min(start + Self.pushBatch, days.count)]
          var sql = "INSERT INTO ootd.day_figures (day, total, done, commits) VALUES "
          var params: [String?] = []
          for (index, figure) in batch.enumerated() {
            // 4 parameters a row; a batch of days stays far below libpq's 65,535.
            let base = index * 4
            if index > 0 { sql += "," }
            sql += "($\(base + 1)::date,$\(base + 2)::int,$\(base + 3)::int,$\(base + 4)::int)"
            params += [
              figure.date.description, String(figure.total), String(figure.done),
              figure.commits.map(String.init),
            ]
          }
          sql += """
             ON CONFLICT (owner, day) DO UPDATE SET total = excluded.total, done = excluded.done,
            commits = coalesce(excluded.commits, ootd.day_figures.commits), updated_at = now()
            """
          try connection.execute(sql, params)
          start += batch.count
        }
      }
    } catch let error as RemoteError {
      throw error
    } catch {
      throw .refused(String(describing: error))
    }
  }
}

/// The sync run reaches the server through Core's ``SyncServer``.
extension RemoteServer: SyncServer {}
