import ArgumentParser
import Core
import Storage

extension Ootd {
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
}
