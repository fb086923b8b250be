import ArgumentParser
import Core
import Foundation
import Remote
import Storage

extension Ootd.RemoteCommand {
  /// `ootd remote status`.
  struct StatusCommand: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "status",
      abstract: "Show the server, the last sync and the changes waiting to be pushed.",
      discussion: """
        Works offline: it does not contact the server. The URI is shown without a password.

        --json prints {"server", "device", "deviceName", "lastSync", "waitingChanges", \
        "waitingOperations", "firstSync", "setAside": [{"id", "device", "reason"}]}; server, \
        device and lastSync are null when unset (a database gets its device id at its first \
        sync); deviceName is the name your other machines' logs show ('ootd remote name'); \
        setAside lists the server rows a sync set aside instead of applying (the next sync \
        forgets those the server's owner deleted since).

        Examples:
          ootd remote status
          ootd remote status --json
        """)

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment, readOnly: true)
      // No server set is a status worth showing; a URI that every other command refuses (not a
      // URI, a password in it) is refused here too rather than shown as "none".
      let shown: String?
      do {
        shown = try RemoteAccess.resolve(environment, database: { database }).shown
      } catch RemoteError.noServer {
        shown = nil
      }
      let status = try database.sync.syncStatus()
      let lastSync = status.lastSync.map { Timestamp.string($0, .iso8601) }
      // Before the first sync the stored id is provisional: that sync replaces it.
      let device = status.deviceAssigned ? status.device : nil
      let naming = try DeviceNaming.effective(environment, database: database)
      if output.json {
        JSONOutput.print(
          StatusJSON(
            server: shown, device: device, deviceName: naming.name, lastSync: lastSync,
            waitingChanges: status.waitingChanges, waitingOperations: status.waitingOperations,
            firstSync: status.firstSyncPending, setAside: status.setAside),
          environment)
        return
      }
      environment.print("Server:     \(shown ?? "none (ootd remote set URI, or OOTD_REMOTE)")")
      environment.print("Device:     \(device ?? "none yet (assigned at the first sync)")")
      let named = naming.saved ? "" : " (the host name's; ootd remote name NAME sets another)"
      environment.print(TerminalText.printable("Name:       \(naming.name.map { $0 + named } ?? "none (ootd remote name NAME)")"))
      environment.print("Last sync:  \(lastSync ?? "never")")
      let waiting =
        status.firstSyncPending
        ? "everything (the first sync pushes every todo, project and block)"
        : "\(counted(status.waitingChanges, "change", digits: group)) (\(group(status.waitingOperations)) row-level)"
      environment.print("To push:    \(waiting)")
      if !status.setAside.isEmpty {
        environment.print("Set aside:  \(group(status.setAside.count)) server \(noun(status.setAside.count, "row"))")
        for row in status.setAside { environment.print("  " + SyncCommand.describe(row)) }
      }
    }
  }
}
