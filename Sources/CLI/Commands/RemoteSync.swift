import ArgumentParser
import Core
import Foundation
import Remote
import Storage

extension Ootd.RemoteCommand {
  /// `ootd remote sync`.
  struct SyncCommand: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "sync",
      abstract: "Pull your other machines' changes, push this machine's, publish the day figures.",
      discussion: """
        Edits to different fields of a todo made on two machines are both kept; the same \
        field edited on both keeps the later edit (by a clock that survives machines whose \
        clocks disagree) and the conflict is reported; a todo deleted on one machine and \
        edited on another stays deleted, reported too. Undoing a pushed change is a new change \
        that travels at the next sync. A sync stopped at any moment (the server gone, the \
        process killed) loses nothing: run it again.

        The board of your teams gets each day's total, done and commits (never titles).

        --json prints {"pushed", "pulled", "conflicts", "changed", "conflictList": [{"kind", \
        "entity", "uuid", "name", "field", "kept", "lost"}], "device"}: pushed and pulled \
        count row-level changes.

        Examples:
          ootd remote sync
          OOTD_REMOTE=postgres://alice@db.example.com/ootd ootd remote sync --json
        """)

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment)
      let access = try RemoteAccess.resolve(environment, database: { database })
      let summary = try RemoteSyncRun(
        database: database, server: try access.server(), environment: environment,
        displayName: access.displayName
      ).run()
      if output.json {
        environment.output(try JSONOutput.encode(SyncJSON(summary)) + "\n")
        return
      }
      var line = "Pushed \(Self.changes(summary.pushed)), pulled \(Self.changes(summary.pulled))"
      if summary.pulled > 0 { line += " (\(group(summary.changed)) applied here)" }
      line += summary.conflicts.isEmpty ? "." : "; \(summary.conflicts.count == 1 ? "1 conflict" : "\(summary.conflicts.count) conflicts") resolved:"
      environment.print(line)
      for conflict in summary.conflicts {
        environment.print("  " + TerminalText.printable(Self.describe(conflict)))
      }
    }

    static func changes(_ count: Int) -> String { count == 1 ? "1 change" : "\(group(count)) changes" }

    /// One line for a resolved conflict.
    static func describe(_ report: SyncConflictReport) -> String {
      let conflict = report.conflict
      let subject = "\(conflict.entity)" + (report.name.map { " '\($0)'" } ?? " \(conflict.row.prefix(8))")
      switch conflict.kind {
      case .sameField:
        return "\(subject): \(conflict.field ?? "?") changed on two machines; kept \(conflict.kept?.description ?? "?") (the later), dropped \(conflict.lost?.description ?? "?")"
      case .editOfDeleted:
        return "\(subject): deleted on one machine, edited on another; it stays deleted"
      case .nameTaken:
        return "\(subject): made on two machines under one name; todos linked to either are linked to this machine's \(conflict.entity)"
      }
    }
  }

  /// `ootd remote status`.
  struct StatusCommand: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "status",
      abstract: "Show the server, the last sync and the changes waiting to be pushed.",
      discussion: """
        Works offline: it does not contact the server. The URI is shown without a password.

        --json prints {"server", "device", "lastSync", "waitingChanges", "waitingOperations", \
        "firstSync"}; server and lastSync are null when unset.

        Examples:
          ootd remote status
          ootd remote status --json
        """)

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment, readOnly: true)
      let shown = (try? RemoteAccess.resolve(environment, database: { database }))?.shown
      let status = try database.syncStatus()
      let lastSync = status.lastSync.map { ISO8601Timestamp.string($0) }
      if output.json {
        environment.output(
          try JSONOutput.encode(
            StatusJSON(
              server: shown, device: status.device, lastSync: lastSync,
              waitingChanges: status.waitingChanges, waitingOperations: status.waitingOperations,
              firstSync: status.firstSyncPending)) + "\n")
        return
      }
      environment.print("Server:     \(shown ?? "none (ootd remote set URI, or OOTD_REMOTE)")")
      environment.print("Device:     \(status.device)")
      environment.print("Last sync:  \(lastSync ?? "never")")
      let waiting =
        status.firstSyncPending
        ? "everything (the first sync pushes every todo, project and block)"
        : "\(group(status.waitingChanges)) \(status.waitingChanges == 1 ? "change" : "changes") (\(group(status.waitingOperations)) row-level)"
      environment.print("To push:    \(waiting)")
    }
  }
}

/// `remote sync --json`.
struct SyncJSON: Encodable {
  let summary: RemoteSyncRun.Summary
  init(_ summary: RemoteSyncRun.Summary) { self.summary = summary }

  struct Conflict: Encodable {
    let report: SyncConflictReport
    enum Keys: String, CodingKey { case kind, entity, uuid, name, field, kept, lost }
    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: Keys.self)
      let conflict = report.conflict
      try c.encode(conflict.kind.rawValue, forKey: .kind)
      try c.encode(conflict.entity.rawValue, forKey: .entity)
      try c.encode(conflict.row, forKey: .uuid)
      try c.encode(report.name, forKey: .name)
      try c.encode(conflict.field, forKey: .field)
      try c.encode(conflict.kept.map(Self.json), forKey: .kept)
      try c.encode(conflict.lost.map(Self.json), forKey: .lost)
    }
    static func json(_ value: FieldValue) -> String? {
      switch value {
      case .null: return nil
      case .integer(let integer): return String(integer)
      case .text(let text): return text
      }
    }
  }

  enum Keys: String, CodingKey { case pushed, pulled, conflicts, changed, conflictList, device }
  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(summary.pushed, forKey: .pushed)
    try c.encode(summary.pulled, forKey: .pulled)
    try c.encode(summary.conflicts.count, forKey: .conflicts)
    try c.encode(summary.changed, forKey: .changed)
    try c.encode(summary.conflicts.map(Conflict.init), forKey: .conflictList)
    try c.encode(summary.device, forKey: .device)
  }
}

/// `remote status --json`.
struct StatusJSON: Encodable {
  let server: String?
  let device: String
  let lastSync: String?
  let waitingChanges: Int
  let waitingOperations: Int
  let firstSync: Bool
  enum Keys: String, CodingKey { case server, device, lastSync, waitingChanges, waitingOperations, firstSync }
  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Keys.self)
    try c.encode(server, forKey: .server)
    try c.encode(device, forKey: .device)
    try c.encode(lastSync, forKey: .lastSync)
    try c.encode(waitingChanges, forKey: .waitingChanges)
    try c.encode(waitingOperations, forKey: .waitingOperations)
    try c.encode(firstSync, forKey: .firstSync)
  }
}
