import Core
import Foundation
import PostgresSupport
import Remote
import TestTags
import Testing

/// `ootd.keys` (schema step 5): one wrapped sync key per role, private like the journal. The
/// records here are stand-ins (the server never reads them); Encryption's tests make real ones.
@Suite(
  .tags(.postgres),
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct KeyRecordTests {
  static func record(_ wrapped: String, id: String = UUID().uuidString.lowercased()) -> ServerKeyRecord {
    ServerKeyRecord(keyID: id, salt: "c2FsdHNhbHRzYWx0c2FsdA==", opsLimit: 3, memLimit: 268_435_456, wrappedKey: wrapped)
  }

  @Test("the first key stored wins; a rekey replaces it only while unchanged; others read and write nothing of it")
  func keysArePrivate() throws {
    let fixture = try ServerFixture()
    let alice = try fixture.server(fixture.alice)
    #expect(try alice.keyRecord() == nil)
    let first = Self.record("xc1:first")
    #expect(try alice.createKeyRecord(first) == first)
    // A second machine racing with another key keeps the first.
    #expect(try alice.createKeyRecord(Self.record("xc1:second")) == first)
    // Rekey: the same id, wrapped anew; refused once the row changed since it was read.
    var rewrapped = first
    rewrapped.wrappedKey = "xc1:rewrapped"
    rewrapped.salt = "bmV3c2FsdG5ld3NhbHRuZQ=="
    #expect(try alice.replaceKeyRecord(first, with: rewrapped))
    #expect(try alice.keyRecord() == rewrapped)
    var stale = first
    stale.wrappedKey = "xc1:stale"
    #expect(try alice.replaceKeyRecord(first, with: stale) == false)
    #expect(try alice.keyRecord() == rewrapped)
    // Bob, with plain SQL: sees no row of Alice's, cannot write one for her, change or delete hers.
    #expect(try fixture.psql("SELECT count(*) FROM ootd.keys", as: fixture.bob) == ["0"])
    #expect(try fixture.server(fixture.bob).keyRecord() == nil)
    #expect(throws: (any Error).self) {
      try fixture.psql(
        "INSERT INTO ootd.keys (owner, key_id, salt, ops_limit, mem_limit, wrapped_key) VALUES ('\(fixture.alice)', gen_random_uuid(), 's', 1, 1, 'w')",
        as: fixture.bob)
    }
    #expect(try fixture.psql("UPDATE ootd.keys SET wrapped_key = 'x' RETURNING 1", as: fixture.bob).isEmpty)
    // Alice herself cannot delete her key nor change its id (only rekey's columns are hers to update).
    #expect(throws: (any Error).self) { try fixture.psql("DELETE FROM ootd.keys", as: fixture.alice) }
    #expect(throws: (any Error).self) {
      try fixture.psql("UPDATE ootd.keys SET key_id = gen_random_uuid()", as: fixture.alice)
    }
    #expect(throws: (any Error).self) { try fixture.psql("SELECT count(*) FROM ootd.keys", as: fixture.stranger) }
    #expect(try alice.keyRecord() == rewrapped)
  }
}
