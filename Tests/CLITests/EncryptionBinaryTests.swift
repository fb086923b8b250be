import Core
import Encryption
import Foundation
import PostgresSupport
import TestTags
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 24 §6: the server's owner reads nothing. Todos, notes, tags, projects and blocks typed
/// as `SECRET-…` are synced through a real PostgreSQL, then the server is read as its owner
/// (`pg_dump`) and as the member (`psql`); a second machine must prove the passphrase before it
/// pulls anything; a payload changed on the server stops the pull; `remote rekey`; the key file.
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct EncryptionBinaryTests {
  static func digest(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

  static func keyPath(_ m: SyncMachines, _ machine: String) -> String { m.folder.file("\(machine).sqlite") + ".sync-key" }

  /// Runs ootd on `machine` with `extra` variables over the machine's.
  static func run(_ m: SyncMachines, _ machine: String, _ extra: [String: String], _ arguments: String...) throws
    -> BinaryTests.Result
  {
    try BinaryTests.run(arguments, environment: m.environment(machine).merging(extra) { $1 })
  }

  /// Machine a with everything a user types holding SECRET, synced.
  static func secrets(_ m: SyncMachines) throws {
    for arguments in [
      ["project", "add", "SECRET-project"],
      ["block", "add", "SECRET-block", "SECRET-block title"],
      ["add", "SECRET-1 read", "--project", "SECRET-project", "--note", "SECRET-note", "--tag", "SECRETtag"],
      ["add", "SECRET-2 write", "--priority", "high"],
      ["add", "--block", "SECRET-block"],
      ["done", "2"],
    ] {
      let result = try BinaryTests.run(arguments, environment: m.environment("a"))
      #expect(result.code == 0, "\(arguments): \(result.stderr)")
    }
    try m.sync("a")
  }

  @Test("pg_dump as the server's owner and ootd.ops read as the member hold no SECRET; machine b with the passphrase gets the same list")
  func serverReadsNothing() throws {
    let m = try SyncMachines()
    try Self.secrets(m)
    let dump = try m.cluster.pgDump(database: m.database)
    #expect(dump.contains("xc1:"))  // the payloads are in the dump, sealed
    #expect(dump.contains("ootd.keys"))
    #expect(!dump.contains("SECRET"))
    #expect(!dump.localizedCaseInsensitiveContains("secret-"))
    #expect(!dump.contains(SyncKeyTesting.passphrase))
    // As the member, every row of every table of theirs: nothing readable either.
    for table in ["ops", "devices", "members", "day_figures", "keys"] {
      let rows = try m.cluster.psql("SELECT t::text FROM ootd.\(table) t", as: m.role, database: m.database)
      #expect(!rows.contains("SECRET"), "\(table)")
    }
    let payloads = try m.cluster.psql("SELECT payload FROM ootd.ops", as: m.role, database: m.database)
      .split(separator: "\n")
    #expect(!payloads.isEmpty && payloads.allSatisfy { $0.hasPrefix("xc1:") })
    // The key on the server is wrapped: not the key file's key.
    let keyFile = try String(contentsOfFile: Self.keyPath(m, "a"), encoding: .utf8)
    let keyText = String(try #require(keyFile.split(separator: "\n").last?.split(separator: " ").last))
    #expect(!dump.contains(keyText))
    // b, with the same passphrase, gets exactly a's todos, ids included.
    let b = try m.sync("b")
    #expect(b["pulled"] as? Int ?? 0 > 0)
    let listA = try m.run("a", "list", "--all", "--json")
    let listB = try m.run("b", "list", "--all", "--json")
    #expect(listA.code == 0 && listA.stdout.contains("SECRET-1 read") && listA.stdout.contains("SECRET-note"))
    #expect(listA.stdout == listB.stdout)
    #expect(try m.run("b", "project", "list").stdout.contains("SECRET-project"))
    // The database holds neither the key nor the passphrase.
    for machine in ["a", "b"] {
      let bytes = try #require(Self.digest(m.folder.file("\(machine).sqlite")))
      let text = String(decoding: bytes, as: UTF8.self)
      #expect(!text.contains(keyText) && !text.contains(SyncKeyTesting.passphrase))
    }
  }

  @Test("a wrong passphrase: one line, exit 1, nothing pulled, the database byte-identical; no passphrase and no terminal: exit 64")
  func wrongPassphrase() throws {
    let m = try SyncMachines()
    try Self.secrets(m)
    #expect(try m.run("b", "add", "Mine").code == 0)
    let before = Self.digest(m.folder.file("b.sqlite"))
    for arguments in [["remote", "sync"], ["remote", "sync", "--json"], ["remote", "set", m.uri]] {
      let wrong = try BinaryTests.run(
        arguments, environment: m.environment("b").merging(["OOTD_REMOTE_PASSPHRASE": "not the passphrase"]) { $1 })
      #expect(wrong.code == 1, "\(arguments): \(wrong.stderr)")
      #expect(wrong.stderr == "ootd: error: wrong passphrase: it does not unlock your sync key on the server; nothing was pulled or changed\n")
      #expect(wrong.stdout.isEmpty)
      #expect(Self.digest(m.folder.file("b.sqlite")) == before)
      #expect(!FileManager.default.fileExists(atPath: Self.keyPath(m, "b")))
    }
    let none = try Self.run(m, "b", ["OOTD_REMOTE_PASSPHRASE": ""], "remote", "sync")
    #expect(none.code == 64, "\(none.stderr)")
    // The variable is there but empty: the line says so (it said "set OOTD_REMOTE_PASSPHRASE").
    #expect(none.stderr == "ootd: error: the sync passphrase is needed and OOTD_REMOTE_PASSPHRASE is empty (no terminal to ask on): give it the passphrase\n")
    #expect(Self.digest(m.folder.file("b.sqlite")) == before)
    #expect(try m.titles("b") == ["Mine"])
    // A first machine's new passphrase must be long enough.
    let other = try SyncMachines(cluster: m.cluster)
    let short = try Self.run(other, "a", ["OOTD_REMOTE_PASSPHRASE": "short"], "remote", "sync")
    #expect(short.code == 64 && short.stderr == "ootd: error: a sync passphrase needs at least 8 characters\n", "\(short.stderr)")
    // The right one works, and then the key file serves without any passphrase.
    try m.sync("b")
    #expect(try m.titles("b").contains("SECRET-1 read"))
    #expect(try Self.run(m, "b", ["OOTD_REMOTE_PASSPHRASE": ""], "remote", "sync").code == 0)
  }

  @Test(
    "a payload changed on the server is refused in one line naming the row (exit 1), nothing of it applied; the rest syncs, and the next sync goes on past it"
  )
  func tamperedPayload() throws {
    let m = try SyncMachines()
    try Self.secrets(m)
    try m.sync("b")
    func last() throws -> (seq: String, opID: String) {
      let row = try m.cluster.psql(
        "SELECT seq || ' ' || op_id FROM ootd.ops WHERE owner = '\(m.role)' ORDER BY seq DESC LIMIT 1", database: m.database)
        .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").map(String.init)
      return (row[0], row[1])
    }
    #expect(try m.run("a", "add", "SECRET-3 later").code == 0)
    try m.sync("a")
    let (seq, opID) = try last()
    // The server's owner flips one character of the sealed payload.
    try m.cluster.psql(
      """
      UPDATE ootd.ops SET payload = overlay(payload PLACING
        CASE WHEN substr(payload, 40, 1) = 'A' THEN 'B' ELSE 'A' END FROM 40 FOR 1) WHERE seq = \(seq)
      """, database: m.database)
    // A change pushed after it still arrives.
    #expect(try m.run("a", "add", "SECRET-4 after").code == 0)
    try m.sync("a")
    let refused = try m.run("b", "remote", "sync", "--json")
    #expect(refused.code == 1, "\(refused.stderr)")
    #expect(
      refused.stderr
        == "ootd: error: server row \(seq) (op \(opID)) fails authentication: changed on the server or not sealed with your key; set aside, nothing of it applied (the rest synced; `remote status` lists set-aside rows)\n"
    )
    let json = try #require(try JSONSerialization.jsonObject(with: Data(refused.stdout.utf8)) as? [String: Any])
    let setAside = try #require(json["setAside"] as? [[String: Any]])
    #expect(setAside.map { $0["id"] as? Int } == [Int(seq)])
    #expect(try m.titles("b").contains("SECRET-4 after"))
    #expect(!(try m.titles("b").contains("SECRET-3 later")))
    // The next sync does not stop on it again (issue 21), and says nothing of it.
    let again = try m.run("b", "remote", "sync")
    #expect(again.code == 0 && again.stderr.isEmpty, "\(again.stderr)")
    // Moving a sealed payload to another row fails the same way (it is bound to its op id).
    #expect(try m.run("a", "add", "SECRET-5 moved onto").code == 0)
    try m.sync("a")
    let (target, targetOp) = try last()
    try m.cluster.psql(
      """
      UPDATE ootd.ops SET payload = (SELECT payload FROM ootd.ops WHERE owner = '\(m.role)' AND seq < \(target)
        ORDER BY seq LIMIT 1) WHERE seq = \(target)
      """, database: m.database)
    let listBefore = try m.run("b", "list", "--all", "--json").stdout
    let moved = try m.run("b", "remote", "sync")
    #expect(moved.code == 1, "\(moved.stderr)")
    #expect(moved.stderr.hasPrefix("ootd: error: server row \(target) (op \(targetOp)) fails authentication"), "\(moved.stderr)")
    #expect(moved.stderr.split(separator: "\n").count == 1)
    // Nothing of it applied: the list is as it was.
    #expect(try m.run("b", "list", "--all", "--json").stdout == listBefore)
  }

  @Test("remote rekey: the old passphrase no longer unlocks a new machine, the new one does; machines with the key keep syncing")
  func rekey() throws {
    let m = try SyncMachines()
    try Self.secrets(m)
    try m.sync("b")
    let newPhrase = "a brand new passphrase"
    let wrongCurrent = try Self.run(
      m, "a", ["OOTD_REMOTE_PASSPHRASE": "not it at all", "OOTD_REMOTE_NEW_PASSPHRASE": newPhrase], "remote", "rekey")
    #expect(wrongCurrent.code == 1 && wrongCurrent.stderr.hasPrefix("ootd: error: wrong passphrase"), "\(wrongCurrent.stderr)")
    let recordBefore = try m.cluster.psql("SELECT wrapped_key FROM ootd.keys", as: m.role, database: m.database)
    let opsBefore = try m.cluster.psql("SELECT string_agg(payload, ',' ORDER BY seq) FROM ootd.ops", as: m.role, database: m.database)
    let rekey = try Self.run(m, "a", ["OOTD_REMOTE_NEW_PASSPHRASE": newPhrase], "remote", "rekey")
    #expect(rekey.code == 0, "\(rekey.stderr)")
    #expect(rekey.stdout.contains("Changed the sync passphrase"))
    let recordAfter = try m.cluster.psql("SELECT wrapped_key FROM ootd.keys", as: m.role, database: m.database)
    #expect(recordBefore != recordAfter)
    // Nothing was encrypted again: the payloads are as they were.
    #expect(try m.cluster.psql("SELECT string_agg(payload, ',' ORDER BY seq) FROM ootd.ops", as: m.role, database: m.database) == opsBefore)
    let old = try m.run("c", "remote", "sync")
    #expect(old.code == 1 && old.stderr.hasPrefix("ootd: error: wrong passphrase"), "\(old.stderr)")
    let nothing = try m.titles("c")
    #expect(nothing.isEmpty)
    let fresh = try Self.run(m, "c", ["OOTD_REMOTE_PASSPHRASE": newPhrase], "remote", "sync")
    #expect(fresh.code == 0, "\(fresh.stderr)")
    #expect(try m.titles("c") == m.titles("a"))
    // b kept its key file: it syncs with no passphrase at all.
    #expect(try m.run("a", "add", "After rekey").code == 0)
    try m.sync("a")
    let b = try Self.run(m, "b", ["OOTD_REMOTE_PASSPHRASE": ""], "remote", "sync")
    #expect(b.code == 0, "\(b.stderr)")
    #expect(try m.titles("b").contains("After rekey"))
  }

  @Test("the key file is 0600 and holds no passphrase; a symbolic link planted at its path or a readable file is refused")
  func keyFile() throws {
    let m = try SyncMachines()
    try Self.secrets(m)
    var status = stat()
    #expect(lstat(Self.keyPath(m, "a"), &status) == 0)
    #expect(status.st_mode & S_IFMT == S_IFREG && status.st_mode & 0o777 == 0o600)
    let text = try String(contentsOfFile: Self.keyPath(m, "a"), encoding: .utf8)
    #expect(text.hasPrefix("ootd sync key 1\n") && !text.contains(SyncKeyTesting.passphrase))
    // A link planted where b's key file goes, pointing at a file of the attacker's choosing.
    let target = m.folder.file("planted-target")
    try Data("theirs".utf8).write(to: URL(fileURLWithPath: target))
    try FileManager.default.createSymbolicLink(atPath: Self.keyPath(m, "b"), withDestinationPath: target)
    let planted = try m.run("b", "remote", "sync")
    #expect(planted.code == 1, "\(planted.stderr)")
    #expect(planted.stderr.contains("is a symbolic link"), "\(planted.stderr)")
    #expect(planted.stderr.split(separator: "\n").count == 1)
    #expect(try String(contentsOfFile: target, encoding: .utf8) == "theirs")
    #expect(try m.titles("b").isEmpty)
    // A dangling link too.
    try FileManager.default.removeItem(atPath: target)
    let dangling = try m.run("b", "remote", "set", m.uri)
    #expect(dangling.code == 1 && dangling.stderr.contains("is a symbolic link"), "\(dangling.stderr)")
    #expect(!FileManager.default.fileExists(atPath: target))
    try FileManager.default.removeItem(atPath: Self.keyPath(m, "b"))
    // A key file others can read is refused, not used.
    chmod(Self.keyPath(m, "a"), 0o644)
    let readable = try m.run("a", "remote", "sync")
    #expect(readable.code == 1 && readable.stderr.contains("can be read by others (mode 644)"), "\(readable.stderr)")
    chmod(Self.keyPath(m, "a"), 0o600)
    try m.sync("a")
    try m.sync("b")
    #expect(try m.titles("b") == m.titles("a"))
  }

  @Test("remote set on a machine that never ran ootd (no data folder yet): the folder is made, the key kept, the sync pulls")
  func freshMachine() throws {
    let m = try SyncMachines()
    try Self.secrets(m)
    let database = m.folder.file("never-ran/ootd/ootd.sqlite")
    var variables = m.environment("fresh")
    variables["OOTD_DB"] = database
    let set = try BinaryTests.run(["remote", "set", m.uri], environment: variables)
    #expect(set.code == 0, "\(set.stderr)")
    var status = stat()
    #expect(stat(database + ".sync-key", &status) == 0 && status.st_mode & 0o777 == 0o600)
    #expect(stat(m.folder.file("never-ran/ootd"), &status) == 0 && status.st_mode & 0o777 == 0o700)
    let sync = try BinaryTests.run(["remote", "sync"], environment: variables)
    #expect(sync.code == 0, "\(sync.stderr)")
    let list = try BinaryTests.run(["list", "--all", "--json"], environment: variables)
    #expect(list.stdout.contains("SECRET-"), "\(list.stdout)")
  }

  @Test("a missing libsodium: one line naming the package, exit 1, nothing pulled or saved")
  func missingLibsodium() throws {
    let m = try SyncMachines()
    try Self.secrets(m)
    #expect(try m.run("b", "add", "Mine").code == 0)
    let before = Self.digest(m.folder.file("b.sqlite"))
    let missing = m.folder.file("missing/libsodium.so.23")
    for arguments in [["remote", "sync"], ["remote", "set", m.uri], ["remote", "rekey"]] {
      let result = try BinaryTests.run(arguments, environment: m.environment("b").merging(["OOTD_LIBSODIUM": missing]) { $1 })
      #expect(result.code == 1, "\(arguments): \(result.stderr)")
      #expect(result.stderr == "ootd: error: cannot encrypt: \(missing) was not found (install Debian's libsodium23)\n", "\(arguments)")
      #expect(Self.digest(m.folder.file("b.sqlite")) == before)
    }
  }

  @Test("commands that do not sync never load libsodium; remote sync does")
  func libsodiumOnlyWhenSyncing() throws {
    let m = try SyncMachines()
    let add = try Self.run(m, "a", ["LD_DEBUG": "files"], "add", "x")
    #expect(add.code == 0 && add.stderr.contains("libc.so.6"))
    #expect(!add.stderr.contains("libsodium"))
    let sync = try Self.run(m, "a", ["LD_DEBUG": "files"], "remote", "sync")
    #expect(sync.code == 0)
    #expect(sync.stderr.contains("libsodium.so.23"))
  }
}

/// The passphrase asked on a terminal (in-process, the answers typed): twice on the first
/// machine, once on another; never echoed into what ootd prints.
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct PassphrasePromptTests {
  @Test("asked twice on the first machine (two different answers: exit 64, nothing stored), once on the next; a wrong one exits 1")
  func prompts() async throws {
    let m = try SyncMachines()
    var a = try Harness()
    a.terminal = true
    a.variables["OOTD_REMOTE"] = m.uri
    a.variables["OOTD_REMOTE_PASSPHRASE"] = ""
    #expect(await a.run(["add", "SECRET-typed"]).code == 0)
    let differ = await a.run(["remote", "sync"], answers: ["first passphrase", "second passphrase"])
    #expect(differ.code == 64)
    #expect(differ.stderr.hasPrefix("New sync passphrase for \(m.role) (it encrypts your todos; the server never sees it): \nAgain, to be sure: \n"))
    #expect(differ.stderr.hasSuffix("ootd: error: the two passphrases differ; nothing was changed\n"), "\(differ.stderr)")
    #expect(try m.cluster.psql("SELECT count(*) FROM ootd.keys", as: m.role, database: m.database).hasPrefix("0"))
    let phrase = "typed on a terminal"
    let created = await a.run(["remote", "sync"], answers: [phrase, phrase])
    #expect(created.code == 0, "\(created.stderr)")
    #expect(!(created.stdout + created.stderr).contains(phrase))
    // Now the key file serves: no question.
    let quiet = await a.run(["remote", "sync"])
    #expect(quiet.code == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")

    var b = try Harness()
    b.terminal = true
    b.variables["OOTD_REMOTE"] = m.uri
    b.variables["OOTD_REMOTE_PASSPHRASE"] = ""
    let wrong = await b.run(["remote", "sync"], answers: ["not what was typed"])
    #expect(wrong.code == 1)
    #expect(wrong.stderr == "Sync passphrase for \(m.role): \nootd: error: wrong passphrase: it does not unlock your sync key on the server; nothing was pulled or changed\n")
    let right = await b.run(["remote", "sync"], answers: [phrase])
    #expect(right.code == 0, "\(right.stderr)")
    #expect(try await b.allTodos().map { $0["title"] as? String } == ["SECRET-typed"])
  }
}
