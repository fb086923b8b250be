import Core
import Foundation
import PostgresSupport
import TestTags
import Testing

/// Issue 24 §2 (tryout 18, S3 and W10): the refusal to push covers the changes waiting here,
/// not only the clock at the moment of the push. A change made while the clock was more than an
/// hour fast, or before this machine's last sync by the server's clock (a slow clock), is not
/// pushed by the next sync once the clock is right: exit 1, one line, `pushRefused`, until it is
/// undone or `--ignore-clock-skew` is given. Normal drift never trips it. The skew warning goes
/// to standard error with `--json` too. Machines' running clocks moved with `OOTD_CLOCK_OFFSET`
/// and their `now` pinned, as in ``SyncClocksBinaryTests``.
@Suite(
  .tags(.binary, .postgres),
  .serialized,
  .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
struct SkewedChangesBinaryTests {
  typealias Clocks = SyncClocksBinaryTests

  /// a and b synced, both with todo #1 'shared', at `TestClock.now` + 1 … 4 s.
  static func synced() throws -> SyncMachines {
    let m = try SyncMachines()
    try Clocks.run(m, "a", at: 1, ["add", "shared"]).expectSuccess()
    try Clocks.run(m, "a", at: 2, ["remote", "sync", "--json"]).expectSuccess()
    try Clocks.run(m, "b", at: 3, ["remote", "sync", "--json"]).expectSuccess()
    try Clocks.run(m, "a", at: 4, ["remote", "sync", "--json"]).expectSuccess()
    return m
  }

  @Test("an edit made 2 h fast is not pushed by the next sync on a clock set right; undone, the sync goes through")
  func fastEditRefusedLater() throws {
    let m = try Self.synced()
    let fast = Clocks.faked(7200)
    try Clocks.run(m, "a", at: 7200 + 10, ["edit", "1", "--title", "laptop edit (clock 2 h fast)"], extra: fast)
      .expectSuccess()
    #expect(try Clocks.run(m, "a", at: 7200 + 11, ["remote", "sync"], extra: fast).code == 1)
    let before = try Clocks.opsOnServer(m)
    // The clock set right, no flag: still refused, saying why and the ways out.
    let refused = try Clocks.run(m, "a", at: 20, ["remote", "sync", "--json"])
    #expect(refused.code == 1)
    let lines = refused.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(refused.stderr)")
    #expect(
      refused.stderr.hasPrefix(
        "ootd: error: 1 change waiting here was made while this machine's clock was wrong (1 up to 1 h 59 min ahead of the server's clock)"),
      "\(refused.stderr)")
    #expect(refused.stderr.contains("--ignore-clock-skew") && refused.stderr.contains("undo"), "\(refused.stderr)")
    #expect(try Clocks.json(refused)["pushRefused"] as? Bool == true)
    #expect(try Clocks.json(refused)["pushed"] as? Int == 0)
    #expect(try Clocks.opsOnServer(m) == before)
    // Text mode: the same line, exit 1.
    let text = try Clocks.run(m, "a", at: 21, ["remote", "sync"])
    #expect(text.code == 1 && text.stderr.contains("made while this machine's clock was wrong"), "\(text.stderr)")
    #expect(try Clocks.opsOnServer(m) == before)
    // b's later edit is not beaten by it.
    try Clocks.run(m, "b", at: 30, ["edit", "1", "--title", "desktop edit, made later"]).expectSuccess()
    try Clocks.run(m, "b", at: 31, ["remote", "sync", "--json"]).expectSuccess()
    // Undone here, the sync goes through; the fast edit's title is nowhere. (The undo is
    // stamped past the fast edit, by this machine's hybrid clock: it keeps 'shared' over b's
    // edit, and the conflict line says it was by a clock ahead.)
    try Clocks.run(m, "a", at: 40, ["undo"]).expectSuccess()
    let through = try Clocks.run(m, "a", at: 41, ["remote", "sync", "--json"])
    #expect(through.code == 0, "\(through.stderr)")
    #expect(try Clocks.json(through)["pushRefused"] as? Bool == false)
    try Clocks.run(m, "b", at: 42, ["remote", "sync", "--json"]).expectSuccess()
    #expect(try m.titles("a") == m.titles("b"))
    #expect(try !m.titles("b").contains("laptop edit (clock 2 h fast)"))
  }

  @Test("a todo added 2 days slow is not pushed by the next sync; --ignore-clock-skew pushes it as it is")
  func slowAddRefused() throws {
    let m = try Self.synced()
    let slow = Clocks.faked(-2 * 86_400)
    try Clocks.run(m, "a", at: -2 * 86_400 + 10, ["add", "added while 2 days slow"], extra: slow).expectSuccess()
    let before = try Clocks.opsOnServer(m)
    let refused = try Clocks.run(m, "a", at: 20, ["remote", "sync", "--json"])
    #expect(refused.code == 1)
    #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
    #expect(
      refused.stderr.contains("1 up to 47 h 59 min before this machine's last sync by the server's clock"),
      "\(refused.stderr)")
    #expect(try Clocks.json(refused)["pushRefused"] as? Bool == true)
    #expect(try Clocks.opsOnServer(m) == before)
    // Pushed as it is on demand; the flag is needed once.
    let forced = try Clocks.run(m, "a", at: 21, ["remote", "sync", "--json", "--ignore-clock-skew"])
    #expect(forced.code == 0, "\(forced.stderr)")
    #expect((try Clocks.json(forced)["pushed"] as? Int ?? 0) > 0)
    try Clocks.run(m, "a", at: 22, ["remote", "sync", "--json"]).expectSuccess()
    try Clocks.run(m, "b", at: 23, ["remote", "sync", "--json"]).expectSuccess()
    #expect(try m.titles("b").sorted() == ["added while 2 days slow", "shared"])
  }

  @Test("a machine 2 days slow pulls a todo done today elsewhere: it stays on its day, and the clock set right, the sync goes through")
  func slowPullKeepsDoneDays() throws {
    let m = try Self.synced()
    try Clocks.run(m, "b", at: 5, ["done", "1"]).expectSuccess()
    try Clocks.run(m, "b", at: 6, ["remote", "sync", "--json"]).expectSuccess()
    let slow = Clocks.faked(-2 * 86_400)
    let pulled = try Clocks.run(m, "a", at: -2 * 86_400 + 20, ["remote", "sync", "--json"], extra: slow)
    #expect(pulled.code == 1, "\(pulled.stderr)")
    #expect(try Clocks.json(pulled)["pushRefused"] as? Bool == true)
    // Judged by the server's clock, not this one's today two days back (tryout 19 S3: moved to
    // it, and that move, pushed, rewrote every machine's record).
    #expect(try Clocks.json(pulled)["ruleConflicts"] as? [String] == [], "\(pulled.stdout)")
    #expect(!pulled.stderr.contains("conflict"), "\(pulled.stderr)")
    func day(_ machine: String) throws -> String? {
      let list = try Clocks.run(m, machine, at: 30, ["list", "--all", "--json"])
      let todos = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
      return todos.first { $0["id"] as? Int == 1 }?["date"] as? String
    }
    #expect(try day("a") == TestClock.day())
    // The clock set right: nothing waiting here was made while it was wrong.
    let right = try Clocks.run(m, "a", at: 40, ["remote", "sync", "--json"])
    #expect(right.code == 0, "\(right.stderr)")
    try Clocks.run(m, "b", at: 41, ["remote", "sync", "--json"]).expectSuccess()
    #expect(try day("a") == TestClock.day() && day("b") == TestClock.day())
  }

  @Test("changes made with a clock off by drift (30 s either way) are pushed without a word, half an hour slow with the clock's warning only")
  func driftPushed() throws {
    let m = try Self.synced()
    // 30 s slow: made 26 s before the last sync by the server's clock.
    try Clocks.run(m, "a", at: 8 - 30, ["edit", "1", "--title", "slow a little"], extra: Clocks.faked(-30))
      .expectSuccess()
    let slow = try Clocks.run(m, "a", at: 9, ["remote", "sync"])
    #expect(slow.code == 0 && slow.stderr.isEmpty, "\(slow.stderr)")
    #expect(slow.stdout.hasPrefix("Pushed 1 change"), "\(slow.stdout)")
    try Clocks.run(m, "a", at: 10 + 30, ["edit", "1", "--title", "fast a little"], extra: Clocks.faked(30))
      .expectSuccess()
    let fast = try Clocks.run(m, "a", at: 11, ["remote", "sync"])
    #expect(fast.code == 0 && fast.stderr.isEmpty, "\(fast.stderr)")
    #expect(fast.stdout.hasPrefix("Pushed 1 change"), "\(fast.stdout)")
    // Half an hour slow, synced so (the clock's warning), then made 20 min before that sync
    // by the server's clock: within the hour a clock may be off, pushed.
    let halfHour = Clocks.faked(-1800)
    let warned = try Clocks.run(m, "a", at: 12 - 1800, ["remote", "sync"], extra: halfHour)
    #expect(warned.code == 0 && warned.stderr.hasPrefix("ootd: warning: this machine's clock is 30 min"), "\(warned.stderr)")
    try Clocks.run(m, "a", at: 600 - 1800, ["edit", "1", "--title", "slow half an hour"], extra: halfHour).expectSuccess()
    let later = try Clocks.run(m, "a", at: 601, ["remote", "sync"])
    #expect(later.code == 0 && later.stderr.isEmpty, "\(later.stderr)")
    #expect(later.stdout.hasPrefix("Pushed 1 change"), "\(later.stdout)")
  }

  @Test("remote sync --json with a clock 10 minutes fast: the warning line on standard error, the object on standard output")
  func warningWithJSON() throws {
    let m = try Self.synced()
    let result = try Clocks.run(m, "a", at: 10, ["remote", "sync", "--json"], extra: Clocks.faked(600))
    #expect(result.code == 0, "\(result.stderr)")
    let lines = result.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(result.stderr)")
    #expect(result.stderr.hasPrefix("ootd: warning: this machine's clock is 10 min"), "\(result.stderr)")
    let skew = try #require(try Clocks.json(result)["clockSkewSeconds"] as? Double)
    #expect(skew > 590 && skew < 610, "\(skew)")
  }
}
