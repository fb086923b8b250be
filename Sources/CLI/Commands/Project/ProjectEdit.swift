import ArgumentParser
import Foundation
import Core
import Storage

extension Ootd {
  struct EditProject: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit",
      abstract: "Change a project's fields (an empty value clears one).",
      discussion: """
        Examples:
          ootd project edit ootd --end today --memo "Shipped 1.0"
          ootd project edit ootd --rename ootd-cli
          ootd project edit ootd --repo ''
        """)

    @Argument(help: "The project's name.", completion: NameCompletion.projects)
    var name: String

    @Option(name: .long, help: ArgumentHelp("A new name.", valueName: "name"))
    var rename: String?

    @OptionGroup var fields: ProjectFieldOptions
    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      // Checked here, not in validate(), so that a mistyped option is reported as such first.
      if rename == nil && fields.isEmpty {
        throw CLIError.invalidValue(
          "nothing to change: give --rename, --repo, --desc, --path, --start, --end, --tech or --memo")
      }
      if let rename { _ = try Name.validate(rename, kind: "project") }
      let database = try global.openDatabase(environment)
      let updated = try database.updateProject(named: name, now: environment.now) { (project: inout Project) throws(CoreError) in
        if let rename { project.name = rename }
        try fields.apply(to: &project, environment)
      }
      if output.json {
        JSONOutput.ProjectJSON.print(try database.project(named: updated.name), environment)
      } else {
        environment.print(TerminalText.printable("Updated project \(updated.name)"))
      }
    }
  }
}
