import CLibPQShim
import Foundation

/// The rows a query returned, every value in PostgreSQL's text format (nil for SQL NULL).
public struct PostgresRows: Sendable, Equatable {
  /// The column names, in order.
  public let columns: [String]
  /// The rows, each with one value a column.
  public let rows: [[String?]]

  public init(columns: [String], rows: [[String?]]) {
    self.columns = columns
    self.rows = rows
  }

  /// The value of `column` in row `row`, or nil (NULL, or no such column).
  public func value(_ row: Int, _ column: String) -> String? {
    guard let index = columns.firstIndex(of: column), rows.indices.contains(row) else { return nil }
    return rows[row][index]
  }
}

/// One statement of a ``PostgresConnection/pipeline(_:)``: SQL with its parameters ($1, $2, … in
/// text format; nil is NULL).
public struct PostgresStatement: Sendable, Hashable {
  public var sql: String
  public var params: [String?]

  public init(_ sql: String, _ params: [String?] = []) {
    self.sql = sql
    self.params = params
  }
}

/// One connection to a PostgreSQL server through libpq, loaded with dlopen on first use.
///
/// The password is never ootd's business: libpq reads it from the URI, `PGPASSWORD`, `~/.pgpass`
/// or a service file, and every message this type throws is scrubbed of it. Connecting waits at
/// most 10 seconds unless the URI sets `connect_timeout`; a server that stops during a statement
/// ends it with ``RemoteError/connectionLost(_:)``, and one that vanishes silently is noticed by
/// TCP keepalives (30 s idle, then 3 probes 10 s apart) unless the URI sets its own.
///
/// Not thread-safe: use one connection from one thread at a time.
public final class PostgresConnection {
  /// The seconds a connection attempt may take when the URI does not say.
  public static let defaultConnectTimeout = 10

  private let handle: UnsafeMutableRawPointer
  /// Secrets to scrub from messages: the password the connection used.
  private let secrets: [String]
  /// The URI without its password, for messages.
  public let displayURI: String

  /// Connects to the server `uri` names (a libpq URI or conninfo string). `prefetching`:
  /// statements sent in the same round trip as the connection's own set-up, their answers kept
  /// for ``answers(to:)`` (a short command such as a sync with nothing to do is mostly round
  /// trips).
  public init(uri: String, prefetching: [PostgresStatement] = []) throws(RemoteError) {
    let parsed = try ConnectionURI(uri)
    displayURI = parsed.description
    var error = [CChar](repeating: 0, count: 1024)
    // Entries before the expanded `dbname` are defaults the URI's own values override. TCP
    // keepalives notice a server that vanished without closing the connection (about a minute)
    // instead of waiting forever for its answer.
    let keywords = [
      "connect_timeout", "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count",
      "fallback_application_name", "dbname",
    ]
    let values = [String(Self.defaultConnectTimeout), "1", "30", "10", "3", "ootd", uri]
    let connection = withCStrings(keywords) { keywordPointers in
      withCStrings(values) { valuePointers in
        ootd_pq_connect(keywordPointers, valuePointers, &error, error.count)
      }
    }
    let uriSecrets = parsed.secrets
    guard let connection else {
      throw .unreachable(Redaction.oneLine(Redaction.string(error), secrets: uriSecrets))
    }
    handle = connection
    let used = ootd_pq_password(connection).map { String(cString: $0) }
    secrets = (uriSecrets + [used].compactMap { $0 }).filter { !$0.isEmpty }
    host = ootd_pq_host(connection).map { String(cString: $0) } ?? ""
    isEncrypted = ootd_pq_ssl_in_use(connection) == 1
    // Every statement is bounded: another session's lock (or a stuck server) fails it with
    // ``RemoteError/lockTimeout(_:)`` or ``RemoteError/statementTimeout(_:)`` instead of an
    // endless silent wait. One round trip with the role, and with the statements prefetched
    // (each in its own transaction: one failing leaves the settings in place).
    let setUp = PostgresStatement(
      """
      SELECT current_user, pg_catalog.set_config('lock_timeout', $1, false),
        pg_catalog.set_config('statement_timeout', $2, false)
      """, ["\(Self.lockTimeout)s", "\(Self.statementTimeout)s"])
    var answers = pipeline([setUp] + prefetching)
    role = try answers.removeFirst().get().rows.first?.first.flatMap { $0 } ?? ""
    if !prefetching.isEmpty { prefetched = (prefetching, answers) }
  }

  /// Statements sent with the connection's set-up, and their answers, until ``answers(to:)``
  /// takes them.
  private var prefetched: (statements: [PostgresStatement], answers: [Result<PostgresRows, RemoteError>])?

