import Core
import Foundation
import Storage

/// `ootd project show` as text: the project's fields, its progress and commits, then its todos
/// by day.
struct ProjectDetail {
  let progress: ProjectProgress
  let todos: [Todo]
  let commits: ProjectCommits?

  /// `ootd project show --json`: the project, its todos and its commits.
  func json(_ environment: AppEnvironment) throws -> String {
    let items = todos.map { JSONOutput.TodoJSON($0, environment) }
    return try JSONOutput.encode(
      ProjectShowJSON(
        project: JSONOutput.ProjectJSON(progress: progress, todos: items), commits: commits))
      + "\n"
  }

  func text(style: Style, _ environment: AppEnvironment) -> String {
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
    let renderer = TodoRenderer(style: style, today: environment.today, width: environment.lineWidth)
    if !todos.isEmpty { lines += [""] + renderer.days(todos) }
    return lines.map { $0 + "\n" }.joined()
  }
}
