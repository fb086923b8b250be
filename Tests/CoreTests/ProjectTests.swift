import Core
import Testing

@Suite("Project")
struct ProjectTests {
  @Test(
    "tech tags are split on commas, trimmed, de-duplicated ignoring case, first spelling kept",
    arguments: [
      (["swift", "sqlite"], ["swift", "sqlite"]),
      (["a, b,,c"], ["a", "b", "c"]),
      (["Swift", "swift", " SWIFT "], ["Swift"]),
      (["grdb", "swift,GRDB"], ["grdb", "swift"]),
      ([" ", "", ",,", " , "], []),
      ([], []),
      (["  Rust  ,  Go "], ["Rust", "Go"]),
      (["스위프트", "SwiftUI"], ["스위프트", "SwiftUI"]),
    ] as [([String], [String])])
  func techNormalisation(input: [String], expected: [String]) throws {
    #expect(Project.normalizedTech(input) == expected)
    #expect(try Project(name: "p", tech: input).tech == expected)
  }

  @Test(
    "a start on or before the end is accepted; either date alone is fine",
    arguments: [
      ("2026-01-01", "2026-12-31"), ("2026-05-05", "2026-05-05"), ("2026-05-05", nil),
      (nil, "2026-05-05"), (nil, nil),
    ] as [(String?, String?)])
  func datesInOrder(start: String?, end: String?) throws {
    let project = try Project(
      name: "p", start: start.flatMap(Day.init(iso:)), end: end.flatMap(Day.init(iso:)))
    #expect(project.start?.description == start)
    #expect(project.end?.description == end)
    try project.validateDates()
  }

  @Test("an end before the start throws projectEndsBeforeStart")
  func endBeforeStart() throws {
    let start = try #require(Day(iso: "2026-05-05"))
    let end = try #require(Day(iso: "2026-05-04"))
    #expect(throws: CoreError.projectEndsBeforeStart(start: start, end: end)) {
      try Project(name: "p", start: start, end: end)
    }
    // A valid project mutated out of order is caught by validateDates.
    var project = try Project(name: "p", start: start)
    project.end = end
    #expect(throws: CoreError.projectEndsBeforeStart(start: start, end: end)) {
      try project.validateDates()
    }
  }

  @Test("a project name must be a valid name of kind 'project'")
  func invalidName() {
    #expect(throws: CoreError.invalidName(kind: "project", name: "my project")) {
      try Project(name: "my project")
    }
  }

  @Test("a project keeps every field it is given")
  func keepsFields() throws {
    let project = try Project(
      name: "ootd", summary: "Terminal todo tracker", repository: RepositoryName("octo/ootd"),
      localPath: "/home/me/ootd", start: Day(iso: "2026-01-01"), end: Day(iso: "2026-02-01"),
      tech: ["swift"], memo: "memo", isArchived: true)
    #expect(project.name == "ootd")
    #expect(project.summary == "Terminal todo tracker")
    #expect(project.repository?.description == "octo/ootd")
    #expect(project.localPath == "/home/me/ootd")
    #expect(project.start?.description == "2026-01-01")
    #expect(project.end?.description == "2026-02-01")
    #expect(project.memo == "memo")
    #expect(project.isArchived)
  }

  @Test(
    "progress rate is done / total, and nil without todos",
    arguments: [
      (0, 0, nil), (1, 0, 0.0), (1, 1, 1.0), (4, 1, 0.25), (3, 2, 2.0 / 3.0), (10, 10, 1.0),
    ] as [(Int, Int, Double?)])
  func rate(total: Int, done: Int, expected: Double?) throws {
    let progress = ProjectProgress(
      project: try Project(name: "p"), total: total, done: done, lastActivity: nil)
    #expect(progress.rate == expected)
  }
}
