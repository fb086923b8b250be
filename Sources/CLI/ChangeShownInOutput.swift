import Storage

/// A command whose output is the only word of the change it committed (`add --json` prints the
/// new id): when that output cannot be written, the dispatcher takes the change back with the
/// journal's exact undo, so a failed command leaves the data as it was.
protocol ChangeShownInOutput: OotdCommand {
  /// The options naming the database the command changed.
  var databaseOptions: GlobalOptions { get }
}

extension Ootd.Add: ChangeShownInOutput {
  var databaseOptions: GlobalOptions { global }
}

extension Ootd.Done: ChangeShownInOutput {
  var databaseOptions: GlobalOptions { options.global }
}

extension Ootd.Carry: ChangeShownInOutput {
  var databaseOptions: GlobalOptions { global }
}

extension Ootd.Block.AddBlock: ChangeShownInOutput {
  var databaseOptions: GlobalOptions { global }
}

extension ChangeShownInOutput {
  /// Undoes the change this invocation committed, when it is still the newest entry of the
  /// journal: an entry another command made since is never touched. Returns whether it undid.
  func takeBackChange(_ environment: AppEnvironment) -> Bool {
    do {
      let database = try databaseOptions.openDatabase(environment)
      guard let last = try database.journal(limit: 1).first, last.kind == .change,
        !last.isUndone, last.command == database.command
      else { return false }
      _ = try database.undo(today: environment.today, now: environment.now)
      return true
    } catch {
      return false
    }
  }
}
