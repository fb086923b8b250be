import Testing

@testable import Core

/// Issue 24, point 3: a conflict line says values in the user's words.
@Suite("Conflict values in the user's words")
struct ConflictWordsTests {
  @Test("priorities, days, carried-from, flags and links as ootd says them; typed text quoted; never a number or null")
  func words() {
    func say(_ field: String, _ value: FieldValue?) -> String { ConflictWords(.todo, field: field, value).quoted }
    #expect(say("priority", .integer(0)) == "high")
    #expect(say("priority", .integer(2)) == "low")
    #expect(say("day", .text("2026-11-28")) == "2026-11-28")
    #expect(say("day", .null) == "the backlog")
    #expect(say("carriedFrom", .text("2026-11-26")) == "carried from 11-26")
    #expect(say("carriedFrom", .null) == "not carried")
    #expect(say("done", .integer(1)) == "done")
    #expect(say("dropped", .integer(0)) == "not dropped")
    #expect(say("project", .null) == "no project")
    #expect(say("title", .text("Read SICP")) == "'Read SICP'")
    #expect(say("notes", nil) == "none")
  }

  @Test("a conflict line names a todo by its number and title, never a uuid prefix")
  func subject() {
    let stamp = Stamp(clock: 1, device: "d")
    let conflict = SyncConflict(
      kind: .sameField, entity: .todo, row: "4fc7664d-0000-4000-8000-000000000000", field: "priority",
      kept: .integer(0), lost: .integer(1), winner: stamp, loser: stamp)
    let report = SyncConflictReport(conflict: conflict, name: "Read", number: 3)
    #expect(report.subject == "#3 'Read'")
    #expect(report.kept.words == "high" && report.lost.words == "mid")
    #expect(!SyncConflictReport(conflict: conflict, name: nil).subject.contains("4fc7664d"))
  }
}
