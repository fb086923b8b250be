import ArgumentParser
import Core
import Storage

/// Shared by `undo` and `redo`: the options, and one step of the journal printed.
struct JournalStepOptions: ParsableArguments {
  @OptionGroup var output: JSONOption
  @OptionGroup var global: GlobalOptions

  func run(undo: Bool, in environment: AppEnvironment) throws {
    let database = try global.openDatabase(environment)
    let step =
      undo
      ? try database.undo(today: environment.today, now: environment.now)
      : try database.redo(today: environment.today, now: environment.now)
    try JournalOutput(environment).printStep(step, json: output.json, undo: undo)
  }
}

extension Ootd {
  /// `ootd undo`: reverts the most recent change.
  struct Undo: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "undo",
      abstract: "Revert the most recent change (run again to go further back).",
      discussion: """
        Every command that changes your todos, blocks or projects is recorded in a journal \
        ('ootd log'). undo reverts the most recent change that is not undone yet, exactly: a \
        deleted todo comes back with its id, a removed project with its todos linked again, \
        carried todos return to their days. Undo is a change too: it shows in the log, and \
        'ootd redo' applies the change again. GitHub data and settings are never undone.

        Examples:
          ootd done 12 13 && ootd undo
          ootd undo --json
        """)

    @OptionGroup var options: JournalStepOptions

    func run(in environment: AppEnvironment) throws { try options.run(undo: true, in: environment) }
  }

  /// `ootd redo`: applies again the most recently undone change.
  struct Redo: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "redo",
      abstract: "Apply again the change you undid most recently.",
      discussion: """
        A new change after an undo ends what can be redone, as in an editor.

        Examples:
          ootd undo && ootd redo
          ootd redo --json
        """)

    @OptionGroup var options: JournalStepOptions

    func run(in environment: AppEnvironment) throws { try options.run(undo: false, in: environment) }
  }

  /// `ootd log`: the change journal, newest first.
  struct Log: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "log",
      abstract: "List recent changes, newest first: when, the command, what it did, and whether it is undone.",
      discussion: """
        Examples:
          ootd log
          ootd log --limit 5
          ootd log --json | jq '.[0]'
        """,
      aliases: ["history"])

    @Option(name: .long, help: ArgumentHelp("How many changes to show (default: 20).", valueName: "n"))
    var limit: Int = 20

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run(in environment: AppEnvironment) throws {
      let entries = try global.openDatabase(environment, readOnly: true).journal(limit: limit)
      try JournalOutput(environment).printLog(entries, json: output.json, noColor: global.noColor)
    }
  }
}
