/// Which todos a list asks for. Every field narrows the result.
public struct TodoFilter: Hashable, Sendable {
  /// Which days: one range, or every day.
  public enum Days: Hashable, Sendable {
    /// Every day.
    case all
    /// The days of a range, inclusive.
    case range(DayRange)
    /// No day: the backlog (``Todo/isInBacklog``).
    case backlog
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
  /// Only todos whose title contains this text, ignoring case (see ``TodoFilter/matches(title:)``).
  public var text: String?
  /// Only todos with this tag (lowercased, see ``Tag``).
  public var tag: String?

  /// Creates a filter.
  public init(
    days: Days, project: String? = nil, priority: Priority? = nil, status: Status = .any,
    text: String? = nil, tag: String? = nil
  ) {
    self.text = text
    self.tag = tag
    self.days = days
    self.project = project
    self.priority = priority
    self.status = status
  }
}

extension TodoFilter {
  /// The one search rule: `needle` occurs in `title` when both are lowercased (any script:
  /// Latin, Greek, Cyrillic; Korean and emoji have no case and match as written), compared
  /// character by character, so composed and decomposed Hangul match each other. An empty
  /// needle matches every title.
  public static func title(_ title: String, contains needle: String) -> Bool {
    needle.isEmpty || title.lowercased().contains(needle.lowercased())
  }

  /// Whether `title` passes this filter's text.
  public func matches(title: String) -> Bool {
    text.map { Self.title(title, contains: $0) } ?? true
  }
}
