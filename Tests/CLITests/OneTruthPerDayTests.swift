import Core
import Formats
import Foundation
import TestTags
import Testing

/// One number per day, everywhere: every view that states a day's figures agrees with Core's
/// one rule (``DayFigures``), and streaks over a range follow ``Streaks``. Run in-process with
/// a pinned clock (Asia/Seoul, the harness's zone); every date is computed from the pinned day.
@Suite struct OneTruthPerDayTests {
  static let first = Day(iso: "2026-12-01")!

  /// 09:00 in Seoul on `day`.
  static func morning(_ day: Day) -> String { "\(day)T09:00:00+09:00" }

  static func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
  }

  /// `total`/`done` of each day of `report --json` over `range`.
  static func reportDays(_ h: Harness, _ range: DayRange) async throws -> [Day: Tally] {
    let result = await h.run(["report", "--from", "\(range.from)", "--to", "\(range.to)", "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    let days = try #require((try json(result.stdout) as? [String: Any])?["days"] as? [[String: Any]])
    var tallies: [Day: Tally] = [:]
    for day in days {
      let date = try #require((day["date"] as? String).flatMap(Day.init(iso:)))
      tallies[date] = Tally(total: try #require(day["total"] as? Int), done: try #require(day["done"] as? Int))
    }
    return tallies
  }

  /// `total`/`done` of each day of `report --csv` over `range`.
  static func csvDays(_ h: Harness, _ range: DayRange) async throws -> [Day: Tally] {
    let result = await h.run(["report", "--from", "\(range.from)", "--to", "\(range.to)", "--csv"])
    #expect(result.code == 0, "\(result.stderr)")
    var tallies: [Day: Tally] = [:]
    for line in result.stdout.split(separator: "\n").dropFirst() {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      let date = try #require(Day(iso: fields[0]))
      tallies[date] = Tally(total: try #require(Int(fields[2])), done: try #require(Int(fields[3])))
    }
    return tallies
  }

  /// The todos of a `list --json` array as Core values (the fields the rule reads).
  static func todos(_ text: String) throws -> [Todo] {
    let array = try #require(try json(text) as? [[String: Any]])
    return try array.map { item in
      var todo = Todo(
        id: Int64(try #require(item["id"] as? Int)), title: try #require(item["title"] as? String),
        priority: .mid, day: try #require((item["date"] as? String).flatMap(Day.init(iso:))),
        isDone: try #require(item["done"] as? Bool), createdAt: Date(timeIntervalSince1970: 0))
      todo.carriedFrom = (item["carriedFrom"] as? [String] ?? []).compactMap(Day.init(iso:))
      todo.isDropped = item["dropped"] as? Bool ?? false
      return todo
    }
  }

  /// `list D --json` counted by the rule.
  static func listJSON(_ h: Harness, _ day: Day) async throws -> Tally {
    let result = await h.run(["list", "\(day)", "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    return DayFigures.tally(of: day, todos: try todos(result.stdout))
  }

  /// The figures in a day heading of text output (`2/5 done`), zero when the day has none.
  static func heading(_ text: String, _ day: Day) -> Tally {
    guard
      let line = text.split(separator: "\n").first(where: {
        !$0.hasPrefix(" ") && $0.contains(" \(day)") && $0.contains(" done")
      }),
      let figures = line.split(separator: " ").first(where: { $0.contains("/") })
    else { return .zero }
    let parts = figures.split(separator: "/").compactMap { Int($0) }
    return parts.count == 2 ? Tally(total: parts[1], done: parts[0]) : .zero
  }

  /// `x/y` of each day's row of `report` as text (`  Tue 2026-12-01  ███░░  1/2   50%`; `-`
  /// for a day without todos).
  static func reportText(_ h: Harness, _ range: DayRange) async -> [Day: Tally] {
    let text = await h.run(["report", "--from", "\(range.from)", "--to", "\(range.to)"]).stdout
    var tallies: [Day: Tally] = [:]
    for line in text.split(separator: "\n") {
      let words = line.split(separator: " ")
      guard words.count >= 3, let day = Day(iso: String(words[1])), range.contains(day) else { continue }
      let figures = words.dropFirst(2).first { $0.contains("/") || $0 == "-" }
      let parts = figures?.split(separator: "/").compactMap { Int($0) } ?? []
      tallies[day] = parts.count == 2 ? Tally(total: parts[1], done: parts[0]) : .zero
    }
    return tallies
  }

  /// The shade of each day's cell in `report --calendar` over `range`, which must lie in one
  /// calendar week (one column: the cell follows the weekday's label).
  static func calendarCells(_ h: Harness, _ range: DayRange) async -> [Day: Character] {
    let text = await h.run(["report", "--calendar", "--from", "\(range.from)", "--to", "\(range.to)"]).stdout
    var cells: [Day: Character] = [:]
    for line in text.split(separator: "\n") {
      let words = line.split(separator: " ")
      guard words.count >= 2, let day = range.first(where: { $0.weekday.shortName == words[0] }),
        let cell = words[1].first
      else { continue }
      cells[day] = cell
    }
    return cells
  }

  /// The glyph the calendar draws for a day of `tally`.
  static func shade(_ tally: Tally) -> Character {
    switch AchievementLevel(tally) {
    case .none: "·"
    case .low: "░"
    case .medium: "▒"
    case .high: "▓"
    case .perfect: "█"
    }
  }

  /// Checks every view of every day of `range` against Core's rule over all todos; returns the
  /// mismatches in words.
  static func mismatches(_ h: Harness, range: DayRange, today: Day) async throws -> [String] {
    let all = try todos(await h.run(["list", "--all", "--json"]).stdout)
    let report = try await reportDays(h, range)
    let csv = try await csvDays(h, range)
    let text = await reportText(h, range)
    let calendar = await calendarCells(h, range)
    var problems: [String] = []
    func check(_ view: String, _ day: Day, _ got: Tally?, _ truth: Tally) {
      if got?.total != truth.total || got?.done != truth.done {
        problems.append(
          "\(view) of \(day): \(got.map { "\($0.done)/\($0.total)" } ?? "nothing"), Core says \(truth.done)/\(truth.total)")
      }
    }
    for day in range {
      let truth = DayFigures.tally(of: day, todos: all)
      check("report --json", day, report[day], truth)
      check("report --csv", day, csv[day], truth)
      check("report", day, text[day], truth)
      if calendar[day] != shade(truth) {
        problems.append("report --calendar of \(day): \(calendar[day].map(String.init) ?? "no cell"), Core says \(shade(truth))")
      }
      check("list --json", day, try await listJSON(h, day), truth)
      check("list", day, heading(await h.run(["list", "\(day)"]).stdout, day), truth)
      if day == today {
        let dashboard = try #require(try json(await h.run(["today", "--json"]).stdout) as? [String: Any])
        check(
          "today --json", day,
          Tally(total: dashboard["total"] as? Int ?? -1, done: dashboard["done"] as? Int ?? -1), truth)
        check("the dashboard", day, heading(await h.run(["today"]).stdout, day), truth)
      }
    }
    // The streak: the dashboard's, report's over a range ending today, and Core's over the
    // figures of every day, agree.
    let history = try DayRange(from: range.from.adding(days: -1), to: range.to)
      .map { DayTally(day: $0, tally: DayFigures.tally(of: $0, todos: all)) }
    let core = Streaks(history.filter { $0.day <= today }, today: today).current
    let dashboard = try #require(try json(await h.run(["today", "--json"]).stdout) as? [String: Any])
    let ranged = try #require(
      try json(await h.run(["report", "--from", "\(today)", "--to", "\(today)", "--json"]).stdout)
        as? [String: Any])
    if dashboard["currentStreak"] as? Int != core || ranged["currentStreak"] as? Int != core {
      problems.append(
        "streak: dashboard \(dashboard["currentStreak"] ?? "nil"), report \(ranged["currentStreak"] ?? "nil"), Core \(core)")
    }
    return problems
  }

  // MARK: - The issue's cases

  @Test("a carried day: list, report, CSV and list --json say 1/2, and the carried todo is listed")
  func carriedDay_oneNumberEverywhere() async throws {
    var h = try Harness(now: Self.morning(Self.first))
    await h.run(["add", "A"])
    await h.run(["add", "B"])
    await h.run(["done", "1"])
    h.now = h.now.addingTimeInterval(86_400)
    #expect(await h.run(["carry"]).code == 0)
    let list = await h.run(["list", "\(Self.first)"])
    #expect(list.stdout.contains("1/2 done  50%"), "\(list.stdout)")
    // The carried todo is a row of the day it left, with the day it went to.
    #expect(list.stdout.contains("[>] 2  mid   B  → \(Self.first.adding(days: 1))"), "\(list.stdout)")
    let problems = try await Self.mismatches(
      h, range: DayRange(from: Self.first, to: Self.first.adding(days: 1)), today: Self.first.adding(days: 1))
    #expect(problems.isEmpty, "\(problems)")
    // list --json keeps its shape: an array of todos, the carried one after the day's own.
    let json = try Self.todos(await h.run(["list", "\(Self.first)", "--json"]).stdout)
    #expect(json.map(\.id) == [1, 2])
    // A filtered list shows what matches, without figures or carried rows.
    let open = await h.run(["list", "\(Self.first)", "--open"])
    #expect(!open.stdout.contains("[>]"))
  }

  @Test("the dashboard's heading and its streak line agree when a todo moved to tomorrow")
  func dashboard_agreesWithItself() async throws {
    let h = try Harness(now: Self.morning(Self.first))
    await h.run(["add", "X"])
    await h.run(["add", "Y"])
    await h.run(["edit", "2", "--on", "tomorrow"])
    await h.run(["done", "1"])
    let text = await h.run([]).stdout
    #expect(text.contains("1/2 done  50%"), "\(text)")
    #expect(!text.contains("finish today's"), "\(text)")
    #expect(text.contains("1 todo was carried away from today: it cannot be perfect"), "\(text)")
    let problems = try await Self.mismatches(h, range: DayRange(day: Self.first), today: Self.first)
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test("list --all shows each day's carried-away todos too; a day with only those is listed")
  func listAll_countsCarriedDaysAsTheReport() async throws {
    var h = try Harness(now: Self.morning(Self.first))
    await h.run(["add", "A", "--on", "\(Self.first.adding(days: -3))"])
    await h.run(["add", "B", "--on", "\(Self.first.adding(days: -2))"])
    h.now = try #require(ISO8601DateFormatter().date(from: Self.morning(Self.first.adding(days: -2))))
    #expect(await h.run(["carry", "1"]).code == 0)
    h.now = try #require(ISO8601DateFormatter().date(from: Self.morning(Self.first)))
    #expect(await h.run(["carry", "1"]).code == 0)
    let all = await h.run(["list", "--all"]).stdout
    for offset in [-3, -2] {
      let day = Self.first.adding(days: offset)
      let report = try await Self.reportDays(h, DayRange(day: day))[day]
      #expect(Self.heading(all, day) == report, "\(day): \(all)")
    }
    #expect(all.contains("[>] 1  mid   A  → \(Self.first)"), "\(all)")
    // list --all --json lists every todo once.
    #expect(try Self.todos(await h.run(["list", "--all", "--json"]).stdout).map(\.id) == [2, 1])
  }

  @Test("a report never walks the empty years to a far-future todo, and finds the run after it")
  func farFutureTodo_reportStaysCorrect() async throws {
    let h = try Harness(now: Self.morning(Self.first))
    await h.run(["add", "someday", "--on", "9999-12-31"])
    await h.run(["add", "today"])
    await h.run(["done", "2"])
    let result = await h.run(["report", "--week", "--json"])
    #expect(result.code == 0, "\(result.stderr)")
    let report = try #require(try Self.json(result.stdout) as? [String: Any])
    #expect(report["currentStreak"] as? Int == 1)
    #expect(report["longestStreak"] as? Int == 1)
  }

  @Test("rm of a todo carried away from a day that began says it rewrites that day")
  func rmOfACarriedTodo_saysItRewritesTheDayItLeft() async throws {
    let h = try Harness(now: Self.morning(Self.first))
    await h.run(["add", "o", "--on", "\(Self.first.adding(days: -7))"])
    #expect(await h.run(["carry", "1"]).code == 0)
    let refused = await h.run(["rm", "1"])
    #expect(refused.code != 0)
    #expect(refused.stderr.contains("this rewrites the record of \(Self.first.adding(days: -7))"), "\(refused.stderr)")
    #expect(refused.stderr.contains("'ootd drop 1'"), "\(refused.stderr)")
  }

  @Test(
    "a run of perfect days counts in full in every range it overlaps",
    arguments: [
      // (from, to) as offsets from Dec 8; longest, current, perfect days inside.
      (1, 3, 3, 0, 2), (2, 4, 3, 0, 1), (0, 1, 3, 2, 2), (3, 6, 0, 0, 0), (0, 2, 3, 3, 3),
      (-3, -1, 0, 0, 0),
    ])
  func streaksOverRanges(_ bounds: (Int, Int, Int, Int, Int)) async throws {
    let eighth = Day(iso: "2026-12-08")!
    var h = try Harness(now: Self.morning(eighth))
    // Dec 8, 9, 10 perfect; Dec 11 planned and missed; today is Dec 14.
    for offset in 0..<4 {
      h.now = try #require(ISO8601DateFormatter().date(from: Self.morning(eighth.adding(days: offset))))
      let added = await h.run(["add", "work \(offset)", "--json"])
      #expect(added.code == 0, "\(added.stderr)")
      if offset < 3 { #expect(await h.run(["done", "\(offset + 1)"]).code == 0) }
    }
    h.now = try #require(ISO8601DateFormatter().date(from: Self.morning(eighth.adding(days: 6))))
    let (from, to, longest, current, perfect) = bounds
    let result = await h.run([
      "report", "--from", "\(eighth.adding(days: from))", "--to", "\(eighth.adding(days: to))", "--json",
    ])
    #expect(result.code == 0, "\(result.stderr)")
    let report = try #require(try Self.json(result.stdout) as? [String: Any])
    #expect(report["longestStreak"] as? Int == longest)
    #expect(report["currentStreak"] as? Int == current)
    #expect(report["perfectDays"] as? Int == perfect)
  }

  @Test("--week, --month and --year are the last 7, 30 and 365 days ending today")
  func periods_areTheLastDays() async throws {
    // A Monday, the 1st of a month: the calendar week and month would be one day long.
    let day = Day(iso: "2027-02-01")!
    let h = try Harness(now: Self.morning(day))
    for (flag, days) in [("--week", 7), ("--month", 30), ("--year", 365)] {
      let result = await h.run(["report", flag, "--json"])
      #expect(result.code == 0, "\(result.stderr)")
      let report = try #require(try Self.json(result.stdout) as? [String: Any])
      #expect(report["from"] as? String == day.adding(days: -(days - 1)).description, "\(flag)")
      #expect(report["to"] as? String == day.description, "\(flag)")
      #expect((report["days"] as? [Any])?.count == days, "\(flag)")
    }
  }

  // MARK: - The property

  /// One random command of a history over `window` (ids up to `largest`).
  static func command(
    _ random: inout SplitMix64, window: DayRange, largest: Int
  ) -> [String] {
    let id = String(Int.random(in: 1...max(largest, 1), using: &random))
    let day = window.from.adding(days: Int.random(in: 0..<window.count, using: &random)).description
    switch Int.random(in: 0..<20, using: &random) {
    case 0..<5: return ["add", "todo", "--on", day, "--priority", ["high", "mid", "low"].randomElement(using: &random)!]
    case 5: return ["add", "done already", "--done"]
    case 6..<9: return ["done", id]
    case 9: return ["undone", id]
    case 10, 11: return ["edit", id, "--on", day]
    case 12: return ["carry"]
    case 13: return ["drop", id]
    case 14: return ["rm", id, "--yes"]
    case 15, 16: return ["undo"]
    case 17: return ["redo"]
    default: return []  // the next day begins
    }
  }

  @Test("every view's figure for every day equals Core's, over hundreds of random histories", .tags(.slow))
  func randomHistories_everyViewAgreesWithCore() async throws {
    let seed = UInt64(ProcessInfo.processInfo.environment["OOTD_PROPERTY_SEED"] ?? "") ?? 20_261_201
    let histories = Int(ProcessInfo.processInfo.environment["OOTD_PROPERTY_HISTORIES"] ?? "") ?? 200
    let window = try DayRange(from: Self.first, to: Self.first.adding(days: 4))
    for index in 0..<histories {
      let historySeed = seed &+ UInt64(index)
      var random = SplitMix64(seed: historySeed)
      var h = try Harness(now: Self.morning(window.from))
      var today = window.from
      var largest = 0
      var commands: [String] = []
      for _ in 0..<14 {
        let arguments = Self.command(&random, window: window, largest: largest)
        if arguments.isEmpty {
          guard today < window.to else { continue }
          today = today.adding(days: 1)
          h.now = h.now.addingTimeInterval(86_400)
          commands.append("(next day: \(today))")
          continue
        }
        let result = await h.run(arguments)
        commands.append(arguments.joined(separator: " ") + " → \(result.code)")
        #expect([0, 1, 64].contains(result.code), "seed \(historySeed): \(commands) \(result.stderr)")
        if arguments.first == "add", result.code == 0 { largest += 1 }
      }
      let problems = try await Self.mismatches(h, range: window, today: today)
      #expect(problems.isEmpty, "seed \(historySeed) (OOTD_PROPERTY_SEED=\(historySeed) OOTD_PROPERTY_HISTORIES=1): \(commands): \(problems)")
      if !problems.isEmpty { break }
    }
  }
}
