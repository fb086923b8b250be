import Core
import Encryption
import Foundation
import GRDB
import PostgresSupport
import Remote
import TestTags
import Testing

/// Issue 21, points 4–6: rows any member can write into their own server ops with `psql` (a
/// clock of 2^63−1, unreadable payloads, values over the caps) never crash a machine that pulls
/// them and never stop its later syncs: each is set aside with one warning naming it.
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct HostileRowBinaryTests {
  /// A device id of a machine that does not exist here (the hostile rows' author).
  static let stranger = RowID.random()
  /// A pinned clock value: 2026-01-05, whatever the real date.
  static let clock = HybridClock.value(milliseconds: 1_767_600_000_000)

  /// Inserts a row into the member's own ops, as the member role, and returns its server
  /// position. The payload is sealed with the member's sync key (machine a's
  /// key file), as a member who holds the key can: what is inside is still hostile.
  @discardableResult
  static func insert(_ m: SyncMachines, device: String = stranger, clock: String = String(clock), payload: String)
    throws -> Int64
  {
    let opID = UUID().uuidString.lowercased()
    let key = try #require(DataKey(fileText: String(contentsOfFile: m.folder.file("a.sqlite") + ".sync-key", encoding: .utf8)))
    let sealed = try PayloadCipher(key).seal(SyncRecord(opID: opID, device: device, clock: clock, payload: payload)).payload
    // Through libpq with parameters, not psql's command line: a sealed payload over the notes
    // cap is longer than one argument may be (128 KiB).
    let rows = try PostgresConnection(uri: m.uri).query(
      "INSERT INTO ootd.ops (op_id, device, clock, payload) VALUES ($1::uuid, $2, $3, $4) RETURNING seq",
      [opID, device, clock, sealed])
    return try #require(rows.rows.first?.first.flatMap { $0 }.flatMap { Int64($0) })
  }

  /// A valid payload creating one todo with `fields` over the defaults, at `clock`.
  static func creation(_ fields: Fields = [:], clock: Int64 = clock, row: String = RowID.random()) -> String {
    var all: Fields = [
      "title": .text("From the stranger"), "priority": .integer(1), "day": .text("2026-01-05"),
      "done": .integer(0), "createdAt": .text("2026-01-05 10:00:00.000"), "dropped": .integer(0),
      "keepOpen": .integer(0),
    ]
    all.merge(fields) { $1 }
    return SyncPayload.encode(
      command: "add", [SyncOperation(.todo, row: row, .create(all), stamp: Stamp(clock: clock, device: stranger))])
  }

  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  /// The `setAside` ids of a `--json` answer.
  static func setAsideIDs(_ json: [String: Any]) throws -> [Int64] {
    let rows = try #require(json["setAside"] as? [[String: Any]])
    return try rows.map { try #require(($0["id"] as? NSNumber)?.int64Value) }
  }

  @Test("a pulled row with clock 2^63−1 is set aside; add, done, edit and undo then exit 0 or 1, never by a signal")
  func maximumClock() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Before the bad row")
    try m.sync("a")
    let max = Int64.max
    let bad = try Self.insert(m, clock: String(max), payload: Self.creation(["title": .text("Poison")], clock: max))
    // The record's own clock in range, an operation's at 2^63−1: refused all the same.
    let inner = try Self.insert(m, payload: Self.creation(["title": .text("Poison 2")], clock: max))
    try Self.insert(m, payload: Self.creation(["title": .text("After the bad row")]))
    let sync = try m.run("b", "remote", "sync", "--json")
    #expect(sync.code == 0, "\(sync.stderr)")
    #expect(try Self.setAsideIDs(Self.json(sync.stdout)) == [bad, inner])
    #expect(sync.stderr.contains("ootd: set aside server row \(bad) from device '\(Self.stranger)': "), "\(sync.stderr)")
    #expect(sync.stderr.contains("out of range"), "\(sync.stderr)")
    #expect(try m.titles("b") == ["After the bad row", "Before the bad row"])
    for arguments in [["add", "Next"], ["done", "1"], ["edit", "1", "--title", "Renamed"], ["undo"], ["add", "Again"]] {
      let result = try BinaryTests.run(arguments, environment: m.environment("b"))
      #expect([0, 1].contains(result.code), "\(arguments): \(result.code) \(result.stderr)")
    }
    // And the machine keeps syncing, its clock sane: a's next sync takes b's changes.
    #expect(try m.run("b", "remote", "sync").code == 0)
    try m.sync("a")
    #expect(try m.titles("a").contains("Again"))
  }

  @Test("a database whose clock already reached 2^63−1 (pulled before the door) still adds, ticks, edits, undoes and syncs")
  func saturatedClock() throws {
    let m = try SyncMachines()
    try m.run("b", "add", "First")
    try m.sync("b")
    try DatabaseQueue(path: m.folder.file("b.sqlite")).write { db in
      try db.execute(sql: "UPDATE journalSetting SET value = ? WHERE key = 'clock'", arguments: [Int64.max])
    }
    for arguments in [["add", "Next"], ["done", "1"], ["edit", "1", "--title", "Renamed"], ["undo"], ["add", "Again"]] {
      let result = try BinaryTests.run(arguments, environment: m.environment("b"))
      #expect([0, 1].contains(result.code), "\(arguments): \(result.code) \(result.stderr)")
    }
    let sync = try m.run("b", "remote", "sync")
    #expect([0, 1].contains(sync.code), "\(sync.code) \(sync.stderr)")
    #expect(try m.titles("b") == ["Again", "First", "Next"])
  }

  @Test("a row not sealed with the key (plain JSON a member wrote with psql) is set aside: one line, exit 1, the others applied, the next sync goes on")
  func unsealedRow() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Before")
    try m.sync("a")
    let opID = UUID().uuidString.lowercased()
    let rows = try PostgresConnection(uri: m.uri).query(
      "INSERT INTO ootd.ops (op_id, device, clock, payload) VALUES ($1::uuid, $2, $3, $4) RETURNING seq",
      [opID, Self.stranger, String(Self.clock), Self.creation(["title": .text("Plain")])])
    let seq = try #require(rows.rows.first?.first.flatMap { $0 }.flatMap { Int64($0) })
    try Self.insert(m, payload: Self.creation(["title": .text("After")]))
    let first = try m.run("b", "remote", "sync", "--json")
    #expect(first.code == 1, "\(first.stderr)")
    #expect(
      first.stderr.hasPrefix("ootd: error: server row \(seq) (op \(opID)) is not encrypted (pushed by an ootd without encryption"),
      "\(first.stderr)")
    #expect(first.stderr.split(separator: "\n").count == 1, "\(first.stderr)")
    #expect(try Self.setAsideIDs(Self.json(first.stdout)) == [seq])
    #expect(try m.titles("b") == ["After", "Before"])
    let again = try m.run("b", "remote", "sync", "--json")
    #expect(again.code == 0 && again.stderr.isEmpty, "\(again.stderr)")
    #expect(try Self.setAsideIDs(Self.json(m.run("b", "remote", "status", "--json").stdout)) == [seq])
  }

  @Test("unreadable rows are set aside with one warning each, the others applied; the next sync does not stop on them")
  func unreadableRows() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Before")
    try m.sync("a")
    let url = "https://github.com/o/r/issues/1"
    var bad: [Int64] = []
    bad.append(try Self.insert(m, payload: #"{"v":1,"ops":[{"entity":"todo""#))  // malformed JSON
    bad.append(try Self.insert(m, payload: #"{"v":99,"command":"x","ops":[]}"#))
    bad.append(try Self.insert(m, payload: Self.creation(["bogus": .integer(1)])))  // unknown field
    bad.append(try Self.insert(m, payload: Self.creation(["priority": .integer(7)])))  // CHECK
    try Self.insert(m, payload: Self.creation(["title": .text("Linked"), "githubUrl": .text(url)]))
    bad.append(try Self.insert(m, payload: Self.creation(["title": .text("Dup"), "githubUrl": .text(url)])))
    bad.append(try Self.insert(m, device: "not\u{1B}[31ma device", payload: Self.creation()))
    try Self.insert(m, payload: Self.creation(["title": .text("After")]))
    let first = try m.run("b", "remote", "sync", "--json")
    #expect(first.code == 0, "\(first.stderr)")
    #expect(try Self.setAsideIDs(Self.json(first.stdout)) == bad)
    let warnings = first.stderr.split(separator: "\n").filter { $0.hasPrefix("ootd: set aside server row ") }
    #expect(warnings.count == bad.count, "\(first.stderr)")
    for seq in bad { #expect(first.stderr.contains("server row \(seq) from"), "\(seq): \(first.stderr)") }
    // Server text reaches the terminal made safe.
    #expect(!first.stderr.contains("\u{1B}"))
    #expect(try m.titles("b") == ["After", "Before", "Linked"])
    let again = try m.run("b", "remote", "sync", "--json")
    #expect(again.code == 0 && !again.stderr.contains("set aside"), "\(again.stderr)")
    #expect(try Self.setAsideIDs(Self.json(again.stdout)).isEmpty)
    let status = try m.run("b", "remote", "status", "--json")
    #expect(try Self.setAsideIDs(Self.json(status.stdout)) == bad)
    let rows = try #require(try Self.json(status.stdout)["setAside"] as? [[String: Any]])
    #expect(rows.allSatisfy { !(($0["reason"] as? String) ?? "").isEmpty })
    let text = try m.run("b", "remote", "status")
    #expect(text.stdout.contains("Set aside:  \(bad.count) server rows"), "\(text.stdout)")
    #expect(text.stdout.contains("set aside server row \(bad[3]) from"), "\(text.stdout)")
    // Machine a pulls the same rows (and its own): it sets aside the same ones and stays in step.
    let fromA = try m.run("a", "remote", "sync", "--json")
    #expect(try Self.setAsideIDs(Self.json(fromA.stdout)) == bad)
    #expect(try m.shapes("a") == m.shapes("b"))
  }

  @Test("a set-aside row the server's owner deleted since is forgotten by the next sync: remote status stops listing it")
  func setAsideRowDeletedOnServer() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Before")
    try m.sync("a")
    let deleted = try Self.insert(m, payload: Self.creation(["priority": .integer(7)]))  // CHECK
    let kept = try Self.insert(m, payload: #"{"v":99,"command":"x","ops":[]}"#)
    let first = try m.run("b", "remote", "sync", "--json")
    #expect(first.code == 0, "\(first.stderr)")
    #expect(try Self.setAsideIDs(Self.json(m.run("b", "remote", "status", "--json").stdout)) == [deleted, kept])
    // The server's owner deletes one bad row (the member role cannot).
    _ = try m.cluster.psql("DELETE FROM ootd.ops WHERE seq = \(deleted)", database: m.database)
    let again = try m.run("b", "remote", "sync", "--json")
    #expect(again.code == 0, "\(again.stderr)")
    #expect(
      again.stderr == "ootd: note: forgot 1 set-aside server row the server no longer holds (\(deleted))\n",
      "\(again.stderr)")
    #expect(try Self.setAsideIDs(Self.json(m.run("b", "remote", "status", "--json").stdout)) == [kept])
    let text = try m.run("b", "remote", "status")
    #expect(text.stdout.contains("Set aside:  1 server row\n"), "\(text.stdout)")
    // Said once: the next sync has nothing to forget.
    let third = try m.run("b", "remote", "sync")
    #expect(third.code == 0 && third.stderr.isEmpty, "\(third.stderr)")
    #expect(try m.titles("b") == ["Before"])
  }

  @Test(
    "values over the caps are set aside, a payload over the byte cap without being fetched; more tags than the cap are merged and cut"
  )
  func overCaps() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Before")
    try m.sync("a")
    let longTitle = String(repeating: "t", count: Caps.titleCharacters + 1)
    let title = try Self.insert(m, payload: Self.creation(["title": .text(longTitle)]))
    let notes = try Self.insert(
      m, payload: Self.creation(["notes": .text(String(repeating: "n", count: Caps.notesCharacters + 1))]))
    // More tags than the cap (as tags merged on two machines may be): merged, then cut by the
    // sync to the first 100 by name, said by a line, not set aside with the rest of its record.
    let many = Tag.normalized((0...Caps.tagsPerTodo).map { "t\($0)" })
    try Self.insert(m, payload: Self.creation(["title": .text("Tagged"), "tags": .text(many.joined(separator: " "))]))
    // Over the byte cap: a valid payload padded with white space past it, made by the server.
    let creation = Self.creation(["title": .text("Huge")])
    let huge = try m.cluster.psql(
      """
      INSERT INTO ootd.ops (op_id, device, clock, payload)
      VALUES (gen_random_uuid(), '\(Self.stranger)', '\(Self.clock)',
        $p$\(creation)$p$ || repeat(' ', \(Caps.payloadBytes + 1))) RETURNING seq
      """, as: m.role, database: m.database)
    let hugeSeq = try #require(Int64(huge.trimmingCharacters(in: .whitespacesAndNewlines)))
    // The largest title that fits is applied.
    let fits = String(repeating: "f", count: Caps.titleCharacters)
    try Self.insert(m, payload: Self.creation(["title": .text(fits)]))
    let sync = try m.run("b", "remote", "sync", "--json")
    #expect(sync.code == 0, "\(sync.stderr)")
    #expect(try Self.setAsideIDs(Self.json(sync.stdout)) == [title, notes, hugeSeq])
    #expect(
      sync.stderr.contains(
        "'Tagged' had 101 tags, more than the 100 a todo may have: it keeps the first 100 by name and loses +\(many.last!)\n"),
      "\(sync.stderr)")
    #expect(sync.stderr.contains("server row \(hugeSeq) from device '\(Self.stranger)': its payload of"), "\(sync.stderr)")
    #expect(sync.stderr.contains("longer than \(Caps.titleCharacters) characters"), "\(sync.stderr)")
    #expect(try m.titles("b") == ["Before", "Tagged", fits])
    #expect(try m.run("b", "remote", "sync").code == 0)
  }

  @Test("notes over the cap are refused by edit and import with one line, exit 64")
  func localCaps() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Read")
    let long = String(repeating: "n", count: Caps.notesCharacters + 1)
    let edit = try m.run("a", "edit", "1", "--note", long)
    #expect(edit.code == 64, "\(edit.stderr)")
    #expect(edit.stderr.split(separator: "\n").count == 1 && edit.stderr.contains("longer than"))
    let folder = try TemporaryFolder()
    let file = folder.file("tasks.json")
    let task = """
      [{"uuid":"6f1c1d0e-8a3b-4c52-9d4e-1f2a3b4c5d6e","description":"Imported","status":"pending",\
      "entry":"20260105T100000Z","annotations":[{"entry":"20260105T100000Z","description":"\(long)"}]}]
      """
    try Data(task.utf8).write(to: URL(fileURLWithPath: file))
    let imported = try m.run("a", "import", "taskwarrior", file)
    #expect([1, 64].contains(imported.code), "\(imported.code) \(imported.stderr)")
    #expect(imported.stderr.contains("longer than \(Caps.notesCharacters) characters"), "\(imported.stderr)")
    #expect(try m.titles("a") == ["Read"])
  }
}
