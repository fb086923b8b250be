import Core

/// `ootd show`: one todo in full, its title untruncated, then its notes and its history.
struct TodoDetail {
  let environment: AppEnvironment
  let style: Style

  func render(_ todo: Todo, history: [JournalEntry]) -> [String] {
    let today = environment.today
    let journal = JournalOutput(environment)
    var lines = [style.bold("#\(todo.id)  \(TerminalText.printable(todo.title))")]
    func field(_ name: String, _ value: String) {
      lines.append("  " + style.dim(DisplayWidth.padRight(name, to: 9)) + " " + value)
    }
    let status: String
    if todo.isDone {
      status = "done" + (todo.doneAt.map { " on \(Day($0, in: environment.timeZone))" } ?? "")
    } else if todo.isDropped {
      status = "dropped (counts as not done on its day)"
    } else {
      status = todo.isOverdue(today: today) ? "open, overdue" : "open"
    }
    field("status", status)
    var day = todo.day.map { "\($0.weekday.shortName) \($0)" } ?? "none: in the backlog ('ootd plan \(todo.id)' puts it on today)"
    if !todo.carriedFrom.isEmpty {
      day += " (carried from \(todo.carriedFrom.map(\.description).joined(separator: ", ")))"
    }
    field("day", day)
    field("priority", todo.priority.rawValue)
    field("project", todo.project.map { TerminalText.printable($0) } ?? style.dim("none"))
    field("block", todo.block.map { TerminalText.printable($0) } ?? style.dim("none"))
    field("tags", todo.tags.isEmpty ? style.dim("none") : todo.tags.map { "+" + TerminalText.printable($0) }.joined(separator: " "))
    field("created", journal.localTime(todo.createdAt))
    // The short uuid first: what `ootd done PREFIX` takes, as git's short hash.
    field("uuid", TodoReference.shortUUID(todo.uuid) + "  " + style.dim("(\(todo.uuid))"))
    lines.append("")
    lines.append(style.bold("Notes"))
    if let notes = todo.notes {
      for line in notes.split(separator: "\n", omittingEmptySubsequences: false) {
        lines.append("  " + TerminalText.printable(String(line)))
      }
    } else {
      lines.append("  " + style.dim("none: 'ootd note \(todo.id) TEXT' adds one"))
    }
    if !todo.annotations.isEmpty {
      lines.append("")
      lines.append(style.bold("Annotations"))
      for annotation in todo.annotations {
        let text = annotation.text.split(separator: "\n", omittingEmptySubsequences: false)
          .map { TerminalText.printable(String($0)) }
        lines.append("  " + style.dim(journal.localTime(annotation.entry)) + "  " + (text.first ?? ""))
        lines += text.dropFirst().map { "    " + $0 }
      }
    }
    if !todo.attributes.isEmpty {
      lines.append("")
      lines.append(style.bold("Attributes"))
      for key in todo.attributes.keys.sorted() {
        lines.append("  " + TerminalText.printable(key) + ": " + TerminalText.printable(todo.attributes[key] ?? ""))
      }
    }
    lines.append("")
    lines.append(style.bold("History"))
    if history.isEmpty {
      lines.append("  " + style.dim("no changes in the journal (older ones are pruned)"))
    }
    for entry in history {
      let undone = entry.isUndone ? " " + style.dim("(undone)") : ""
      // Marked as `log` marks it: a change pulled from another machine.
      let from = entry.fromDevice.map { " " + style.cyan(JournalOutput.from($0, name: entry.fromDeviceName)) } ?? ""
      lines.append(
        "  " + style.dim(journal.localTime(entry.madeAt ?? entry.at)) + "  "
          + TerminalText.printable(entry.command) + from + undone)
      lines.append("    " + style.dim(TerminalText.printable(entry.summary)))
    }
    return lines
  }
}
