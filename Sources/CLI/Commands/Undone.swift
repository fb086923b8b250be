import ArgumentParser
import Core
import Storage

extension Ootd {
  /// `ootd undone`: unticks todos.
  struct Undone: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "undone",
      abstract: "Mark done (or dropped) todos as open again.",
      discussion: """
        Every id must exist, or nothing changes. A dropped todo is taken back up: open again, \
        and overdue when its day has passed.

        Example:
          ootd undone 12
        """)

    @OptionGroup var options: TickOptions

    func run(in environment: AppEnvironment) throws {
      try options.run(done: false, in: environment)
    }
  }
}
