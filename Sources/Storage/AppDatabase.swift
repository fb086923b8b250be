import CSQLiteShim
import Core
import Foundation
import GRDB
import GRDBSQLite
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The ootd database: owns the schema, every read and every write.
///
/// Open it once per command with ``open(path:)``. Each public method runs in one transaction,
/// so a failed command leaves the file as it was, and several ootd processes can write at once:
/// the file is in WAL mode and writers wait for each other (busy timeout) instead of failing.
public final class AppDatabase: DatabaseStore {
  /// `PRAGMA application_id` of every ootd database: the bytes "ootd".
  static let applicationID: Int32 = 0x6F6F_7464

  let writer: any DatabaseWriter
  /// The file this database lives in (`:memory:` for an in-memory database).
  public let path: String
  /// The command line of the command using this database (`done 12 13`): what the change
  /// journal records for each change it makes.
  public let command: String
  /// This process's hold on the file, for a database opened from a path.
  let claim: FileClaim?
  /// What the file looked like right after migrating, when it is given back unused.
  let unusedMark: WriteMark?
  /// The user's today, when changes through this database plan the day's routine first (see
  /// ``planDueRoutine(on:now:)``); nil never plans by itself.
  public let routineDay: Day?
  /// The `-wal` found at open was one ootd left on purpose, trusted by its marker (see
  /// ``LeftLog``): closing leaves it again when this database wrote nothing.
  let logTrusted: Bool
  /// The folders this process made for a new database file, deepest first (empty when the
  /// file or its folder existed).
  public var madeFolders: [String] { claim?.found == .nothing ? claim?.madeFolders ?? [] : [] }

  /// Opens `writer`'s database (any GRDB writer: a file's queue, or an in-memory one in tests),
  /// refusing foreign or newer databases and migrating it to the current schema.
  ///
  /// - Parameter command: what the journal records as the command of changes made through it.
  /// - Parameter routineDay: plan this day's routine before each change (see ``routineDay``).
  public convenience init(_ writer: any DatabaseWriter, command: String = "", routineDay: Day? = nil)
    throws(StorageError)
  {
    self.init(writer: writer, path: writer.path, command: command, routineDay: routineDay)
    try checkIdentityAndMigrate()
    Self.dropStatementAuthorizer(writer)
    markHandedOver()
  }

  /// The rows this connection had changed when the database was handed to its command (after
  /// migrating): what ``hasChanged`` counts from.
  private let changesWhenHandedOver = Mutex(0)

  private var changesSoFar: Int { (try? writer.unsafeReentrantRead { $0.totalChangesCount }) ?? 0 }

  private func markHandedOver() { changesWhenHandedOver.withLock { $0 = changesSoFar } }

  /// Whether the command using this database changed any row through it (a change, a setting,
  /// a sync's bookkeeping): the one question the dispatcher asks when the command's output
  /// could not be written. Asked before ``close()``.
  public var hasChanged: Bool { changesSoFar > changesWhenHandedOver.withLock { $0 } }

  init(
    writer: any DatabaseWriter, path: String, command: String, claim: FileClaim? = nil,
    unusedMark: WriteMark? = nil, routineDay: Day? = nil, logTrusted: Bool = false
  ) {
    self.logTrusted = logTrusted
    self.writer = writer
    self.path = path
    self.command = command
    self.claim = claim
    self.unusedMark = unusedMark
    self.routineDay = routineDay
  }

  /// Whether this database can be written (false for a read-only file opened for reading).
  public var isWritable: Bool { !writer.configuration.readonly }

  /// A file this process made (or found empty) and nobody has written to since it was migrated
  /// is given back: removed with the folders made for it (or emptied again), so a command that
  /// failed leaves no database behind.
  deinit {
    // Released without ``close()``: give an unused file back; the connection closes with its
    // queue (which another AppDatabase may share, e.g. the one that checked the file).
    if !closed.withLock({ $0 }) { giveBackIfUnused() }
  }

  /// Whether ``close()`` ran.
  private let closed = Mutex(false)

