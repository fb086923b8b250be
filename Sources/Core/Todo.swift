import Foundation

/// One planned piece of work on one day, or in the backlog (no day yet).
public struct Todo: Hashable, Sendable, Identifiable {
  /// The stable id users type (`ootd done 12`).
  public var id: Int64
  /// What to do, trimmed, never blank.
  public var title: String
  /// How much it matters.
  public var priority: Priority
  /// The day it is planned for, or nil while it waits in the backlog (``isInBacklog``).
  public var day: Day?
  /// Whether it has been done.
  public var isDone: Bool
  /// When it was ticked, if done.
  public var doneAt: Date?
  /// The project it belongs to, by name.
  public var project: String?
  /// The task block it came from, by name.
  public var block: String?
  /// When it was created.
  public var createdAt: Date
  /// Its stable identity (a lowercase uuid): assigned once, never changed by an edit.
  public var uuid: String
  /// Whether it was given up (`ootd drop`): no longer overdue, still not done on its day.
  public var isDropped: Bool = false
  /// The days that had already begun when it was moved away from them, oldest first: each
  /// still counts it as planned and not done (see ``CarryRecord``).
  public var carriedFrom: [Day] = []
  /// Free text kept with the todo: the user's, or what an import could not map to another field
  /// (tags, projects and contexts that are no ootd tags, a value no field can hold).
  public var notes: String? = nil
  /// The GitHub issue or pull request it stands for (`ootd github issues`), or nil.
  public var github: GitHubLink? = nil
  /// What ticked it, when done and known (nil when open, or ticked before ootd recorded it).
  public var doneBy: DoneBy? = nil
  /// Its tags, lowercased and sorted (see ``Tag``).
  public var tags: [String] = []
  /// Its annotations (Taskwarrior's dated remarks), in order.
  public var annotations: [Annotation] = []
  /// What another tracker held that no field holds: Taskwarrior's user-defined attributes and
  /// unknown fields, todo.txt's `key:value`s (see ``Attributes``); export writes them back.
  public var attributes: [String: String] = [:]

  /// Creates a todo value; storage assigns ids, so this is for mapping rows and for tests.
  public init(
    id: Int64, title: String, priority: Priority, day: Day?, isDone: Bool = false,
    doneAt: Date? = nil, project: String? = nil, block: String? = nil, createdAt: Date,
    uuid: String = ""
  ) {
    self.id = id
    self.title = title
    self.priority = priority
    self.day = day
    self.isDone = isDone
    self.doneAt = doneAt
    self.project = project
    self.block = block
    self.createdAt = createdAt
    self.uuid = uuid
  }

  /// Whether the todo waits in the backlog: it has no day yet, counts in no day's figures and
  /// is never overdue.
  public var isInBacklog: Bool { day == nil }

  /// Whether the todo is still open (and not dropped) on a day before `today`; a backlog todo
  /// never is.
  public func isOverdue(today: Day) -> Bool {
    guard let day else { return false }
    return !isDone && !isDropped && day < today
  }

  /// Whether the todo is planned on a day before `today` (done, open or dropped); a backlog
  /// todo never is.
  public func isPlanned(before today: Day) -> Bool { day.map { $0 < today } ?? false }

  /// The order every list uses: the backlog first (as storage's index orders a missing day),
  /// then day, then priority high → mid → low, then id.
  public static func listOrder(_ lhs: Todo, _ rhs: Todo) -> Bool {
    if lhs.day != rhs.day {
      guard let left = lhs.day else { return true }
      guard let right = rhs.day else { return false }
      return left < right
    }
    return (lhs.priority.rank, lhs.id) < (rhs.priority.rank, rhs.id)
  }

  /// The backlog's order (`ootd backlog`): priority high → mid → low, then the oldest first.
  public static func backlogOrder(_ lhs: Todo, _ rhs: Todo) -> Bool {
    (lhs.priority.rank, lhs.createdAt, lhs.id) < (rhs.priority.rank, rhs.createdAt, rhs.id)
  }
}

