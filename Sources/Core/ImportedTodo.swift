import Foundation

/// A todo read from another tracker, ready to be created or to update the todo of the same
/// uuid: what an import plans, before storage compares it with what is there.
public struct ImportedTodo: Hashable, Sendable {
  /// The stable identity: the Taskwarrior uuid (lowercased), or a name-based uuid of the
  /// todo.txt line. A second import of the same item finds the todo by it.
  public var uuid: String
  /// The validated title.
  public var title: String
  /// Its priority.
  public var priority: Priority
  /// The day it is planned for; nil when the source plans it on no day (an open todo.txt line
  /// without `due:`, a pending Taskwarrior task without `scheduled` or `due`): a new todo then
  /// goes to the backlog.
  public var day: Day?
  /// Whether `day` is not a planned day but missing or guessed (no `due:`; a deleted task's
  /// `end`): an update then keeps the day the todo already has (a backlog todo stays in the
  /// backlog, a todo the user planned keeps its day), so a later import changes nothing.
  public var dayIsDefault: Bool
  /// Whether it is done.
  public var isDone: Bool
  /// Whether it was given up (a Taskwarrior `deleted` task, a todo.txt `dropped:yes` line).
  public var isDropped: Bool
  /// When it was done (nil when done at an unknown time: the import's time is used).
  public var doneAt: Date?
  /// The end of the span `doneAt` stands for, when the file has no finer time: a Taskwarrior
  /// `end` is to the second, a todo.txt completion date to the day. A todo done within
  /// `doneAt..<doneAtEnd` keeps its own time (see ``agreesOnDoneTime(_:)``); nil: exactly `doneAt`.
  public var doneAtEnd: Date?
  /// The day `doneAt` falls on in the user's time zone (a todo.txt completion date), for
  /// ``keepDoneDay(today:now:)``; nil when not done or done at an unknown time.
  public var doneDay: Day?
  /// The project's name, created when missing.
  public var project: String?
  /// The name of the block the todo was made from (created when missing), or nil when the file
  /// names none: an update then keeps the todo's block (a format that carries none, an export
  /// older than the field).
  public var block: String?
  /// When it was created (nil: the import's time).
  public var createdAt: Date?
  /// The notes the source had (and what it had that no field can hold), or nil.
  public var notes: String?
  /// Whether ``notes`` replace the todo's on an update even when nil: false for a format that
  /// cannot carry notes (todo.txt), whose line then keeps the todo's notes.
  public var replacesNotes: Bool
  /// Its annotations, or nil when the format carries none (an update keeps the todo's).
  public var annotations: [Annotation]?
  /// Its attributes (see ``Attributes``): an update replaces those the format carries
  /// (``attributeCarrier``) and keeps the others.
  public var attributes: [String: String]
  /// What the format can carry of a todo's attributes.
  public var attributeCarrier: AttributeCarrier
  /// Its tags (see ``Tag``), lowercased, sorted and without repeats. An update replaces the
  /// todo's tags with these, as it replaces the notes.
  public var tags: [String]
  /// The number the todo had where it was exported (ootd's own export: `ootdid`), kept by a new
  /// todo when no todo of the database has or had it; nil when the file gives none.
  public var number: Int64?
  /// The days it was carried from (ootd's own export: `ootdcarriedfrom`), or nil when the file
  /// gives none (an update keeps the todo's).
  public var carriedFrom: [Day]?
  /// What ticked it (ootd's own export: `ootddoneby`), a done todo's only; nil when the file gives
  /// none (an update keeps the todo's).
  public var doneBy: DoneBy?

