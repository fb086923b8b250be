import Core
import Testing

@testable import Storage

/// The claim a pulled operation leaves on a todo's number (``TodoNumbers/claimed(by:merged:)``),
/// as a table: the number the merge holds once the operation decided it, never one it put aside.
@Suite("Todo numbers: the claim a pulled operation leaves")
struct TodoNumberClaimTests {
  static let early = Stamp(clock: 10, device: "a")
  static let middle = Stamp(clock: 20, device: "b")
  static let late = Stamp(clock: 30, device: "c")
  static let row = "11111111-1111-4111-8111-111111111111"

  /// A todo shown here as `shown`, its number stamped `stamp` (a claim of the same pull not given
  /// yet leaves the number shown under the stamp of the number claimed), created `early`.
  static func alive(_ shown: Int64, _ stamp: Stamp) -> SyncRow {
    SyncRow(
      existence: Stamped(true, early),
      fields: ["id": Stamped(.integer(shown), stamp), "title": Stamped(.text("Read"), early)])
  }

  static func update(_ field: String, _ value: FieldValue, _ stamp: Stamp, entity: Entity = .todo) -> SyncOperation {
    SyncOperation(entity, row: row, .update(field: field, value: value), stamp: stamp)
  }

  static func create(_ number: Int64, _ stamp: Stamp, entity: Entity = .todo) -> SyncOperation {
    SyncOperation(entity, row: row, .create(["id": .integer(number), "title": .text("Read")]), stamp: stamp)
  }

  /// A todo deleted `middle`, its number set to 7 elsewhere after `late` (an edit a deletion keeps).
  static let deleted = SyncRow(
    existence: Stamped(false, middle), fields: ["id": Stamped(.integer(7), Stamp(clock: 40, device: "b"))])

  static let cases: [(String, SyncOperation, SyncRow?, Int64?, String?)] = [
    ("a later number: claimed", update("id", .integer(8), late), alive(9, middle), 8, "c"),
    // Seed 1072: shown as 8 while its claim of 9 (`middle`) waited; 8 again, later, wins.
    ("a later number the todo shows already: claimed", update("id", .integer(8), late), alive(8, middle), 8, "c"),
    (
      "an earlier number: loses, claims nothing", update("id", .integer(8), Stamp(clock: 15, device: "c")),
      alive(9, middle), nil, nil
    ),
    ("another field: claims nothing", update("title", .text("Write"), late), alive(9, middle), nil, nil),
    ("a creation never seen: its number", create(5, middle), nil, 5, "b"),
    ("a creation over a deletion (an undo): the number its merge keeps", create(5, late), deleted, 7, "b"),
    ("a creation older than the deletion: stays deleted", create(5, early), deleted, nil, nil),
    ("a number for a deleted todo: claims nothing", update("id", .integer(8), late), deleted, nil, nil),
    ("a deletion: claims nothing", SyncOperation(.todo, row: row, .delete, stamp: late), alive(9, middle), nil, nil),
    ("a project's creation: no number travels", create(5, middle, entity: .project), nil, nil, nil),
  ]

  @Test("the claim is the merged number, when the operation decided it", arguments: cases.indices)
  func claim(_ index: Int) {
    let (name, operation, before, number, device) = Self.cases[index]
    let merged = SyncMerge.merge(operation, into: before).row
    let claim = TodoNumbers.claimed(by: operation, merged: merged)
    #expect(claim?.number == number, "\(name)")
    #expect(claim?.device == device, "\(name)")
  }
}
