import Core
import Foundation
import PostgresSupport
import TestTags
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 24 §3 against a real PostgreSQL, with the built binary: `ootd log` says which machine
/// a pulled change came from by its name (which the server never sees), and a conflict of two
/// syncs that both pushed before either pulled is reported once, on one machine, in the user's
/// words.
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct DeviceNameSyncBinaryTests {
  static func json(_ result: BinaryTests.Result) throws -> Any {
    #expect(result.code == 0, "\(result.stderr)")
    return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
  }

  static func status(_ m: SyncMachines, _ machine: String) throws -> [String: Any] {
    try #require(try json(try m.run(machine, "remote", "status", "--json")) as? [String: Any])
  }

  /// This machine's host name, as `gethostname` gives it to ootd.
  static var hostName: String {
    var buffer = [CChar](repeating: 0, count: 256)
    _ = gethostname(&buffer, buffer.count - 1)
    return String(cString: buffer)
  }

  @Test("log on b says 'from desktop' for a's changes (fromDeviceName in --json), b's default name is its host name's, and pg_dump holds no name")
  func namesInTheLog() throws {
    let m = try SyncMachines()
    let named = try m.run("a", "remote", "name", "SECRETdesk")
    #expect(named.code == 0 && named.stdout == "This machine's name: SECRETdesk\n", "\(named.stderr)")
    // Outside text, at the prompt too: controls dropped, too long refused, empty refused; nothing changes.
    for (bad, message) in [
      (String(repeating: "x", count: 41), "ootd: error: the name must be at most 40 characters"),
      (" \t", "ootd: error: the name must have a visible character"),
    ] {
      let refused = try m.run("a", "remote", "name", bad)
      #expect(refused.code == 64 && refused.stderr.hasPrefix(message), "\(refused.stderr)")
    }
    #expect(try m.run("a", "remote", "name").stdout == "This machine's name: SECRETdesk\n")
    #expect(try Self.status(m, "a")["deviceName"] as? String == "SECRETdesk")
    let statusText = try m.run("a", "remote", "status").stdout
    #expect(statusText.contains("\nName:       SECRETdesk\n"), "\(statusText)")
    // b has no name of its own: its host name's.
    let hostDefault = try #require(DeviceName.fromHost(Self.hostName))
    #expect(try Self.status(m, "b")["deviceName"] as? String == hostDefault)
    #expect(try m.run("b", "remote", "status").stdout.contains("Name:       \(hostDefault) (the host name's;"))

    try m.run("a", "add", "Read")
    try m.sync("a")
    try m.run("b", "add", "Write")
    try m.sync("b")
    try m.run("a", "done", "1")
    try m.sync("a")
    try m.sync("b")

    let deviceA = try #require(try Self.status(m, "a")["device"] as? String)
    let logB = try #require(try Self.json(try m.run("b", "log", "--json")) as? [[String: Any]])
    #expect(logB.allSatisfy { $0.keys.contains("fromDeviceName") && $0.keys.contains("fromDevice") })
    let fromA = logB.filter { $0["fromDevice"] as? String == deviceA }
    #expect(fromA.count >= 2)
    #expect(fromA.allSatisfy { $0["fromDeviceName"] as? String == "SECRETdesk" }, "\(fromA)")
    #expect(logB.filter { $0["fromDevice"] is NSNull }.allSatisfy { $0["fromDeviceName"] is NSNull })
    let text = try m.run("b", "log", "--no-color").stdout
    #expect(text.contains("done 1  from SECRETdesk\n"), "\(text)")
    #expect(!text.contains("from \(deviceA.prefix(8))"), "\(text)")
    // `show`'s history marks it as `log` does.
    let listedB = try #require(try Self.json(try m.run("b", "list", "--all", "--json")) as? [[String: Any]])
    let idOnB = { (title: String) in listedB.first { $0["title"] as? String == title }?["id"] as? Int }
    let shown = try m.run("b", "show", "\(try #require(idOnB("Read")))", "--no-color").stdout
    #expect(shown.contains("done 1 from SECRETdesk\n"), "\(shown)")
    let own = try m.run("b", "show", "\(try #require(idOnB("Write")))", "--no-color").stdout
    #expect(own.contains("  add Write\n"), "\(own)")
    // On a, b's changes carry b's default name.
    let logA = try #require(try Self.json(try m.run("a", "log", "--json")) as? [[String: Any]])
    let deviceB = try #require(try Self.status(m, "b")["device"] as? String)
    let fromB = logA.filter { $0["fromDevice"] as? String == deviceB }
    #expect(!fromB.isEmpty && fromB.allSatisfy { $0["fromDeviceName"] as? String == hostDefault }, "\(logA)")

    // A name with a terminal escape set on a: dropped before it is stored, sent, or shown.
    #expect(try m.run("a", "remote", "name", "\u{1B}]0;pwn\u{07}desk\u{202E}top").code == 0)
    try m.run("a", "add", "Later")
    try m.sync("a")
    try m.sync("b")
    let renamed = try m.run("b", "log", "--no-color").stdout
    #expect(renamed.contains("add Later  from ]0;pwn desktop\n"), "\(renamed)")
    #expect(!renamed.contains("\u{1B}") && !renamed.contains("\u{202E}"))

    // The server's owner never sees a name: it travels sealed.
    let dump = try m.cluster.pgDump(database: m.database)
    #expect(dump.contains("xc1:"))
    #expect(!dump.contains("SECRETdesk"))
    #expect(!dump.contains("pwn desktop"))
  }

  @Test("both machines edit one title and both push before either pulls: exactly one of them reports it, once, in the user's words")
  func overlappingSyncs() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Read")
    try m.sync("a")
    try m.sync("b")
    try m.sync("a")
    try m.run("a", "edit", "1", "--title", "From a")
    try m.run("b", "edit", "1", "--title", "From b")
    // b's sync stops itself once it has pulled (nothing new); a syncs whole meanwhile; then b
    // goes on and pushes: both pushed, neither pulled the other's edit.
    let stopped = try RemoteSyncBinaryTests.start(m, "b", fault: "remote-pulled:1:stop")
    try RemoteSyncBinaryTests.waitUntilStopped(stopped)
    let a1 = try m.sync("a")
    kill(stopped.processIdentifier, SIGCONT)
    stopped.waitUntilExit()
    #expect(stopped.terminationReason == .exit && stopped.terminationStatus == 0)
    #expect(a1["conflicts"] as? Int == 0)
    // Then each syncs, twice.
    let reports = try [m.sync("a"), m.sync("b"), m.sync("a"), m.sync("b")]
    let lists = reports.map { $0["conflictList"] as? [[String: Any]] ?? [] }
    #expect(lists.map(\.count).reduce(0, +) == 1, "\(lists)")
    #expect(reports.map { $0["conflicts"] as? Int ?? -1 }.reduce(0, +) == 1)
    let conflict = try #require(lists.flatMap { $0 }.first)
    // b's edit was made later: kept on both.
    #expect(conflict["kind"] as? String == "same-field")
    #expect(conflict["field"] as? String == "title")
    #expect(conflict["kept"] as? String == "From b")
    #expect(conflict["lost"] as? String == "From a")
    #expect(conflict["rule"] as? String == "later")
    #expect(conflict["name"] as? String == "From b")
    #expect(try m.titles("a") == ["From b"] && m.titles("b") == ["From b"])

    // The same again, as text: one line, on one machine.
    try m.run("a", "edit", "1", "--title", "A again")
    try m.run("b", "edit", "1", "--title", "B again")
    let again = try RemoteSyncBinaryTests.start(m, "b", fault: "remote-pulled:1:stop")
    try RemoteSyncBinaryTests.waitUntilStopped(again)
    #expect(try m.run("a", "remote", "sync").stdout.contains("conflict") == false)
    kill(again.processIdentifier, SIGCONT)
    again.waitUntilExit()
    #expect(again.terminationStatus == 0)
    let texts = try [m.run("a", "remote", "sync"), m.run("b", "remote", "sync")].map(\.stdout)
    let line = "#1 'B again': title changed on two machines; kept 'B again' (the later), over 'A again'"
    #expect(texts.filter { $0.contains(line) }.count == 1, "\(texts)")
    #expect(texts.filter { $0.contains("1 conflict resolved") }.count == 1, "\(texts)")
  }
}