  /// Creates an imported todo, validating its day (in the calendar), title, project name, tags,
  /// annotations and attributes (keys, and every cap of ``Caps``).
  public init(
    uuid: String, title: String, priority: Priority, day: Day?, dayIsDefault: Bool = false,
    isDone: Bool = false, isDropped: Bool = false, doneAt: Date? = nil, doneAtEnd: Date? = nil, doneDay: Day? = nil,
    project: String? = nil, block: String? = nil, createdAt: Date? = nil, notes: String? = nil, replacesNotes: Bool = true,
    tags: [String] = [], annotations: [Annotation]? = nil, attributes: [String: String] = [:],
    attributeCarrier: AttributeCarrier = AttributeCarrier(reserved: [], wordsOnly: false),
    number: Int64? = nil, carriedFrom: [Day]? = nil, doneBy: DoneBy? = nil
  ) throws(CoreError) {
    self.number = number.flatMap { $0 > 0 ? $0 : nil }
    self.carriedFrom = carriedFrom.map { Array(Set($0)).sorted() }
    self.doneBy = isDone ? doneBy : nil
    self.uuid = uuid
    self.title = try Title.validate(title)
    self.priority = priority
    // A day from an instant (epoch seconds far from now) may be one no `YYYY-MM-DD` can hold.
    if let day, !day.isInCalendar { throw .dayOutsideCalendar(day) }
    self.day = day
    self.dayIsDefault = dayIsDefault
    self.isDone = isDone
    self.isDropped = isDropped
    self.doneAt = doneAt
    self.doneAtEnd = doneAtEnd
    self.doneDay = isDone ? doneDay : nil
    self.project = try project.map { name throws(CoreError) in try Name.validate(name, kind: "project") }
    self.block = try block.map { name throws(CoreError) in try Name.validate(name, kind: "block") }
    self.createdAt = createdAt
    try Caps.checkNotes(notes)
    self.notes = notes.map(StoredText.replacingNUL)
    self.replacesNotes = replacesNotes
    self.annotations = annotations
    for key in attributes.keys where !Attributes.isKey(Substring(key)) {
      throw .invalidName(kind: "attribute", name: TerminalText.printable(String(key.prefix(Attributes.keyCharacters))))
    }
    var kept: [String: String] = [:]
    for (key, value) in attributes.sorted(by: { $0.key < $1.key }) {
      _ = Attributes.add(key, StoredText.replacingNUL(value), to: &kept)
    }
    self.attributes = kept
    self.attributeCarrier = attributeCarrier
    try Caps.checkImported(annotations: annotations ?? [], attributes: self.attributes)
    var valid: [String] = []
    for tag in tags { valid.append(try Tag.validate(tag)) }
    self.tags = Tag.normalized(valid)
    try Caps.checkTags(self.tags)
  }

  /// Mends a done todo whose file says it was done in the future, or before the day it was
  /// planned for, as the commands would have left it (``TodoRule/doneAfterToday``: work of a
  /// later day done today is done today; `ootd done` sets now and moves such a todo to today):
  /// done after today, it is done now (``doneAt`` nil: the import's time), on today; done on
  /// an earlier day than its own, or in the backlog, it moves to the day it was done. The day
  /// is the todo's own (`stored`, nil in the backlog) when the file's is only a default and the
  /// todo exists (`stored` given). Returns a sentence per fix, about the subject it is given
  /// (`'Write the report'`); none when the todo keeps the rule. A day after today that is also
  /// the day it was done (today) is ``TodoRules``' to mend.
  public mutating func keepDoneDay(today: Day, now: Date, stored: Day?? = nil) -> [(String) -> String] {
    guard isDone, var done = doneDay else { return [] }
    var fixes: [(String) -> String] = []
    if let doneAt, doneAt > now {
      // A time later today is only clamped: the day it was done is still today.
      if done > today {
        // Done today, so not on a later day either: moved to today, said in the rule's words
        // (``TodoRules/resolve(_:today:latest:)``), here, where the done time is known to be
        // wrong (the rules after the import judge a day by the latest today anywhere).
        if let planned = day, planned > today {
          let (_, moved) = TodoRules.resolve(TodoRuleState(day: planned, isDone: true), today: today)
          fixes += moved.map { fix in { subject in fix.sentence(subject) } }
          day = today
          dayIsDefault = false
        }
        fixes.append { [done] subject in "\(subject) was done on \(done), a day after today: it is done today (\(today))" }
        done = today
        doneDay = today
      }
      self.doneAt = nil
      doneAtEnd = nil
    }
    let planned = dayIsDefault ? stored ?? day : day
    if TodoRules.doneWorkDay(planned: planned, done: done, today: today) != nil, done < today {
      let place = planned.map { "planned for \($0), a later day" } ?? "in the backlog"
      fixes.append { [done] subject in
        "\(subject) was done on \(done) but \(place): it stays done, moved to the day it was done (\(done))"
      }
      day = done
      dayIsDefault = false
    }
    return fixes
  }

