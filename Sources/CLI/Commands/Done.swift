import ArgumentParser
import Core
import Storage

extension Ootd {
  /// `ootd done`: ticks todos.
  struct Done: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "done",
      abstract: "Tick todos as done.",
      discussion: """
        Every id must exist, or nothing changes. A todo of a later day is done today: it moves \
        to today, done ('ootd undo' puts it back on its day, open).

        Examples:
          ootd done 12
          ootd done 12 13 14
          ootd done 4fc7             # by a unique prefix of its uuid
          ootd done 12 --close-on-github   # also close its GitHub issue
        """)

    @OptionGroup var options: TickOptions

    @Flag(
      name: .customLong("close-on-github"),
      help: "Also close each todo's GitHub issue or pull request (sent once; never resent).")
    var closeOnGitHub = false

    func run(in environment: AppEnvironment) async throws {
      guard closeOnGitHub else { return try options.run(done: true, in: environment) }
      try await CloseOnGitHub(options: options).run(in: environment)
    }
  }
}
