/// A field's value as a conflict line says it (issue 24, point 3): in the words ootd's commands
/// take and print (`high`, `2026-11-28`, `carried from 11-26`, `done`), never an internal
/// number or `null`. What the user typed (a title, notes, a name) is `typed`: a line quotes it.
public struct ConflictWords: Hashable, Sendable {
  public var words: String
  public var typed: Bool

  public init(_ words: String, typed: Bool = false) {
    self.words = words
    self.typed = typed
  }

  /// The words for `value` of `field` of an `entity` row (a todo's project as its name, which
  /// the pull puts in place of the uuid).
  public init(_ entity: Entity, field: String?, _ value: FieldValue?) {
    let value = value ?? .null
    switch (field ?? "", value) {
    case ("priority", .integer(let rank)):
      self.init(Priority(rank: Int(rank))?.rawValue ?? String(rank))
    case ("day", .null): self.init(entity == .todo ? "the backlog" : "no day")
    case ("carriedFrom", .text(let day)): self.init("carried from " + day.dropFirst(5))
    case ("carriedFrom", .null): self.init("not carried")
    case ("project", .null): self.init("no project")
    case ("block", .null): self.init("no block")
    case (let field, .integer(let flag)) where Self.flags[field] != nil:
      let word = Self.flags[field]!
      self.init(flag == 0 ? "not " + word : word)
    case (let field, .text(let text)):
      self.init(text, typed: !Self.dates.contains(field))
    case (_, .integer(let number)): self.init(String(number))
    case (_, .null): self.init("none")
    }
  }

  /// One side of a tag conflict (``SyncConflict/Kind/tag``): the tag `value` names (`+home`),
  /// or, when it is null, the tag `other` names, without it (`without +home`).
  public init(tag value: FieldValue?, else other: FieldValue?) {
    if let tag = value?.text {
      self.init("+" + tag)
    } else {
      self.init("without +" + (other?.text ?? ""))
    }
  }

  /// The yes-or-no fields and the word for yes.
  private static let flags = [
    "done": "done", "dropped": "dropped", "keepOpen": "kept open", "builtIn": "built in",
    "routine": "a routine", "archived": "archived",
  ]

  /// The fields holding a date or a time, said as they are (`2026-11-28`).
  private static let dates: Set<String> = ["day", "doneAt", "createdAt", "startDay", "endDay"]

  /// The words as a line shows them: typed text quoted.
  public var quoted: String { typed ? "'\(words)'" : words }
}