  /// What releasing the database does, now: gives the file back when nothing was written to a
  /// file this database created (see ``open(path:command:givesBackUnused:routineDay:)``), and
  /// closes the connection (which folds the write-ahead log into the file). Once closed, the
  /// database must not be used. Closing twice does nothing.
  ///
  /// When the database wrote nothing but the routine's derived rows (``writeDerived(_:)``), or
  /// nothing at all on a log it trusted at open, the connection closes without the checkpoint,
  /// and the log stays with a marker beside it that the next open trusts (see ``LeftLog`` and
  /// docs/decisions/routine-durability.md): neither pays the checkpoint's syncs. The next
  /// command that writes anything else checkpoints on close as before.
  public func close() {
    guard closed.withLock({ closed in defer { closed = true }; return !closed }) else { return }
    if leavesLog, let claim, let queue = writer as? DatabaseQueue {
      let left = queue.writeWithoutTransaction { db in
        ootd_sqlite_no_checkpoint_on_close(db.sqliteConnection) == SQLITE_OK
      }
      try? queue.close()
      // Marked only when no other ootd process has the file: then the log is exactly what the
      // connections that wrote it left. Else the last one to close checkpoints it.
      if !(left && claim.whileExclusive(path, { LeftLog.mark(path) })) { LeftLog.forget(path) }
      return
    }
    giveBackIfUnused()
    try? (writer as? DatabaseQueue)?.close()
    if claim != nil { LeftLog.forget(path) }
  }

  /// The rows this connection changed through ``writeDerived(_:)``, in all (nil: it never ran).
  private let derivedChanges = Mutex<Int?>(nil)

  /// Whether closing leaves the write-ahead log behind: nothing but derived rows written (or
  /// nothing at all on a trusted log), on a file, with a log small enough (``LeftLog/largestLeft``).
  private var leavesLog: Bool {
    guard claim != nil else { return false }
    let derived = derivedChanges.withLock { $0 }
    guard derived != nil || logTrusted else { return false }
    guard changesSoFar - changesWhenHandedOver.withLock({ $0 }) == derived ?? 0 else { return false }
    return LeftLog.isSmall(path)
  }

