import ArgumentParser
import Core
import Foundation
import Interchange
import Storage
import UseCases

extension Ootd.CalDAVCommand {
  /// `ootd caldav sync [--json] [--from D --to D]` (also `ootd sync --caldav`).
  struct SyncCommand: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "sync",
      abstract: "Make the linked CalDAV task list and your todos equal, both ways.",
      discussion: """
        Looks at the todos from 30 days ago to 60 days ahead (--from/--to change it), the \
        backlog, and every todo synced before; takes everything the server holds. What changed \
        on one side since the last sync goes to the other; a field changed on both keeps the \
        later change (ootd's by the time of its last change, the server's by its \
        LAST-MODIFIED) and the conflict is reported, as 'remote sync' reports them; a todo \
        deleted on one side and edited on the other stays deleted. A todo ticked on the phone \
        is done on its own day (its DTSTART), not the day of the sync. A repeating VTODO \
        (RRULE) is taken as its next instance, said on standard error.

        Everything taken from the server is one change: 'ootd undo' takes a whole sync back, \
        and the next sync pushes the undo. Updates and deletions are sent with If-Match and \
        new VTODOs with If-None-Match: *, so no change on the server is overwritten unseen; a \
        sync stopped at any point (a server gone, the process killed) loses nothing and the \
        next one finishes without pushing anything twice.

        --json prints {"pushed", "pulled", "deleted", "conflicts", "conflictList": [{"kind", \
        "entity", "uuid", "name", "field", "kept", "lost", "rule"}], "ruleConflicts", "notes", \
        "created", "updated", "removed", "fullListing"}: pushed counts VTODOs created, updated \
        or deleted on the server (created, updated, removed); pulled the todos created or \
        changed here; deleted the todos removed here because they were deleted there.

        Examples:
          ootd caldav sync
          ootd caldav sync --json
          ootd caldav sync --from 2026-01-01 --to 2026-12-31
        """)

    @Option(name: .long, help: ArgumentHelp("The window's first day (default: 30 days ago).", valueName: "day"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("The window's last day (default: 60 days ahead).", valueName: "day"))
    var to: String?

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) async throws {
      try await Self.sync(environment, global: global, from: from, to: to, json: output.json)
    }

    /// The sync, for `caldav sync` and `sync --caldav`.
    static func sync(_ environment: AppEnvironment, global: GlobalOptions, from: String?, to: String?, json: Bool) async throws {
      let window = try Self.window(environment, from: from, to: to)
      let database = try global.openDatabase(environment)
      guard let link = try database.calDAVLink() else {
        throw CLIError.invalidValue("no CalDAV task list linked: run 'ootd caldav set URL --user NAME' first")
      }
      let url = try CalDAVAccess.checked(link.url)
      let (user, password) = try CalDAVAccess.credentials(environment, url: url, user: link.user)
      let collection = try CalDAVAccess.collection(environment, url: url, user: user, password: password)
      let run = CalDAVSyncRun(
        store: database, collection: collection, mapping: VTODOObjectMapping(), window: window, now: environment.now, today: environment.today,
        timeZone: environment.timeZone, productVersion: Ootd.version, reached: DebugFault.reached)
      let summary = try await CalDAVAccess.reporting(url: link.url) { try await run.run() }
      for sentence in summary.ruleConflicts {
        environment.printError("ootd: conflict: " + TerminalText.printable(sentence))
      }
      for note in summary.notes {
        environment.printError("ootd: note: " + TerminalText.printable(note))
      }
      if json {
        JSONOutput.print(CalDAVSyncJSON(summary: summary), environment)
        return
      }
      var line = "Pushed \(group(summary.pushed)), pulled \(group(summary.pulled)), deleted \(group(summary.deleted))"
      line += summary.conflicts.isEmpty ? "." : "; \(counted(summary.conflicts.count, "conflict")) resolved:"
      environment.print(line)
      for conflict in summary.conflicts {
        environment.print("  " + TerminalText.printable(Ootd.RemoteCommand.SyncCommand.describe(conflict)))
      }
    }

    /// `--from`/`--to`, else the default window.
    static func window(_ environment: AppEnvironment, from: String?, to: String?) throws -> DayRange {
      let standard = CalDAVSyncRun.defaultWindow(today: environment.today)
      let first = try parseDay(from, environment) ?? standard.from
      let last = try parseDay(to, environment) ?? standard.to
      guard first <= last else { throw CLIError.invalidValue("--from \(first) is after --to \(last)") }
      return try DayRange(from: first, to: last)
    }
  }
}
