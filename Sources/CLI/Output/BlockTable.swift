import Core

/// The table of `ootd block list`: name, priority, title, and whether a block is built in, part
/// of the routine, or done by commits.
struct BlockTable {
  let style: Style
  let today: Day

  func render(_ blocks: [TaskBlock]) -> [String] {
    let renderer = TodoRenderer(style: style, today: today)
    let nameWidth = max(4, blocks.map { DisplayWidth.of($0.name) }.max() ?? 0)
    var lines = [style.bold(DisplayWidth.padRight("NAME", to: nameWidth) + "  PRIO  TITLE")]
    for block in blocks {
      var notes: [String] = []
      if block.isBuiltIn { notes.append("built-in") }
      if block.isRoutine {
        notes.append(block.recurrence == .daily ? "routine" : "routine: \(block.recurrence)")
      }
      if let rule = block.doneWhen { notes.append("done by \(rule)") }
      let suffix = notes.isEmpty ? "" : "  " + style.dim("(" + notes.joined(separator: ", ") + ")")
      lines.append(
        style.magenta(DisplayWidth.padRight(block.name, to: nameWidth)) + "  "
          + renderer.priorityLabel(block.priority) + "  " + TerminalText.printable(block.title) + suffix)
    }
    return lines
  }
}
