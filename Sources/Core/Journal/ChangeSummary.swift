/// Describes a list of operations in one line of words, as `ootd log` and `ootd undo` show
/// them: `2 todos done ('Solve BOJ 1753', 'Write the README')`.
///
/// Pure: the caller passes the names of the rows involved (a todo's title, a project's or
/// block's name), keyed by row uuid, for rows the operations do not name themselves.
public enum ChangeSummary {
  /// How many titles a summary lists before it says "and N more".
  public static let listedNames = 3
  /// How many clauses a summary spells out before it says how many more there are (an undone
  /// carry moves todos back to as many days as they came from).
  public static let listedClauses = 12

  /// The line of a first sync's record pulled from another machine: what it brought
  /// (`rows`, by entity), then what it changed here (`changes`, nil when nothing visible,
  /// e.g. every row was here already): `pulled 3 todos; added 3 todos ('a', 'b', 'c')`.
  public static func pulled(_ rows: [Entity: Int], changes: String?) -> String {
    let brought = Entity.allCases.compactMap { entity in
      rows[entity].map { Core.counted($0, "\(entity)") }
    }
    let head = "pulled " + (brought.isEmpty ? "nothing" : brought.joined(separator: ", "))
    return head + "; " + (changes ?? "all already here")
  }

  /// One line for `operations`; `names` maps row uuids (todos, projects, blocks) to names.
  public static func describe(_ operations: [JournalOperation], names: [String: String]) -> String {
    var builder = Builder()
    for operation in operations { builder.add(operation) }
    return builder.text(names: names)
  }

  /// Builds the line of a change one operation at a time, keeping only what the line shows
  /// (each clause's first rows and its count), so that a change of a million operations is
  /// described without holding them. The caller then looks up the names of ``namedRows`` and
  /// asks for the ``text(names:)``.
  public struct Builder: Sendable {
    private var clauses: [Clause] = []
    private var clauseIndex: [String: Int] = [:]

    public init() {}

    /// Adds the creation of the todo `row`, done or not, as ``add(_:)`` adds its operation: for
    /// a creation whose fields are not held as a dictionary (an import's typed rows).
    public mutating func addTodoCreation(row: String, done: Bool) {
      // A row is created once in a change: its creations are counted without the set of rows
      // seen (which held 16 bytes and more for every todo of an import, 32 MiB for 1,000,000).
      add(done ? "todo+done" : "todo+", row: row, distinct: false) { count, names, _ in
        "added \(Core.counted(count, "todo")) \(names)" + (done ? " as done" : "")
      }
    }

