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
  /// past days mostly done, today partly done.
  public static func todos(today: Day, days: Int, count: Int, seed: UInt64 = 42)
    -> [(todo: NewTodo, done: Bool)]
  {
    var random = SplitMix64(seed: seed)
    let templates: [(String, Priority, String?, String?)] = [
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
    let span = max(1, days)
    var result: [(todo: NewTodo, done: Bool)] = []
    result.reserveCapacity(count)
    var usedByDay: [Day: Set<Int>] = [:]
    for index in 0..<count {
      // Spread evenly, newest last; a few land on tomorrow.
      let offset = index % 20 == 19 ? 1 : -((span - 1) - (index * span / max(1, count)))
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
      result.append((draft, done))
    }
    return result
  }
}

/// A small, fast, seedable random number generator (SplitMix64).
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator; the same seed gives the same sequence.
  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
