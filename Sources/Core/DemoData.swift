import Formats

/// Sample data for `ootd demo` and benchmarks: a few projects and todos over past days,
/// deterministic for a given seed.
public enum DemoData {
  /// The sample projects.
  public static func projects() -> [Project] {
    [
      try! Project(
        name: "ootd", summary: "Terminal todo tracker", repository: RepositoryName("octo/ootd"),
        tech: ["swift", "sqlite"]),
      try! Project(
        name: "algo-study", summary: "One problem a day", repository: RepositoryName("octo/algorithms"),
        tech: ["python"]),
      try! Project(name: "blog", summary: "Notes and TILs", tech: ["markdown"]),
    ]
  }

  /// `count` todos spread over the `days` days ending at `today` (plus a couple for tomorrow),
  /// past days mostly done, today partly done: made one at a time as they are read (each
  /// reading makes the same ones), so a million demo todos take the memory of one.
  public static func todos(today: Day, days: Int, count: Int, seed: UInt64 = 42) -> DemoTodos {
    DemoTodos(today: today, days: days, count: count, seed: seed)
  }
}

/// The demo todos of ``DemoData/todos(today:days:count:seed:)``.
public struct DemoTodos: Sequence, Sendable {
  let today: Day
  let days: Int
  let count: Int
  let seed: UInt64

  static let templates: [(String, Priority, String?, String?)] = [
    ("Solve an algorithm problem", .high, "algo-study", "algorithm"),
    ("Review the GRDB migration PR", .mid, "ootd", "review"),
    ("Write the carry-over test", .high, "ootd", nil),
    ("Make a commit", .high, nil, "commit"),
    ("Write a TIL about WAL mode", .mid, "blog", "blog"),
    ("Watch a lecture on graphs", .mid, nil, "study"),
    ("Refactor the table renderer", .low, "ootd", "refactor"),
    ("Update the README tour", .low, "ootd", "docs"),
    ("Read 'Designing Data-Intensive Applications'", .low, nil, nil),
    ("BOJ 1753: 최단경로 (Dijkstra)", .high, "algo-study", nil),
    ("Reply to issue \"crash on empty list\"", .mid, "ootd", nil),
    ("Tidy dotfiles 🧹", .low, nil, nil),
  ]

  public func makeIterator() -> Iterator {
    Iterator(todos: self, random: SplitMix64(seed: seed))
  }

  /// Makes the todos one by one.
  public struct Iterator: IteratorProtocol {
    let todos: DemoTodos
    var random: SplitMix64
    var index = 0
    var usedByDay: [Day: Set<Int>] = [:]

    public mutating func next() -> (todo: NewTodo, done: Bool)? {
      let (today, count, templates) = (todos.today, todos.count, DemoTodos.templates)
      guard index < count else { return nil }
      defer { index += 1 }
      let span = Swift.max(1, todos.days)
      // Spread evenly, newest last; a few land on tomorrow.
      let offset = index % 20 == 19 ? 1 : -((span - 1) - (index * span / Swift.max(1, count)))
      let day = today.adding(days: offset)
      // Distinct work within a day while there are templates left for it.
      var choice = Int(random.next() % UInt64(templates.count))
      var used = usedByDay[day, default: []]
      if used.count < templates.count {
        while used.contains(choice) { choice = (choice + 1) % templates.count }
      }
      used.insert(choice)
      usedByDay[day] = used
      let template = templates[choice]
      let roll = random.next() % 100
      let done: Bool
      if day < today { done = roll < 82 } else if day == today { done = roll < 40 } else { done = false }
      let draft = try! NewTodo(
        title: template.0, priority: template.1, day: day, project: template.2, block: template.3)
      return (draft, done)
    }
  }
}