/// A todo about to be created: validated, without an id yet.
public struct NewTodo: Hashable, Sendable {
  /// The validated title.
  public let title: String
  /// Its priority.
  public let priority: Priority
  /// The day it is planned for, or nil for the backlog.
  public let day: Day?
  /// The project name it links to, if any (storage checks the project exists).
  public let project: String?
  /// The block it came from, if any.
  public let block: String?
  /// Its notes, if any.
  public var notes: String? = nil
  /// Its tags (see ``Tag``), sorted and without repeats.
  public var tags: [String] = []

  /// Validates the title (see `Title.validate`) and builds the draft.
  public init(
    title: String, priority: Priority, day: Day?, project: String? = nil, block: String? = nil
  ) throws(CoreError) {
    self.title = try Title.validate(title)
    self.priority = priority
    self.day = day
    self.project = project
    self.block = block
  }
}

/// The fields `ootd edit` may change; nil leaves a field as it is.
public struct TodoChanges: Hashable, Sendable {
  /// A new title.
  public var title: String?
  /// A new priority.
  public var priority: Priority?
  /// A new place: a day, or the backlog.
  public var day: Placement?
  /// A new project: `.some(nil)` unlinks the todo from its project.
  public var project: String??
  /// New notes: `.some(nil)` clears them.
  public var notes: String??
  /// Tags to add.
  public var addTags: [String]
  /// Tags to take away.
  public var removeTags: [String]

  /// Creates a change set, validating a new title and the tags; empty notes clear them. A tag
  /// both added and taken away is refused (``CoreError/tagAddedAndRemoved(_:)``).
  public init(
    title: String? = nil, priority: Priority? = nil, day: Placement? = nil, project: String?? = nil,
    notes: String?? = nil, addTags: [String] = [], removeTags: [String] = []
  ) throws(CoreError) {
    self.title = try title.map { text throws(CoreError) in try Title.validate(text) }
    self.priority = priority
    self.day = day
    self.project = project
    if case .some(let notes) = notes { try Caps.checkNotes(notes) }
    self.notes = notes.map { $0.flatMap(Notes.cleaned) }
    var added: [String] = []
    for tag in addTags { added.append(try Tag.validate(tag)) }
    var removed: [String] = []
    for tag in removeTags { removed.append(try Tag.validate(tag)) }
    self.addTags = Tag.normalized(added)
    self.removeTags = Tag.normalized(removed)
    // A tag both added and taken away has no answer: refused, not decided by the order of rules.
    if let both = self.addTags.first(where: self.removeTags.contains) { throw .tagAddedAndRemoved(both) }
  }

  /// Whether nothing would change.
  public var isEmpty: Bool {
    title == nil && priority == nil && day == nil && project == nil && notes == nil
      && addTags.isEmpty && removeTags.isEmpty
  }

  /// The tags of a todo that has `tags` after this change (no tag is both added and removed).
  public func tags(after tags: [String]) -> [String] {
    Tag.normalized(Set(tags).subtracting(removeTags).union(addTags))
  }
}

/// The rule for a todo's notes: free text, trimmed at both ends; blank notes are no notes.
public enum Notes {
  /// `text` trimmed, or nil when it is blank.
  public static func cleaned(_ text: String) -> String? {
    let trimmed = trimmingWhiteSpace(text)
    return trimmed.isEmpty ? nil : trimmed
  }

  /// `line` added as a new line under `notes` (`ootd note`).
  public static func appending(_ line: String, to notes: String?) -> String? {
    guard let line = cleaned(line) else { return notes }
    guard let notes, !notes.isEmpty else { return line }
    return notes + "\n" + line
  }
}