  /// Whether a todo done at `stored` is done when the file says: at ``doneAt``, or within
  /// ``doneAt``..<``doneAtEnd`` when the file's time is coarser than ootd's (Taskwarrior keeps
  /// whole seconds, todo.txt days). Such a todo keeps its own time: a round trip changes nothing.
  public func agreesOnDoneTime(_ stored: Date?) -> Bool {
    guard let doneAt, let stored else { return doneAt == nil }
    return stored == doneAt || (doneAt <= stored && stored < (doneAtEnd ?? doneAt))
  }
}

/// Everything an import file holds: the todos to bring in and what was left out, and why.
public struct ImportPlan: Hashable, Sendable {
  /// The todos, in file order, at most one per uuid.
  public var todos: [ImportedTodo]
  /// How many items were left out, by reason (e.g. "deleted task": 3).
  public var skipped: [String: Int]
  /// How many items named the uuid of an earlier one, by outcome (``RepeatedUUID``).
  public var repeated: [String: Int] = [:]

  /// Creates a plan.
  public init(todos: [ImportedTodo] = [], skipped: [String: Int] = [:]) {
    self.todos = todos
    self.skipped = skipped
  }

  /// How many items were left out in all.
  public var skippedCount: Int { skipped.values.reduce(0, +) }

  /// Counts one item left out for `reason`.
  public mutating func skip(_ reason: String) { skipped[reason, default: 0] += 1 }
}

/// Where a reader of an import file hands the todos as it reads them: a whole ``ImportPlan``,
/// or storage applying them a batch at a time (so that a file of any length is imported in the
/// memory of a batch).
public protocol ImportSink {
  /// The next todo of the file. A reader may hand a uuid again (a Taskwarrior export that repeats
  /// one, read as it arrives): the later todo replaces the earlier in its place (storage's
  /// `ImportWriter` does so, and `Taskwarrior.plan` for a whole plan; a plain ``ImportPlan``
  /// appends it).
  mutating func add(_ todo: ImportedTodo) throws
  /// Counts one item left out for `reason`.
  mutating func skip(_ reason: String)
  /// Counts one item that named the uuid of an earlier item of the file, imported as `outcome`
  /// says (``RepeatedUUID``).
  mutating func repeated(_ outcome: String)
}

/// What became of an item of a file that named the uuid of an earlier one (an import says how
/// many, never merges them without a word).
public enum RepeatedUUID {
  /// A Taskwarrior task (or any item read by uuid) after another of that uuid, case aside: the
  /// later one's fields are the todo's, in the first one's place.
  public static let laterKept = "an item named the uuid of an earlier one (case aside): the later one kept"
  /// A todo.txt line whose `ootd:UUID` an earlier line had: a todo of its own, by its text.
  public static let ownTodo = "a line had the ootd:UUID of an earlier one: imported as a todo of its own"
}

extension ImportSink {
  /// Not counted.
  public mutating func repeated(_ outcome: String) {}
}

extension ImportPlan: ImportSink {
  /// Appends the todo.
  public mutating func add(_ todo: ImportedTodo) { todos.append(todo) }

  /// Counts it.
  public mutating func repeated(_ outcome: String) { repeated[outcome, default: 0] += 1 }
}