  /// Runs `body` in one write transaction of rows derived from others, which the next command
  /// derives again when a power cut loses them (the routine's todos, planned by themselves):
  /// committed without the log's `fsync` (`synchronous = NORMAL`; WAL keeps it atomic), and
  /// remembered, so that ``close()`` leaves the log behind when nothing else was written.
  func writeDerived<T>(_ body: (Database) throws -> T) throws(StorageError) -> T {
    guard claim != nil else { return try write(body) }
    let before = changesSoFar
    do {
      let value = try writer.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA synchronous = NORMAL")
        defer { try? db.execute(sql: "PRAGMA synchronous = FULL") }
        var value: T?
        try db.inTransaction {
          value = try body(db)
          return .commit
        }
        return value!
      }
      let changed = changesSoFar - before
      derivedChanges.withLock { $0 = ($0 ?? 0) + changed }
      return value
    } catch {
      throw Self.map(error, path: path)
    }
  }

  /// SQLite's process-wide settings, made once before the first connection: its memory
  /// statistics off (every allocation and free took a global mutex for counters ootd never reads;
  /// ~0.3 M instructions of an `ootd add`). Too late when SQLite was used already (tests that
  /// opened an in-memory database first), which changes nothing.
  private static let sqliteSettings: Void = {
    _ = ootd_sqlite_disable_memstatus()
    _ = ootd_sqlite_no_bulk_page_cache()
  }()

  #if DEBUG
  /// The full-disk seam of debug builds (`OOTD_FAULT=wal-index:N:full`, see the CLI's
  /// DebugSeams.swift): from SQLite's Nth map of a wal-index on, the `-shm` cannot grow, as on a
  /// full disk. Call it before the first connection opens.
  public static func failWALIndexGrowth(from count: Int) {
    _ = sqliteSettings
    _ = ootd_sqlite_fail_wal_index_growth(Int32(clamping: count))
  }
  #endif

  /// Foreign keys on, as GRDB's `foreignKeysEnabled` turns them on, by a plain statement: GRDB
  /// runs its pragma through an SQL literal, whose `joined()` is the process's first call of the
  /// standard library's generic one, and that resolves an associated type by a scan of the
  /// binary's conformance records (0.3 M instructions of every command, issue 25). So do the
  /// other statements a listing runs (``Array/concatenated(separator:)``).
  private static func enableForeignKeysByStatement(_ configuration: inout Configuration) {
    configuration.foreignKeysEnabled = false
    configuration.prepareDatabase { db in try db.makeStatement(sql: "PRAGMA foreign_keys = ON").execute() }
  }

  /// Opens (creating when missing, with mode 0600 and its folders) the ootd database at `path`,
  /// migrating it to the current schema: the live factory every command uses.
  ///
  /// - Parameters:
  ///   - command: what the journal records as the command of changes made through it.
  ///   - givesBackUnused: when the file did not exist (or was empty) and nothing is written to it
  ///     before the database is released, remove it and the folders made for it (or empty it
  ///     again): a failed command leaves no database behind. Never while another ootd process
  ///     has it open, nor when anyone wrote to it.
  /// - Throws: ``StorageError`` when the path is a directory or cannot be written, when the file
  ///   is not an ootd database (it is then left untouched), or when a newer ootd wrote it.
  ///   - routineDay: plan this day's routine before each change (see ``routineDay``).
  public static func open(
    path: String, command: String = "", givesBackUnused: Bool = false, routineDay: Day? = nil
  ) throws(StorageError) -> AppDatabase {
    _ = sqliteSettings
    try checkLocation(path)
    let claim = try FileClaim.take(path) { () throws(StorageError) in
      try prepareFile(at: path)
    }
    let found: StaleLog.Outcome?
    do {
      found = try claim?.whileAlone { () throws(StorageError) in try StaleLog.check(path) }
    } catch {
      claim?.removeMade(path)
      throw error
    }
    var configuration = Configuration()
    configuration.busyMode = .timeout(30)
    configuration.label = "ootd"
    enableForeignKeysByStatement(&configuration)
    let queue: DatabaseQueue
    do {
      queue = try DatabaseQueue(path: path, configuration: configuration)
    } catch {
      throw openFailed(map(error, path: path), claim: claim)
    }
    do {
      try AppDatabase(writer: queue, path: path, command: command).checkIdentityAndMigrate()
    } catch {
      if error == .diskFull(path) { try? queue.close() }
      throw openFailed(error, claim: claim)
    }
    dropStatementAuthorizer(queue)
    var unusedMark: WriteMark?
    if givesBackUnused, let claim, claim.found != .database {
      do {
        unusedMark = try WriteMark.read(queue)
      } catch {
        throw map(error, path: path)
      }
    }
    let database = AppDatabase(
      writer: queue, path: path, command: command, claim: claim, unusedMark: unusedMark,
      routineDay: routineDay, logTrusted: found == .trusted)
    database.markHandedOver()
    return database
  }

  /// What an open that failed throws: `error`, after removing, on a full disk, what SQLite made
  /// beside the file before it failed (see ``FileClaim/removeStrayCompanions(_:)``), so that
  /// nothing is left that the next open would have to get past, and the file this process made
  /// for the command, with its folders (a failed command leaves no database behind).
  private static func openFailed(_ error: StorageError, claim: FileClaim?) -> StorageError {
    guard case .diskFull(let path) = error, let claim else { return error }
    claim.removeStrayCompanions(path)
    if access(path + "-wal", F_OK) != 0 { _ = claim.whileExclusive(path) { claim.removeMade(path) } }
    return error
  }

  /// Opens the ootd database at `path` for a command that only reads it. A file this process may
  /// write opens as ``open(path:command:givesBackUnused:)`` does; a read-only one (mode 0400, a
  /// read-only folder or mount: a backup, a snapshot) opens read-only, without creating a `-wal`
  /// or `-shm` beside it, as long as it needs no migration. So does a writable one whose open
  /// failed for lack of space (SQLite could not make the `-shm` it writes through): a full disk
  /// costs no reading (issue 21).
  ///
  /// - Throws: as ``open(path:command:givesBackUnused:)`` does, and ``StorageError/cannotOpen(path:reason:)``
  ///   when a read-only file was written by an older ootd and needs migrating.
  public static func openForReading(path: String, command: String = "") throws(StorageError)
    -> AppDatabase
  {
    _ = sqliteSettings
    let folder = folder(of: path)
    guard access(path, F_OK) == 0,
      access(path, W_OK) != 0 || access(folder.isEmpty ? "." : folder, W_OK) != 0
    else {
      do {
        return try open(path: path, command: command, givesBackUnused: true)
      } catch .diskFull(let path) {
        // Read as a read-only file is; when even that fails, the full disk is what to say.
        guard let database = try? openReadOnly(path: path, command: command) else {
          throw .diskFull(path)
        }
        return database
      }
    }
    return try openReadOnly(path: path, command: command)
  }

  /// Opens the file at `path` read-only: see ``openForReading(path:command:)``.
  private static func openReadOnly(path: String, command: String) throws(StorageError) -> AppDatabase {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      throw .pathIsDirectory(path)
    }
    try checkLocation(path)
    let claim = try FileClaim.take(path) { () throws(StorageError) in (.database, []) }
    try claim?.whileAlone { () throws(StorageError) in try StaleLog.check(path) }
    var configuration = Configuration()
    configuration.readonly = true
    configuration.busyMode = .timeout(30)
    configuration.label = "ootd"
    enableForeignKeysByStatement(&configuration)
    // Without a -wal nobody is writing to the file (nobody could create the -wal): read it as it
    // is (`immutable`), which needs no -shm either. With one, SQLite reads through it.
    let location = access(path + "-wal", F_OK) == 0 ? path : immutableURI(path)
    let queue: DatabaseQueue
    do {
      queue = try DatabaseQueue(path: location, configuration: configuration)
    } catch {
      throw map(error, path: path)
    }
    let database = AppDatabase(writer: queue, path: path, command: command, claim: claim)
    try database.checkIdentityAndMigrate(readOnly: true)
    dropStatementAuthorizer(queue)
    return database
  }

  /// Whether the file at `path` already holds todos, projects or blocks of the user's, looked at
  /// through a read-only connection, so the file stays byte-identical whatever the answer.
  /// A missing or empty file holds nothing; a file that is not an SQLite database counts as
  /// holding data (it is someone's).
  public static func hasUserData(atPath path: String) -> Bool {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path)
    guard let attributes, (attributes[.size] as? NSNumber)?.intValue ?? 0 > 0 else { return false }
    var configuration = Configuration()
    configuration.readonly = true
    configuration.busyMode = .timeout(30)
    do {
      let queue = try DatabaseQueue(path: path, configuration: configuration)
      return try queue.read { db in
        for (table, condition) in [("todo", "1"), ("project", "1"), ("block", "builtIn = 0")]
        where try db.tableExists(table) {
          if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE \(condition))") == true {
            return true
          }
        }
        return false
      }
    } catch {
      return true
    }
  }

  /// An empty, migrated database in memory: for tests and previews.
  public static func inMemory(command: String = "") throws(StorageError) -> AppDatabase {
    do {
      return try AppDatabase(DatabaseQueue(), command: command)
    } catch let error as StorageError {
      throw error
    } catch {
      throw map(error, path: ":memory:")
    }
  }

  /// Refuses foreign and newer databases before writing anything, then turns on WAL, claims a
  /// fresh file as ootd's and migrates.
  ///
  /// - Parameter readOnly: the file cannot be written: refuse one that needs a write instead.
  private func checkIdentityAndMigrate(readOnly: Bool = false) throws(StorageError) {
    // The migrator is built only when a migration runs or a newer schema is reported: building
    // it registers every migration (0.06 M instructions), which an up-to-date file never needs
    // beyond their names.
    do {
      // Two statements answer everything an up-to-date database needs, the common case, outside
      // any transaction (which would cost every command two more statements to prepare): once
      // a file carries ootd's id it keeps it, and its migrations only grow, so reading them
      // after the id gives what one snapshot taken then would.
      let known = Self.migrationIdentifiers
      let (identity, superseded, complete) = try writer.unsafeRead { db in
        if try Self.carriesOotdID(db) {
          let applied = try Self.appliedMigrations(db)
          return (Identity.ootd, !applied.isSubset(of: known), known.isSubset(of: applied))
        }
        // Not (yet) ootd's: look closer, in one transaction. Another process may have claimed
        // and migrated the file since the statement above: then its migrations are read in the
        // same snapshot, as they were before, rather than taken as none (which would make a
        // read-only open report an upgrade that is not needed).
        return try db.readOnly {
          var found = (Identity.fresh, false, false)
          try db.inTransaction(.deferred) {
            let identity = try Self.identity(db)
            if identity == .ootd {
              let applied = try Self.appliedMigrations(db)
              found = (identity, !applied.isSubset(of: known), known.isSubset(of: applied))
            } else {
              found = (identity, false, false)
            }
            return .commit
          }
          return found
        }
      }
      switch identity {
      case .foreign:
        throw StorageError.foreignDatabase(path)
      case .ootd:
        if superseded {
          let unknown = try writer.read { db in
            try Self.migrator.appliedIdentifiers(db).subtracting(known).sorted()
          }
          throw StorageError.newerSchema(path: path, unknownMigrations: unknown)
        }
        if complete { return }
        if readOnly {
          throw StorageError.cannotOpen(
            path: path, reason: "the file is read-only and an older ootd wrote it: it needs upgrading")
        }
      case .fresh:
        if readOnly { throw StorageError.cannotOpen(path: path, reason: "the file is read-only") }
        if path != ":memory:" && !path.isEmpty { try enableWAL() }
        // Claim the file in one write transaction, checking again under the lock: another
        // process may have claimed (or filled) it since we looked.
        try writer.write { db in
          switch try Self.identity(db) {
          case .foreign: throw StorageError.foreignDatabase(path)
          case .ootd: break
          case .fresh:
            // GRDB's own table, created here (with GRDB's definition) so that a file that
            // carries our id always has it, whoever looks in the middle of the migration.
            try db.execute(
              sql: """
                PRAGMA application_id = \(Self.applicationID);
                CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                """)
          }
        }
      }
      try migrateRetryingRaces(Self.migrator)
    } catch let error as StorageError {
      throw error
    } catch {
      throw Self.map(error, path: path)
    }
  }

  /// The migrations applied to the file (GRDB's table), read through a row cursor: GRDB's
  /// `appliedIdentifiers` fetches a `Set<String>` through a cursor type whose first use costs
  /// every command a scan of the binary's conformance records.
  private static func appliedMigrations(_ db: Database) throws -> Set<String> {
    var applied: Set<String> = []
    let rows = try Row.fetchCursor(db.makeStatement(sql: "SELECT identifier FROM grdb_migrations"))
    while let row = try rows.next() { applied.insert(row[0]) }
    return applied
  }

  /// The file's `PRAGMA application_id` (the statement is kept: ``identity(_:)`` may ask again).
  private static func storedApplicationID(_ db: Database) throws -> Int32 {
    try Int32.fetchOne(db.cachedStatement(sql: "PRAGMA application_id")) ?? 0
  }

  /// Whether the file carries ootd's application id.
  private static func carriesOotdID(_ db: Database) throws -> Bool {
    try storedApplicationID(db) == applicationID
  }

  /// Whose file this is.
  enum Identity { case fresh, ootd, foreign }

  /// An ootd file carries our application id; a fresh one has no id and nothing in it (or only
  /// the empty migrations table GRDB creates first); anything else belongs to another program.
  static func identity(_ db: Database) throws -> Identity {
    let appID = try storedApplicationID(db)
    if appID == applicationID { return .ootd }
    if appID != 0 { return .foreign }
    let objects = try String.fetchAll(
      db, sql: "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    if objects.isEmpty { return .fresh }
    if objects == ["grdb_migrations"],
      try Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations") == 0
    {
      return .fresh
    }
    return .foreign
  }

  /// Turns on WAL mode. Switching needs a moment alone with the file, and SQLite reports a busy
  /// file at once (without its busy timeout) when openers race on a fresh one: so retry briefly.
  private func enableWAL() throws {
    var attempt = 0
    while true {
      do {
        try writer.writeWithoutTransaction { db in
          if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
            try db.execute(sql: "PRAGMA journal_mode = WAL")
          }
        }
        return
      } catch let error as DatabaseError
        where (error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED) && attempt < 200
      {
        attempt += 1
        usleep(10_000)
      }
    }
  }

  /// Runs the migrations. Two processes opening a fresh file at once may both try the same
  /// migration; the loser's transaction fails and rolls back, and a second pass finds it applied.
  private func migrateRetryingRaces(_ migrator: DatabaseMigrator) throws {
    var attempt = 0
    while true {
      do {
        try migrator.migrate(writer)
        return
      } catch {
        attempt += 1
        let done = (try? writer.read { try migrator.hasCompletedMigrations($0) }) ?? false
        if done { return }
        if attempt >= 3 { throw error }
      }
    }
  }

  /// Translates a GRDB or SQLite error into a ``StorageError``.
  static func map(_ error: any Error, path: String) -> StorageError {
    if let error = error as? StorageError { return error }
    if let error = error as? DatabaseError {
      // SQLite could not grow the wal-index (`-shm`): writing its pages failed, for lack of space.
      if error.extendedResultCode == .SQLITE_IOERR_SHMSIZE { return .diskFull(path) }
      switch error.resultCode {
      case .SQLITE_NOTADB: return .notADatabase(path)
      case .SQLITE_FULL: return .diskFull(path)
      case .SQLITE_CANTOPEN: return .cannotOpen(path: path, reason: error.message ?? "cannot open")
      case .SQLITE_READONLY, .SQLITE_PERM:
        return .cannotOpen(path: path, reason: "the file is read-only")
      default: return .sqlite(error.message ?? "\(error.resultCode)")
      }
    }
    return .sqlite(String(describing: error))
  }
}

