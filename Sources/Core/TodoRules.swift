import Foundation

/// The rules every todo keeps, whichever path wrote it: a command, undo or redo, a sync merge,
/// an import, `github issues`, a routine or a commit tick.
///
/// Commands refuse what would break a rule (``CarryRecord/checkMove(_:to:today:)``,
/// ``CarryRecord/dropRefusal(_:)``). A path that cannot refuse, because the change was already
/// made elsewhere (a merge of another machine's edits, a file being imported), resolves by
/// ``TodoRules/resolve(_:today:)``: a fixed rule, so that two machines resolving the same merge
/// come to the same todo, and reports each resolution as a sentence.
///
/// The fixed resolution, in order:
/// 1. *Dropped and done*: done wins, the todo is no longer dropped (the work was done; dropping
///    only gives up open work).
/// 2. *Done on a day after today*: the todo stays done and moves to today, the latest day work
///    can be done on (the day closest to the one it was planned for). Today's record counts it
///    once, as planned and done (a day it was carried from before is kept, as any move keeps it).
/// 3. *Done in the backlog*: done work was done on a day, so the todo stays done and moves to
///    today, as in 2.
/// 4. *Dropped and moved*: a drop on one machine met a move of the same todo made on another
///    without seeing it (only a merge can tell: ``TodoRules/movedUnseen(_:by:isPending:)``). The
///    move wins and the todo is no longer dropped, as done wins in 1: a drop gives up open work
///    where it lies, and the move took the work on elsewhere. The day it was moved from keeps
///    its record (planned and not done: a carried day, as any move keeps it), and the todo is
///    open on its new day, where it can be dropped again. The drop winning instead would take
///    the todo back to a day the moving machine may not know (a move from a day not begun
///    records none).
///
/// "After today" is this machine's today for its own changes (commands, undo and redo). For a
/// change made elsewhere (a sync merge, an imported file, a CalDAV client's) it is the latest day
/// that is today somewhere on Earth (``TodoRules/latestDay(at:)``, UTC+14): a machine whose date
/// is behind (UTC while Auckland is a day ahead) does not move work done on the other's today,
/// and an export of such a todo imports back unchanged.
///
/// `ootd done` of a todo of a later day uses the same rule: doing tomorrow's work today moves it
/// to today, done; so does `ootd done` of a backlog todo.
public enum TodoRule: String, CaseIterable, Hashable, Sendable {
  /// A done todo is never on a day after today: work cannot be done in the future.
  case doneAfterToday = "done-after-today"
  /// A dropped todo is not done: dropping gives up open work.
  case droppedAndDone = "dropped-and-done"
  /// A done todo has a day: done work is never in the backlog.
  case doneInBacklog = "done-in-backlog"
  /// A drop never stands over a move of the todo made on another machine without seeing it.
  case droppedAndMoved = "dropped-and-moved"

  /// Why a change that would leave `state` breaking this rule is refused, about `subject`
  /// (e.g. `todo 12 'Write the report'`).
  public func breach(_ subject: String, _ state: TodoRuleState) -> String {
    switch self {
    case .doneAfterToday: "\(subject) would be done on \(state.dayText), a day after today"
    case .droppedAndDone: "\(subject) would be both dropped and done"
    case .doneInBacklog: "\(subject) would be done in the backlog, without a day"
    case .droppedAndMoved: "\(subject) would be dropped while moved to \(state.dayText)"
    }
  }
}

/// What the rules look at in a todo: its day (nil in the backlog), whether done, whether
/// dropped, and the days it was carried from (a move keeps them, see ``CarryRecord``).
public struct TodoRuleState: Hashable, Sendable {
  public var day: Day?
  public var isDone: Bool
  public var isDropped: Bool
  public var carriedFrom: [Day]
  /// Whether a merge met a drop and a move of the todo made on two machines, each without
  /// seeing the other (``TodoRules/movedUnseen(_:by:isPending:)``). Known only to the merge: not
  /// a stored field.
  public var movedUnseen: Bool

  /// Creates a state.
  public init(
    day: Day?, isDone: Bool, isDropped: Bool = false, carriedFrom: [Day] = [], movedUnseen: Bool = false
  ) {
    self.day = day
    self.isDone = isDone
    self.isDropped = isDropped
    self.carriedFrom = carriedFrom
    self.movedUnseen = movedUnseen
  }

  /// The state of `todo`.
  public init(_ todo: Todo) {
    self.init(day: todo.day, isDone: todo.isDone, isDropped: todo.isDropped, carriedFrom: todo.carriedFrom)
  }

