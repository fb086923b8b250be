import CLibPQShim
import Foundation
import PostgresSupport
import Remote
import TestTags
import Testing

/// The connection layer against a real PostgreSQL: queries, NULLs, transactions, errors.
@Suite(.tags(.postgres), .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct ConnectionTests {
  @Test("a query returns text values and NULLs by column")
  func query() throws {
    let cluster = try PostgresCluster.shared()
    let connection = try PostgresConnection(uri: cluster.uri())
    #expect(connection.role == PostgresCluster.admin)
    let rows = try connection.query("SELECT $1::int + 1 AS n, NULL::text AS nothing, $2 AS s", ["41", "it's"])
    #expect(rows.columns == ["n", "nothing", "s"])
    #expect(rows.rows == [["42", nil, "it's"]])
    #expect(ootd_pq_is_loaded() == 1)
  }

  @Test("a transaction commits what its body did, and rolls back when the body throws")
  func transaction() throws {
    let cluster = try PostgresCluster.shared()
    let database = try cluster.createDatabase()
    let connection = try PostgresConnection(uri: cluster.uri(database: database))
    try connection.execute("CREATE TABLE t (x int)")
    try connection.transaction { try connection.execute("INSERT INTO t VALUES (1)") }
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try connection.transaction {
        try connection.execute("INSERT INTO t VALUES (2)")
        throw Stop()
      }
    }
    #expect(try connection.query("SELECT x FROM t ORDER BY x").rows == [["1"]])
  }

  @Test("a failing statement throws the server's message with its SQLSTATE, and the connection goes on")
  func serverError() throws {
    let cluster = try PostgresCluster.shared()
    let connection = try PostgresConnection(uri: cluster.uri())
    #expect {
      try connection.query("SELECT * FROM no_such_table")
    } throws: { error in
      guard case .server(let state, let message) = error as? RemoteError else { return false }
      // libpq's "ERROR:  " prefix is gone, with both its spaces.
      return state == "42P01" && message.hasPrefix("relation \"no_such_table\"") && !message.contains("\n")
    }
    #expect(try connection.query("SELECT 1").rows == [["1"]])
  }

  @Test("a parameter holding NUL is refused rather than cut short")
  func nulParameter() throws {
    let connection = try PostgresConnection(uri: PostgresCluster.shared().uri())
    #expect(throws: RemoteError.self) { try connection.query("SELECT $1", ["a\u{0}b"]) }
    #expect(try connection.query("SELECT $1", ["a\\u0000b"]).rows == [["a\\u0000b"]])
  }

  @Test("a wrong password or an unknown host is one line saying it cannot connect, without the password")
  func unreachable() throws {
    let cluster = try PostgresCluster.shared()
    let secret = "wrong-pass-\(UUID().uuidString.prefix(6))"
    let uri = "postgresql://\(PostgresCluster.admin):\(secret)@127.0.0.1:\(cluster.port)/postgres"
    #expect {
      _ = try PostgresConnection(uri: uri)
    } throws: { error in
      guard case .unreachable(let message) = error as? RemoteError else { return false }
      return !message.contains(secret) && !message.contains("\n") && message.contains("password")
    }
  }

  @Test("connecting to a port nobody listens on fails at once with unreachable")
  func nobodyListens() throws {
    let port = try #require(try? freePortForTest())
    #expect {
      _ = try PostgresConnection(uri: "postgresql://x@127.0.0.1:\(port)/postgres?connect_timeout=3")
    } throws: { error in
      if case .unreachable = error as? RemoteError { return true }
      return false
    }
  }

  @Test("a bad URI is refused by libpq's parser")
  func badURI() {
    for uri in ["postgresql://host/db?bogus=1", "host=x bogus_option=1", "", "host='unterminated"] {
      #expect(throws: RemoteError.self, "\(uri)") { _ = try ConnectionURI(uri) }
    }
    #expect((try? ConnectionURI("postgresql://alice@db.example.com/ootd?sslmode=require"))?.user == "alice")
  }

  @Test("passwords are found and hidden in URIs and conninfo strings")
  func passwordInURI() throws {
    let cases: [(String, String)] = [
      ("postgresql://alice:s3cret@h/db", "postgresql://alice:***@h/db"),
      ("postgresql://alice@h/db?password=s3cret&sslmode=require", "postgresql://alice@h/db?password=***&sslmode=require"),
      ("host=h user=alice password=s3cret dbname=d", "host=h user=alice password=*** dbname=d"),
      ("host=h password='s3 cret' dbname=d", "host=h password=*** dbname=d"),
    ]
    for (uri, shown) in cases {
      let parsed = try ConnectionURI(uri)
      #expect(parsed.hasPassword, "\(uri)")
      #expect(parsed.description == shown)
      #expect(!parsed.description.contains("s3"))
    }
    #expect(try !ConnectionURI("postgresql://alice@h/db").hasPassword)
  }

  @Test("a server stopped during a session ends the next statement with connectionLost, not a hang")
  func stoppedServer() throws {
    let cluster = try PostgresCluster()
    defer { cluster.stop() }
    let connection = try PostgresConnection(uri: cluster.uri())
    #expect(try connection.query("SELECT 1").rows == [["1"]])
    try cluster.pause()
    #expect {
      try connection.query("SELECT 1")
    } throws: { error in
      if case .connectionLost = error as? RemoteError { return true }
      return false
    }
    #expect {
      _ = try PostgresConnection(uri: cluster.uri())
    } throws: { error in
      if case .unreachable = error as? RemoteError { return true }
      return false
    }
  }

  @Test("a pipeline runs each statement on its own, in order, and answers each: a failing one stops and undoes nothing else")
  func pipeline() throws {
    let cluster = try PostgresCluster.shared()
    let database = try cluster.createDatabase()
    let connection = try PostgresConnection(uri: cluster.uri(database: database))
    try connection.execute("CREATE TABLE t (x int)")
    var answered: [Int] = []
    let answers = connection.pipeline(
      [
        PostgresStatement("INSERT INTO t VALUES ($1::int) RETURNING x", ["1"]),
        PostgresStatement("INSERT INTO t VALUES ($1::int)", ["not a number"]),
        PostgresStatement("INSERT INTO t VALUES (3) RETURNING x, NULL::text AS nothing"),
        PostgresStatement("SELECT count(*) FROM t"),
      ], answered: { answered.append($0) })
    #expect(answered == [0, 1, 2, 3])
    #expect(try answers[0].get().rows == [["1"]])
    #expect {
      try answers[1].get()
    } throws: { error in
      guard case .server(let state, _) = error as? RemoteError else { return false }
      return state == "22P02"
    }
    #expect(try answers[2].get().rows == [["3", nil]])
    #expect(try answers[3].get().rows == [["2"]])
    // Each in its own transaction: the failure undid neither insert, and the connection goes on.
    #expect(try connection.query("SELECT x FROM t ORDER BY x").rows == [["1"], ["3"]])
    // A parameter holding NUL is refused for its statement only (run one at a time then).
    let refused = connection.pipeline([PostgresStatement("SELECT $1", ["a\u{0}b"]), PostgresStatement("SELECT 2")])
    #expect(throws: RemoteError.self) { try refused[0].get() }
    #expect(try refused[1].get().rows == [["2"]])
  }

  @Test("statements prefetched with the connection's set-up run in its round trip and are answered once; a failing one leaves the timeouts set")
  func prefetching() throws {
    let cluster = try PostgresCluster.shared()
    let database = try cluster.createDatabase()
    let admin = try PostgresConnection(uri: cluster.uri(database: database))
    try admin.execute("CREATE TABLE t (x int)")
    let insert = PostgresStatement("INSERT INTO t VALUES (1) RETURNING x")
    let failing = PostgresStatement("SELECT 1 / 0")
    let connection = try PostgresConnection(uri: cluster.uri(database: database), prefetching: [insert, failing])
    // Ran while connecting.
    #expect(try admin.query("SELECT count(*) FROM t").rows == [["1"]])
    #expect(try connection.query("SELECT current_setting('lock_timeout'), current_setting('statement_timeout')").rows
      == [["\(PostgresConnection.lockTimeout)s", "\(PostgresConnection.statementTimeout)s"]])
    let answers = connection.answers(to: [insert, failing])
    #expect(try answers[0].get().rows == [["1"]])
    #expect(throws: RemoteError.self) { try answers[1].get() }
    #expect(try admin.query("SELECT count(*) FROM t").rows == [["1"]])
    // Taken once: asked again, they run again.
    _ = connection.answers(to: [insert, failing])
    #expect(try admin.query("SELECT count(*) FROM t").rows == [["2"]])
    // Other statements are not answered from the prefetched ones.
    let other = try PostgresConnection(uri: cluster.uri(database: database), prefetching: [insert])
    #expect(try other.answers(to: [PostgresStatement("SELECT count(*) FROM t")]).map { try $0.get().rows } == [[["3"]]])
  }

}

/// A port on 127.0.0.1 with nobody listening (bound and released).
func freePortForTest() throws -> Int {
  let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  defer { close(socketFD) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  _ = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(socketFD, $0, length) == 0 && getsockname(socketFD, $0, &length) == 0
    }
  }
  return Int(UInt16(bigEndian: address.sin_port))
}