// MARK: - The connection

extension AppDatabase {
  /// Takes GRDB's statement authorizer off the connection once the schema is migrated: every
  /// statement prepared after that is compiled without a call into Swift for each table and
  /// column it touches.
  ///
  /// GRDB registers one authorizer per connection (`sqlite3_set_authorizer`) and SQLite calls it
  /// while compiling, for every column read and every table written: GRDB builds a `String` of
  /// each name and a `DatabaseRegion` of them, to learn what a statement reads (for
  /// `ValueObservation` and `DatabaseRegionObservation`), what it writes (for transaction
  /// observers, and to keep `DELETE` from taking SQLite's truncate shortcut behind an observer's
  /// back), whether it begins or ends a transaction (for a suspended database), and whether it
  /// changes the schema (to clear GRDB's schema cache). It was 1.2 M of `ootd done`'s 6.9 M
  /// instructions and 1.8 M of `ootd list`'s 8.1 M (issue 25). ootd asks none of those
  /// questions after migrating: it registers no transaction observer and no observation (the
  /// TUI polls `PRAGMA data_version`), never suspends a database, and changes no schema outside
  /// the migrations, which run before this (GRDB's schema cache stays right: the schema it
  /// cached is the one that stays). Writes still go through GRDB (its transactions, the journal's
  /// statements); only the bookkeeping nobody reads is skipped. Removing an authorizer expires no
  /// prepared statement (SQLite expires them only when one is set). `StatementAuthorizerTests`
  /// checks that every way of opening leaves no authorizer, and that a fresh file still migrates,
  /// writes, journals and undoes.
  static func dropStatementAuthorizer(_ writer: any DatabaseWriter) {
    writer.writeWithoutTransaction { db in
      _ = sqlite3_set_authorizer(db.sqliteConnection, nil, nil)
    }
  }

  /// Makes this connection's commits skip the fsync (`PRAGMA synchronous = NORMAL`), for a sync
  /// that writes a transaction per page. In WAL mode a committed page still survives ootd being
  /// killed; only an OS crash or power loss can lose the last pages, and the next sync fetches
  /// them again because the listing's starting point had not moved.
  public func preferSpeedOverDurabilityForCachedData() throws(StorageError) {
    do {
      try writer.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA synchronous = NORMAL")
      }
    } catch {
      throw Self.map(error, path: path)
    }
  }
}
