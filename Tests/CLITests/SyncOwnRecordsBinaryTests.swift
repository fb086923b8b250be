import Foundation
import PostgresSupport
import TestTags
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 24's tryout, session 18: the sync after a push downloaded everything the machine had
/// just pushed, only to skip it as its own. A push now learns from the server whether its
/// records lie right after the machine's pull cursor, and moves the cursor past them when they
/// do; records of another machine in between are pulled as before.
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct SyncOwnRecordsBinaryTests {
  @Test("the sync after a push downloads nothing this machine pushed: not after a first push of 2,000 todos, nor after an ordinary one")
  func nothingOwnDownloaded() throws {
    let m = try SyncMachines()
    try RemoteSyncBinaryTests.fill(m.folder.file("a.sqlite"), count: 2_000)
    let first = try m.sync("a")
    #expect(first["pushed"] as? Int ?? 0 >= 2_000)
    let again = try m.sync("a")
    #expect(again["pulledBytes"] as? Int == 0, "\(again)")
    #expect(again["pulled"] as? Int == 0 && again["pushed"] as? Int == 0, "\(again)")
    // Another machine's change is pulled, this machine's pushed after it, and neither read back.
    try m.run("b", "add", "From B")
    try m.sync("b")
    try m.run("a", "add", "From A")
    let both = try m.sync("a")
    #expect(both["pulled"] as? Int ?? 0 > 0 && both["pushed"] as? Int ?? 0 > 0, "\(both)")
    let quiet = try m.sync("a")
    #expect(quiet["pulledBytes"] as? Int == 0, "\(quiet)")
    try m.sync("b")
    #expect(try m.shapes("a") == m.shapes("b"))
    #expect(try m.titles("b").contains("From A") && m.titles("a").contains("From B"))
  }

  @Test("a push that finds another machine's records pushed between its pull and its push leaves the pull cursor: the next sync pulls them")
  func othersInBetween() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Start")
    try m.sync("a")
    try m.sync("b")
    try m.run("a", "add", "A while B pushed")
    // a pulls, then waits; b pushes meanwhile; then a pushes after b's record.
    let stopped = try RemoteSyncBinaryTests.start(m, "a", fault: "remote-pulled:1:stop")
    try RemoteSyncBinaryTests.waitUntilStopped(stopped)
    try m.run("b", "add", "B in between")
    try m.sync("b")
    kill(stopped.processIdentifier, SIGCONT)
    stopped.waitUntilExit()
    #expect(stopped.terminationStatus == 0)
    let next = try m.sync("a")
    #expect(next["pulled"] as? Int ?? 0 > 0, "\(next)")
    try m.sync("b")
    #expect(try m.titles("a") == ["A while B pushed", "B in between", "Start"])
    #expect(try m.shapes("a") == m.shapes("b"))
  }

  @Test("a database restored in place from an older copy (its device id, its cursor behind) still pulls what another machine pushed since, and its own new todos reach the other")
  func restoredInPlace() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Old")
    try m.sync("a")
    try m.sync("b")
    let path = m.folder.file("a.sqlite")
    let backup = try Data(contentsOf: URL(fileURLWithPath: path))
    try m.run("a", "add", "Lost with the restore")
    try m.sync("a")
    try m.run("b", "add", "From B since")
    try m.sync("b")
    // `cp backup a.sqlite`: the same file (inode), so the same device id, written over.
    for companion in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + companion) }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: backup)
    try handle.close()
    try m.run("a", "add", "New after restore")
    try m.sync("a")
    try m.sync("a")
    try m.sync("b")
    let onA = try m.titles("a")
    #expect(onA.contains("From B since") && onA.contains("New after restore"), "\(onA)")
    #expect(try m.titles("b").contains("New after restore"))
    // What a pushed after the copy comes back to it from the server (it was skipped as its
    // own for ever: the two machines differed and every sync said success), and both agree.
    #expect(onA.contains("Lost with the restore"), "\(onA)")
    try m.sync("b")
    try m.sync("a")
    #expect(try m.titles("a").sorted() == (try m.titles("b")).sorted())
  }
}
