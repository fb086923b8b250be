/// How a sentence names a row, written once for every line that reports what happened to one:
/// a sync's conflict lines, the fixes the todo rules make, undo's notes and refusals
/// (issue 24 §1: "Conflict lines name a todo by `#id 'title'`, never a bare uuid prefix").
///
/// `#12 'Write the report'`, `#12` without a title, `todo 'Write the report'` without a number,
/// `project 'ootd'`; `a todo` / `a project` when neither is known.
public enum RowSubject {
  public static func of(_ entity: Entity, number: Int64?, name: String?) -> String {
    switch (entity, number, name) {
    case (.todo, let number?, let name?): return "#\(number) '\(name)'"
    case (.todo, let number?, nil): return "#\(number)"
    case (let entity, _, let name?): return "\(entity) '\(name)'"
    case (let entity, _, nil): return "a \(entity)"
    }
  }
}
