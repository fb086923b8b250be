/// A value that breaks one of ootd's domain rules. Each case reads as one line for the user.
public enum CoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A date that is not `YYYY-MM-DD` or does not exist (e.g. `2024-02-30`).
  case invalidDate(String)
  /// A day computed from an instant (an import's epoch seconds) outside ``Day/years``.
  case dayOutsideCalendar(Day)
  /// A range whose end is before its start.
  case invertedRange(from: Day, to: Day)
  /// A priority other than high, mid or low.
  case invalidPriority(String)
  /// A title that is empty or only white space; `kind` names what it titles (todo, block).
  case emptyTitle(kind: String)
  /// A title longer than the limit.
  case titleTooLong(limit: Int)
  /// A block or project name that is not a short identifier.
  case invalidName(kind: String, name: String)
  /// A repository that is not `owner/name`.
  case invalidRepository(String)
  /// A project whose end date is before its start date.
  case projectEndsBeforeStart(start: Day, end: Day)
  /// A report range of fewer than one day or more days than the limit.
  case invalidRangeLength(Int, limit: Int)
  /// A move that would rewrite history: see ``CarryRecord/checkMove(_:to:today:)``.
  case refusedMove(String)
  /// A tag that is not a short word (see ``Tag/validate(_:)``).
  case invalidTag(String)
  /// A routine's days that are not weekdays or `Nd`/`Nw` (see ``Recurrence``).
  case invalidRecurrence(String)
  /// A record from the sync server that this ootd cannot read.
  case invalidSyncRecord(String)
  /// A value over one of the size caps (see ``Caps``), in words.
  case overCap(String)
  /// A word given as a todo id that is neither a number nor a uuid prefix (``TodoReference``).
  case invalidTodoReference(String)
  /// A change that both adds and takes away the same tag (``TodoChanges``).
  case tagAddedAndRemoved(String)

  public var description: String {
    switch self {
    case .invalidDate(let text):
      return "invalid date '\(text)': use YYYY-MM-DD (a real calendar day), today, tomorrow, yesterday, a weekday (mon), +3d, +1w, eow or eom"
    case .dayOutsideCalendar(let day):
      return "day \(day) is outside the calendar (years \(Day.years.lowerBound) to \(Day.years.upperBound))"
    case .invertedRange(let from, let to):
      return "invalid range: --from \(from) is after --to \(to)"
    case .invalidPriority(let text):
      return "invalid priority '\(text)': use high, mid or low"
    case .emptyTitle(let kind):
      return "the title is empty: give the \(kind) some words"
    case .titleTooLong(let limit):
      return "the title is longer than \(limit) characters"
    case .invalidName(let kind, let name):
      return "invalid \(kind) name '\(name)': use 1-\(Caps.nameCharacters) letters, digits, '-', '_' or '.', starting with a letter or digit"
    case .invalidRepository(let text):
      return "invalid repository '\(text)': use OWNER/NAME, e.g. apple/swift"
    case .projectEndsBeforeStart(let start, let end):
      return "the project ends (\(end)) before it starts (\(start))"
    case .refusedMove(let reason):
      return reason
    case .invalidTag(let text):
      return "invalid tag '\(text)': use 1-\(Caps.tagCharacters) letters, digits, '-', '_' or '.', starting with a letter"
    case .invalidRecurrence(let text):
      return text
    case .overCap(let why):
      return why
    case .invalidTodoReference(let text):
      return "invalid todo id '\(text)': \(TodoReference.expected)"
    case .tagAddedAndRemoved(let tag):
      return "--tag and --untag both name '\(tag)': a change either adds a tag or takes it away"
    case .invalidSyncRecord(let why):
      return "a record on the sync server is not one this ootd can read (\(why))"
    case .invalidRangeLength(let days, let limit):
      return days < 1
        ? "invalid range: it must cover at least 1 day"
        : "invalid range: \(days) days is longer than the limit of \(limit) days"
    }
  }
}
