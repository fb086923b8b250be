import ArgumentParser
import Core
import Storage

extension Ootd {
  /// `ootd rm`: deletes todos.
  struct Remove: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "rm",
      abstract: "Delete todos (asks first; --yes skips the question).",
      discussion: """
        On a terminal ootd asks before deleting. Without a terminal (a script, a pipe) it \
        refuses unless --yes is given, and deletes nothing. Every id must exist, or nothing is \
        deleted. Deleting a todo of a day before today rewrites that day's record: to give up \
        missed work and keep the record, use 'ootd drop'.

        Examples:
          ootd rm 12
          ootd rm 12 13 --yes
        """,
      aliases: ["remove"])

    @OptionGroup var todos: TodoIDsArgument

    @OptionGroup var confirmation: ConfirmOption

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions


    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment)
      let ids = try self.todos.resolved(in: database)
      let todos = try database.todos(ids: ids)
      // Deleting a todo of a day before today, or one carried away from a day that had begun,
      // rewrites that day's record: say so, and offer what keeps it (drop only takes open
      // todos: advice the next command refuses is none).
      let past = todos.filter { $0.isPlanned(before: environment.today) || !$0.carriedFrom.isEmpty }
      let rewrites = past.isEmpty ? nil : Self.rewriteAdvice(past, today: environment.today)
      try confirmation.confirm(
        action: "delete \(counted(todos.count, "todo"))"
          + (rewrites.map { " (\($0))" } ?? ""),
        preview: { TodoRenderer(environment, noColor: global.noColor).changed(todos) },
        environment: environment)
      let deleted = try database.deleteTodos(ids: ids, now: environment.now)
      try printTodos(deleted, verb: "Deleted", json: output.json, noColor: global.noColor, environment)
    }

    /// What deleting `past` (todos of days before today) does to the record, and what keeps it
    /// instead: drop for open todos; keeping a done or dropped one as it is (drop refuses them).
    static func rewriteAdvice(_ past: [Todo], today: Day) -> String {
      func ids(_ todos: [Todo]) -> String { todos.map { String($0.id) }.joined(separator: " ") }
      func them(_ todos: [Todo]) -> String { todos.count == 1 ? "it" : "them" }
      let recorded = past.flatMap { ($0.isPlanned(before: today) ? [$0.day].compactMap { $0 } : []) + $0.carriedFrom }
      let days = Set(recorded).sorted().map(\.description).joined(separator: ", ")
      var parts = ["this rewrites the record of \(days)"]
      let open = past.filter { !$0.isDone && !$0.isDropped }
      if !open.isEmpty {
        parts.append("'ootd drop \(ids(open))' gives \(them(open)) up and keeps the record")
      }
      let done = past.filter(\.isDone)
      if !done.isEmpty {
        parts.append(
          "\(ids(done)) \(done.count == 1 ? "is" : "are") done: keeping \(them(done)) keeps the record")
      }
      let dropped = past.filter { $0.isDropped && !$0.isDone }
      if !dropped.isEmpty {
        parts.append(
          "\(ids(dropped)) \(dropped.count == 1 ? "is" : "are") already dropped: keeping \(them(dropped)) keeps the record")
      }
      return parts.joined(separator: "; ")
    }
  }
}
