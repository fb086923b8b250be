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
