import Foundation
import PostgresSupport
import TestTags
import Testing

@testable import CLI

/// Issue 24's tryout 18: a sync never rewrites a day's record nor leaves a state the rules
/// forbid (S1, S6, W6). Two machines syncing through a real PostgreSQL, in-process, with now and
/// their time zones pinned.
@Suite("Sync merge rules across machines (tryout 18)", .tags(.binary, .postgres), .serialized)
struct SyncMergeRulesTryout18Tests {
  typealias R = RulesOnEveryPathTests

  static func at(_ text: String) throws -> Date {
    try #require(ISO8601DateFormatter().date(from: text))
  }

  // MARK: - S1: machines in different time zones

  @Test(
    "done on Auckland's today while UTC is still on yesterday: the UTC machine's sync keeps it on Auckland's day, on both",
    .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
  func sync_doneOnTodayAhead_staysOnItsDay() async throws {
    var (akl, utc) = try R.machines()
    akl.timeZone = TimeZone(identifier: "Pacific/Auckland")!
    utc.timeZone = TimeZone(identifier: "UTC")!
    // 13:45 UTC: 02:45 on 11-29 in Auckland, 11-28 in UTC.
    akl.now = try Self.at("2026-11-28T13:45:00Z")
    utc.now = akl.now
    #expect(await akl.run(["add", "written in Auckland"]).stdout.contains("for 2026-11-29 (today)"))
    #expect(await akl.run(["done", "1"]).code == 0)
    _ = try await R.sync(akl)
    let pulled = try await R.sync(utc)
    #expect(pulled.json["ruleConflicts"] as? [String] == [])
    #expect(!pulled.stderr.contains("conflict"), "\(pulled.stderr)")
    let back = try await R.sync(akl)
    #expect(back.json["ruleConflicts"] as? [String] == [])
    for h in [akl, utc] {
      let todo = try await R.todo(h, id: 1)
      #expect(todo["date"] as? String == "2026-11-29")
      #expect(todo["done"] as? Bool == true)
    }
    // This machine's own command keeps its own today: ticking a todo of tomorrow here moves it
    // to today, done, as before.
    await utc.run(["add", "tomorrow's", "--on", "2026-11-29"])
    let done = await utc.run(["done", "2"])
    #expect(done.stdout.contains("Moved #2 'tomorrow's' from 2026-11-29 to today (2026-11-28)"), "\(done.stdout)")
    #expect(try await R.todo(utc, id: 2)["date"] as? String == "2026-11-28")
  }

  @Test(
    "done on a day after today everywhere still moves to the pulling machine's today",
    .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
  func sync_doneAfterTodayEverywhere_stillMended() async throws {
    var (a, b) = try R.machines()
    a.timeZone = TimeZone(identifier: "UTC")!
    b.timeZone = a.timeZone
    // 13:45 UTC on 11-28: 11-29 somewhere, 11-30 nowhere.
    a.now = try Self.at("2026-11-28T13:45:00Z")
    b.now = a.now
    await a.run(["add", "Read"])
    _ = try await R.sync(a)
    _ = try await R.sync(b)
    #expect(await a.run(["done", "1"]).code == 0)
    #expect(await b.run(["edit", "1", "--on", "2026-11-30"]).code == 0)
    _ = try await R.sync(a)
    let merged = try await R.sync(b)
    #expect(merged.json["ruleConflicts"] as? [String] == [
      "#1 'Read' was done but planned for 2026-11-30, a day after today: it stays done, moved to today (2026-11-28)"
    ])
  }

  // MARK: - S6: dropped on one machine, moved on the other

  static let sentence =
    "#1 'old1' was dropped on one machine and moved to 2026-11-22 on another: it stays on 2026-11-22, open, and is no longer dropped"

  static func expectMovedOpen(_ h: Harness) async throws {
    let todo = try await R.todo(h, id: 1)
    #expect(todo["date"] as? String == "2026-11-22")
    #expect(todo["dropped"] as? Bool == false)
    #expect(todo["done"] as? Bool == false)
    #expect(todo["carriedFrom"] as? [String] == ["2026-11-20"])
  }

