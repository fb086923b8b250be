import Core
import Remote
import Storage

/// Which PostgreSQL server a command talks to, and how it connects: `OOTD_REMOTE` for one
/// command, else the URI `ootd remote set` saved in the database. libpq is loaded only here,
/// when a command actually needs the server.
struct RemoteAccess {
  /// The URI (never holding a password).
  let uri: ConnectionURI
  /// Where it came from, for messages: `OOTD_REMOTE` or `saved`.
  let source: String
  /// The display name `remote set --name` saved, if any.
  let displayName: String?
  /// Where a plaintext connection's warning goes.
  let environment: AppEnvironment

  /// The server `environment` names, or ``RemoteError/noServer``. `database` is opened only
  /// when `OOTD_REMOTE` is not set (pass nil to use only the variable).
  static func resolve(_ environment: AppEnvironment, database: () throws -> AppDatabase?) throws -> RemoteAccess {
    let saved = try database()
    let name = try saved?.settings.remoteSetting(.displayName)
    if let variable = environment.variables["OOTD_REMOTE"], !variable.isEmpty {
      return RemoteAccess(uri: try checked(variable), source: "OOTD_REMOTE", displayName: name, environment: environment)
    }
    guard let text = try saved?.settings.remoteSetting(.uri) else { throw RemoteError.noServer }
    return RemoteAccess(uri: try checked(text), source: "saved", displayName: name, environment: environment)
  }

  /// The server's URI text for a command that has its database open: `OOTD_REMOTE`, else the
  /// saved URI, checked as ``resolve(_:database:)`` checks it.
  static func uri(_ environment: AppEnvironment, database: AppDatabase) throws -> String {
    try resolve(environment, database: { database }).uri.text
  }

  /// The account a sync reaches, what a database's sync state belongs to
  /// (``SyncState/beginSync(fileIdentity:account:now:)``): the identity `server` holds for its
  /// role (``RemoteServer/accountIdentity``), named by its role on the server the URI names
  /// (`alice@db.example.com:5432/ootd`).
  func account(_ server: RemoteServer) -> SyncAccount {
    let role = server.connection.role
    let options = uri.options
    let host = options["host"] ?? options["hostaddr"] ?? "localhost"
    return SyncAccount(
      identity: server.accountIdentity,
      name: "\(role)@\(host):\(options["port"] ?? "5432")/\(options["dbname"] ?? role)")
  }

  /// `text` parsed by libpq, refused when it holds a password.
  static func checked(_ text: String) throws(RemoteError) -> ConnectionURI {
    let uri = try ConnectionURI(text)
    if uri.hasPassword { throw RemoteError.passwordInURI }
    return uri
  }

  /// A connection to the server. A connection that is not encrypted (libpq's default
  /// `sslmode=prefer` falls back to plaintext when the server offers no TLS) to a host other than
  /// this machine is used, with a one-line warning.
  /// `prefetching`: statements sent in the connection's own round trip.
  func connect(prefetching: [PostgresStatement] = []) throws(RemoteError) -> PostgresConnection {
    let connection = try PostgresConnection(uri: uri.text, prefetching: prefetching)
    if !connection.isEncrypted && !connection.isLoopback {
      environment.printError(
        TerminalText.printable(
          "ootd: warning: the connection to \(connection.host) is not encrypted (the server offers no TLS): add sslmode=verify-full to the URI to refuse such connections"))
    }
    return connection
  }

  /// A connection checked for the ootd schema and the role's membership.
  func server() throws(RemoteError) -> RemoteServer {
    // Its checks travel with the connection's set-up: one round trip.
    try RemoteServer(connection: connect(prefetching: RemoteServer.openingStatements))
  }

  /// Gives the server the display name `remote set --name` saved, so that a team shows it at
  /// once (`remote sync` shares it too); without one the server keeps what it has.
  func shareDisplayName(_ server: RemoteServer) throws(RemoteError) {
    if let displayName { try server.setDisplayName(displayName) }
  }

  /// The URI to show.
  var shown: String { TerminalText.printable(uri.description) }
}

extension GlobalOptions {
  /// The server for a `remote` or `team` command: reads the database (read-only) only when
  /// `OOTD_REMOTE` is not set.
  func remoteAccess(_ environment: AppEnvironment) throws -> RemoteAccess {
    try RemoteAccess.resolve(environment) {
      let variable = environment.variables["OOTD_REMOTE"] ?? ""
      return variable.isEmpty ? try openDatabase(environment, readOnly: true) : try? openDatabase(environment, readOnly: true)
    }
  }
}
