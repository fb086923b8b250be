import Core
import Storage

/// The project table of `project list`: one row per project, columns as wide as their widest
/// cell. Widths are measured on a first pass over the projects and the rows written on a
/// second, so a table of any length is printed in constant memory.
struct ProjectTable {
  let style: Style

  static let headers = ["NAME", "REPOSITORY", "PROGRESS", "LAST ACTIVE", "TECH"]

  func progressText(_ progress: ProjectProgress) -> String {
    guard let rate = progress.rate else { return "no todos" }
    let percent = DisplayWidth.padLeft("\(Int((rate * 100).rounded()))%", to: 4)
    return "\(progress.done)/\(progress.total) done \(percent)"
  }

  /// The row's cells, made safe for a terminal.
  func cells(_ p: ProjectProgress) -> [String] {
    [
      p.project.name + (p.project.isArchived ? " (archived)" : ""),
      p.project.repository?.description ?? "-",
      progressText(p),
      p.lastActivity?.description ?? "-",
      p.project.tech.joined(separator: ","),
    ].map(TerminalText.printable)
  }

  /// The column widths: the widest cell of each column, headers included.
  struct Widths {
    private(set) var columns = ProjectTable.headers.map(DisplayWidth.of)

    mutating func measure(_ cells: [String]) {
      for (index, cell) in cells.enumerated() { columns[index] = max(columns[index], DisplayWidth.of(cell)) }
    }
  }

  /// The bold header line.
  func header(_ widths: Widths) -> String { style.bold(line(Self.headers, widths)) }

  /// One row, its cells padded to `widths` (the last one as it is).
  func line(_ cells: [String], _ widths: Widths) -> String {
    cells.enumerated().map { index, cell in
      index == cells.count - 1 ? cell : DisplayWidth.padRight(cell, to: widths.columns[index])
    }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
  }
}
