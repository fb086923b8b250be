import ArgumentParser
import Foundation
import Core
import Storage

extension Ootd {
  /// `ootd project`: the project archive.
  struct ProjectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "project",
      abstract: "Keep an archive of your projects and link todos to them.",
      discussion: """
        Examples:
          ootd project add ootd --repo octo/ootd --desc "Terminal todo tracker" --tech swift,sqlite
          ootd project list
          ootd project show ootd
          ootd add "Write the README" --project ootd
          ootd project archive ootd
        """,
      subcommands: [
        AddProject.self, ListProjects.self, ShowProject.self, EditProject.self,
        ArchiveProject.self, UnarchiveProject.self, RemoveProject.self,
      ],
      defaultSubcommand: ListProjects.self,
      aliases: ["projects"])
  }

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
      let detail = ProjectDetail(progress: progress, commits: commits, database: database)
      if output.json {
        try detail.printJSON(environment)
      } else {
        try detail.printText(style: environment.style(noColor: global.noColor), environment)
      }
    }
  }

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
        "Deleted project \(progress.project.name); \(unlinked) \(unlinked == 1 ? "todo" : "todos") kept, unlinked"))
    }
  }
}
