import ArgumentParser
import Core
import Storage

extension Ootd {
  /// `ootd drop`: gives up open todos without rewriting their day's record.
  struct Drop: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "drop",
      abstract: "Give up open todos: they leave the overdue list and stay not done on their day.",
      discussion: """
        Unlike 'ootd rm', a dropped todo keeps its day's record honest: it still counts in \
        that day's total, as not done. 'ootd undone ID' takes a dropped todo back up (open \
        again), 'ootd done ID' marks it done; 'ootd undo' takes the drop back. Every id must \
        exist and be open (a done todo cannot be dropped), or nothing changes.

        --json prints the todos, each with "dropped": true.

        Examples:
          ootd drop 7
          ootd drop 7 9 --json
        """)

    @OptionGroup var todos: TodoIDsArgument

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions


    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment)
      let result = try database.dropTodos(ids: try todos.resolved(in: database), now: environment.now)
      if output.json {
        try printTodos(
          (result.dropped + result.already).sorted(by: Todo.listOrder), verb: "Dropped", json: true,
          noColor: global.noColor, environment)
        return
      }
      if !result.dropped.isEmpty {
        try printTodos(result.dropped, verb: "Dropped", json: false, noColor: global.noColor, environment)
      }
      if !result.already.isEmpty {
        let ids = result.already.map { "#\($0.id)" }.joined(separator: ", ")
        environment.print("Already dropped: \(ids)")
      }
    }
  }
}