  /// The state of a todo as the journal and sync hold it (`day`, `done`, `dropped`,
  /// `carriedFrom`), or nil without a readable day (`null` is the backlog, and readable).
  public init?(_ fields: Fields) {
    let day: Day?
    switch fields["day"] {
    case .null: day = nil
    case .text(let text):
      guard let parsed = Day(iso: text) else { return nil }
      day = parsed
    default: return nil
    }
    self.init(
      day: day, isDone: fields["done"] == .bool(true), isDropped: fields["dropped"] == .bool(true),
      carriedFrom: CarryRecord.days(fields["carriedFrom"]?.text))
  }

  /// The day in words: the date, or `the backlog`.
  public var dayText: String { day?.description ?? "the backlog" }

  /// The fields that hold this state, as the journal writes them.
  public var fields: Fields {
    [
      "day": .optional(day?.description), "done": .bool(isDone), "dropped": .bool(isDropped),
      "carriedFrom": .optional(CarryRecord.text(carriedFrom)),
    ]
  }
}

/// One rule a todo broke and how ``TodoRules/resolve(_:today:)`` mended it.
public struct TodoRuleFix: Hashable, Sendable {
  /// The rule broken.
  public var rule: TodoRule
  /// The todo before and after the fix.
  public var before: TodoRuleState
  public var after: TodoRuleState

  /// Creates a fix.
  public init(rule: TodoRule, before: TodoRuleState, after: TodoRuleState) {
    self.rule = rule
    self.before = before
    self.after = after
  }

  /// The fix in words, about `subject` (e.g. `#12 'Write the report'`).
  public func sentence(_ subject: String) -> String {
    switch rule {
    case .doneAfterToday:
      return "\(subject) was done but planned for \(before.dayText), a day after today: it stays done, moved to today (\(after.dayText))"
    case .droppedAndDone:
      return "\(subject) was both dropped and done: it stays done and is no longer dropped"
    case .doneInBacklog:
      return "\(subject) was done but in the backlog: it stays done, moved to today (\(after.dayText))"
    case .droppedAndMoved:
      return "\(subject) was dropped on one machine and moved to \(after.dayText) on another: it stays on \(after.dayText), open, and is no longer dropped"
    }
  }
}

/// The checks and the fixed resolution of ``TodoRule``.
public enum TodoRules {
  /// The fields of a todo the rules look at: a change that sets none of them breaks none.
  public static let fields: Set<String> = ["day", "done", "dropped"]

  /// Whether a todo created with `fields` may break a rule, so must be checked: every rule
  /// needs it done, so one created not done (`done` 0) breaks none, and any other (done, or
  /// `done` not given) is checked. The one test for a creation: of a journal operation (undo,
  /// redo) and of a pulled todo (per row and in bulk).
  public static func mayBreak(creating fields: Fields) -> Bool {
    fields[todo: .done] != .integer(0)
  }

  /// The day a todo planned for `planned` (nil: the backlog) belongs on once done on `done`:
  /// the day it was done, when that is before its planned day or it had none (a past day's
  /// record is what was planned and done that day: done work counts where it was done), never
  /// after `today`; nil when it stays where it is. Where the time it was done is known (an
  /// import's file, a GitHub issue's closing, a CalDAV client's completion).
  public static func doneWorkDay(planned: Day?, done: Day, today: Day) -> Day? {
    guard planned.map({ $0 > done }) ?? true else { return nil }
    return min(done, today)
  }

  /// The latest day that is today somewhere on Earth at `now`: the day in UTC+14 (Kiribati's
  /// Line Islands, the zone furthest ahead). Work another machine did on its today was done on
  /// a day no later than this one, whatever this machine's zone.
  public static func latestDay(at now: Date) -> Day {
    Day(ordinal: Int(((now.timeIntervalSince1970 + 14 * 3600) / 86_400).rounded(.down)))
  }

  /// The last day done work may be on, judged on `today`: `today` itself, or for a change made
  /// on another machine (`latest`, ``latestDay(at:)``) that day when later.
  public static func lastDoneDay(today: Day, latest: Day?) -> Day {
    latest.map { max($0, today) } ?? today
  }

  /// The rules `state` breaks on `today`, in ``TodoRule`` order (empty when it keeps them all).
  /// `latest`: the state comes from a merge of another machine's changes, and a done todo is
  /// after today only after `latest` (``latestDay(at:)``), never after this machine's today
  /// alone; nil (this machine's own changes): after `today`.
  public static func broken(_ state: TodoRuleState, today: Day, latest: Day? = nil) -> [TodoRule] {
    let lastDone = lastDoneDay(today: today, latest: latest)
    return TodoRule.allCases.filter { rule in
      switch rule {
      case .doneAfterToday: state.isDone && state.day.map { $0 > lastDone } == true
      case .droppedAndDone: state.isDone && state.isDropped
      case .doneInBacklog: state.isDone && state.day == nil
      case .droppedAndMoved: state.movedUnseen && state.isDropped && !state.isDone
      }
    }
  }