  /// The answers to `statements`: those prefetched when the connection was made (once), when
  /// they are these statements, else run now in one round trip (``pipeline(_:)``).
  public func answers(to statements: [PostgresStatement]) -> [Result<PostgresRows, RemoteError>] {
    if let prefetched, prefetched.statements == statements {
      self.prefetched = nil
      return prefetched.answers
    }
    return pipeline(statements)
  }

  /// The seconds a statement waits for another session's lock before failing (SQLSTATE 55P03).
  public static let lockTimeout = 10
  /// The seconds a statement may run before the server cancels it (SQLSTATE 57014).
  public static let statementTimeout = 25

  /// The host the connection reached: a name, an address, or a Unix socket's directory.
  public let host: String
  /// Whether the connection is encrypted with TLS (libpq's `PQsslInUse`).
  public let isEncrypted: Bool

  /// Whether the connection stays on this machine: a Unix socket, `localhost`, 127.0.0.0/8 or
  /// ::1. A plaintext connection elsewhere is worth a warning (``isEncrypted``).
  public var isLoopback: Bool { Self.isLoopback(host: host) }

  /// Whether `host` (as libpq reports it) names this machine.
  public static func isLoopback(host: String) -> Bool {
    // A Unix socket: a directory ("/run/postgresql") or an abstract one ("@name"); libpq uses
    // its default socket when no host is given.
    if host.isEmpty || host.hasPrefix("/") || host.hasPrefix("@") { return true }
    let name = host.lowercased()
    if name == "localhost" || name.hasSuffix(".localhost") || name == "::1" || name == "[::1]" { return true }
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
  }

  deinit { ootd_pq_finish(handle) }

  /// Runs one statement with `params` ($1, $2, … in text format; nil is NULL) and returns its rows.
  public func query(_ sql: String, _ params: [String?] = []) throws(RemoteError) -> PostgresRows {
    try Self.checkNoNUL(params)
    let result: UnsafeMutableRawPointer? = withOptionalCStrings(params) { pointers in
      ootd_pq_exec(handle, sql, Int32(params.count), pointers)
    }
    return try rows(of: result, sql: sql)
  }

  /// Runs one statement with `params` that returns no rows. Without `params`, `sql` may hold
  /// several statements separated by semicolons (a migration step).
  public func execute(_ sql: String, _ params: [String?] = []) throws(RemoteError) {
    try Self.checkNoNUL(params)
    let result: UnsafeMutableRawPointer?
    if params.isEmpty {
      result = ootd_pq_exec(handle, sql, 0, nil)
    } else {
      result = withOptionalCStrings(params) { pointers in
        ootd_pq_exec(handle, sql, Int32(params.count), pointers)
      }
    }
    _ = try rows(of: result, sql: sql)
  }

  /// Runs `statements` as ``query(_:_:)`` runs each, in order, each on its own (outside a
  /// transaction, each in its own: one failing does not undo or stop the others), and returns
  /// each one's rows or error. With a libpq that has pipeline mode (14 and later) they travel in
  /// one round trip: every statement is sent, then every answer read. For a few small
  /// statements only: nothing is read until everything is sent. `answered` is called with each
  /// statement's index as its answer arrives.
  public func pipeline(
    _ statements: [PostgresStatement], answered: (Int) -> Void = { _ in }
  ) -> [Result<PostgresRows, RemoteError>] {
    guard statements.count > 1, !statements.contains(where: { Self.holdsNUL($0.params) }),
      ootd_pq_has_pipeline() == 1, ootd_pq_enter_pipeline(handle) == 1
    else {
      return statements.indices.map { index in
        defer { answered(index) }
        return Result { () throws(RemoteError) in try query(statements[index].sql, statements[index].params) }
      }
    }
    // Each statement is followed by a sync: its own implicit transaction, as PQexec runs it.
    var sent = 0
    for statement in statements {
      let queued = withOptionalCStrings(statement.params) { pointers in
        ootd_pq_send(handle, statement.sql, Int32(statement.params.count), pointers)
      }
      guard queued == 1, ootd_pq_pipeline_sync(handle) == 1 else { break }
      sent += 1
    }
    var answers: [Result<PostgresRows, RemoteError>] = []
    for (index, statement) in statements[..<sent].enumerated() {
      let result = ootd_pq_get_result(handle)
      answered(index)
      answers.append(Result { () throws(RemoteError) in try rows(of: result, sql: statement.sql) })
      // The end of the statement's results (NULL), then its sync point.
      if result != nil {
        while let extra = ootd_pq_get_result(handle) { ootd_pq_clear(extra) }
      }
      if let sync = ootd_pq_get_result(handle) { ootd_pq_clear(sync) }
    }
    while let extra = ootd_pq_get_result(handle) { ootd_pq_clear(extra) }
    _ = ootd_pq_exit_pipeline(handle)
    let lost = RemoteError.connectionLost(
      Redaction.statementMessage(String(cString: ootd_pq_error_message(handle)), secrets: secrets))
    return answers + statements[sent...].map { _ in .failure(lost) }
  }