    /// Adds the next operation of the change.
    public mutating func add(_ operation: JournalOperation) {
      let row = operation.row
      switch (operation.entity, operation.action) {
      case (.todo, .create(let fields)):
        addTodoCreation(row: row, done: fields["done"] == .integer(1))
      case (.todo, .delete):
        add("todo-", row: row) { count, names, _ in "deleted \(Core.counted(count, "todo")) \(names)" }
      case (.todo, .update(let field, let old, let new)):
        switch field {
        case "done":
          if new == .integer(1) {
            add("done", row: row) { count, names, _ in "\(Core.counted(count, "todo")) done \(names)" }
          } else {
            add("open", row: row) { count, names, _ in "\(Core.counted(count, "todo")) open again \(names)" }
          }
        case "dropped":
          // `drop` and the `undone` that takes a dropped todo back up: each says which it was.
          if new == .integer(1) {
            add("dropped", row: row) { count, names, _ in "\(Core.counted(count, "todo")) dropped \(names)" }
          } else {
            add("undropped", row: row) { count, names, _ in "\(Core.counted(count, "todo")) taken back up \(names)" }
          }
        case "doneAt", "createdAt", "doneBy", "keepOpen", "carriedFrom":
          return
        case "id" where (old.integer ?? 0) < 0 || old == new:
          // A pulled todo held a provisional number while its own was taken here, then got its
          // number (its own, or the next free one): the provisional one is no number to show.
          // Or a sync set the number a todo shows here as its number everywhere (its claim of
          // another lost a clash): it got that number.
          let to = new.integer.map { "#\($0)" } ?? "?"
          add("numbered", row: row) { count, names, _ in
            count == 1
              ? "'\(names.first ?? "")' got number \(to)"
              : "\(Core.counted(count, "todo")) got their numbers \(names)"
          }
        case "id":
          // A sync gave the todo another number (two machines gave one number to two todos).
          let (from, to) = (old.integer.map { "#\($0)" } ?? "?", new.integer.map { "#\($0)" } ?? "?")
          add("renumbered", row: row) { count, names, _ in
            count == 1
              ? "renumbered '\(names.first ?? "")' from \(from) to \(to)"
              : "renumbered \(Core.counted(count, "todo")) \(names)"
          }
        case "githubState":
          let closed = new.text == "closed"
          add(closed ? "github:closed" : "github:open", row: row) { count, names, _ in
            "\(Core.counted(count, "todo")) \(closed ? "closed" : "open again") on GitHub \(names)"
          }
        case "day":
          // A null day is the backlog.
          let target = new == .null ? "the backlog" : new.text ?? "?"
          add("day:\(target)", row: row) { count, names, _ in "\(Core.counted(count, "todo")) moved to \(target) \(names)" }
        case "title":
          // The title this operation set, not the todo's title now: a redo of an import that
          // retitled a todo it had created read "retitled 'A' to 'A'", and `log` of a todo
          // retitled since named its latest title.
          let from = old.text ?? ""
          add("title", row: row) { count, names, _ in
            count == 1
              ? "retitled '\(from)' to '\(new.text ?? names.first ?? "")'"
              : "retitled \(Core.counted(count, "todo")) \(names)"
          }
        case "priority":
          let level = new.integer.flatMap { Priority(rank: Int($0)) }?.rawValue ?? "?"
          add("priority:\(level)", row: row) { count, names, _ in
            "\(Core.counted(count, "todo")) now \(level) priority \(names)"
          }
        case "project":
          if let project = new.text {
            add("link:\(project)", row: row, naming: project) { count, names, all in
              "\(Core.counted(count, "todo")) linked to project \(all[project] ?? "a project") \(names)"
            }
          } else {
            add("unlink", row: row) { count, names, _ in "\(Core.counted(count, "todo")) unlinked from their project \(names)" }
          }
        case "block":
          add("block", row: row) { count, names, _ in "\(Core.counted(count, "todo")) changed block \(names)" }
        default:
          add("todo:\(field)", row: row) { count, names, _ in "\(Core.counted(count, "todo")) changed \(field) \(names)" }
        }
      case (let entity, .create):
        add("\(entity)+", row: row) { _, names, _ in "added \(names.counted(entity))" }
      case (let entity, .delete):
        add("\(entity)-", row: row) { _, names, _ in "deleted \(names.counted(entity))" }
      case (let entity, .update(let field, let old, let new)):
        switch (entity, field) {
        case (.project, "archived"):
          let verb = new == .integer(1) ? "archived" : "unarchived"
          add("archive:\(verb)", row: row) { _, names, _ in "\(verb) \(names.counted(entity))" }
        case (.block, "routine"):
          let verb = new == .integer(1) ? "added to the routine" : "taken out of the routine"
          add("routine:\(verb)", row: row) { _, names, _ in "\(names.counted(entity)) \(verb)" }
        case (_, "name"):
          let from = old.text ?? ""
          add("rename:\(row)", row: row) { _, names, _ in
            "renamed \(entity) '\(from)' to '\(names.first ?? "")'"
          }
        case (_, "createdAt"), (_, "id"):
          return
        default:
          add("\(entity)~", row: row) { _, names, _ in "edited \(names.counted(entity))" }
        }
      }
    }

    /// Whether no operation added so far shows in the line (``text(names:)`` says "no change").
    public var isEmpty: Bool { clauses.isEmpty }

    /// The rows whose names the line shows: each spelled-out clause's first rows and the
    /// projects todos were linked to.
    public var namedRows: [String] {
      var rows: [String] = []
      var seen: Set<String> = []
      for clause in clauses.prefix(listedClauses) {
        for row in clause.rows + (clause.naming.map { [$0] } ?? []) where seen.insert(row).inserted {
          rows.append(row)
        }
      }
      return rows
    }

