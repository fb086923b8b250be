import Core
import Foundation
import Testing

/// The backlog from every command that shows or moves a todo: `add --someday`, `backlog`,
/// `plan ID`, `edit --on someday`, `done`, `carry`, `search`, `list --all`, the dashboard,
/// undo, and the three export formats. In-process, with the clock pinned in Asia/Seoul; every
/// date is computed from the pinned day.
@Suite struct BacklogCommandTests {
  static let today = Day(iso: "2026-12-03")!
  static let now = "\(today)T09:00:00+09:00"

  static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

  static func array(_ text: String) throws -> [[String: Any]] { try #require(try json(text) as? [[String: Any]]) }

  static func object(_ text: String) throws -> [String: Any] { try #require(try json(text) as? [String: Any]) }

  /// The bytes of the database file, to prove a refused command changed nothing.
  static func bytes(_ h: Harness) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: h.databasePath)) }

  /// A harness with one todo of today (#1) and three in the backlog: #2 mid, #3 high, #4 low.
  static func planned() async throws -> Harness {
    let h = try Harness(now: now)
    for line in [
      ["add", "Today's work"], ["add", "Read the SQLite docs", "--someday"],
      ["add", "Fix the flaky test", "--on", "someday", "-p", "high"], ["add", "Tidy the wiki", "--someday", "-p", "low"],
    ] {
      let result = await h.run(line)
      #expect(result.code == 0, "\(line) \(result.stderr)")
    }
    return h
  }

  @Test("add --someday puts a todo in the backlog: date null, in no day's total, never overdue")
  func addSomeday() async throws {
    let h = try await Self.planned()
    let added = await h.run(["add", "Learn Zig", "--someday", "--json"])
    #expect(added.code == 0)
    let todo = try Self.object(added.stdout)
    #expect(todo["date"] is NSNull)
    #expect(todo["overdue"] as? Bool == false)
    // Today's figures count today's one todo only
    let dashboard = try Self.object(await h.run(["today", "--json"]).stdout)
    #expect(dashboard["total"] as? Int == 1)
    #expect(dashboard["backlog"] as? Int == 4)
    let top = try #require(dashboard["backlogTop"] as? [[String: Any]])
    #expect(top.compactMap { $0["title"] as? String } == ["Fix the flaky test", "Read the SQLite docs", "Learn Zig"])
    let report = try Self.object(await h.run(["report", "--from", "\(Self.today.adding(days: -7))", "--to", "\(Self.today)", "--json"]).stdout)
    #expect(report["total"] as? Int == 1)
    // The text says where it went
    let text = await h.run(["add", "Someday text", "--someday"])
    #expect(text.stdout.contains("to the backlog"))
  }

  @Test("backlog --json prints the backlog in the shape of list --json, by priority then age; list --all --json has them too")
  func backlogJSON() async throws {
    let h = try await Self.planned()
    let backlog = try Self.array(await h.run(["backlog", "--json"]).stdout)
    #expect(backlog.compactMap { $0["id"] as? Int } == [3, 2, 4])
    #expect(backlog.allSatisfy { $0["date"] is NSNull })
    let all = try Self.array(await h.run(["list", "--all", "--json"]).stdout)
    #expect(Set(all.compactMap { $0["id"] as? Int }) == [1, 2, 3, 4])
    // Same keys as a listed todo
    let listed = try #require(all.first { $0["id"] as? Int == 1 })
    #expect(Set(backlog[0].keys) == Set(listed.keys))
    // The text lists them under one heading; an empty backlog says how to fill it
    let text = await h.run(["backlog"])
    #expect(text.stdout.hasPrefix("Backlog"))
    #expect(text.stdout.contains("Fix the flaky test"))
    let empty = try Harness(now: Self.now)
    #expect(await empty.run(["backlog"]).stdout.contains("--someday"))
  }

  @Test("plan ID puts a backlog todo on today, or on --on's day; edit --on someday takes it back; undo restores")
  func planAndBack() async throws {
    let h = try await Self.planned()
    let planned = try Self.array(await h.run(["plan", "2", "--json"]).stdout)
    #expect(planned.first?["date"] as? String == "\(Self.today)")
    let later = try Self.array(await h.run(["plan", "3", "--on", "tomorrow", "--json"]).stdout)
    #expect(later.first?["date"] as? String == "\(Self.today.adding(days: 1))")
    let back = try Self.array(await h.run(["edit", "3", "--on", "someday", "--json"]).stdout)
    #expect(back.first?["date"] is NSNull)
    #expect(await h.run(["undo"]).code == 0)
    let shown = try Self.object(await h.run(["show", "3", "--json"]).stdout)
    #expect(shown["date"] as? String == "\(Self.today.adding(days: 1))")
    // Without ids, plan still plans the routine
    #expect(await h.run(["plan"]).code == 0)
  }

  @Test(
    "refused: --someday with a day, --done in the backlog, plan --on someday; one line, exit 64, the database unchanged",
    arguments: [
      ["add", "x", "--someday", "--on", "tomorrow"], ["add", "x", "--someday", "--done"],
      ["add", "x", "--on", "someday", "--done"], ["plan", "2", "--on", "someday"],
    ])
  func refusals(arguments: [String]) async throws {
    let h = try await Self.planned()
    let before = try Self.bytes(h)
    let result = await h.run(arguments)
    #expect(result.code == 64)
    #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    #expect(try Self.bytes(h) == before)
  }

  @Test("done of a backlog todo puts it on today, done; a done todo cannot go to the backlog; carry leaves the backlog")
  func doneAndCarry() async throws {
    let h = try await Self.planned()
    let done = await h.run(["done", "2"])
    #expect(done.code == 0)
    #expect(done.stdout.contains("from the backlog to today"))
    let two = try Self.array(await h.run(["list", "--json"]).stdout)
    #expect(two.contains { $0["id"] as? Int == 2 && $0["done"] as? Bool == true })
    let refused = await h.run(["edit", "2", "--on", "someday"])
    #expect(refused.code == 64)
    #expect(refused.stderr.contains("backlog"))
    let carry = await h.run(["carry", "3"])
    #expect(carry.code == 64)
    #expect(carry.stderr.contains("backlog"))
    // A whole carry moves nothing out of the backlog
    #expect(await h.run(["carry"]).code == 0)
    let backlog = try Self.array(await h.run(["backlog", "--json"]).stdout)
    #expect(backlog.compactMap { $0["id"] as? Int } == [3, 4])
  }

  @Test("search and list --all show backlog todos under the backlog's heading")
  func searchAndList() async throws {
    let h = try await Self.planned()
    let search = await h.run(["search", "wiki"])
    #expect(search.code == 0)
    #expect(search.stdout.contains("Backlog") && search.stdout.contains("Tidy the wiki"))
    // `list someday` (or --on someday) is the backlog, without figures; empty, it says how to fill it
    let someday = try Self.array(await h.run(["list", "someday", "--json"]).stdout)
    #expect(someday.compactMap { $0["id"] as? Int } == [3, 2, 4])
    let text = await h.run(["list", "--on", "someday"])
    #expect(text.stdout.hasPrefix("Backlog") && !text.stdout.contains("Today's work") && !text.stdout.contains(" done "))
    let list = await h.run(["list", "--all"])
    let lines = list.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("Backlog") == true)
    #expect(lines.contains { $0.contains("Today's work") })
  }

  @Test("a backlog todo exports without a day: no due: (todo.txt), no scheduled or due (Taskwarrior), no DTSTART or DUE (iCalendar)")
  func exports() async throws {
    let h = try await Self.planned()
    let todotxt = await h.run(["export", "--format", "todotxt"])
    let someday = try #require(todotxt.stdout.split(separator: "\n").first { $0.contains("Read the SQLite docs") })
    #expect(!someday.contains("due:"))
    let dated = try #require(todotxt.stdout.split(separator: "\n").first { $0.contains("Today's work") })
    #expect(dated.contains("due:\(Self.today)"))
    let tasks = try Self.array(await h.run(["export", "--format", "taskwarrior"]).stdout)
    let task = try #require(tasks.first { $0["description"] as? String == "Read the SQLite docs" })
    #expect(task["scheduled"] == nil && task["due"] == nil)
    #expect(tasks.first { $0["description"] as? String == "Today's work" }?["scheduled"] != nil)
    let ical = await h.run(["export", "--format", "ical"])
    let vtodos = ical.stdout.components(separatedBy: "BEGIN:VTODO").dropFirst()
    let vtodo = try #require(vtodos.first { $0.contains("SUMMARY:Read the SQLite docs") })
    #expect(!vtodo.contains("DTSTART") && !vtodo.contains("DUE"))
    #expect(vtodos.first { $0.contains("SUMMARY:Today's work") }?.contains("DTSTART") == true)
  }
}
