import Core
import Foundation
import PostgresSupport
import Remote
import TestTags
import Testing
import UseCases

#if canImport(Glibc)
import Glibc
#endif

/// Issue 24: clocks that lie are noticed (the skew measured against the server, a push refused
/// past an hour, the hybrid clock capped, conflict lines that say the rule that decided), a
/// conflict reported once, `remote status` counting as the sync does, and a pull killed half-way
/// that keeps what it applied.
///
/// A machine's running clock is moved with the debug seam `OOTD_CLOCK_OFFSET` (seconds added to
/// the running clock, the one the skew is measured with); `OOTD_NOW` still pins the instant its
/// commands run at, so the tests that pin a past `now` see no skew. Not libfaketime: with
/// libfaketime 0.9.10 preloaded (even without FAKETIME set) a Swift binary starts with no
/// arguments at all (`CommandLine.arguments == []`, checked with a one-line program), so every
/// `ootd remote sync` under it would run plain `ootd`; and in the test runner itself it breaks
/// Dispatch's timers (.ci/run).
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct SyncClocksBinaryTests {
  /// The variables that move the ootd process's running clock by `seconds`.
  static func faked(_ seconds: Int) -> [String: String] { ["OOTD_CLOCK_OFFSET": String(seconds)] }

  /// Runs ootd on `machine` at `TestClock.now` + `seconds`, with `extra` variables.
  static func run(
    _ m: SyncMachines, _ machine: String, at seconds: Double, _ arguments: [String], extra: [String: String] = [:]
  ) throws -> BinaryTests.Result {
    var environment = m.environment(machine)
    environment["OOTD_NOW"] = Timestamp.string(TestClock.now.addingTimeInterval(seconds), .iso8601)
    return try BinaryTests.run(arguments, environment: environment.merging(extra) { $1 })
  }

  static func json(_ result: BinaryTests.Result) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
  }

  static func opsOnServer(_ m: SyncMachines) throws -> Int {
    Int(try m.cluster.psql("SELECT count(*) FROM ootd.ops", database: m.database)
      .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
  }

  @Test("no skew: clockSkewSeconds is near 0 and nothing is said about clocks")
  func noSkew() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Read")
    let json = try m.sync("a")
    let skew = try #require(json["clockSkewSeconds"] as? Double)
    #expect(abs(skew) < 5)
    #expect(json["pushRefused"] as? Bool == false)
    let text = try m.run("a", "remote", "sync")
    #expect(text.code == 0 && text.stderr.isEmpty, "\(text.stderr)")
  }

  @Test("a clock 10 minutes fast: one warning line with the skew, and clockSkewSeconds near 600")
  func tenMinutesFast() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Read")
    let fast = Self.faked(600)
    let result = try Self.run(m, "a", at: 10, ["remote", "sync", "--json"], extra: fast)
    #expect(result.code == 0, "\(result.stderr)")
    let skew = try #require(try Self.json(result)["clockSkewSeconds"] as? Double)
    #expect(skew > 590 && skew < 610, "\(skew)")
    let text = try Self.run(m, "a", at: 11, ["remote", "sync"], extra: fast)
    #expect(text.code == 0, "\(text.stderr)")
    let lines = text.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(text.stderr)")
    #expect(text.stderr.hasPrefix("ootd: warning: this machine's clock is 10 min"), "\(text.stderr)")
    #expect(text.stderr.contains("ahead of the server's"), "\(text.stderr)")
    // Behind is negative.
    let seam = try Self.run(m, "a", at: 12, ["remote", "sync", "--json"], extra: Self.faked(-120))
    let behind = try #require(try Self.json(seam)["clockSkewSeconds"] as? Double)
    #expect(behind < -110 && behind > -130, "\(behind)")
  }

  @Test("a clock 2 hours fast: the push is refused (exit 1, one line, nothing on the server); the flag pushes")
  func twoHoursFast() throws {
    let m = try SyncMachines()
    try m.run("b", "add", "From b")
    try m.sync("b")
    let before = try Self.opsOnServer(m)
    try m.run("a", "add", "Read")
    try m.run("a", "add", "Write")
    let fast = Self.faked(7200)
    let refused = try Self.run(m, "a", at: 10, ["remote", "sync", "--json"], extra: fast)
    #expect(refused.code == 1)
    let lines = refused.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(refused.stderr)")
    #expect(refused.stderr.hasPrefix("ootd: error: this machine's clock is 2 h 0 min ahead of the server's"), "\(refused.stderr)")
    #expect(refused.stderr.contains("--ignore-clock-skew"), "\(refused.stderr)")
    // The object is still printed, saying what happened: pulled, nothing pushed.
    let json = try Self.json(refused)
    #expect(json["pushRefused"] as? Bool == true)
    #expect(json["pushed"] as? Int == 0)
    #expect((json["pulled"] as? Int ?? 0) > 0)
    let skew = try #require(json["clockSkewSeconds"] as? Double)
    #expect(skew > 7190 && skew < 7210, "\(skew)")
    #expect(try Self.opsOnServer(m) == before)
    #expect(try m.titles("a").sorted() == ["From b", "Read", "Write"])
    // Text mode too.
    let text = try Self.run(m, "a", at: 11, ["remote", "sync"], extra: fast)
    #expect(text.code == 1 && text.stderr.split(separator: "\n").count == 1, "\(text.stderr)")
    #expect(try Self.opsOnServer(m) == before)
    // The override pushes.
    let forced = try Self.run(m, "a", at: 12, ["remote", "sync", "--json", "--ignore-clock-skew"], extra: fast)
    #expect(forced.code == 0, "\(forced.stderr)")
    #expect((try Self.json(forced)["pushed"] as? Int ?? 0) > 0)
    #expect(try Self.opsOnServer(m) > before)
    try m.sync("b")
    #expect(try m.titles("b").sorted() == ["From b", "Read", "Write"])
  }

  @Test("a machine 10 minutes fast: its edit wins by its clock and the line says so; it no longer drags the other's clock minutes ahead")
  func fastMachineConflicts() throws {
    let m = try SyncMachines()
    try Self.run(m, "a", at: 1, ["add", "Read"]).expectSuccess()
    for (machine, at) in [("a", 2.0), ("b", 3.0), ("c", 4.0)] {
      try Self.run(m, machine, at: at, ["remote", "sync", "--json"]).expectSuccess()
    }
    // a runs 10 minutes fast: its commands' instant and its running clock both.
    let fast = Self.faked(600)
    try Self.run(m, "a", at: 600 + 100, ["edit", "1", "--title", "From a"], extra: fast).expectSuccess()
    try Self.run(m, "a", at: 600 + 101, ["remote", "sync", "--json"], extra: fast).expectSuccess()
    // b edits 2 s after a did, on a true clock, and syncs: a's edit wins by a's clock, and b's
    // line says it was by a clock running ahead, not "the later".
    try Self.run(m, "b", at: 102, ["edit", "1", "--title", "From b"]).expectSuccess()
    let b = try Self.run(m, "b", at: 103, ["remote", "sync"])
    #expect(b.code == 0, "\(b.stderr)")
    #expect(b.stdout.contains("kept 'From a' (the later by its machine's clock, which ran more than a minute ahead of the server's), over 'From b'"), "\(b.stdout)")
    #expect(!b.stdout.contains("(the later)"))
    // Two minutes later, edits a second apart on b and c: the later one (c's) wins, by the
    // later rule. Without the cap both clocks would still sit ten minutes ahead, at a's, and
    // the counters or the device ids would decide.
    try Self.run(m, "c", at: 200, ["remote", "sync", "--json"]).expectSuccess()
    try Self.run(m, "b", at: 220, ["edit", "1", "--title", "b at 220"]).expectSuccess()
    try Self.run(m, "c", at: 221, ["edit", "1", "--title", "c at 221"]).expectSuccess()
    try Self.run(m, "b", at: 222, ["remote", "sync", "--json"]).expectSuccess()
    let c = try Self.run(m, "c", at: 223, ["remote", "sync", "--json"])
    let list = try Self.json(c)["conflictList"] as? [[String: Any]] ?? []
    #expect(list.count == 1)
    #expect(list.first?["kept"] as? String == "c at 221")
    #expect(list.first?["rule"] as? String == "later")
    try Self.run(m, "b", at: 224, ["remote", "sync", "--json"]).expectSuccess()
    #expect(try m.titles("b") == ["c at 221"])
  }

  @Test("a conflict is reported once, by the sync that resolved it, not again a round later")
  func conflictReportedOnce() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Read")
    try m.run("a", "add", "Write")
    try m.sync("a")
    try m.sync("b")
    // a edits first, b later; b syncs first: a's sync resolves the conflict (b's edit wins).
    try m.run("a", "edit", "1", "--title", "From a")
    try m.run("b", "edit", "1", "--title", "From b")
    let b1 = try m.sync("b")
    #expect(b1["conflicts"] as? Int == 0)
    let a1 = try m.sync("a")
    #expect(a1["conflicts"] as? Int == 1)
    // b then pulls a's older edit: the conflict a reported is not reported again, and a new
    // conflict of this round is the only one listed.
    try m.run("a", "edit", "2", "--priority", "high")
    try m.sync("a")
    try m.run("b", "edit", "2", "--priority", "low")
    let b2 = try m.sync("b")
    let list = b2["conflictList"] as? [[String: Any]] ?? []
    #expect(list.count == 1, "\(list)")
    #expect(list.first?["field"] as? String == "priority")
    try m.sync("a")
    #expect(try m.shapes("a") == m.shapes("b"))
    #expect(try m.titles("a").sorted() == ["From b", "Write"])
  }

  @Test("remote status counts what the next sync pushes as the sync reports it")
  func statusCountsAsTheSync() throws {
    let m = try SyncMachines()
    try m.run("a", "add", "Read")
    try m.sync("a")
    // One command of 2,500 rows (several records on the wire) and two small ones.
    try RemoteSyncBinaryTests.fill(m.folder.file("a.sqlite"), count: 2_500)
    try m.run("a", "add", "Write")
    try m.run("a", "done", "1")
    let status = try m.run("a", "remote", "status")
    let waiting = try #require(status.stdout.split(separator: "\n").first { $0.hasPrefix("To push:") })
    let counted = waiting.dropFirst("To push:".count).trimmingCharacters(in: .whitespaces)
    #expect(counted.hasPrefix("3 changes ("), "\(counted)")
    let sync = try m.run("a", "remote", "sync")
    #expect(sync.code == 0, "\(sync.stderr)")
    #expect(sync.stdout.hasPrefix("Pushed \(counted),"), "status: \(counted); sync: \(sync.stdout)")
  }

  @Test("a pull killed past its half keeps what it applied: the rerun completes and reads less than 90% of a full pull")
  func resumablePull() throws {
    let m = try SyncMachines()
    try RemoteSyncBinaryTests.fill(m.folder.file("a.sqlite"), count: 10_000)
    try m.sync("a")
    // A full pull, uninterrupted.
    let full = try m.sync("whole")
    let bytes = try #require(full["pulledBytes"] as? Int)
    #expect(bytes > 1_000_000)
    // Killed once more than half the records were applied, then run again. Each commit applies
    // the pages read since the last, at least as many bytes as RemoteSyncRun plans for it: the
    // first RemoteSyncRun.firstPullCommitBytes, each next twice as many, up to pullCommitBytes.
    var planned = 0
    var commits = 0
    var size = RemoteSyncRun.firstPullCommitBytes
    while planned < bytes / 2 {
      planned += size
      commits += 1
      size = min(size * 2, RemoteSyncRun.pullCommitBytes)
    }
    try RemoteSyncBinaryTests.killSync(m, "cut", at: "remote-pull-applied:\(commits)")
    let kept = try m.titles("cut").count
    #expect(kept > 5_000 - 1 && kept < 10_000, "\(kept) todos kept of 10,000")
    let rerun = try m.sync("cut")
    let reread = try #require(rerun["pulledBytes"] as? Int)
    #expect(reread > 0 && Double(reread) < 0.9 * Double(bytes), "\(reread) of \(bytes)")
    #expect(try m.shapes("cut") == m.shapes("whole"))
    #expect(try m.shapes("cut").count == 10_000)
    // The first sync killed during its very first page keeps going too.
    try RemoteSyncBinaryTests.killSync(m, "early", at: "remote-pull-applied:1")
    try m.sync("early")
    #expect(try m.shapes("early") == m.shapes("whole"))
  }

  @Test("a first push killed part-way keeps the pages the server took: the rerun pushes only the rest")
  func resumablePush() throws {
    let m = try SyncMachines()
    try RemoteSyncBinaryTests.fill(m.folder.file("a.sqlite"), count: 12_000)
    // Killed once the server took the first page (5,000 rows) and it was marked pushed here;
    // then once the server took the second, before it was marked.
    try RemoteSyncBinaryTests.killSync(m, "a", at: "remote-push-marked:1")
    let afterFirst = try Self.opsOnServer(m)
    #expect(afterFirst > 0)
    try RemoteSyncBinaryTests.killSync(m, "a", at: "remote-push-sent:1")
    let afterSecond = try Self.opsOnServer(m)
    #expect(afterSecond > afterFirst)
    let rerun = try m.sync("a")
    let pushed = rerun["pushed"] as? Int ?? 0
    // The rows of the pages the server took are not pushed again (the unmarked one is, and
    // the server keeps one copy of it).
    #expect(pushed > 0 && pushed <= 12_000 - 5_000 + 100, "\(pushed)")
    let records = try Self.opsOnServer(m)
    #expect(try m.sync("a")["pushed"] as? Int == 0)
    #expect(try Self.opsOnServer(m) == records)
    try m.sync("b")
    #expect(try m.shapes("b") == m.shapes("a"))
    #expect(try m.shapes("b").count == 12_000)
  }

  static func membersOnServer(_ m: SyncMachines) throws -> String {
    try m.cluster.psql(
      "SELECT count(*) || ' ' || coalesce(max(updated_at)::text, '-') FROM ootd.members", database: m.database)
  }

  static func figuresOnServer(_ m: SyncMachines) throws -> String {
    try m.cluster.psql(
      "SELECT count(*) || ' ' || coalesce(max(updated_at)::text, '-') FROM ootd.day_figures", database: m.database)
  }

  @Test("the board shows real figures for an old range; a no-op re-sync publishes no day, an edit one day")
  func publishedFigures() throws {
    let m = try SyncMachines()
    // Two todos on a day more than a year back, one done; one today.
    try m.run("a", "add", "Old one", "--on", "2024-03-05")
    try m.run("a", "add", "Old two", "--on", "2024-03-05")
    try m.run("a", "done", "1")
    try m.run("a", "add", "Today")
    try m.run("a", "team", "create", "study").expectSuccess()
    let first = try m.sync("a")
    #expect((first["publishedDays"] as? Int ?? 0) >= 2)
    let board = try m.run("a", "team", "board", "study", "--from", "2024-03-04", "--to", "2024-03-10", "--json")
    board.expectSuccess()
    let json = try Self.json(board)
    let days = (json["members"] as? [[String: Any]])?.first?["days"] as? [[String: Any]] ?? []
    let day = try #require(days.first { $0["date"] as? String == "2024-03-05" })
    #expect(day["total"] as? Int == 2 && day["done"] as? Int == 1, "\(day)")
    // Nothing changed: no day published, not a row of the server touched (nor the display
    // name's row: a sync with nothing to do sends no publish at all).
    let before = try Self.figuresOnServer(m)
    let named = try Self.membersOnServer(m)
    let idle = try m.sync("a")
    #expect(idle["publishedDays"] as? Int == 0)
    #expect(try Self.figuresOnServer(m) == before)
    #expect(try Self.membersOnServer(m) == named)
    // One todo of one day done: that day alone.
    try m.run("a", "done", "2")
    let one = try m.sync("a")
    #expect(one["publishedDays"] as? Int == 1)
    let changed = try m.cluster.psql(
      "SELECT day::text || ' ' || total || '/' || done FROM ootd.day_figures WHERE updated_at > (SELECT min(updated_at) FROM ootd.day_figures)",
      database: m.database)
    #expect(changed.trimmingCharacters(in: .whitespacesAndNewlines) == "2024-03-05 2/2", "\(changed)")
    // Both todos of the day deleted: the day is published as zero, not left at 2/2.
    try m.run("a", "rm", "1", "2", "--yes")
    let gone = try m.sync("a")
    #expect(gone["publishedDays"] as? Int == 1)
    let after = try m.run("a", "team", "board", "study", "--from", "2024-03-04", "--to", "2024-03-10", "--json")
    let afterDays = ((try Self.json(after)["members"] as? [[String: Any]])?.first?["days"] as? [[String: Any]]) ?? []
    #expect(afterDays.first { $0["date"] as? String == "2024-03-05" }?["total"] as? Int == 0)
  }
}

extension BinaryTests.Result {
  /// Fails the test unless the command exited 0.
  func expectSuccess(sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(code == 0, "\(stderr)", sourceLocation: sourceLocation)
  }
}
