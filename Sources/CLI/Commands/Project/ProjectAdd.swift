import ArgumentParser
import Foundation
import Core
import Storage

extension Ootd {
  struct AddProject: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Add a project.",
      discussion: """
        Example:
          ootd project add ootd --repo octo/ootd --desc "Terminal todo tracker" \\
            --start 2026-11-01 --tech swift,sqlite --path ~/src/ootd
        """)

    @Argument(help: "A short unique name: letters, digits, '-', '_' or '.'.")
    var name: String

    @OptionGroup var fields: ProjectFieldOptions
    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      var project = try Project(name: name)
      try fields.apply(to: &project, environment)
      let database = try global.openDatabase(environment)
      try database.addProject(project, now: environment.now)
      let added = try database.project(named: project.name)
      if output.json {
        JSONOutput.ProjectJSON.print(added, environment)
      } else {
        environment.print(TerminalText.printable("Added project \(project.name)" + (project.repository.map { " (\($0))" } ?? "")))
      }
    }
  }
}
