import Testing

@testable import Core

/// What an undo says of a row it left as another device made it (issue 24, session 18).
@Suite("The lines of rows an undo left")
struct LeftRowTests {
  static let cases: [(LeftRow, String)] = [
    (LeftRow(entity: .todo, uuid: "u", number: 1, name: "Y title", kind: .fields(["title"]), by: "desktop"),
     "Left the title of #1 'Y title' as desktop set it"),
    (LeftRow(entity: .todo, uuid: "u", number: 4, name: "x", kind: .fields(["done", "doneAt", "doneBy", "day"]), by: "desktop"),
     "Left the done and day of #4 'x' as desktop set them"),
    (LeftRow(entity: .todo, uuid: "u", number: 4, name: "x", kind: .fields(["title", "priority", "day"]), by: "the sync"),
     "Left the title, priority and day of #4 'x' as the sync set them"),
    (LeftRow(entity: .todo, uuid: "u", number: 203, name: "Buy milk", kind: .kept, by: "another device"),
     "Kept #203 'Buy milk': another device has changed it since (deleting it would lose that)"),
    (LeftRow(entity: .project, uuid: "u", number: nil, name: "work", kind: .holding("#2 'Second'"), by: "desktop"),
     "Kept project 'work': #2 'Second', kept, is in it"),
    (LeftRow(entity: .todo, uuid: "u", number: nil, name: "Gone", kind: .deleted, by: "desktop"),
     "Left todo 'Gone' deleted, as desktop deleted it"),
    (LeftRow(entity: .project, uuid: "u", number: nil, name: "ootd", kind: .present, by: "desktop"),
     "Left project 'ootd' as desktop brought it back"),
  ]

  @Test("each kind of row left reads as one line", arguments: cases)
  func line(_ row: LeftRow, _ expected: String) {
    #expect(row.line == expected)
  }

  @Test("past five rows the lines count the rest; the journal's summary lowercases them")
  func manyRows() {
    let rows = (1...7).map {
      LeftRow(entity: .todo, uuid: "u\($0)", number: Int64($0), name: "t\($0)", kind: .kept, by: "desktop")
    }
    let lines = LeftRow.lines(rows, count: 120)
    #expect(lines.count == 6 && lines[4].hasPrefix("Kept #5 't5'"))
    #expect(lines[5] == "And 115 more rows left as other devices set them")
    #expect(LeftRow.summary(Array(rows.prefix(1)), count: 1)
      == "kept #1 't1': desktop has changed it since (deleting it would lose that)")
  }
}