  /// Whether `row`, as the merge of `operation` left it, holds a drop and a move (its day) made
  /// on two machines without seeing each other: the todo is dropped, and of its `dropped` and
  /// `day` one was set by `operation` (another machine's) and the other by a change of this
  /// machine not yet pushed (`isPending`, as ``SyncMerge/merge(_:into:isPending:firstSync:)``
  /// reads it). A machine that saw the drop could not have moved the todo (a dropped todo is not
  /// moved), nor a machine that saw the move have dropped it where it was.
  public static func movedUnseen(_ row: SyncRow, by operation: SyncOperation, isPending: (Stamp) -> Bool) -> Bool {
    guard operation.entity == .todo, case .update(let field, _) = operation.kind,
      field == TodoField.day.rawValue || field == TodoField.dropped.rawValue,
      let dropped = row.fields[TodoField.dropped.rawValue], dropped.value == .bool(true),
      row.fields[TodoField.done.rawValue]?.value != .bool(true),
      let day = row.fields[TodoField.day.rawValue]
    else { return false }
    return (day.stamp == operation.stamp && isPending(dropped.stamp))
      || (dropped.stamp == operation.stamp && isPending(day.stamp))
  }

  /// `state` mended by the fixed resolution (see ``TodoRule``), with one fix per rule it broke;
  /// `state` itself and no fixes when it keeps every rule. Pure and deterministic: the same
  /// state and day give the same result on every machine, and the result keeps every rule.
  /// `latest` as in ``broken(_:today:latest:)``; a mended todo still moves to `today`.
  public static func resolve(_ state: TodoRuleState, today: Day, latest: Day? = nil)
    -> (state: TodoRuleState, fixes: [TodoRuleFix])
  {
    var current = state
    var fixes: [TodoRuleFix] = []
    for rule in broken(state, today: today, latest: latest) {
      let before = current
      switch rule {
      case .droppedAndDone, .droppedAndMoved:
        current.isDropped = false
        current.movedUnseen = false
      case .doneAfterToday, .doneInBacklog:
        current.carriedFrom = CarryRecord.days(
          carriedFrom: current.carriedFrom, day: current.day, isDone: current.isDone, movesTo: today,
          today: today)
        current.day = today
      }
      fixes.append(TodoRuleFix(rule: rule, before: before, after: current))
    }
    current.movedUnseen = false
    return (current, fixes)
  }
}

/// A todo of a routine block on a day, as ``RoutineOnce`` looks at it.
public struct RoutineTodo: Hashable, Sendable {
  public var uuid: String
  /// Its number, as a sentence names it.
  public var number: Int64
  public var isDone: Bool

  /// Creates one.
  public init(uuid: String, number: Int64, isDone: Bool) {
    self.uuid = uuid
    self.number = number
    self.isDone = isDone
  }
}

/// The rule that a day holds a routine block's todo once (README: "The day's routine planned on
/// two machines appears once"; `plan` and `carry` refuse a second), kept after a merge: a
/// routine todo moved to a day on one machine (keeping its uuid, of the day it was planned for)
/// and the routine planned for that day on another (``RowID/routineTodo(block:day:)``) meet
/// there. Planning would not have made the day's todo on a day that already had one of the
/// block, so that one yields; the fixed resolution, the same on every machine:
/// - the day's planned todo is folded into the block's other todo there (the smallest uuid,
///   when several): that todo takes its done when only the planned one is done (done work stays
///   done), and the planned one is removed;
/// - a day without the planned todo among them (two todos moved there, or added with `--block`)
///   is left as it is: the commands allow it.
public enum RoutineOnce {
  /// The resolution of a day's todos of one routine block: `planned` the day's planned routine
  /// todo, when among them, and `others` the block's other todos there. Nil when nothing is
  /// doubled.
  public static func fold(planned: RoutineTodo?, others: [RoutineTodo])
    -> (kept: RoutineTodo, removed: RoutineTodo, takesDone: Bool)?
  {
    guard let planned, let kept = others.filter({ $0.uuid != planned.uuid }).min(by: { $0.uuid < $1.uuid })
    else { return nil }
    return (kept, planned, planned.isDone && !kept.isDone)
  }

  /// The resolution in words: the block's title, the day, which todo stays and which went.
  public static func sentence(
    title: String, day: Day, kept: RoutineTodo, removed: RoutineTodo, takesDone: Bool
  ) -> String {
    "\(RowSubject.of(.todo, number: removed.number, name: title)) was the routine planned for \(day) on one "
      + "machine, and #\(kept.number) was moved there on another: a day holds its routine once, so #\(kept.number) "
      + "stays" + (takesDone ? ", done," : "") + " and #\(removed.number) is removed"
  }
}
