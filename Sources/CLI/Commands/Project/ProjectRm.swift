import ArgumentParser
import Foundation
import Core
import Storage

extension Ootd {
  struct RemoveProject: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "rm",
      abstract: "Delete a project; its todos stay, unlinked (asks first; --yes skips).",
      discussion: """
        Examples:
          ootd project rm old-idea
          ootd project rm old-idea --yes
        """,
      aliases: ["remove"])

    @Argument(help: "The project's name.", completion: NameCompletion.projects)
    var name: String

    @OptionGroup var confirmation: ConfirmOption

    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment)
      let progress = try database.project(named: name)
      try confirmation.confirm(
        action: "delete project \(progress.project.name)",
        detail: "Its \(progress.total) todos stay, unlinked.", environment: environment)
      let unlinked = try database.removeProject(named: progress.project.name, now: environment.now)
      environment.print(TerminalText.printable(
        "Deleted project \(progress.project.name); \(counted(unlinked, "todo")) kept, unlinked"))
    }
  }
}
