import Core
import Foundation
import GRDB
import Testing

@testable import Storage

/// ``DatabaseStore/read(_:)`` runs its `BEGIN` and `COMMIT` itself (not through GRDB's `read`,
/// issue 25): it must still be one read-only snapshot, and leave no transaction behind.
@Suite("A store's read transaction")
struct ReadTransactionTests {
  @Test("a read is one transaction, refuses writes, and ends when its body returns")
  func readIsOneReadOnlyTransaction() throws {
    // Given a database with a todo
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    try database.addTodo(try draft("kept"), now: fixedNow)
    // When reading
    let (inside, refused) = try database.read { db in
      let refused = (try? db.execute(sql: "DELETE FROM todo")) == nil
      return (db.isInsideTransaction, refused)
    }
    // Then it ran inside a transaction that refused the write, and none is left open
    #expect(inside)
    #expect(refused)
    #expect(try database.readStatement { db in db.isInsideTransaction } == false)
    #expect(try database.readStatement { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM todo") } == 1)
    // and the connection writes again afterwards (query_only is off)
    try database.addTodo(try draft("second"), now: fixedNow)
  }

  @Test("a read whose body throws fails and leaves no transaction open")
  func failingReadRollsBack() throws {
    struct Stop: Error {}
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    #expect(throws: StorageError.self) {
      try database.read { _ in throw Stop() }
    }
    #expect(try database.readStatement { db in db.isInsideTransaction } == false)
    try database.addTodo(try draft("after"), now: fixedNow)
    #expect(try database.readStatement { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM todo") } == 1)
  }
}
