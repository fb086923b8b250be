import Core
import Foundation
import PostgresSupport
import TestTags
import Testing

/// The backlog travels like any field: a todo with no day synced to another machine has no day
/// there, and planning it on either machine reaches the other. Two machines through a real
/// PostgreSQL, with the built binary.
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct BacklogSyncBinaryTests {
  @Test("a backlog todo syncs with no day; planned on one machine, it is planned on both; taken back, it is in both backlogs")
  func backlogTravels() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Read the SQLite docs", "--someday")
    try m.run("a", "add", "Dated")
    try m.sync("a")
    try m.sync("b")
    #expect(try m.shapes("a") == m.shapes("b"))
    let onB = try m.todos("b").first { $0["title"] as? String == "Read the SQLite docs" }
    #expect(onB?["date"] is NSNull)
    let backlogB = try m.run("b", "backlog", "--json")
    #expect(backlogB.code == 0 && backlogB.stdout.contains("Read the SQLite docs"))
    // Planned on b: a sees the day
    let id = try #require(onB?["id"] as? Int)
    #expect(try m.run("b", "plan", "\(id)", "--on", "2030-01-02").code == 0)
    try m.sync("b")
    try m.sync("a")
    #expect(try m.shapes("a") == m.shapes("b"))
    #expect(try m.dates("a").contains("2030-01-02"))
    // Taken back to the backlog on a: b sees it without a day again
    #expect(try m.run("a", "edit", "1", "--on", "someday").code == 0)
    try m.sync("a")
    try m.sync("b")
    #expect(try m.shapes("a") == m.shapes("b"))
    #expect(try m.dates("b").contains("nil"))
  }
}
