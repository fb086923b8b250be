import Foundation

/// One entry of the change journal: one command that changed data, or an undo or redo of one.
public struct JournalEntry: Hashable, Sendable {
  /// What kind of entry this is.
  public enum Kind: String, Sendable {
    /// A command that changed data (`add`, `done`, `project rm`, …).
    case change
    /// `ootd undo`: the inverse of an earlier change.
    case undo
    /// `ootd redo`: an undone change applied again.
    case redo
  }

  /// The entry's number, increasing.
  public var id: Int64
  /// When it was made.
  public var at: Date
  /// The command line without the program name and global options (`done 12 13`).
  public var command: String
  /// One line saying what changed.
  public var summary: String
  /// Whether the change is currently undone (always false for undo and redo entries).
  public var isUndone: Bool
  /// What kind of entry this is.
  public var kind: Kind
  /// For undo and redo entries: the change they acted on.
  public var target: Int64?
  /// For a change made on another machine and pulled by `remote sync`: that machine's device
  /// id; nil for a change made here.
  public var fromDevice: String?
  /// That machine's name (``DeviceName``), as its records last said; nil for a change made
  /// here, or when its records carry no name (an older ootd).
  public var fromDeviceName: String?
  /// For a change pulled from another machine, when it was made there (its hybrid clock), where
  /// the entry was read with it (a todo's history); nil otherwise.
  public var madeAt: Date?

  /// Creates an entry value.
  public init(
    id: Int64, at: Date, command: String, summary: String, isUndone: Bool, kind: Kind = .change,
    target: Int64? = nil, fromDevice: String? = nil, fromDeviceName: String? = nil
  ) {
    self.fromDeviceName = fromDeviceName
    self.id = id
    self.at = at
    self.command = command
    self.summary = summary
    self.isUndone = isUndone
    self.kind = kind
    self.target = target
    self.fromDevice = fromDevice
  }
}

/// What `undo` or `redo` did: the change it acted on (as it is now) and the words for it.
public struct JournalStep: Hashable, Sendable {
  /// The change undone or redone.
  public var entry: JournalEntry
  /// What undoing or redoing it did, in words (`2 todos open again ('a', 'b')`).
  public var effect: String
  /// A line more, when undo passed over what a sync settled to reach the change
  /// (``ChangeSummary/passedOver(_:)``).
  public var note: String?
  /// What the step left as another device made it (the first ``LeftRow`` of each row, up to a
  /// hundred), newest change's last; ``leftCount`` counts them all.
  public var left: [LeftRow] = []
  /// How many rows the step left as another device made them.
  public var leftCount = 0
  /// The changes of this machine undo passed over to reach ``entry``, newest first: another
  /// device had changed since all they changed, so nothing of them was left to undo (each counts
  /// as undone, with an undo entry of its own).
  public var passedOver: [JournalEntry] = []

  /// The lines that say what the step left and passed over: `Passed over 'edit 1 --title B'
  /// (change 2): nothing left to undo`, then ``LeftRow/lines(_:count:)``.
  public var leftLines: [String] {
    passedOver.map { "Passed over '\($0.command)' (change \($0.id)): \(ChangeSummary.nothingLeft("undo"))" }
      + LeftRow.lines(left, count: leftCount)
  }

  /// Creates a step.
  public init(entry: JournalEntry, effect: String) {
    self.entry = entry
    self.effect = effect
  }
}
