import ArgumentParser
import Core
import Foundation
import Storage
import UseCases

extension Ootd.CalDAVCommand {
  /// `ootd caldav status [--json]`.
  struct StatusCommand: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "status",
      abstract: "Say which CalDAV task list is linked, when it last synced and what waits.",
      discussion: """
        Offline: asks no server. Waiting are the todos of the default window (and the backlog) \
        changed, made or deleted here since the last sync.

        --json prints {"url", "user", "displayName", "lastSync", "linked", "waiting"}: null \
        when not linked or never synced.
        """)

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment)
      let link = try database.calDAVLink()
      let states = try database.calDAVStates()
      let waiting = link == nil ? 0 : try CalDAVSyncRun.waiting(
        database, window: CalDAVSyncRun.defaultWindow(today: environment.today))
      let lastSync = link?.lastSync.map { Timestamp.string($0, .iso8601) }
      if output.json {
        JSONOutput.print(
          CalDAVStatusJSON(
            url: link?.url, user: link?.user, displayName: link?.displayName, lastSync: lastSync,
            linked: states.count, waiting: waiting), environment)
        return
      }
      guard let link else {
        environment.print("No CalDAV task list linked ('ootd caldav set URL --user NAME').")
        return
      }
      let name = link.displayName.map { " '\($0)'" } ?? ""
      environment.print(TerminalText.printable("CalDAV task list\(name): \(link.url)" + (link.user.map { " as \($0)" } ?? "")))
      environment.print("Last sync: \(lastSync ?? "never")")
      environment.print("Synced todos: \(group(states.count)); waiting: \(group(waiting))")
    }
  }
}
