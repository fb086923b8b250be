import ArgumentParser
import Core
import Storage

extension Ootd.Block {
  struct RemoveBlock: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "rm",
      abstract: "Remove a task block (todos made from it stay).",
      discussion: """
        Example:
          ootd block rm leetcode
        """,
      aliases: ["remove"])

    @Argument(help: "The block's name.", completion: NameCompletion.blocks)
    var name: String

    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      try global.openDatabase(environment).removeBlock(named: name, now: environment.now)
      environment.print(TerminalText.printable("Removed block \(name)"))
    }
  }
}
