import Core
import Formats
import Testing

@Suite("DemoData")
struct DemoDataTests {
  let today = Day(year: 2026, month: 11, day: 22)!

  /// A comparable form of the generated todos.
  static func flatten(_ todos: some Sequence<(todo: NewTodo, done: Bool)>) -> [String] {
    todos.map {
      "\($0.todo.day) \($0.todo.priority) \($0.todo.title) \($0.todo.project ?? "-") \($0.todo.block ?? "-") \($0.done)"
    }
  }

  @Test("the same seed gives the same todos; another seed gives others")
  func deterministic() {
    let first = DemoData.todos(today: today, days: 30, count: 200, seed: 7)
    let second = DemoData.todos(today: today, days: 30, count: 200, seed: 7)
    let other = DemoData.todos(today: today, days: 30, count: 200, seed: 8)
    #expect(Self.flatten(first) == Self.flatten(second))
    #expect(first.map(\.todo) == second.map(\.todo))
    #expect(Self.flatten(first) != Self.flatten(other))
    // Read again, the same todos: each reading starts from the seed.
    #expect(Self.flatten(first) == Self.flatten(Array(first)))
    #expect(DemoData.projects() == DemoData.projects())
  }

  @Test("the seeded generator repeats its sequence")
  func splitMix() {
    var a = SplitMix64(seed: 42)
    var b = SplitMix64(seed: 42)
    var c = SplitMix64(seed: 43)
    let seqA = (0..<5).map { _ in a.next() }
    #expect(seqA == (0..<5).map { _ in b.next() })
    #expect(seqA != (0..<5).map { _ in c.next() })
    #expect(Set(seqA).count == 5)
  }

  @Test(
    "exactly count todos, all within the span or tomorrow",
    arguments: [(30, 0), (30, 1), (30, 200), (7, 500), (1, 20), (0, 10), (90, 1000)])
  func countsAndSpan(days: Int, count: Int) throws {
    let todos = Array(DemoData.todos(today: today, days: days, count: count))
    #expect(todos.count == count)
    let earliest = today.adding(days: -(max(1, days) - 1))
    for item in todos {
      let day = try #require(item.todo.day, "demo todos all have a day")
      #expect(day >= earliest && day <= today.adding(days: 1), "\(day)")
    }
  }

  @Test("no future todo is done, past days are mostly done, some fall on tomorrow")
  func doneShape() {
    // Given
    let todos = DemoData.todos(today: today, days: 60, count: 1200, seed: 42)
    // Then
    let future = todos.filter { $0.todo.day.map { $0 > today } ?? false }
    #expect(!future.isEmpty)
    #expect(future.allSatisfy { !$0.done })
    let past = todos.filter { $0.todo.day.map { $0 < today } ?? false }
    let pastDone = Double(past.filter(\.done).count) / Double(past.count)
    #expect(pastDone > 0.7 && pastDone < 0.95, "past done rate \(pastDone)")
    let onToday = todos.filter { $0.todo.day == today }
    #expect(!onToday.isEmpty)
    #expect(onToday.contains { !$0.done }, "today should be only partly done")
  }

  @Test("every past day of the span gets todos when there are more todos than days")
  func spread() {
    let todos = DemoData.todos(today: today, days: 30, count: 300)
    let days = Set(todos.map(\.todo.day))
    for offset in 0..<30 {
      #expect(days.contains(today.adding(days: -offset)), "no todo on \(today.adding(days: -offset))")
    }
  }

  @Test("todos link only to demo projects and built-in blocks")
  func references() {
    let projects = Set(DemoData.projects().map(\.name))
    let blocks = Set(TaskBlock.builtIns.map(\.name))
    #expect(projects.count == 3)
    for item in DemoData.todos(today: today, days: 30, count: 500) {
      if let project = item.todo.project { #expect(projects.contains(project)) }
      if let block = item.todo.block { #expect(blocks.contains(block)) }
    }
  }
}
