import Core
import Testing

@Suite("Priority")
struct PriorityTests {
  @Test(
    "accepted spellings parse, in any case",
    arguments: [
      ("high", Priority.high), ("HIGH", .high), ("High", .high), ("h", .high), ("H", .high),
      ("mid", .mid), ("MID", .mid), ("medium", .mid), ("Medium", .mid), ("m", .mid),
      ("low", .low), ("LOW", .low), ("l", .low), ("L", .low),
    ])
  func parses(text: String, expected: Priority) throws {
    #expect(try Priority(parsing: text) == expected)
  }

  @Test(
    "anything else throws invalidPriority with the text given",
    arguments: ["", " high", "high ", "hi", "urgent", "1", "0", "med", "lo", "normal", "高"])
  func rejects(text: String) {
    #expect(throws: CoreError.invalidPriority(text)) { try Priority(parsing: text) }
  }

  @Test("ranks are 0, 1, 2 from high to low and map back", arguments: [
    (Priority.high, 0), (.mid, 1), (.low, 2),
  ])
  func ranks(priority: Priority, rank: Int) {
    #expect(priority.rank == rank)
    #expect(Priority(rank: rank) == priority)
    #expect(priority.description == priority.rawValue)
  }

  @Test("ranks outside 0…2 map to no priority", arguments: [-1, 3, 100, Int.min])
  func unknownRank(rank: Int) {
    #expect(Priority(rank: rank) == nil)
  }

  @Test("sorting puts high before mid before low")
  func order() {
    #expect([Priority.low, .high, .mid, .low, .high].sorted() == [.high, .high, .mid, .low, .low])
    #expect(Priority.high < .mid && Priority.mid < .low)
    #expect(!(Priority.low < .high))
    #expect(Priority.allCases == [.high, .mid, .low])
  }
}
