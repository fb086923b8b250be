import Core
import Testing

@Suite("TodoRules.mayBreak(creating:)")
struct TodoRuleCreationTests {
  @Test(
    "only a todo created not done is left unchecked",
    arguments: [
      (Fields.todo([.title: .text("a"), .done: .integer(0)]), false),
      (Fields.todo([.title: .text("a"), .done: .integer(0), .dropped: .integer(1), .day: .null]), false),
      (Fields.todo([.title: .text("a"), .done: .integer(1)]), true),
      (Fields.todo([.title: .text("a"), .done: .integer(1), .day: .text("2026-11-28")]), true),
      (Fields.todo([.title: .text("a")]), true),
      (Fields.todo([.title: .text("a"), .done: .null]), true),
      (Fields.todo([.title: .text("a"), .done: .text("0")]), true),
      (Fields.todo([.title: .text("a"), .done: .integer(2)]), true),
    ])
  func creation(fields: Fields, checked: Bool) {
    #expect(TodoRules.mayBreak(creating: fields) == checked)
  }

  @Test("a todo created not done keeps every rule, whatever its day or dropped")
  func notDoneKeepsRules() {
    let today = Day(year: 2026, month: 11, day: 28)!
    for day in [nil, today.adding(days: -1), today, today.adding(days: 1)] {
      for dropped in [false, true] {
        let state = TodoRuleState(day: day, isDone: false, isDropped: dropped)
        #expect(TodoRules.broken(state, today: today).isEmpty)
      }
    }
  }
}
