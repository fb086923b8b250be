import Foundation
import GRDB
import Testing

@testable import Storage

/// ``RowStatement`` binds a text from its own bytes, up to its first NUL, as GRDB's binding
/// (a C string) takes it: the set-wise writes of a pull store what the per-row path stores.
@Suite("RowStatement: texts bound as GRDB binds them")
struct RowStatementTests {
  @Test(
    "a text up to its first NUL, empty, long, outside ASCII",
    arguments: ["", "plain", "a\u{0}b", "\u{0}leading", "trailing\u{0}", "Tidy 🧹 최단경로", String(repeating: "x", count: 700)])
  func text(value: String) throws {
    let queue = try DatabaseQueue()
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
      var statement = try RowStatement(db, sql: "INSERT INTO t (id, v) VALUES (?, ?)")
      statement.bind(1)
      statement.bind(value)
      try statement.run()
      try db.execute(sql: "INSERT INTO t (id, v) VALUES (2, ?)", arguments: [value])
      let stored = try Row.fetchAll(db, sql: "SELECT hex(v) FROM t ORDER BY id").map { $0[0] as String }
      #expect(stored[0] == stored[1])
      let expected = value.utf8.prefix { $0 != 0 }.map { String(format: "%02X", $0) }.joined()
      #expect(stored[0] == expected)
    }
  }
}
