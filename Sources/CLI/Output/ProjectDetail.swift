import Core
import Foundation
import Storage

/// `ootd project show`: the project's fields, its progress and commits, then its todos by day.
/// The todos are read from the database one at a time and printed as they come (text and
/// JSON), so a project of any size takes constant memory.
struct ProjectDetail {
  let progress: ProjectProgress
  let commits: ProjectCommits?
  let reader: any TodoReader

  /// The project's todos, in list order.
  private var filter: TodoFilter { TodoFilter(days: .all, project: progress.project.name) }

  /// `ootd project show --json`: the project, its todos and its commits.
  func printJSON(_ environment: AppEnvironment) throws {
    var writer = JSONStreamWriter(environment)
    let todos = { (writer: inout JSONStreamWriter) throws in
      writer.beginArray()
      try reader.forEachTodo(matching: filter) { todo in
        JSONOutput.TodoJSON(todo, environment).write(to: &writer)
        return environment.outputFailed() == nil
      }
      writer.endArray()
    }
    try JSONOutput.ProjectJSON(progress: progress).write(to: &writer, commits: commits, todos: todos)
    writer.finish()
  }

  /// The project as text: its fields, then its todos under day headings.
  func printText(style: Style, _ environment: AppEnvironment) throws {
    environment.output(fields(style: style, environment).map { $0 + "\n" }.joined())
    let renderer = TodoRenderer(style: style, today: environment.today, width: environment.lineWidth)
    // Each day counts the project's todos as 'report --project' does (``DayFigures``): those
    // carried away from it are listed under it too.
    let carried = try reader.todosCarriedAway(from: nil, project: progress.project.name)
    let largest = max(try reader.largestTodoID(matching: filter) ?? 0, carried.map(\.id).max() ?? 0)
    let idWidth = String(max(largest, 1)).count
    var list = TodoRenderer.DayList(renderer: renderer, idWidth: idWidth, showProgress: true) {
      environment.output($0.map { $0 + "\n" }.joined())
    }
    list.carry(carried, in: nil)
    var first = true
    try reader.forEachTodo(matching: filter, withDayCounts: { todo, counter in
      // A blank line between the fields and the first day.
      if first { environment.output("\n") }
      first = false
      try list.add(todo, counts: counter.counts(on:))
      return environment.outputFailed() == nil
    })
    list.finish()
  }

  /// The name line and one line per field that has a value.
  private func fields(style: Style, _ environment: AppEnvironment) -> [String] {
    let project = progress.project
    var lines = [style.bold(project.name) + (project.isArchived ? style.dim("  (archived)") : "")]
    func field(_ label: String, _ value: String?) {
      if let value, !value.isEmpty {
        lines.append(
          "  " + style.dim(DisplayWidth.padRight(label, to: 12)) + TerminalText.printable(value))
      }
    }
    field("description", project.summary)
    field("repository", project.repository?.description)
    field("path", project.localPath)
    let period = [project.start?.description ?? "…", project.end?.description ?? "…"]
    field("period", project.start == nil && project.end == nil ? nil : period.joined(separator: " → "))
    field("tech", project.tech.joined(separator: ", "))
    field("memo", project.memo)
    field("progress", ProjectTable(style: style).progressText(progress))
    field("last active", progress.lastActivity?.description)
    field("commits", commits?.text(timeZone: environment.timeZone, now: environment.now))
    return lines
  }
}
