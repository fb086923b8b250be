import Core

extension TodoRenderer {
  /// What a listing of the backlog says when it is empty (`ootd backlog`, `ootd list someday`).
  var emptyBacklog: String { style.dim("The backlog is empty: 'ootd add TITLE --someday' puts a todo there.") }

  /// The dashboard's backlog section: how many todos wait without a day, and the first `limit`
  /// of them in backlog order (``Todo/backlogOrder(_:_:)``); nothing when none waits.
  func backlogSection(_ reader: any TodoReader, limit: Int) throws -> [String] {
    let summary = try reader.backlogSummary(limit: limit)
    guard summary.count > 0 else { return [] }
    let idWidth = summary.todos.map { String($0.id).count }.max() ?? 1
    var lines = [
      "",
      style.bold("Backlog") + style.dim(
        "  \(counted(summary.count, "todo")) waiting for a day · 'ootd plan ID' puts one on today"),
    ]
    lines += summary.todos.map { line($0, idWidth: idWidth) }
    if summary.count > summary.todos.count {
      lines.append(style.dim("  … and \(summary.count - summary.todos.count) more ('ootd backlog')"))
    }
    return lines
  }
}
