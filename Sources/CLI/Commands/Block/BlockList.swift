import ArgumentParser
import Core
import Storage

extension Ootd.Block {
  struct ListBlocks: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List task blocks.",
      discussion: """
        Examples:
          ootd block list
          ootd block list --json | jq -r '.[].name'
        """,
      aliases: ["ls"])

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let blocks = try global.openDatabase(environment, readOnly: true).blocks()
      if output.json {
        JSONOutput.print(blocks.map(JSONOutput.BlockJSON.init), environment)
        return
      }
      let table = BlockTable(style: environment.style(noColor: global.noColor), today: environment.today)
      environment.output(table.render(blocks).map { $0 + "\n" }.joined())
    }
  }
}
