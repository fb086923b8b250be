/// Describes a list of operations in one line of words, as `ootd log` and `ootd undo` show
/// them: `2 todos done ('Solve BOJ 1753', 'Write the README')`.
///
/// Pure: the caller passes the names of the rows involved (a todo's title, a project's or
/// block's name), keyed by row uuid, for rows the operations do not name themselves.
public enum ChangeSummary {
  /// How many titles a summary lists before it says "and N more".
  public static let listedNames = 3

  /// One line for `operations`; `names` maps row uuids (todos, projects, blocks) to names.
  public static func describe(_ operations: [JournalOperation], names: [String: String]) -> String {
    var clauses: [Clause] = []
    var clauseIndex: [String: Int] = [:]
    func add(_ key: String, _ text: @escaping (Int, Names) -> String, row: String) {
      // Linear in the operations: an import of 100,000 todos is one change.
      if let index = clauseIndex[key] {
        if clauses[index].seen.insert(row).inserted { clauses[index].rows.append(row) }
      } else {
        clauseIndex[key] = clauses.count
        clauses.append(Clause(key: key, rows: [row], seen: [row], text: text))
      }
    }
    for operation in operations {
      let row = operation.row
      switch (operation.entity, operation.action) {
      case (.todo, .create(let fields)):
        let done = fields["done"] == .integer(1)
        add(done ? "todo+done" : "todo+", { count, names in "added \(todos(count)) \(names)" + (done ? " as done" : "") }, row: row)
      case (.todo, .delete):
        add("todo-", { count, names in "deleted \(todos(count)) \(names)" }, row: row)
      case (.todo, .update(let field, let old, let new)):
        switch field {
        case "done":
          if new == .integer(1) {
            add("done", { count, names in "\(todos(count)) done \(names)" }, row: row)
          } else {
            add("open", { count, names in "\(todos(count)) open again \(names)" }, row: row)
          }
        case "doneAt", "createdAt", "id", "doneBy", "keepOpen":
          continue
        case "githubState":
          let closed = new.text == "closed"
          add(closed ? "github:closed" : "github:open", { count, names in
            "\(todos(count)) \(closed ? "closed" : "open again") on GitHub \(names)"
          }, row: row)
        case "day":
          let target = new.text ?? "?"
          add("day:\(target)", { count, names in "\(todos(count)) moved to \(target) \(names)" }, row: row)
        case "title":
          let from = old.text ?? ""
          add("title", { count, names in
            count == 1 ? "retitled '\(from)' to '\(names.first ?? "")'" : "retitled \(todos(count)) \(names)"
          }, row: row)
        case "priority":
          let level = new.integer.flatMap { Priority(rank: Int($0)) }?.rawValue ?? "?"
          add("priority:\(level)", { count, names in "\(todos(count)) now \(level) priority \(names)" }, row: row)
        case "project":
          if let project = new.text {
            let name = names[project] ?? "a project"
            add("link:\(project)", { count, names in "\(todos(count)) linked to project \(name) \(names)" }, row: row)
          } else {
            add("unlink", { count, names in "\(todos(count)) unlinked from their project \(names)" }, row: row)
          }
        case "block":
          add("block", { count, names in "\(todos(count)) changed block \(names)" }, row: row)
        default:
          add("todo:\(field)", { count, names in "\(todos(count)) changed \(field) \(names)" }, row: row)
        }
      case (let entity, .create):
        add("\(entity)+", { _, names in "added \(names.counted(entity))" }, row: row)
      case (let entity, .delete):
        add("\(entity)-", { _, names in "deleted \(names.counted(entity))" }, row: row)
      case (let entity, .update(let field, let old, let new)):
        switch (entity, field) {
        case (.project, "archived"):
          let verb = new == .integer(1) ? "archived" : "unarchived"
          add("archive:\(verb)", { _, names in "\(verb) \(names.counted(entity))" }, row: row)
        case (.block, "routine"):
          let verb = new == .integer(1) ? "added to the routine" : "taken out of the routine"
          add("routine:\(verb)", { _, names in "\(names.counted(entity)) \(verb)" }, row: row)
        case (_, "name"):
          let from = old.text ?? ""
          add("rename:\(row)", { _, names in "renamed \(entity) '\(from)' to '\(names.first ?? "")'" }, row: row)
        case (_, "createdAt"), (_, "id"):
          continue
        default:
          add("\(entity)~", { _, names in "edited \(names.counted(entity))" }, row: row)
        }
      }
    }
    guard !clauses.isEmpty else { return "no change" }
    return clauses.map { clause in
      clause.text(clause.rows.count, Names(clause.rows.map { names[$0] ?? "?" }))
    }.joined(separator: "; ")
  }

  /// The names of a clause's rows: printed as `('a', 'b', 'c')` or `('a', 'b', 'c' and 2 more)`.
  struct Names: CustomStringConvertible {
    let all: [String]
    init(_ all: [String]) { self.all = all }
    var first: String? { all.first }
    var description: String {
      let shown = all.prefix(listedNames).map { "'\($0)'" }.joined(separator: ", ")
      let more = all.count > listedNames ? " and \(all.count - listedNames) more" : ""
      return "(\(shown)\(more))"
    }
    /// `project 'ootd'` for one row, `2 projects ('a', 'b')` for more.
    func counted(_ entity: Entity) -> String {
      all.count == 1 ? "\(entity) '\(all[0])'" : "\(noun(entity, all.count)) \(self)"
    }
  }

  private static func todos(_ count: Int) -> String { count == 1 ? "1 todo" : "\(count) todos" }

  fileprivate static func noun(_ entity: Entity, _ count: Int) -> String {
    count == 1 ? "\(entity)" : "\(count) \(entity == .project ? "projects" : "\(entity)s")"
  }

  private struct Clause {
    let key: String
    var rows: [String]
    var seen: Set<String>
    let text: (Int, Names) -> String
  }
}

extension ChangeSummary {
  /// `Undid 'done 12 13': 2 todos open again ('a', 'b')`.
  public static func undid(_ command: String, effect: String) -> String {
    "Undid '\(command)': \(effect)"
  }

  /// `Redid 'done 12 13': 2 todos done ('a', 'b')`.
  public static func redid(_ command: String, effect: String) -> String {
    "Redid '\(command)': \(effect)"
  }
}
