import ArgumentParser

/// A command of `ootd`: it runs against an ``AppEnvironment`` (the live one, or a test's), and
/// ``Ootd/run(arguments:environment:)`` awaits it. Commands with nothing to await (all but the
/// network ones) implement `run(in:)` synchronously.
protocol OotdCommand: ParsableCommand {
  /// Does the command's work.
  func run(in environment: AppEnvironment) async throws
}
