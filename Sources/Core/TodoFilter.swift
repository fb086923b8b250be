/// Which todos a list asks for. Every field narrows the result.
public struct TodoFilter: Hashable, Sendable {
  /// Which days: one range, or every day.
  public enum Days: Hashable, Sendable {
    /// Every day.
    case all
    /// The days of a range, inclusive.
    case range(DayRange)
  }

  /// Done or open.
  public enum Status: String, Hashable, Sendable {
    /// Any status.
    case any
    /// Not done yet.
    case open
    /// Done.
    case done
  }

  /// The days to include.
  public var days: Days
  /// Only todos of this project.
  public var project: String?
  /// Only todos of this priority.
  public var priority: Priority?
  /// Only open or only done todos.
  public var status: Status

  /// Creates a filter.
  public init(
    days: Days, project: String? = nil, priority: Priority? = nil, status: Status = .any
  ) {
    self.days = days
    self.project = project
    self.priority = priority
    self.status = status
  }
}