  /// Runs `body` in a transaction: COMMIT when it returns, ROLLBACK when it throws.
  public func transaction<T>(_ body: () throws -> T) throws -> T {
    try execute("BEGIN")
    do {
      let value = try body()
      try execute("COMMIT")
      return value
    } catch {
      if ootd_pq_status(handle) == 0 { try? execute("ROLLBACK") }
      throw error
    }
  }

  /// The role the connection acts as (`current_user` when it connected).
  public private(set) var role: String = ""

  /// Whether the connection still works (false after the server went away).
  public var isUsable: Bool { ootd_pq_status(handle) == 0 }

  /// PostgreSQL text cannot hold NUL, and a C string would silently end there: refuse it.
  private static func checkNoNUL(_ params: [String?]) throws(RemoteError) {
    if holdsNUL(params) { throw nulRefused }
  }

  private static let nulRefused = RemoteError.refused("a value holds a NUL character, which PostgreSQL text cannot store")

  private static func holdsNUL(_ params: [String?]) -> Bool {
    // Scanned as contiguous bytes (memchr): a push's parameters are megabytes of payloads.
    func holdsNUL(_ text: String) -> Bool {
      var text = text
      return text.withUTF8 { bytes in bytes.count > 0 && memchr(bytes.baseAddress!, 0, bytes.count) != nil }
    }
    return params.contains { $0.map(holdsNUL) == true }
  }

  // MARK: - Results

  private func rows(of result: UnsafeMutableRawPointer?, sql: String) throws(RemoteError) -> PostgresRows {
    guard let result else {
      throw failure(message: String(cString: ootd_pq_error_message(handle)), sqlState: "", sql: sql)
    }
    defer { ootd_pq_clear(result) }
    let status = ootd_pq_result_status(result)
    guard status == OOTD_PGRES_COMMAND_OK || status == OOTD_PGRES_TUPLES_OK
      || status == OOTD_PGRES_EMPTY_QUERY
    else {
      throw failure(
        message: String(cString: ootd_pq_result_error(result)),
        sqlState: String(cString: ootd_pq_result_sqlstate(result)), sql: sql)
    }
    let fields = ootd_pq_nfields(result)
    let count = ootd_pq_ntuples(result)
    let columns = (0..<fields).map { String(cString: ootd_pq_fname(result, $0)) }
    var rows: [[String?]] = []
    rows.reserveCapacity(Int(count))
    for row in 0..<count {
      rows.append((0..<fields).map { field in
        ootd_pq_value(result, row, field).map { String(cString: $0) }
      })
    }
    return PostgresRows(columns: columns, rows: rows)
  }

  private func failure(message: String, sqlState: String, sql: String) -> RemoteError {
    let line = Redaction.statementMessage(message, secrets: secrets)
    // A broken connection (class 08, or libpq's own message with no SQLSTATE once the socket
    // closed) is not the statement's fault.
    if ootd_pq_status(handle) != 0 || sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") {
      return .connectionLost(line.isEmpty ? "the server closed the connection" : line)
    }
    if sqlState == "42501" { return .refused("permission denied by the server: \(line)") }
    // lock_timeout and statement_timeout (set at connect): say what the statement waited for.
    if sqlState == "55P03" { return .lockTimeout(Self.subject(of: sql)) }
    if sqlState == "57014" { return .statementTimeout(Self.subject(of: sql)) }
    return .server(sqlState: sqlState, message: line)
  }
}

extension PostgresConnection {
  /// What a statement works on, for a timeout's message: the first `ootd.` table it names.
  static func subject(of sql: String) -> String {
    guard let start = sql.range(of: "ootd.") else { return "what ootd asked for" }
    let name = sql[start.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
    return name.isEmpty ? "what ootd asked for" : "ootd.\(name)"
  }
}

// MARK: - C strings

private func withCStrings<R>(
  _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R
) -> R {
  withOptionalCStrings(strings.map { Optional($0) }) { pointers in
    // The list libpq reads ends with NULL.
    body(pointers!)
  }
}

/// Calls `body` with a NULL-terminated array of C strings (nil entries stay NULL).
private func withOptionalCStrings<R>(
  _ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> R
) -> R {
  let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0)! } }
  defer { copies.forEach { free($0) } }
  let pointers = copies.map { UnsafePointer($0) } + [nil]
  return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}
