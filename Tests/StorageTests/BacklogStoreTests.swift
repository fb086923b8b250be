import Core
import Foundation
import GRDB
import Testing

@testable import Storage

/// The backlog in storage: todos with no day count nowhere, are never overdue, move on and off
/// days through the journal, and survive the migration that made the day optional.
@Suite("The backlog in storage")
struct BacklogStoreTests {
  /// A draft with no day.
  func someday(_ title: String, _ priority: Priority = .mid) throws -> NewTodo {
    try NewTodo(title: title, priority: priority, day: nil)
  }

  @Test("a backlog todo counts in no day's figures, is never overdue, and carry leaves it alone")
  func countsNowhere() throws {
    // Given one todo on a day before today and one in the backlog, both open
    let database = try AppDatabase.inMemory()
    let past = try database.addTodo(try draft("past", on: "2026-11-10"), now: fixedNow)
    let waiting = try database.addTodo(try someday("waiting"), now: fixedNow)
    #expect(waiting.day == nil && waiting.isInBacklog)
    // Then only the dated one counts, and only it is overdue
    let range = try DayRange(from: day("2026-11-01"), to: fixedToday)
    let report = AchievementReport(range: range, counts: try database.achievementCounts(in: range))
    #expect(report.days.map(\.tally).reduce(.zero, +) == Tally(total: 1, done: 0))
    let overdue = try database.overdueSummary(before: fixedToday, limit: 10)
    #expect(overdue.count == 1 && overdue.todos.map(\.id) == [past.id])
    // And carrying everything overdue moves the dated one only
    let carried = try database.carryOver(today: fixedToday, to: fixedToday, now: fixedNow)
    #expect(carried.moved == [past.id])
    #expect(try database.todos(ids: [waiting.id])[0].day == nil)
    // And a list of every day has it first, a list of a range does not have it
    #expect(try allTodos(database).map(\.id) == [waiting.id, past.id])
    #expect(try database.todos(matching: TodoFilter(days: .range(range))).map(\.id) == [past.id])
    #expect(try database.todos(matching: TodoFilter(days: .backlog)).map(\.id) == [waiting.id])
  }

  @Test("the backlog is read by priority, then the oldest first; the summary counts only open, not dropped todos")
  func backlogOrderAndSummary() throws {
    // Given four backlog todos created at different times, one of them dropped
    let database = try AppDatabase.inMemory()
    let low = try database.addTodo(try someday("low", .low), now: fixedNow)
    let midNew = try database.addTodo(try someday("mid new"), now: fixedNow.addingTimeInterval(60))
    let high = try database.addTodo(try someday("high", .high), now: fixedNow.addingTimeInterval(120))
    let midOld = try database.addTodo(try someday("mid old"), now: fixedNow.addingTimeInterval(-60))
    _ = try database.dropTodos(ids: [low.id], now: fixedNow)
    // When
    var order: [Int64] = []
    try database.forEachBacklogTodo { todo in
      order.append(todo.id)
      return true
    }
    let summary = try database.backlogSummary(limit: 2)
    // Then
    #expect(order == [high.id, midOld.id, midNew.id, low.id])
    #expect(summary.count == 3)
    #expect(summary.todos.map(\.id) == [high.id, midOld.id])
    #expect(try database.backlogSummary(limit: 0) == ([], 3))
  }

  @Test("moving into the backlog keeps the record of a day that had begun, and undo puts the todo back")
  func moveIntoBacklogAndBack() throws {
    // Given an open todo of today
    let database = try AppDatabase.inMemory()
    let todo = try database.addTodo(try draft("today's", on: fixedToday.description), now: fixedNow)
    // When it goes to the backlog
    let moved = try database.editTodo(id: todo.id, try TodoChanges(day: .backlog), today: fixedToday, now: fixedNow)
    // Then it has no day, and today still counts it as planned and not done
    #expect(moved.day == nil)
    #expect(moved.carriedFrom == [fixedToday])
    let today = try database.achievementCounts(in: DayRange(day: fixedToday)).map(\.tally).reduce(.zero, +)
    #expect(today.total == 1 && today.done == 0)
    // And undo puts it back on today, as it was
    _ = try database.undo(today: fixedToday, now: fixedNow)
    #expect(try database.todos(ids: [todo.id]) == [todo])
    // And a backlog todo planned on a day gets that day, with no record to keep
    let waiting = try database.addTodo(try someday("waiting"), now: fixedNow)
    let planned = try database.editTodo(
      id: waiting.id, try TodoChanges(day: .day(day("2026-11-25"))), today: fixedToday, now: fixedNow)
    #expect(planned.day == day("2026-11-25") && planned.carriedFrom.isEmpty)
  }