/// The rule for todo and block titles.
/// Text as SQLite keeps it whole.
public enum StoredText {
  /// `text` with each NUL replaced by U+FFFD. A NUL ends C strings: SQLite reads text back up to
  /// it, so the rest would be lost (and a re-import would find the title changed every time).
  /// Git allows NUL in names and messages and GitHub passes it on as `\u0000`; a Taskwarrior
  /// export or a todo.txt line may hold one too.
  public static func replacingNUL(_ text: String) -> String {
    guard text.utf8.contains(0) else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : $0 }))
  }
}

public enum Title {
  /// The longest title accepted, in characters.
  public static let maximumLength = Caps.titleCharacters

  /// Trims surrounding white space and rejects blank or over-long titles. Inner text (quotes,
  /// SQL-looking text, emoji, any script) is kept exactly. `kind` names what the title is of
  /// (a todo's, a block's) in the error.
  public static func validate(_ text: String, kind: String = "todo") throws(CoreError) -> String {
    let trimmed = trimmingWhiteSpace(StoredText.replacingNUL(text))
    guard !trimmed.isEmpty else { throw .emptyTitle(kind: kind) }
    // The UTF-8 length first: no more characters than bytes (a grapheme count walks the text).
    guard trimmed.utf8.count <= maximumLength || trimmed.count <= maximumLength else {
      throw .titleTooLong(limit: maximumLength)
    }
    return trimmed
  }
}

/// `text` without white space or newlines at either end (Unicode's White_Space, the set
/// Foundation's `.whitespacesAndNewlines` holds), without `CharacterSet`: trimming through
/// Foundation costs 0.85 M instructions, a twentieth of an `ootd add`.
public func trimmingWhiteSpace(_ text: String) -> String {
  // Foundation's set also holds U+200B ZERO WIDTH SPACE (CoreFoundation's historic choice).
  // (ASCII's white space is tab to carriage return and the space.)
  func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x80
      ? scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value)
      : scalar.properties.isWhitespace || scalar.value == 0x200B
  }
  let scalars = text.unicodeScalars
  guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
  let last = scalars.lastIndex(where: { !isSpace($0) })!
  // Nothing to trim (most text): the text itself, not a copy.
  if first == scalars.startIndex, scalars.index(after: last) == scalars.endIndex { return text }
  return String(scalars[first...last])
}

/// The rule for block and project names: short, typeable identifiers.
public enum Name {
  /// Validates a block or project name: 1–40 characters of letters, digits, `-`, `_`, `.`,
  /// starting with a letter or digit. Letters may be any script (a Korean project name is fine).
  public static func validate(_ text: String, kind: String) throws(CoreError) -> String {
    // An ASCII scalar is alphabetic when it is a letter: decided without Unicode's tables.
    func isAlphabetic(_ scalar: Unicode.Scalar) -> Bool {
      scalar.value < 0x80
        ? (0x41...0x5A).contains(scalar.value) || (0x61...0x7A).contains(scalar.value)
        : scalar.properties.isAlphabetic
    }
    guard let first = text.unicodeScalars.first,
      isAlphabetic(first) || ("0"..."9").contains(first),
      text.utf8.count <= Caps.nameCharacters || text.count <= Caps.nameCharacters,
      text.unicodeScalars.allSatisfy({
        isAlphabetic($0) || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)
      })
    else { throw .invalidName(kind: kind, name: text) }
    return text
  }
}

/// Where a todo goes: onto a day, or into the backlog (no day yet, ``Todo/isInBacklog``).
public enum Placement: Hashable, Sendable {
  case day(Day)
  case backlog

  /// The word that names the backlog wherever a day is asked (`--on someday`).
  public static let backlogWord = "someday"

  /// Whether a day argument names the backlog (``backlogWord``, in any case).
  public static func namesBacklog(_ text: String) -> Bool { text.lowercased() == backlogWord }

  /// The day, or nil for the backlog.
  public var day: Day? {
    if case .day(let day) = self { return day }
    return nil
  }

  /// The place of a todo planned on `day` (nil: the backlog).
  public init(_ day: Day?) { self = day.map(Placement.day) ?? .backlog }
}
