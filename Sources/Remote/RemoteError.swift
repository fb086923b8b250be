/// A failure talking to the PostgreSQL server. Each case reads as one line that never holds a
/// password (``PostgresConnection`` scrubs libpq's messages and URIs before they get here).
public enum RemoteError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The URI is not a libpq connection string or URI (exit 64).
  case badURI(String)
  /// The URI holds a password (`password=`, `sslpassword=`), which ootd refuses to store (exit 64).
  case passwordInURI
  /// No server is set: no saved URI and no `OOTD_REMOTE` (exit 64).
  case noServer
  /// libpq (libpq.so.5) could not be loaded (exit 1).
  case libraryUnavailable(String)
  /// The server could not be reached or refused the login (exit 1).
  case unreachable(String)
  /// The connection broke during a command: the server stopped, the network went away (exit 1).
  case connectionLost(String)
  /// The server has no ootd schema (exit 1).
  case noSchema
  /// The server's schema is older than this ootd knows (exit 1).
  case schemaOutdated(server: Int, known: Int)
  /// The server's schema is newer than this ootd knows (exit 1).
  case schemaTooNew(server: Int, known: Int)
  /// The connecting role is not a member of `ootd_member` (exit 1).
  case notMember(role: String)
  /// The server refused an action (a team rule, a privilege) (exit 1 or 64, see ``isUsage``).
  case refused(String)
  /// The server answered a statement with an error (exit 1).
  case server(sqlState: String, message: String)
  /// Another session held a lock the statement needed for longer than
  /// ``PostgresConnection/lockTimeout`` (SQLSTATE 55P03); the associated value names what (exit 1).
  case lockTimeout(String)
  /// The statement ran longer than ``PostgresConnection/statementTimeout`` (SQLSTATE 57014) (exit 1).
  case statementTimeout(String)

  public var description: String {
    switch self {
    case .badURI(let reason): return "not a PostgreSQL connection URI: \(reason)"
    case .passwordInURI:
      return "the URI holds a password (password= or sslpassword=), which ootd never stores: remove it and use PGPASSWORD, ~/.pgpass or a service file"
    case .noServer:
      return "no PostgreSQL server set: run 'ootd remote set URI' (or set OOTD_REMOTE for one command)"
    case .libraryUnavailable(let reason): return "cannot use PostgreSQL: \(reason)"
    case .unreachable(let reason): return "cannot connect to the PostgreSQL server: \(reason)"
    case .connectionLost(let reason): return "lost the connection to the PostgreSQL server: \(reason)"
    case .noSchema:
      return "the server has no ootd schema: run 'ootd remote init' once with a role allowed to create it"
    case .schemaOutdated(let server, let known):
      return "the server's ootd schema is version \(server), this ootd needs \(known): run 'ootd remote init' to migrate it"
    case .schemaTooNew(let server, let known):
      return "the server's ootd schema is version \(server), newer than this ootd knows (\(known)): update ootd"
    case .notMember(let role):
      return "the role '\(role)' is not a member of ootd_member: ask the server's owner to run GRANT ootd_member TO \"\(role)\""
    case .refused(let reason): return reason
    case .server(let state, let message): return "the PostgreSQL server refused: \(message) (SQLSTATE \(state))"
    case .lockTimeout(let what):
      return "the server kept \(what) locked for \(PostgresConnection.lockTimeout) s (another session holds it); try again later"
    case .statementTimeout(let what):
      return "the server did not finish with \(what) within \(PostgresConnection.statementTimeout) s; try again later"
    }
  }

  /// Whether the failure is the user's input (exit 64) rather than a runtime failure (exit 1).
  public var isUsage: Bool {
    switch self {
    case .badURI, .passwordInURI, .noServer: return true
    default: return false
    }
  }
}
