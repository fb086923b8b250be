/// A row an undo or redo left as another device (or a sync's own settling) made it, because that
/// change came later than the one undone and still stands there (issue 24, session 18). Each
/// machine undoes only its own changes: a field another machine set since keeps that machine's
/// value, the rest of the change is undone, and the step says so in one line a row (``line``).
public struct LeftRow: Hashable, Sendable {
  /// What was left of the row.
  public enum Kind: Hashable, Sendable {
    /// These fields keep the other device's values (journal field names, in the order met).
    case fields([String])
    /// The row stays: undoing its creation would delete it, and the other device has worked on
    /// it since (deleting it would lose that work).
    case kept
    /// The row stays: another device made it too (the same todo.txt imported there), and
    /// undoing its creation here would delete theirs.
    case madeToo
    /// The project stays: a todo kept (``kept``) is in it, named here (`#2 'Second'`).
    case holding(String)
    /// The row stays gone: the other device deleted it since.
    case deleted
    /// The row stays as it is: the other device brought it back since.
    case present
  }

  /// The kind of row.
  public var entity: Entity
  /// The row's uuid.
  public var uuid: String
  /// A todo's number, when the row exists.
  public var number: Int64?
  /// The row's name (a todo's title), as it is now or as the journal last knew it.
  public var name: String?
  /// What was left of it.
  public var kind: Kind
  /// Who made the change left standing: the other machine's name as its records said (already
  /// sanitised, ``DeviceName/sanitised(_:)``), `another device` without one, `the sync` for a
  /// sync's own settling.
  public var by: String
  /// That machine's device id; nil for a sync's settling.
  public var fromDevice: String?
  /// That machine's name, as its records said; nil without one.
  public var fromDeviceName: String?

  /// Creates a left row.
  public init(
    entity: Entity, uuid: String, number: Int64?, name: String?, kind: Kind, by: String,
    fromDevice: String? = nil, fromDeviceName: String? = nil
  ) {
    self.entity = entity
    self.uuid = uuid
    self.number = number
    self.name = name
    self.kind = kind
    self.by = by
    self.fromDevice = fromDevice
    self.fromDeviceName = fromDeviceName
  }

  /// The words for the fields left: a todo's done, doneAt and doneBy are one thing, `done`.
  public static func words(_ fields: [String]) -> [String] {
    var words: [String] = []
    for field in fields {
      let word = field == TodoField.doneAt.rawValue || field == TodoField.doneBy.rawValue ? TodoField.done.rawValue : field
      if !words.contains(word) { words.append(word) }
    }
    return words
  }

  /// `#1 'Y title'` for a todo with a number, else `todo 'Y title'` (`project 'ootd'`).
  public var subject: String { RowSubject.of(entity, number: number, name: name) }

  /// One line: `Left the title of #1 'Y title' as desktop set it`,
  /// `Kept #203 'Buy milk': desktop has changed it since (deleting it would lose that)`,
  /// `Kept #4 'Read': desktop made it too (undoing it here would delete it there)`.
  public var line: String {
    switch kind {
    case .fields(let fields):
      let words = Self.words(fields)
      let list: String
      switch words.count {
      case 0: list = "the fields"
      case 1: list = "the " + words[0]
      default: list = "the " + words.dropLast().joined(separator: ", ") + " and " + words[words.count - 1]
      }
      return "Left \(list) of \(subject) as \(by) set \(words.count > 1 ? "them" : "it")"
    case .kept:
      return "Kept \(subject): \(by) has changed it since (deleting it would lose that)"
    case .madeToo:
      return "Kept \(subject): \(by) made it too (undoing it here would delete it there)"
    case .holding(let todo):
      return "Kept \(subject): \(todo), kept, is in it"
    case .deleted:
      return "Left \(subject) deleted, as \(by) deleted it"
    case .present:
      return "Left \(subject) as \(by) brought it back"
    }
  }

  /// The line a journal entry's summary adds for `rows` (of `count` in all, ``lines(_:count:)``).
  public static func summary(_ rows: [LeftRow], count: Int) -> String {
    lines(rows, count: count).map { $0.prefix(1).lowercased() + $0.dropFirst() }.joined(separator: "; ")
  }

  /// The lines of `rows` (the first of `count` rows left), at most ``shownLines``, the rest
  /// counted: `… and 4 more rows left as other devices set them`.
  public static func lines(_ rows: [LeftRow], count: Int) -> [String] {
    var lines = rows.prefix(shownLines).map(\.line)
    let more = count - lines.count
    if more > 0 { lines.append("And \(more) more row\(more == 1 ? "" : "s") left as other devices set \(more == 1 ? "it" : "them")") }
    return lines
  }

  /// How many rows an undo names one by one.
  public static let shownLines = 5
}
