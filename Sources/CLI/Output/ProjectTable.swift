import Core
import Storage

/// The project table of `project list`.
struct ProjectTable {
  let style: Style

  func progressText(_ progress: ProjectProgress) -> String {
    guard let rate = progress.rate else { return "no todos" }
    let percent = DisplayWidth.padLeft("\(Int((rate * 100).rounded()))%", to: 4)
    return "\(progress.done)/\(progress.total) done \(percent)"
  }

  func render(_ projects: [ProjectProgress]) -> [String] {
    let rows = projects.map { p in
      [
        p.project.name + (p.project.isArchived ? " (archived)" : ""),
        p.project.repository?.description ?? "-",
        progressText(p),
        p.lastActivity?.description ?? "-",
        p.project.tech.joined(separator: ","),
      ].map(TerminalText.printable)
    }
    let headers = ["NAME", "REPOSITORY", "PROGRESS", "LAST ACTIVE", "TECH"]
    let widths = headers.indices.map { column in
      ([headers[column]] + rows.map { $0[column] }).map(DisplayWidth.of).max() ?? 0
    }
    func format(_ cells: [String]) -> String {
      cells.enumerated().map { index, cell in
        index == cells.count - 1 ? cell : DisplayWidth.padRight(cell, to: widths[index])
      }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
    }
    return [style.bold(format(headers))] + rows.map(format)
  }
}
