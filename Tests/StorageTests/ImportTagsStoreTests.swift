import Core
import Foundation
import Storage
import Testing

/// Imported tags in storage: a re-import replaces a todo's tags (and moves tags an older ootd
/// kept in the notes into the tags), counts as one update, changes nothing the next time, and
/// undo takes it back exactly.
@Suite struct ImportTagsStoreTests {
  let uuid = "a1b2c3d4-0000-4000-8000-000000000001"

  func plan(notes: String?, tags: [String]) throws -> ImportPlan {
    ImportPlan(todos: [
      try ImportedTodo(
        uuid: uuid, title: "Write the parser", priority: .high, day: day("2026-03-02"),
        project: "ootd", notes: notes, tags: tags)
    ])
  }

  @Test func reimportReplacesTagsOnce_andUndoRestoresThem() throws {
    let database = try AppDatabase.inMemory()
    // As an ootd before tags imported it: the tags in the notes.
    _ = try database.importTodos(try plan(notes: "tags: cli, swift", tags: []), today: fixedToday, now: fixedNow)
    let before = try database.todos(matching: TodoFilter(days: .all))
    #expect(before.map(\.tags) == [[]])

    let moved = try database.importTodos(try plan(notes: nil, tags: ["CLI", "swift", "cli"]), today: fixedToday, now: fixedNow)
    #expect((moved.added, moved.updated, moved.unchanged) == (0, 1, 0))
    let after = try database.todos(matching: TodoFilter(days: .all, tag: "cli"))
    #expect(after.map(\.tags) == [["cli", "swift"]])
    #expect(after.map(\.notes) == [nil])

    let again = try database.importTodos(try plan(notes: nil, tags: ["cli", "swift"]), today: fixedToday, now: fixedNow)
    #expect((again.added, again.updated, again.unchanged) == (0, 0, 1))
    let dry = try database.importTodos(try plan(notes: nil, tags: ["cli"]), dryRun: true, today: fixedToday, now: fixedNow)
    #expect(dry.updated == 1)
    #expect(try database.todos(matching: TodoFilter(days: .all)).map(\.tags) == [["cli", "swift"]])

    _ = try database.undo(now: fixedNow)
    #expect(try database.todos(matching: TodoFilter(days: .all)) == before)
  }

  @Test func anImportedTagThatIsNoTag_isRefused() {
    #expect(throws: CoreError.invalidTag("2fa")) { try plan(notes: nil, tags: ["2fa"]) }
  }
}
