import ArgumentParser
import Core
import Storage

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

        Each machine undoes only its own changes: a field another machine changed since \
        stays as that machine set it (a todo it worked on is kept), the rest is undone, and \
        one line a row says so ('left' in --json).

        Examples:
          ootd done 12 13 && ootd undo
          ootd undo --json
        """)

    @OptionGroup var options: JournalStepOptions

    func run(in environment: AppEnvironment) throws { try options.run(undo: true, in: environment) }
  }
}
