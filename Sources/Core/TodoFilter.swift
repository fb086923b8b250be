import Foundation

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

  /// The search key of `text`: lowercased as ``title(_:contains:)`` lowercases, then in Unicode
  /// canonical decomposition (NFD), so composed and decomposed Hangul (and accents) are the same
  /// bytes. Stored beside each title at write time (`todo.titleFold`), so that SQLite can find
  /// the candidates with `instr` and leave the rule to the few it finds
  /// (docs/decisions/search.md). Whenever the rule matches, the fold of the needle occurs in
  /// the fold of the title; when both folds are ASCII without a carriage return, the converse
  /// holds too.
  public static func fold(_ text: String) -> String {
    let lowered = text.lowercased()
    // ASCII is its own decomposition.
    if !lowered.containsUTF8(where: { $0 >= 0x80 }) { return lowered }
    return lowered.decomposedStringWithCanonicalMapping
  }

  /// Whether `title` passes this filter's text.
  public func matches(title: String) -> Bool {
    text.map { Self.title(title, contains: $0) } ?? true
  }
}
