import ArgumentParser
import Foundation
import Core
import Storage

extension Ootd {
  struct ListProjects: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List projects with their progress (archived ones only with --archived or --all).",
      discussion: """
        Examples:
          ootd project list
          ootd project list --all --json
        """,
      aliases: ["ls"])

    @Flag(name: .long, help: "Only archived projects.")
    var archived = false

    @Flag(name: .long, help: "Active and archived projects.")
    var all = false

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if archived && all { throw ValidationError("--archived and --all cannot be combined") }
    }

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment, readOnly: true)
      let selection: AppDatabase.ProjectSelection = all ? .all : archived ? .archived : .active
      // Projects are streamed from the database to the output: constant memory for any number
      // (an import makes one for each name it meets).
      if output.json {
        var writer = JSONStreamWriter(environment)
        writer.beginArray()
        try database.forEachProject(selection) { progress in
          JSONOutput.ProjectJSON(progress: progress).write(to: &writer)
          return environment.outputFailed() == nil
        }
        writer.endArray()
        writer.finish()
        return
      }
      let style = environment.style(noColor: global.noColor)
      let table = ProjectTable(style: style)
      // A first pass measures the columns, a second writes the rows.
      var widths = ProjectTable.Widths()
      var count = 0
      try database.forEachProject(selection) { progress in
        widths.measure(table.cells(progress))
        count += 1
        return true
      }
      guard count > 0 else {
        environment.print(style.dim(
          archived ? "No archived projects." : "No projects yet. Add one: ootd project add NAME --repo OWNER/NAME"))
        return
      }
      var text = table.header(widths) + "\n"
      try database.forEachProject(selection) { progress in
        text += table.line(table.cells(progress), widths) + "\n"
        if text.utf8.count >= 65_536 {
          environment.output(text)
          text = ""
        }
        return environment.outputFailed() == nil
      }
      environment.output(text)
    }
  }
}
