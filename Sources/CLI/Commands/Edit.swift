import ArgumentParser
import Core
import Storage

extension Ootd {
  /// `ootd edit`: changes one todo, or several at once.
  struct Edit: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit",
      abstract: "Change the title, priority, project, day, notes or tags of one or more todos.",
      discussion: """
        Several ids get the same change, all or none. Moving an open todo away from a day that \
        has begun keeps it on that day's record as planned and not done (carried); a done todo \
        cannot move to a day after today. --on someday takes a todo off its day, into the \
        backlog ('ootd backlog'); 'ootd plan ID' puts it back on a day.

        A tag cannot be both added (--tag) and taken away (--untag). A todo the change leaves \
        as it was (its values already as asked, no such tag to take away) is listed as kept, \
        not edited, and nothing is recorded for it.

        Examples:
          ootd edit 12 --title "Solve BOJ 1753 with Dijkstra"
          ootd edit 12 --priority low --on tomorrow
          ootd edit 3 4 5 --on fri
          ootd edit 7 --on someday
          ootd edit 12 --project ootd
          ootd edit 12 --no-project
          ootd edit 12 --note "Use a binary heap" --tag algo --untag later
          ootd edit 12 --note ""      # clear the notes
        """)

    // Read as text and checked in validate(), so that a mistyped option after the ids
    // (`edit 1 --titel x`) is reported as the typo, not as a bad id.
    @Argument(help: TodoIDs.help("The ids of the todos."))
    var ids: [String]

    @Option(name: [.short, .long], help: "A new title.")
    var title: String?

    @Option(name: [.short, .long], help: "A new priority: high, mid or low.")
    var priority: Priority?

    @Option(name: .long, help: "Link the todo to this project.", completion: NameCompletion.projects)
    var project: String?

    @Flag(name: .long, help: "Unlink the todo from its project.")
    var noProject = false

    @Option(
      name: .long, help: ArgumentHelp("Move the todo to this day (someday: into the backlog).", valueName: "date"),
      completion: NameCompletion.placements)
    var on: String?

    @Option(name: .long, help: ArgumentHelp("New notes (\"\" clears them).", valueName: "text"))
    var note: String?

    @Option(name: .long, help: ArgumentHelp("Add this tag (repeatable).", valueName: "name"))
    var tag: [String] = []

    @Option(name: .long, help: ArgumentHelp("Take this tag away (repeatable).", valueName: "name"))
    var untag: [String] = []

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    /// The ids as references. Checked in run(), not validate(), so that a mistyped option is
    /// reported as such first.
    private func references() throws -> [TodoReference] {
      try ids.map { text in try TodoReference(parsing: text) }
    }

    func validate() throws {
      try TodoIDs.requireSome(ids)
      if project != nil && noProject {
        throw ValidationError("--project and --no-project cannot be combined")
      }
    }

    func run(in environment: AppEnvironment) throws {
      let references = try references()
      let changes = try TodoChanges(
        title: title, priority: priority,
        day: try Placement.parse(on: on, someday: false, environment),
        project: noProject ? .some(nil) : project.map { .some($0) },
        notes: note.map { .some($0) }, addTags: tag, removeTags: untag)
      // Checked here, not in validate(), so that a mistyped option is reported as such first.
      if changes.isEmpty {
        throw CLIError.invalidValue(
          "nothing to change: give --title, --priority, --project, --no-project, --on, --note, --tag or --untag")
      }
      let database = try global.openDatabase(environment)
      let (todos, unchanged) = try database.editTodosTellingUnchanged(
        ids: TodoIDs.resolve(references, in: database), changes, today: environment.today, now: environment.now)
      let edited = todos.filter { !unchanged.contains($0.id) }
      if changes.day != nil { try warnAboutPlacement(edited, database, environment) }
      // --json keeps its shape: every todo named, as it now is.
      if output.json || unchanged.isEmpty {
        try printTodos(todos, verb: "Edited", json: output.json, noColor: global.noColor, environment)
        return
      }
      // Say what really happened, as done says "already done": a todo as asked did not change.
      if !edited.isEmpty {
        try printTodos(edited, verb: "Edited", json: false, noColor: global.noColor, environment)
      }
      try printTodos(
        todos.filter { unchanged.contains($0.id) }, verb: "Kept", suffix: Self.keptReason(changes), json: false,
        noColor: global.noColor, environment)
    }

    /// Why a todo the change left as it was did not change: the tags it lacks, when the change
    /// only takes tags away; else it already was as asked.
    static func keptReason(_ changes: TodoChanges) -> String {
      var untagOnly = changes
      untagOnly.removeTags = []
      guard untagOnly.isEmpty else { return " (already as asked)" }
      let tags = changes.removeTags.map { "'\($0)'" }
      let named = tags.count == 1 ? tags[0] : tags.dropLast().joined(separator: ", ") + " or " + tags[tags.count - 1]
      return TerminalText.printable(" (no tag \(named) to take away)")
    }
  }
}