  @Test(
    "carried on A, dropped on B: the move wins on both, B's sync says so in one line and in --json",
    .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
  func sync_carriedHereDroppedThere_moveWins() async throws {
    let (a, b) = try R.machines()
    await a.run(["add", "old1", "--on", "2026-11-20"])
    await a.run(["add", "old2", "--on", "2026-11-20"])
    _ = try await R.sync(a)
    _ = try await R.sync(b)
    #expect(await a.run(["carry"]).code == 0)
    #expect(await b.run(["drop", "1"]).code == 0)
    _ = try await R.sync(a)
    let merged = try await R.sync(b)
    #expect(merged.json["ruleConflicts"] as? [String] == [Self.sentence])
    #expect(merged.stderr.contains("ootd: conflict: " + Self.sentence), "\(merged.stderr)")
    let back = try await R.sync(a)
    #expect(back.json["ruleConflicts"] as? [String] == [])
    try await Self.expectMovedOpen(a)
    try await Self.expectMovedOpen(b)
    #expect(try await R.sync(b).json["ruleConflicts"] as? [String] == [])
    // Open on today, it can be given up again there.
    #expect(await b.run(["drop", "1"]).code == 0)
  }

  @Test(
    "dropped on B synced first: A, which carried it, resolves the same way",
    .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
  func sync_droppedThereFirst_moveWins() async throws {
    let (a, b) = try R.machines()
    await a.run(["add", "old1", "--on", "2026-11-20"])
    _ = try await R.sync(a)
    _ = try await R.sync(b)
    #expect(await a.run(["carry"]).code == 0)
    #expect(await b.run(["drop", "1"]).code == 0)
    _ = try await R.sync(b)
    let merged = try await R.sync(a)
    #expect(merged.json["ruleConflicts"] as? [String] == [Self.sentence])
    #expect(try await R.sync(b).json["ruleConflicts"] as? [String] == [])
    try await Self.expectMovedOpen(a)
    try await Self.expectMovedOpen(b)
  }

  @Test(
    "carried, synced, then dropped on the other machine: a drop that saw the move stands",
    .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
  func sync_dropAfterSeeingTheMove_stands() async throws {
    let (a, b) = try R.machines()
    await a.run(["add", "old1", "--on", "2026-11-20"])
    _ = try await R.sync(a)
    _ = try await R.sync(b)
    #expect(await a.run(["carry"]).code == 0)
    _ = try await R.sync(a)
    _ = try await R.sync(b)
    #expect(await b.run(["drop", "1"]).code == 0)
    #expect(try await R.sync(b).json["ruleConflicts"] as? [String] == [])
    #expect(try await R.sync(a).json["ruleConflicts"] as? [String] == [])
    for h in [a, b] { #expect(try await R.todo(h, id: 1)["dropped"] as? Bool == true) }
  }

  // MARK: - W6: a routine todo moved to a day, and that day's routine planned elsewhere

  static func studies(_ h: Harness, on day: String) async throws -> [[String: Any]] {
    try await h.allTodos().filter { $0["date"] as? String == day && $0["block"] as? String == "study" }
  }

  @Test(
    "a routine todo moved to tomorrow on A, tomorrow's routine planned on B before it pulled: the day holds it once, on both",
    .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
  func sync_routineMovedHerePlannedThere_once() async throws {
    var (a, b) = try R.machines()
    #expect(await a.run(["block", "routine", "study"]).code == 0)
    _ = try await R.sync(a)
    _ = try await R.sync(b)
    let moved = try #require(try await Self.studies(a, on: "2026-11-22").first)
    let number = try #require(moved["id"] as? Int)
    #expect(await a.run(["edit", "\(number)", "--on", "2026-11-23"]).code == 0)
    _ = try await R.sync(a)
    // B, on 11-23, plans the day's routine before it pulls A's move.
    b.now = try Self.at("2026-11-23T09:00:00+09:00")
    a.now = b.now
    #expect(await b.run(["list"]).code == 0)
    #expect(try await Self.studies(b, on: "2026-11-23").count == 1)
    let planned = try #require(try await Self.studies(b, on: "2026-11-23").first?["id"] as? Int)
    let merged = try await R.sync(b)
    let sentence =
      "#\(planned) 'Study / watch a lecture' was the routine planned for 2026-11-23 on one machine, and #"
      + "\(number) was moved there on another: a day holds its routine once, so #\(number) stays and #\(planned) is removed"
    #expect(merged.json["ruleConflicts"] as? [String] == [sentence])
    #expect(merged.stderr.contains("ootd: conflict: " + sentence), "\(merged.stderr)")
    #expect(try await R.sync(a).json["ruleConflicts"] as? [String] == [])
    for h in [a, b] {
      let day = try await Self.studies(h, on: "2026-11-23")
      #expect(day.map { $0["uuid"] as? String } == [moved["uuid"] as? String])
      // The day it was moved from keeps its record: carried from 11-22.
      #expect(day.first?["carriedFrom"] as? [String] == ["2026-11-22"])
    }
  }

  @Test(
    "the planned one done on B, the moved one open: the one kept takes the done",
    .enabled(if: PostgresCluster.available, "PostgreSQL is not installed (scripts/bootstrap installs it)"))
  func sync_routinePlannedDone_foldsDone() async throws {
    var (a, b) = try R.machines()
    #expect(await a.run(["block", "routine", "study"]).code == 0)
    _ = try await R.sync(a)
    _ = try await R.sync(b)
    let moved = try #require(try await Self.studies(a, on: "2026-11-22").first)
    let number = try #require(moved["id"] as? Int)
    #expect(await a.run(["edit", "\(number)", "--on", "2026-11-23"]).code == 0)
    b.now = try Self.at("2026-11-23T09:00:00+09:00")
    a.now = b.now
    #expect(await b.run(["list"]).code == 0)
    let planned = try #require(try await Self.studies(b, on: "2026-11-23").first?["id"] as? Int)
    #expect(await b.run(["done", "\(planned)"]).code == 0)
    _ = try await R.sync(b)
    // A pulls B's plan and tick while its move is not pushed: A resolves.
    let merged = try await R.sync(a)
    #expect((merged.json["ruleConflicts"] as? [String])?.first?.hasSuffix("so #\(number) stays, done, and #\(planned) is removed") == true, "\(merged.json)")
    _ = try await R.sync(b)
    for h in [a, b] {
      let day = try await Self.studies(h, on: "2026-11-23")
      #expect(day.count == 1)
      #expect(day.first?["uuid"] as? String == moved["uuid"] as? String)
      #expect(day.first?["done"] as? Bool == true)
    }
  }
}