  @Test("a done todo cannot go to the backlog; doing a backlog todo puts it on today")
  func doneHasADay() throws {
    // Given a done todo and a backlog todo
    let database = try AppDatabase.inMemory()
    let done = try database.addTodo(try draft("done", on: fixedToday.description), done: true, now: fixedNow)
    let waiting = try database.addTodo(try someday("waiting"), now: fixedNow)
    // Then the done one refuses the backlog, and nothing changes
    #expect(throws: StorageError.self) {
      try database.editTodo(id: done.id, try TodoChanges(day: .backlog), today: fixedToday, now: fixedNow)
    }
    #expect(try database.todos(ids: [done.id]) == [done])
    // And ticking the backlog one moves it to today, done
    let result = try database.setDoneTellingUnchanged(ids: [waiting.id], done: true, today: fixedToday, now: fixedNow)
    #expect(result.todos[0].day == fixedToday && result.todos[0].isDone)
    #expect(result.movedFrom[waiting.id] == .some(nil))
    // And undo puts it back in the backlog, open
    _ = try database.undo(today: fixedToday, now: fixedNow)
    #expect(try database.todos(ids: [waiting.id]) == [waiting])
  }

  @Test("v13-backlog: a v12 database keeps every todo and its ids, never reuses a deleted id, and takes a todo with no day")
  func migratesAVersion12Database() throws {
    // Given a database migrated up to v12, whose last todo (id 3) was deleted
    let scratch = Scratch()
    let path = scratch.path()
    do {
      let queue = try DatabaseQueue(path: path)
      try AppDatabase.migrator.migrate(queue, upTo: "v12-sync-set-aside")
      try queue.write { db in
        try db.execute(
          sql: """
            INSERT INTO project (name, createdAt, uuid) VALUES ('ootd', '2026-11-01 00:00:00', '00000000-0000-4000-8000-0000000000aa');
            INSERT INTO todo (title, priority, day, done, doneAt, projectId, createdAt, uuid, dropped, carriedFrom, notes, tags, doneBy) VALUES
              ('a', 2, '2026-11-21', 1, '2026-11-21 10:00:00.000', 1, '2026-11-01 00:00:00', '00000000-0000-4000-8000-000000000001', 0, NULL, 'n', 'x y', 'manual'),
              ('b', 0, '2026-11-22', 0, NULL, NULL, '2026-11-01 00:00:00', '00000000-0000-4000-8000-000000000002', 1, '2026-11-20', NULL, NULL, NULL),
              ('c', 1, '2026-11-22', 0, NULL, NULL, '2026-11-01 00:00:00', '00000000-0000-4000-8000-000000000003', 0, NULL, NULL, NULL, NULL);
            DELETE FROM todo WHERE id = 3;
            """)
      }
    }
    let before = try withRawDatabase(path) { try Row.fetchAll($0, sql: "SELECT * FROM todo ORDER BY id") }
    let indexesBefore = try withRawDatabase(path) {
      try String.fetchAll($0, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'todo' AND sql IS NOT NULL ORDER BY name")
    }
    // When this ootd opens it
    let database = try AppDatabase.open(path: path)
    // Then every row is the same, column for column, with the same indexes, and the file is sound
    let (after, indexesAfter, integrity, notNull) = try withRawDatabase(path) { db in
      (
        try Row.fetchAll(db, sql: "SELECT * FROM todo ORDER BY id"),
        try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'todo' AND sql IS NOT NULL ORDER BY name"),
        try String.fetchAll(db, sql: "PRAGMA integrity_check"),
        try db.columns(in: "todo").first { $0.name == "day" }?.isNotNull
      )
    }
    // (v14 adds columns after: compare the columns v12 had)
    #expect(after.count == before.count)
    for (old, new) in zip(before, after) {
      for column in old.columnNames {
        #expect(old[column] as DatabaseValue == new[column] as DatabaseValue, "\(column)")
      }
    }
    #expect(indexesAfter.map { $0.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ") }
      == indexesBefore.map { $0.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ") })
    #expect(integrity == ["ok"])
    #expect(notNull == false)
    // And the next todo gets id 4, not the deleted 3, and may have no day
    let added = try database.addTodo(try someday("later"), now: fixedNow)
    #expect(added.id == 4 && added.day == nil)
    // And a day that is not ten characters is still refused
    #expect(throws: (any Error).self) {
      try withRawDatabase(path) { try $0.execute(sql: "UPDATE todo SET day = '2026-1-1' WHERE id = 1") }
    }
  }
}
