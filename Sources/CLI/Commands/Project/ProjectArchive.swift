import ArgumentParser
import Foundation
import Core
import Storage

extension Ootd {
  struct ArchiveProject: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "archive",
      abstract: "Archive a project (hidden from 'project list').",
      discussion: """
        Example:
          ootd project archive ootd      # 'ootd project list --archived' still shows it
        """)

    @Argument(help: "The project's name.", completion: NameCompletion.projects)
    var name: String

    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let project = try global.openDatabase(environment).updateProject(named: name, now: environment.now) {
        (project: inout Project) throws(CoreError) in project.isArchived = true
      }
      environment.print(TerminalText.printable("Archived project \(project.name)"))
    }
  }
}
