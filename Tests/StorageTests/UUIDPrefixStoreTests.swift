import Core
import Foundation
import GRDB
@testable import Storage
import Testing

/// Issue 24 §1: the todos whose uuid begins with a prefix, on a real database file.
@Suite("Todos found by a prefix of their uuid")
struct UUIDPrefixStoreTests {
  /// A database file with four todos whose uuids are set to `uuids` (written with plain SQL,
  /// as a pull or an import with `ootd:UUID` stores them: lowercase).
  static func database(uuids: [String]) throws -> (AppDatabase, [Int64]) {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    var ids: [Int64] = []
    for (index, uuid) in uuids.enumerated() {
      let todo = try database.addTodo(try draft("todo \(index)"), now: fixedNow)
      ids.append(todo.id)
      try database.write { db in
        try db.execute(sql: "UPDATE todo SET uuid = ? WHERE id = ?", arguments: [uuid, todo.id])
      }
    }
    return (database, ids)
  }

  static let uuids = [
    "abcd1234-0000-4000-8000-000000000001",
    "abcd1234-0000-4000-8000-000000000002",
    "abce0000-0000-4000-8000-000000000003",
    "0bcd0000-0000-4000-8000-000000000004",
  ]

  @Test("one, several or no todos, by the whole prefix, never by a part of it")
  func lookup() throws {
    let (database, ids) = try Self.database(uuids: Self.uuids)
    #expect(try database.todoIDs(matchingUUIDPrefix: "abcd") == [ids[0], ids[1]])
    #expect(try database.todoIDs(matchingUUIDPrefix: "abcd1234-0000-4000-8000-000000000002") == [ids[1]])
    #expect(try database.todoIDs(matchingUUIDPrefix: "abce") == [ids[2]])
    // The range ends where the prefix does: `abcf` is not `abce…`, `abc` is not asked for.
    #expect(try database.todoIDs(matchingUUIDPrefix: "abcf").isEmpty)
    #expect(try database.todoIDs(matchingUUIDPrefix: "0bcd") == [ids[3]])
    #expect(try database.todoIDs(matchingUUIDPrefix: "bcd0").isEmpty)
    // A prefix across the first dash, as TodoReference spells it.
    #expect(try database.todoIDs(matchingUUIDPrefix: "abcd1234-0") == [ids[0], ids[1]])
    #expect(try database.todoIDs(matchingUUIDPrefix: "ffff").isEmpty)
  }

  @Test("a prefix ending in 9 or f reaches exactly the uuids that begin with it")
  func rangeEnds() throws {
    let (database, ids) = try Self.database(uuids: [
      "aaa9ffff-0000-4000-8000-000000000001", "aaaa0000-0000-4000-8000-000000000002",
      "aaaf0000-0000-4000-8000-000000000003", "aab00000-0000-4000-8000-000000000004",
    ])
    #expect(try database.todoIDs(matchingUUIDPrefix: "aaa9") == [ids[0]])
    #expect(try database.todoIDs(matchingUUIDPrefix: "aaaf") == [ids[2]])
    #expect(try database.todoIDs(matchingUUIDPrefix: "aab0") == [ids[3]])
  }
  // That the lookup reads a range of the uuid index, not the table: QueryPlanTests (`done PREFIX`).
}
