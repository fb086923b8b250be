import ArgumentParser
import Core

/// The filters `list` and `search` share: a project, a priority, open or done todos.
struct TodoFilterOptions: ParsableArguments {
  @Option(name: .long, help: "Only todos of this project.", completion: NameCompletion.projects)
  var project: String?

  @Option(name: [.short, .long], help: "Only todos of this priority: high, mid or low.")
  var priority: Priority?

  @Option(name: .long, help: ArgumentHelp("Only todos with this tag.", valueName: "name"))
  var tag: String?

  @Flag(name: .long, help: "Only todos not done yet.")
  var open = false

  @Flag(name: .long, help: "Only done todos.")
  var done = false

  func validate() throws {
    if open && done { throw ValidationError("--open and --done cannot be combined") }
    if let tag {
      do { _ = try Tag.validate(tag) } catch { throw ValidationError(error.description) }
    }
  }

  /// Which todos `--open` / `--done` keep.
  var status: TodoFilter.Status { open ? .open : done ? .done : .any }

  /// Whether no filter was given.
  var isEmpty: Bool { project == nil && priority == nil && tag == nil && !open && !done }

  /// The filter for `days` (and a title text).
  func filter(days: TodoFilter.Days, text: String? = nil) -> TodoFilter {
    TodoFilter(
      days: days, project: project, priority: priority, status: status, text: text,
      tag: tag.flatMap { try? Tag.validate($0) })
  }
}
