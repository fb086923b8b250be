/// How much a todo matters today. Lists order high → mid → low.
public enum Priority: String, CaseIterable, Sendable, Codable, Comparable, CustomStringConvertible {
  case high, mid, low

  /// Parses `high`, `mid` or `low` (any case; `medium`/`m`, `h` and `l` are accepted too).
  public init(parsing text: String) throws(CoreError) {
    switch text.lowercased() {
    case "high", "h": self = .high
    case "mid", "medium", "m": self = .mid
    case "low", "l": self = .low
    default: throw .invalidPriority(text)
    }
  }

  /// Sort rank: 0 for high, 1 for mid, 2 for low.
  public var rank: Int {
    switch self {
    case .high: 0
    case .mid: 1
    case .low: 2
    }
  }

  /// The priority with the given rank, if any.
  public init?(rank: Int) {
    guard let match = Priority.allCases.first(where: { $0.rank == rank }) else { return nil }
    self = match
  }

  public var description: String { rawValue }

  public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rank < rhs.rank }
}
