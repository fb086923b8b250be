import Core
import Testing

/// One spelling for a row in every sentence about it (issue 24 §1: `#id 'title'`, never
/// `todo 12 'x'` in one line and `#12 'x'` in the next).
@Suite struct RowSubjectTests {
  @Test(arguments: [
    (Entity.todo, Int64?.some(12), String?.some("Write the report"), "#12 'Write the report'"),
    (.todo, 12, nil, "#12"),
    (.todo, nil, "Write the report", "todo 'Write the report'"),
    (.todo, nil, nil, "a todo"),
    (.project, nil, "ootd", "project 'ootd'"),
    (.project, 4, "ootd", "project 'ootd'"),
    (.project, nil, nil, "a project"),
  ])
  func namesTheRow(entity: Entity, number: Int64?, name: String?, expected: String) {
    #expect(RowSubject.of(entity, number: number, name: name) == expected)
  }

  /// The rule fixes a sync, an import or CalDAV reports, and the conflicts and undo's notes,
  /// name a todo the same way.
  @Test func everyReportSaysItAlike() {
    let conflict = SyncConflictReport(
      conflict: SyncConflict(
        kind: .sameField, entity: .todo, row: "r", field: "title", winner: Stamp(clock: 2, device: "a"),
        loser: Stamp(clock: 1, device: "b")),
      name: "Read", number: 3)
    #expect(conflict.subject == "#3 'Read'")
    let left = LeftRow(entity: .todo, uuid: "r", number: 3, name: "Read", kind: .fields(["title"]), by: "d")
    #expect(left.subject == conflict.subject)
    #expect(
      RoutineOnce.sentence(
        title: "Study", day: Day(year: 2026, month: 11, day: 29)!,
        kept: RoutineTodo(uuid: "a", number: 3, isDone: true), removed: RoutineTodo(uuid: "b", number: 4, isDone: false),
        takesDone: false
      ).hasPrefix("#4 'Study' was the routine planned for 2026-11-29"))
  }
}
