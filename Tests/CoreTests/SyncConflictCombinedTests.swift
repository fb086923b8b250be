import Core
import Testing

/// One sync reports a field's conflict once (issue 24 §3; tryout 18 W4: one sync said `kept
/// 2026-12-10, over the backlog` and then `kept 2026-12-10, over 2026-11-28` for one todo).
@Suite struct SyncConflictCombinedTests {
  static func day(_ row: String, kept: FieldValue, lost: FieldValue, winner: Int64, loser: Int64, rule: SyncConflict.Rule = .later)
    -> SyncConflictReport
  {
    SyncConflictReport(
      conflict: SyncConflict(
        kind: .sameField, entity: .todo, row: row, field: "day", kept: kept, lost: lost,
        winner: Stamp(clock: winner, device: "w"), loser: Stamp(clock: loser, device: "l")),
      name: "Read", number: 1, rule: rule)
  }

  @Test func aFieldDecidedTwiceIsOneConflict_overWhatWasHereBefore() {
    let first = Self.day("r", kept: .text("2026-11-28"), lost: .null, winner: 20, loser: 10)
    let second = Self.day("r", kept: .text("2026-12-10"), lost: .text("2026-11-28"), winner: 30, loser: 20, rule: .clockAhead)
    let combined = SyncConflictReport.combined([first], [second])
    #expect(combined.count == 1)
    #expect(combined.first?.conflict.kept == .text("2026-12-10"))
    #expect(combined.first?.conflict.lost == .null)
    #expect(combined.first?.conflict.winner == Stamp(clock: 30, device: "w"))
    #expect(combined.first?.conflict.loser == Stamp(clock: 10, device: "l"))
    #expect(combined.first?.rule == .clockAhead)
    // Within one pull as across two.
    #expect(SyncConflictReport.combined([], [first, second]) == combined)
  }

  @Test func otherRowsAndFieldsStayApart_inOrder() {
    let a = Self.day("a", kept: .text("2026-11-28"), lost: .null, winner: 2, loser: 1)
    let b = Self.day("b", kept: .text("2026-11-29"), lost: .null, winner: 2, loser: 1)
    var title = a
    title.conflict.field = "title"
    #expect(SyncConflictReport.combined([a], [b, title]) == [a, b, title])
  }

  @Test func tagsConflictEachOnTheirOwn() {
    func tag(_ name: String, kept: Bool) -> SyncConflictReport {
      SyncConflictReport(
        conflict: SyncConflict(
          kind: .tag, entity: .todo, row: "r", field: "tags", kept: kept ? .text(name) : .null,
          lost: kept ? .null : .text(name), winner: Stamp(clock: 2, device: "w"), loser: Stamp(clock: 1, device: "l")),
        name: "Read", number: 1)
    }
    let (home, work) = (tag("home", kept: true), tag("work", kept: false))
    #expect(SyncConflictReport.combined([home], [work]) == [home, work])
    // One tag decided twice: the last decision, said whole (review 19: it was joined into
    // "without +" on both sides).
    let takenAway = tag("home", kept: false)
    #expect(SyncConflictReport.combined([home], [takenAway]) == [takenAway])
  }

  /// Edits of a row deleted since are one conflict of the row (review 19: one line per field
  /// it set, "a todo: deleted on one machine, edited on another" six times).
  @Test func editsOfADeletedRow_areOneConflict() {
    func edited(_ field: String) -> SyncConflictReport {
      SyncConflictReport(
        conflict: SyncConflict(
          kind: .editOfDeleted, entity: .todo, row: "r", field: field, lost: .integer(1),
          winner: Stamp(clock: 3, device: "w"), loser: Stamp(clock: 2, device: "l")),
        name: nil, number: nil)
    }
    #expect(SyncConflictReport.combined([edited("priority")], [edited("notes"), edited("done")]).count == 1)
  }

  @Test func aFieldBackWhereItBeganIsNoConflict() {
    let there = Self.day("r", kept: .text("2026-11-28"), lost: .text("2026-11-27"), winner: 2, loser: 1)
    let back = Self.day("r", kept: .text("2026-11-27"), lost: .text("2026-11-28"), winner: 3, loser: 2)
    #expect(SyncConflictReport.combined([there], [back]).isEmpty)
  }
}
