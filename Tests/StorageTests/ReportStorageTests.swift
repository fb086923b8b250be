import Core
import Formats
import Foundation
import GRDB
import Testing

@testable import Storage

/// Report aggregation against real SQLite files.
@Suite struct ReportStorageTests {
  /// Random todos over 60 days around 2026-11-01 (a month crossing), a third in project `p`.
  static func seeded(_ database: AppDatabase, count: Int = 600) throws -> [(todo: NewTodo, done: Bool)] {
    try database.addProject(try Project(name: "p"), now: fixedNow)
    var random = SplitMix64(seed: 7)
    var drafts: [(todo: NewTodo, done: Bool)] = []
    for index in 0..<count {
      let offset = Int(random.next() % 60) - 30
      // Leave a few days empty so rest days exist.
      guard offset % 7 != 3 else { continue }
      let priority = Priority.allCases[Int(random.next() % 3)]
      let draft = try NewTodo(
        title: "todo \(index)", priority: priority, day: day("2026-11-01").adding(days: offset),
        project: random.next() % 3 == 0 ? "p" : nil)
      drafts.append((draft, random.next() % 10 < 7))
    }
    try database.addTodos(drafts, now: fixedNow)
    return drafts
  }

  @Test func achievementCounts_matchANaiveCount_perDayAndPriority() throws {
    let database = try Scratch().freshDatabase()
    let drafts = try Self.seeded(database)
    let range = try DayRange(from: day("2026-10-20"), to: day("2026-11-10"))
    for project in [nil, "p", "P"] as [String?] {
      // Given the todos themselves, count naively.
      var expected: [DayPriorityCount] = []
      for (dayValue, priority) in range.flatMap({ d in Priority.allCases.map { (d, $0) } }) {
        let matching = drafts.filter {
          $0.todo.day == dayValue && $0.todo.priority == priority
            && (project == nil || $0.todo.project == "p")
        }
        guard !matching.isEmpty else { continue }
        expected.append(
          DayPriorityCount(
            day: dayValue, priority: priority,
            tally: Tally(total: matching.count, done: matching.filter(\.done).count)))
      }
      // When SQLite aggregates.
      let counts = try database.achievementCounts(in: range, project: project)
      // Then they agree.
      let sorted = counts.sorted { ($0.day, $0.priority.rank) < ($1.day, $1.priority.rank) }
      #expect(sorted == expected, "project \(project ?? "none")")
    }
  }

  /// `runOutside` steps one statement day by day (issue 25): it must find what walking every
  /// day of a wide report finds, with carried days among them, in both directions, with and
  /// without a project and an open today.
  @Test func runOutside_matchesAWalkOverEveryDay() throws {
    let database = try Scratch().freshDatabase()
    try database.addProject(try Project(name: "p"), now: fixedNow)
    var random = SplitMix64(seed: 11)
    var drafts: [(todo: NewTodo, done: Bool)] = []
    for index in 0..<300 {
      let offset = Int(random.next() % 80) - 40
      // Rest days, and mostly done todos: runs of several perfect days.
      guard offset % 5 != 2 else { continue }
      let draft = try NewTodo(
        title: "todo \(index)", priority: .mid, day: day("2026-11-01").adding(days: offset),
        project: random.next() % 2 == 0 ? "p" : nil)
      drafts.append((draft, random.next() % 20 != 0))
    }
    try database.addTodos(drafts, now: fixedNow)
    // Days todos were carried away from: never perfect, whatever else they hold.
    try database.write { db in
      try db.execute(sql: "UPDATE todo SET carriedFrom = '2026-10-05' WHERE id = 3")
      try db.execute(sql: "UPDATE todo SET carriedFrom = '2026-10-28,2026-11-20' WHERE id = 7")
      try db.execute(sql: "UPDATE todo SET carriedFrom = '2026-09-02' WHERE id = 9")
    }
    let span = try DayRange(from: day("2026-08-01"), to: day("2027-01-31"))
    var longest = 0
    for project in [nil, "p"] as [String?] {
      let days = AchievementReport(
        range: span, counts: try database.achievementCounts(in: span, project: project)
      ).days
      for (from, to) in [
        ("2026-10-10", "2026-10-20"), ("2026-11-01", "2026-11-07"), ("2026-10-29", "2026-11-25"),
        ("2026-09-01", "2026-09-05"), ("2026-12-01", "2026-12-05"), ("2026-10-06", "2026-10-06"),
      ] {
        let range = try DayRange(from: day(from), to: day(to))
        for today in [nil, day("2026-11-03"), day("2026-10-08")] as [Day?] {
          var before = RunCounter(today: today)
          for entry in days.reversed() where entry.day < range.from { guard before.take(entry) else { break } }
          var after = RunCounter(today: today)
          for entry in days where entry.day > range.to { guard after.take(entry) else { break } }
          let label = "\(from)…\(to), today \(today?.description ?? "none"), project \(project ?? "none")"
          #expect(try database.runOutside(range, forward: false, today: today, project: project) == before.run, "\(label)")
          #expect(try database.runOutside(range, forward: true, today: today, project: project) == after.run, "\(label)")
          longest = max(longest, before.run, after.run)
        }
      }
    }
    // The data has runs worth walking.
    #expect(longest >= 3)
  }

