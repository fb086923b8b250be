import Core
import Foundation
import Storage
import Testing

/// A streamed listing reads every row into one reused value (`TodoRecord.Reading`, issue 25):
/// a field a row leaves empty must not keep what the row before it had.
@Suite("A streamed listing reads each row afresh")
struct ListingReadingTests {
  @Test("rich and bare rows alternating: the stream equals the rows read one by one")
  func alternatingRows() throws {
    let database = try AppDatabase.inMemory()
    try database.addProject(try Project(name: "ootd"), now: fixedNow)
    try database.addProject(try Project(name: "blog"), now: fixedNow)
    var made: [Todo] = []
    for index in 0..<8 {
      var new: NewTodo
      switch index % 4 {
      case 0:
        new = try draft("rich \(index)", .high, project: "ootd", block: "study")
        new.tags = ["bug", "web"]
        new.notes = "a note"
      case 1:
        new = try draft("bare \(index)", .low)
      case 2:
        new = try draft("other \(index)", .mid, project: "blog")
        new.tags = ["web"]
      default:
        new = try draft("bare again \(index)", .low, on: "2026-11-23")
      }
      made.append(try database.addTodo(new, now: fixedNow))
    }
    _ = try database.setDone(ids: [made[0].id, made[2].id], done: true, now: fixedNow)

    var streamed: [Todo] = []
    try database.forEachTodo(matching: TodoFilter(days: .all)) { todo in
      streamed.append(todo)
      return true
    }
    let oneByOne = try made.map { try database.todos(ids: [$0.id])[0] }
    #expect(Set(streamed) == Set(oneByOne))
    #expect(streamed.count == 8)
    for todo in streamed where todo.title.hasPrefix("bare") {
      #expect(todo.project == nil && todo.block == nil && todo.notes == nil, "\(todo.title)")
      #expect(todo.tags.isEmpty && !todo.isDone && todo.doneAt == nil, "\(todo.title)")
    }
    let other = try #require(streamed.first { $0.title == "other 2" })
    #expect(other.tags == ["web"] && other.project == "blog" && other.block == nil && other.notes == nil)
  }
}
