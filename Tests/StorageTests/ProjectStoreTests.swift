import Core
import Foundation
import Storage
import Testing

@Suite("Projects in storage")
struct ProjectStoreTests {
  static func ootd(archived: Bool = false) throws -> Project {
    try Project(
      name: "ootd", summary: "Terminal todo tracker", repository: RepositoryName("octo/ootd"),
      localPath: "/home/me/src/ootd", start: day("2026-01-01"), end: day("2026-12-31"),
      tech: ["swift", "sqlite", "GRDB"], memo: "memo with 'quotes' and \"more\" 📝", isArchived: archived)
  }

  @Test("a project round-trips with every field")
  func roundTrip() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    let project = try Self.ootd()
    try database.addProject(project, now: fixedNow)
    let read = try database.project(named: "ootd")
    #expect(RowID.isValid(read.project.uuid))
    var expected = project
    expected.uuid = read.project.uuid
    #expect(read.project == expected)
    #expect(read.total == 0 && read.done == 0)
    #expect(read.lastActivity == nil)
    #expect(read.rate == nil)
    #expect(try database.project(named: "OOTD").project == expected)
  }

  @Test("a project name taken in any case throws duplicateProject and changes nothing", arguments: [
    "ootd", "OOTD", "Ootd",
  ])
  func duplicate(name: String) throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    try database.addProject(try Self.ootd(), now: fixedNow)
    let before = try dump(scratch.path())
    #expect(throws: StorageError.duplicateProject(name)) {
      try database.addProject(try Project(name: name), now: fixedNow)
    }
    #expect(try dump(scratch.path()) == before)
  }

  @Test("lists show active, archived or all projects, by name ignoring case")
  func selections() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    for (name, archived) in [("zeta", false), ("Beta", true), ("alpha", false), ("delta", true), ("Gamma", false)] {
      try database.addProject(try Project(name: name, isArchived: archived), now: fixedNow)
    }
    #expect(try database.projects().map(\.project.name) == ["alpha", "Gamma", "zeta"])
    #expect(try database.projects(.active).map(\.project.name) == ["alpha", "Gamma", "zeta"])
    #expect(try database.projects(.archived).map(\.project.name) == ["Beta", "delta"])
    #expect(try database.projects(.all).map(\.project.name) == ["alpha", "Beta", "delta", "Gamma", "zeta"])
    #expect(try database.project(named: "beta").project.isArchived)
  }

  @Test("progress counts a project's todos, the done ones and the latest day something was done")
  func progress() throws {
    // Given
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    try database.addProject(try Self.ootd(), now: fixedNow)
    try database.addProject(try Project(name: "blog"), now: fixedNow)
    let a = try database.addTodo(try draft("a", on: "2026-11-20", project: "ootd"), now: fixedNow)
    let b = try database.addTodo(try draft("b", on: "2026-11-22", project: "ootd"), now: fixedNow)
    _ = try database.addTodo(try draft("c", on: "2026-11-25", project: "ootd"), now: fixedNow)
    _ = try database.addTodo(try draft("d", on: "2026-12-01"), now: fixedNow)
    _ = try database.addTodo(try draft("e", on: "2026-11-21", project: "blog"), now: fixedNow)
    // When
    _ = try database.setDone(ids: [a.id, b.id], done: true, now: fixedNow)
    // Then
    let ootd = try database.project(named: "ootd")
    #expect(ootd.total == 3)
    #expect(ootd.done == 2)
    #expect(ootd.rate == 2.0 / 3.0)
    #expect(ootd.lastActivity == day("2026-11-22"))
    let blog = try database.project(named: "blog")
    #expect(blog.total == 1 && blog.done == 0)
    #expect(blog.lastActivity == nil)
    #expect(try database.projects().map(\.total) == [1, 3])
  }

  @Test("an unknown project name throws projectNotFound everywhere")
  func unknown() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    #expect(throws: StorageError.projectNotFound("ghost")) { try database.project(named: "ghost") }
    #expect(throws: StorageError.projectNotFound("ghost")) { try database.removeProject(named: "ghost", now: fixedNow) }
    #expect(throws: StorageError.projectNotFound("ghost")) {
      try database.updateProject(named: "ghost", now: fixedNow) { $0.memo = "x" }
    }
  }

  @Test("update changes fields and returns what a later read sees")
  func update() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    try database.addProject(try Self.ootd(), now: fixedNow)
    let updated = try database.updateProject(named: "OOTD", now: fixedNow) {
      $0.summary = nil
      $0.repository = RepositoryName("octo/ootd-cli")
      $0.end = nil
      $0.memo = "shipped"
      $0.isArchived = true
      $0.tech = ["swift"]
    }
    #expect(updated.summary == nil)
    #expect(updated.repository?.description == "octo/ootd-cli")
    #expect(updated.end == nil)
    #expect(updated.start == day("2026-01-01"))
    #expect(updated.isArchived)
    #expect(try database.project(named: "ootd").project == updated)
    #expect(try database.projects(.active).isEmpty)
  }

  @Test("update returns tech normalised, the way it is read back")
  func updateTechNormalised() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    try database.addProject(try Self.ootd(), now: fixedNow)
    let updated = try database.updateProject(named: "ootd", now: fixedNow) { $0.tech = ["Swift", "swift", " grdb "] }
    let stored = try database.project(named: "ootd").project
    #expect(stored.tech == ["Swift", "grdb"])
    #expect(updated.tech == stored.tech)
  }

  @Test("renaming keeps the todos linked under the new name")
  func rename() throws {
    // Given
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    try database.addProject(try Self.ootd(), now: fixedNow)
    let todo = try database.addTodo(try draft("linked", project: "ootd"), now: fixedNow)
    // When
    let renamed = try database.updateProject(named: "ootd", now: fixedNow) { $0.name = "ootd-cli" }
    // Then
    #expect(renamed.name == "ootd-cli")
    #expect(try database.todos(ids: [todo.id]).map(\.project) == ["ootd-cli"])
    #expect(try database.project(named: "ootd-cli").total == 1)
    #expect(throws: StorageError.projectNotFound("ootd")) { try database.project(named: "ootd") }
    // And a change of case only is a rename too
    #expect(try database.updateProject(named: "ootd-cli", now: fixedNow) { $0.name = "OOTD-CLI" }.name == "OOTD-CLI")
    #expect(try database.projects().map(\.project.name) == ["OOTD-CLI"])
  }

  @Test("renaming onto an existing name in any case throws duplicateProject and changes nothing", arguments: [
    "blog", "BLOG",
  ])
  func renameOntoExisting(target: String) throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    try database.addProject(try Self.ootd(), now: fixedNow)
    try database.addProject(try Project(name: "blog"), now: fixedNow)
    let before = try dump(scratch.path())
    #expect(throws: StorageError.duplicateProject(target)) {
      try database.updateProject(named: "ootd", now: fixedNow) {
        $0.name = target
        $0.memo = "should not be saved"
      }
    }
    #expect(try dump(scratch.path()) == before)
  }

  @Test(
    "an update that breaks a rule throws invalidValue and changes nothing",
    arguments: [
      ("end before start", CoreError.projectEndsBeforeStart(start: day("2026-01-01"), end: day("2025-12-31"))),
      ("bad name", CoreError.invalidName(kind: "project", name: "has space")),
    ])
  func invalidUpdate(label: String, expected: CoreError) throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    try database.addProject(try Self.ootd(), now: fixedNow)
    let before = try dump(scratch.path())
    #expect(throws: StorageError.invalidValue(expected)) {
      try database.updateProject(named: "ootd", now: fixedNow) {
        $0.memo = "should not be saved"
        if label == "bad name" { $0.name = "has space" } else { $0.end = day("2025-12-31") }
      }
    }
    #expect(try dump(scratch.path()) == before)
    var unchanged = try database.project(named: "ootd").project
    unchanged.uuid = ""
    #expect(unchanged == (try Self.ootd()))
  }

  @Test("a validation error thrown by the update closure surfaces as invalidValue")
  func closureThrows() throws {
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    try database.addProject(try Self.ootd(), now: fixedNow)
    #expect(throws: StorageError.invalidValue(.invalidRepository("nope"))) {
      try database.updateProject(named: "ootd", now: fixedNow) { _ throws(CoreError) in throw .invalidRepository("nope") }
    }
  }

  @Test("removing a project keeps its todos, unlinked, and reports how many")
  func remove() throws {
    // Given
    let scratch = Scratch()
    let database = try scratch.freshDatabase()
    try database.addProject(try Self.ootd(), now: fixedNow)
    try database.addProject(try Project(name: "blog"), now: fixedNow)
    let a = try database.addTodo(try draft("a", project: "ootd"), now: fixedNow)
    let b = try database.addTodo(try draft("b", project: "ootd"), now: fixedNow)
    let c = try database.addTodo(try draft("c", project: "blog"), now: fixedNow)
    // When
    let unlinked = try database.removeProject(named: "Ootd", now: fixedNow)
    // Then
    #expect(unlinked == 2)
    #expect(try database.todos(ids: [a.id, b.id, c.id]).map(\.project) == [nil, nil, "blog"])
    #expect(try database.todos(ids: [a.id, b.id]).map(\.title) == ["a", "b"])
    #expect(try database.projects(.all).map(\.project.name) == ["blog"])
    // And the name is free again
    try database.addProject(try Project(name: "ootd"), now: fixedNow)
    #expect(try database.project(named: "ootd").total == 0)
  }
}