  @Test func achievementCounts_forAnUnknownProject_throws() throws {
    let database = try Scratch().freshDatabase()
    #expect(throws: StorageError.projectNotFound("nope")) {
      try database.achievementCounts(in: DayRange(day: day("2026-11-01")), project: "nope")
    }
  }

  @Test func achievementCounts_useACoveringIndex() throws {
    let database = try Scratch().freshDatabase()
    func plan(_ where: String) throws -> [String] {
      try database.read { db in
        try Row.fetchAll(
          db,
          sql: """
            EXPLAIN QUERY PLAN SELECT day, priority, count(*), sum(done) FROM todo
            WHERE day BETWEEN '2026-01-01' AND '2026-12-31' \(`where`) GROUP BY day, priority
            """
        ).map { $0["detail"] as String }
      }
    }
    let all = try plan("")
    #expect(all.contains { $0.contains("COVERING INDEX todo_on_day_priority_done") }, "\(all)")
    let project = try plan("AND projectId = 1")
    #expect(project.contains { $0.contains("COVERING INDEX todo_on_project_day") }, "\(project)")
  }

  @Test(arguments: [
    // (days before 2026-11-22 as "day:total/done", expected streak before 2026-11-22)
    ([String](), 0),
    (["2026-11-21:2/2", "2026-11-20:1/1"], 2),
    (["2026-11-21:2/2", "2026-11-19:1/1", "2026-11-18:3/2", "2026-11-17:1/1"], 2),  // 20th rest
    (["2026-11-21:2/1", "2026-11-20:1/1"], 0),
    (["2026-11-22:3/0", "2026-11-21:1/1"], 1),  // today's open todos do not count
    (["2026-11-23:3/0", "2026-11-21:1/1"], 1),  // nor tomorrow's
  ])
  func perfectDayStreak_countsPerfectDaysBackToTheLastOpenTodo(days: [String], expected: Int)
    throws
  {
    let database = try Scratch().freshDatabase()
    for spec in days {
      let parts = spec.split(separator: ":")
      let counts = parts[1].split(separator: "/").map { Int($0)! }
      let drafts = try (0..<counts[0]).map { index in
        (todo: try NewTodo(title: "t\(index)", priority: .mid, day: day(String(parts[0]))), done: index < counts[1])
      }
      try database.addTodos(drafts, now: fixedNow)
    }
    #expect(try database.perfectDayStreak(before: day("2026-11-22")) == expected)
  }

  @Test func v2Migration_appliesToAnExistingV1Database_keepingItsTodos() throws {
    let scratch = Scratch()
    let path = scratch.path("v1.sqlite")
    // Given a database migrated only to v1, with todos, written by the previous ootd.
    do {
      let queue = try DatabaseQueue(path: path)
      try AppDatabase.migrator.migrate(queue, upTo: "v1: todos, task blocks and projects")
      try queue.write { db in
        try db.execute(
          sql: """
            INSERT INTO project (name, createdAt) VALUES ('p', '2026-11-01 00:00:00');
            INSERT INTO todo (title, priority, day, done, projectId, createdAt) VALUES
              ('a', 0, '2026-11-01', 1, 1, '2026-11-01 00:00:00'),
              ('b', 1, '2026-11-01', 0, NULL, '2026-11-01 00:00:00'),
              ('c', 2, '2026-11-02', 1, 1, '2026-11-01 00:00:00');
            """)
      }
      let indexes = try queue.read { db in
        try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'todo'")
      }
      #expect(indexes.contains("todo_on_project"))
      #expect(!indexes.contains("todo_on_day_priority_done"))
    }
    // When this ootd opens it.
    let database = try AppDatabase.open(path: path)
    // Then v2 is applied and reports work on the old todos.
    let (applied, indexes) = try database.read { db in
      (
        try AppDatabase.migrator.appliedIdentifiers(db),
        try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'todo'")
      )
    }
    #expect(applied.contains("v2: report indexes"))
    #expect(indexes.contains("todo_on_day_priority_done"))
    #expect(indexes.contains("todo_on_project_day"))
    #expect(!indexes.contains("todo_on_project"))
    let range = try DayRange(from: day("2026-11-01"), to: day("2026-11-02"))
    let report = AchievementReport(range: range, counts: try database.achievementCounts(in: range))
    #expect(report.days.map(\.tally) == [Tally(total: 2, done: 1), Tally(total: 1, done: 1)])
    let project = AchievementReport(
      range: range, counts: try database.achievementCounts(in: range, project: "p"))
    #expect(project.total == Tally(total: 2, done: 2))
    #expect(project.streaks == Streaks(current: 2, longest: 2))
    // And deleting a project still unlinks its todos (the foreign key uses the new index).
    #expect(try database.removeProject(named: "p", now: fixedNow) == 2)
  }
}
