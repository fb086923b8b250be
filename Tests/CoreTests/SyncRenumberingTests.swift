import Testing

@testable import Core

/// Issue 24 §1: one sync's pulls (each its own transaction) report one renumbering per todo,
/// from its number before the sync to its number after.
struct SyncRenumberingTests {
  @Test("a todo renumbered by two pulls of one sync is one line; one back at its number, or brought by an earlier pull, none")
  func combinedAcrossPulls() {
    let first = [
      SyncRenumbering(uuid: "x", title: "slow add", from: 10, to: 12010),
      SyncRenumbering(uuid: "y", title: "back", from: 4, to: 9),
    ]
    let second = [
      SyncRenumbering(uuid: "x", title: "slow add", from: 12010, to: 20010),
      SyncRenumbering(uuid: "y", title: "back", from: 9, to: 4),
      SyncRenumbering(uuid: "z", title: "came in the first pull", from: 5, to: 6),
    ]
    #expect(
      SyncRenumbering.combined(first, second, arrived: ["z"])
        == [SyncRenumbering(uuid: "x", title: "slow add", from: 10, to: 20010)])
  }
}
