import ArgumentParser
import Core
import Storage

/// Shared by `done` and `undone`: ticks or unticks todos by id, all or nothing.
struct TickOptions: ParsableArguments {
  @OptionGroup var todos: TodoIDsArgument

  @OptionGroup var output: JSONOption
  @OptionGroup var global: GlobalOptions

  /// What argument-parser checks in the group; the hot path calls this (HotPath.swift).
  func validate() throws { try todos.validate() }

  func run(done: Bool, in environment: AppEnvironment) throws {
    let database = try global.openDatabase(environment)
    let (todos, unchanged, movedFrom) = try database.setDoneTellingUnchanged(
      ids: try self.todos.resolved(in: database), done: done, today: environment.today, now: environment.now)
    let changed = todos.filter { !unchanged.contains($0.id) }
    defer { sayMoved(todos.filter { movedFrom[$0.id] != nil }, from: movedFrom, database, environment) }
    if output.json || unchanged.isEmpty {
      try printTodos(todos, verb: done ? "Done" : "Reopened", json: output.json,
        noColor: global.noColor, environment)
      return
    }
    // Say what really happened: a todo that already was as asked did not change.
    if !changed.isEmpty {
      try printTodos(changed, verb: done ? "Done" : "Reopened", json: false,
        noColor: global.noColor, environment)
    }
    try printTodos(
      todos.filter { unchanged.contains($0.id) }, verb: "Kept",
      suffix: done ? " (already done)" : " (already open)", json: false, noColor: global.noColor,
      environment)
  }

  /// Says which todos of a later day were done today and so moved to today (on standard error
  /// with --json, whose output stays one document).
  private func sayMoved(
    _ moved: [Todo], from movedFrom: [Int64: Day?], _ database: AppDatabase, _ environment: AppEnvironment
  ) {
    for todo in moved {
      guard let from = movedFrom[todo.id] else { continue }
      let today = todo.day?.description ?? "today"
      let line = TerminalText.printable(
        from.map {
          "Moved #\(todo.id) '\(todo.title)' from \($0) to today (\(today)): work of a later day done today is done today ('ootd undo' puts it back, open)"
        }
          ?? "Moved #\(todo.id) '\(todo.title)' from the backlog to today (\(today)): work done is done on a day ('ootd undo' puts it back, open)")
      if output.json { environment.printError("ootd: note: " + line) } else { environment.print(line) }
    }
    // A todo from a task block may now double the block on today: say so, as any move does.
    try? warnAboutPlacement(moved, database, environment)
  }
}
