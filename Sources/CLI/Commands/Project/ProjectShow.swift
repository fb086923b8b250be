import ArgumentParser
import Foundation
import Core
import Storage

extension Ootd {
  struct ShowProject: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: "Show a project's details and its todos.",
      discussion: """
        Examples:
          ootd project show ootd
          ootd project show ootd --json
        """)

    @Argument(help: "The project's name.", completion: NameCompletion.projects)
    var name: String

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment, readOnly: true)
      let progress = try database.project(named: name)
      let commits = try progress.project.commitRepository.map {
        try ProjectCommits.load($0, database: database, environment: environment)
      }
      let detail = ProjectDetail(progress: progress, commits: commits, reader: database)
      if output.json {
        try detail.printJSON(environment)
      } else {
        try detail.printText(style: environment.style(noColor: global.noColor), environment)
      }
    }
  }
}
