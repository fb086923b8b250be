import ArgumentParser
import Foundation
import Core
import Storage

extension Ootd {
  struct UnarchiveProject: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "unarchive",
      abstract: "Bring an archived project back.",
      discussion: """
        Example:
          ootd project unarchive ootd
        """)

    @Argument(help: "The project's name.", completion: NameCompletion.projects)
    var name: String

    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      var wasArchived = false
      let project = try global.openDatabase(environment).updateProject(named: name, now: environment.now) {
        (project: inout Project) throws(CoreError) in
        wasArchived = project.isArchived
        project.isArchived = false
      }
      environment.print(TerminalText.printable(
        wasArchived ? "Unarchived project \(project.name)" : "Project \(project.name) is already unarchived"))
    }
  }
}
