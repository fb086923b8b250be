/// A ready-made todo for work a developer does often ("solve an algorithm problem").
public struct TaskBlock: Hashable, Sendable {
  /// The short name used on the command line (`ootd add --block algorithm`).
  public let name: String
  /// The title a todo made from this block gets.
  public let title: String
  /// The priority a todo made from this block gets.
  public let priority: Priority
  /// Whether ootd ships this block (as opposed to one the user added).
  public let isBuiltIn: Bool
  /// Whether `ootd plan` adds this block to each new day.
  public let isRoutine: Bool
  /// On which days the routine plans it (meaningful when ``isRoutine``).
  public let recurrence: Recurrence
  /// Its stable identity (a lowercase uuid; empty until stored). Built-in blocks have the same
  /// uuid everywhere (``RowID/builtInBlock(_:)``).
  public let uuid: String
  /// What ticks its open todos by itself (`block edit NAME --done-when commits`), or nil.
  public var doneWhen: DoneRule? = nil

  /// Creates a block, validating its name and title.
  public init(
    name: String, title: String, priority: Priority = .mid, isBuiltIn: Bool = false,
    isRoutine: Bool = false, recurrence: Recurrence = .daily, uuid: String = ""
  ) throws(CoreError) {
    self.recurrence = recurrence
    self.name = try Name.validate(name, kind: "block")
    self.title = try Title.validate(title, kind: "block")
    self.priority = priority
    self.isBuiltIn = isBuiltIn
    self.isRoutine = isRoutine
    self.uuid = uuid
  }

  /// The blocks a fresh database starts with.
  public static let builtIns: [(name: String, title: String, priority: Priority)] = [
    ("algorithm", "Solve an algorithm problem", .high),
    ("blog", "Write a blog post / TIL", .mid),
    ("commit", "Make a commit", .high),
    ("study", "Study / watch a lecture", .mid),
    ("review", "Review a pull request", .mid),
    ("docs", "Write or update documentation", .low),
    ("refactor", "Refactor or pay down tech debt", .low),
    ("english", "Practise technical English", .low),
  ]

  /// The built-in blocks that tick themselves by default: `commit`, by any commit on its day.
  public static let builtInDoneRules: [String: DoneRule] = ["commit": DoneRule()]

  /// This user block's fields as its creation stores them (made at `createdAt`): `block add`'s,
  /// and an import's block that a todo names and the database lacks.
  public func userFields(createdAt: String) -> Fields {
    [
      "name": .text(name), "title": .text(title), "priority": .integer(Int64(priority.rank)),
      "builtIn": .bool(false), "routine": .bool(isRoutine), "createdAt": .text(createdAt),
      "recurrence": isRoutine && recurrence != .daily ? .text(recurrence.text) : .null,
    ]
  }

  /// The fields of the built-in block `name` as a fresh database has it (made at `createdAt`),
  /// nil when no built-in block has that name: what `block restore` brings back, and what a
  /// sync takes as every machine's seed of it (issue 24: a new machine's untouched built-in
  /// blocks override nothing).
  public static func builtInFields(_ name: String, createdAt: String) -> Fields? {
    guard let builtIn = builtIns.first(where: { $0.name == name.lowercased() }) else { return nil }
    return [
      "name": .text(builtIn.name), "title": .text(builtIn.title),
      "priority": .integer(Int64(builtIn.priority.rank)), "builtIn": .bool(true),
      "routine": .bool(false), "createdAt": .text(createdAt),
      "doneWhen": builtInDoneRules[builtIn.name] == nil ? .null : .text(DoneRule.commits),
    ]
  }

  /// The seed fields (``builtInFields(_:createdAt:)``, without the time it was made, which is
  /// each machine's own) of the built-in block whose uuid is `uuid`, nil for any other uuid.
  public static func builtInSeed(uuid: String) -> Fields? {
    guard let builtIn = builtInsByUUID[uuid] else { return nil }
    var fields = builtInFields(builtIn, createdAt: "")
    fields?[BlockField.createdAt.rawValue] = nil
    return fields
  }

  private static let builtInsByUUID = Dictionary(
    uniqueKeysWithValues: builtIns.map { (RowID.builtInBlock($0.name), $0.name) })

  /// The uuids of the built-in blocks.
  public static var builtInUUIDs: Dictionary<String, String>.Keys { builtInsByUUID.keys }
}