    /// The line, with `names` of (at least) the ``namedRows``.
    public func text(names: [String: String]) -> String {
      guard !clauses.isEmpty else { return "no change" }
      var parts = clauses.prefix(listedClauses).map { clause in
        clause.text(clause.count, Names(clause.rows.map { names[$0] ?? "?" }, count: clause.count), names)
      }
      if clauses.count > listedClauses {
        let more = clauses.count - listedClauses
        parts.append("and \(more) more \(noun(more, "change"))")
      }
      return parts.joined(separator: "; ")
    }

    private mutating func add(
      _ key: String, row: String, naming: String? = nil, distinct: Bool = true,
      _ text: @escaping @Sendable (Int, Names, [String: String]) -> String
    ) {
      // Linear in the operations: an import of 100,000 todos is one change.
      guard let index = clauseIndex[key] else {
        clauseIndex[key] = clauses.count
        // Only the clauses the line spells out count their rows.
        let shown = clauses.count < listedClauses
        var clause = Clause(rows: [row], count: 1, naming: naming, text: text)
        if shown, distinct { clause.seen.insert(row) }
        clauses.append(clause)
        return
      }
      guard index < listedClauses, !distinct || clauses[index].seen.insert(row) else { return }
      clauses[index].count += 1
      if clauses[index].rows.count < listedNames { clauses[index].rows.append(row) }
    }
  }

  /// The names of a clause's first rows and how many rows it has: printed as `('a', 'b', 'c')`
  /// or `('a', 'b', 'c' and 2 more)`.
  struct Names: CustomStringConvertible {
    let shown: [String]
    let count: Int
    init(_ shown: [String], count: Int) {
      self.shown = shown
      self.count = count
    }
    var first: String? { shown.first }
    var description: String {
      let listed = shown.prefix(listedNames).map { "'\($0)'" }.joined(separator: ", ")
      let more = count > listedNames ? " and \(count - listedNames) more" : ""
      return "(\(listed)\(more))"
    }
    /// `project 'ootd'` for one row, `2 projects ('a', 'b')` for more.
    func counted(_ entity: Entity) -> String {
      count == 1 ? "\(entity) '\(shown[0])'" : "\(Core.counted(count, "\(entity)")) \(self)"
    }
  }

  private struct Clause: Sendable {
    /// The first ``listedNames`` rows.
    var rows: [String]
    /// How many distinct rows (counted only for clauses the line spells out).
    var count: Int
    /// The rows seen so far, to count each once.
    var seen = RowSet()
    /// A further row whose name the line shows (the project todos were linked to).
    let naming: String?
    let text: @Sendable (Int, Names, [String: String]) -> String
  }

  /// A set of rows that keeps a uuid as the 16 bytes it spells (a tenth of the memory of its
  /// text, for a change of a million rows), and any other row id as text.
  struct RowSet: Sendable {
    private var uuids: Set<UInt128> = []
    private var others: Set<String> = []

    /// Adds `row`, returning whether it was new.
    mutating func insert(_ row: String) -> Bool {
      if let bits = RowID.bits(row) { return uuids.insert(bits).inserted }
      return others.insert(row).inserted
    }
  }
}

extension ChangeSummary {
  /// `Undid 'done 12 13': 2 todos open again ('a', 'b')`.
  public static func undid(_ command: String, effect: String) -> String {
    "Undid '\(command)': \(effect)"
  }

  /// What undo says of the sync resolutions it passed over (`count` of them, newer than the
  /// change it undid): `Left 'remote sync' as it is: what a sync settles stands on every machine`.
  public static func passedOver(_ count: Int) -> String {
    let what = count == 1 ? "'remote sync'" : "\(count) 'remote sync' changes"
    return "Left \(what) as \(count == 1 ? "it is" : "they are"): what a sync settles stands on every machine"
  }

  /// The effect of an undo or redo (`verb`) of which nothing was left to do: another device
  /// changed since everything the change changed (``LeftRow``).
  public static func nothingLeft(_ verb: String) -> String { "nothing left to \(verb)" }

  /// `Redid 'done 12 13': 2 todos done ('a', 'b')`.
  public static func redid(_ command: String, effect: String) -> String {
    "Redid '\(command)': \(effect)"
  }
}
