import ArgumentParser
import Core
import Storage

extension Ootd.Block {
  struct AddBlock: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Add a task block.",
      discussion: """
        Example:
          ootd block add leetcode "Solve one LeetCode medium" --priority high --routine
        """)

    @Argument(help: "A short name: letters, digits, '-', '_' or '.'.")
    var name: String

    @Argument(help: "The title of todos made from it.")
    var title: String

    @Option(name: [.short, .long], help: "high, mid or low (default: mid).")
    var priority: Priority = .mid

    @Flag(name: .long, help: "Make it part of your routine, every day (see 'ootd block routine').")
    var routine = false

    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let block = try TaskBlock(name: name, title: title, priority: priority, isRoutine: routine)
      let planned = try global.openDatabase(environment).addBlock(block, now: environment.now)
      environment.print(TerminalText.printable("Added block \(block.name): \(block.title) (\(block.priority))"))
      for todo in planned { environment.print("Planned #\(todo.id) for today") }
    }
  }
}
