import Core
import GRDB

/// The todo rules (``TodoRules``) on stored rows: the paths that cannot refuse a change (a
/// sync merge, an import, `github issues`) mend a todo that breaks one by the fixed resolution,
/// through the one write path, and report it in words.
extension TodoRecord {
  /// What the rules look at in this row (nil when its day is unreadable).
  var ruleState: TodoRuleState? { TodoRuleState(fields) }

  /// How a rule sentence names this todo: `todo 12 'Write the report'`.
  var ruleSubject: String { "todo \(id) '\(title)'" }
}

extension AppDatabase {
  /// Mends each todo of `uuids` that breaks a rule on `today` by the fixed resolution
  /// (``TodoRules/resolve(_:today:)``), through `recorder`, and returns a sentence per fix.
  /// Rows that are gone, or keep every rule, are left alone.
  static func keepTodoRules(_ recorder: ChangeRecorder, uuids: some Collection<String>, today: Day)
    throws -> [String]
  {
    guard !uuids.isEmpty else { return [] }
    var sentences: [String] = []
    // A few hundred at a time: SQLite limits the arguments of one statement.
    let all = Array(uuids)
    for start in stride(from: 0, to: all.count, by: 500) {
      let chunk = Array(all[start..<min(start + 500, all.count)])
      let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
      // Only rows that can break a rule are read whole.
      let clause = "todo.uuid IN (\(marks)) AND todo.done = 1 AND (todo.dropped = 1 OR todo.day > ?)"
      for record in try TodoRecord.fetchAll(recorder.db, where: clause, StatementArguments(chunk + [today.description])) {
        guard let state = record.ruleState else { continue }
        let (resolved, fixes) = TodoRules.resolve(state, today: today)
        guard !fixes.isEmpty else { continue }
        try recorder.update(.todo, row: record.uuid, current: record.fields, to: resolved.fields)
        sentences += fixes.map { $0.sentence(record.ruleSubject) }
      }
    }
    return sentences
  }
}
