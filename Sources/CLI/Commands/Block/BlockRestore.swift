import ArgumentParser
import Core
import Storage

extension Ootd.Block {
  struct RestoreBlock: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "restore",
      abstract: "Bring back a built-in block removed with 'ootd block rm'.",
      discussion: """
        The built-in blocks: \(TaskBlock.builtIns.map(\.name).joined(separator: ", ")).

        Example:
          ootd block restore algorithm
        """)

    @Argument(help: "The built-in block's name.")
    var name: String

    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let names = TaskBlock.builtIns.map(\.name)
      guard names.contains(name.lowercased()) else {
        throw CLIError.invalidValue(
          "'\(name)' is not a built-in block: they are \(names.joined(separator: ", "))")
      }
      let block = try global.openDatabase(environment).restoreBuiltInBlock(named: name, now: environment.now)
      environment.print(TerminalText.printable("Restored block \(block.name): \(block.title) (\(block.priority))"))
    }
  }
}
