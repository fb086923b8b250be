import ArgumentParser
import Core
import Foundation
import Remote
import Storage
import UseCases

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
        that travels at the next sync. A merge that would leave a todo breaking a rule (done on a \
        day after today, or dropped and done) keeps it done, on today and not dropped, and says \
        so on standard error. A sync stopped at any moment (the server gone, the \
        process killed) loses nothing: run it again.

        The board of your teams gets each day's total, done and commits (never titles).

        Everything else is encrypted on this machine before it leaves (titles, notes, tags, \
        projects, blocks: XChaCha20-Poly1305 under your sync key); the server's owner sees \
        ids, clocks and sizes only. The key is in a file beside the database (0600); without \
        it the sync asks for your passphrase (or reads OOTD_REMOTE_PASSPHRASE) and proves it \
        before pulling anything. A row that fails its check (changed on the server) stops the \
        sync with one line naming it, nothing of its page applied.

        --json prints {"pushed", "pulled", "conflicts", "changed", "conflictList": [{"kind", \
        "entity", "uuid", "name", "field", "kept", "lost"}], "device", "renumbered": [{"uuid", \
        "title", "from", "to"}], "ruleConflicts": [sentences], "setAside": [{"id", "device", \
        "reason"}]}: pushed and pulled count row-level changes.

        A todo has the same number on every machine: one pulled keeps the number it has on \
        its machine when that number is free here. When two machines gave one number to two \
        todos, the one with the smaller uuid keeps it everywhere and the other gets the next \
        free number; each todo renumbered here is listed.

        A row on the server this ootd cannot apply (unreadable, over a size cap, a clock out of \
        range, refused by the database) is set aside: nothing of it is applied, one line on \
        standard error names it, `remote status` lists it, and later syncs go on past it.

        Examples:
          ootd remote sync
          OOTD_REMOTE=postgres://alice@db.example.com/ootd ootd remote sync --json
        """)

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment)
      let access = try RemoteAccess.resolve(environment, database: { database })
      // The passphrase is proven (or the key file read) before anything is pulled.
      let server = try SyncKey(environment, databasePath: database.path).seal(try access.server())
      let summary = try RemoteSyncRun(
        journal: database.sync, server: server, figures: database, now: environment.now,
        today: environment.today, timeZone: environment.timeZone,
        fileIdentity: FileIdentity.of(database.path), displayName: access.displayName,
        reached: DebugFault.reached
      ).run()
      if let original = summary.copiedFrom {
        environment.printError(
          "ootd: note: this database is a copy of another file (device \(original)): it now syncs as a new device, \(summary.device)")
      }
      for sentence in summary.ruleConflicts {
        environment.printError("ootd: conflict: " + TerminalText.printable(sentence))
      }
      for row in summary.setAside {
        environment.printError("ootd: " + Self.describe(row))
      }
      if output.json {
        JSONOutput.print(SyncJSON(summary), environment)
        return
      }
      // Counted as `remote status` counts: changes (journal entries, one a command) and their
      // row-level operations, so "1 change waiting" is followed by "Pushed 1 change".
      var line = "Pushed \(Self.changes(summary.pushedRecords, operations: summary.pushed))"
      line += ", pulled \(Self.changes(summary.pulledRecords, operations: summary.pulled))"
      if summary.pulled > 0 { line.removeLast(); line += ", \(group(summary.changed)) applied here)" }
      line += summary.conflicts.isEmpty ? "." : "; \(counted(summary.conflicts.count, "conflict")) resolved:"
      environment.print(line)
      for conflict in summary.conflicts {
        environment.print("  " + TerminalText.printable(Self.describe(conflict)))
      }
      for renumbering in summary.renumbered {
        environment.print(TerminalText.printable(Self.describe(renumbering)))
      }
    }

    /// One line for a todo renumbered here: `renumbered: #8 'Buy milk' is now #9`.
    static func describe(_ renumbering: SyncRenumbering) -> String {
      "renumbered: #\(renumbering.from) '\(renumbering.title)' is now #\(renumbering.to) (another todo has #\(renumbering.from) on your machines)"
    }

    /// `1 change (3 row-level)`; `0 changes` alone.
    static func changes(_ count: Int, operations: Int) -> String {
      let changes = counted(count, "change", digits: group)
      return operations == 0 ? changes : "\(changes) (\(group(operations)) row-level)"
    }

    /// One line for a row set aside: `set aside server row 1234 from device '…': why`, printable
    /// (the device id and the reason may hold the server's text).
    static func describe(_ row: SetAsideRow) -> String {
      TerminalText.printable(
        "set aside server row \(row.seq) from device '\(row.device.prefix(36))': \(row.reason)")
    }

    /// One line for a resolved conflict.
    static func describe(_ report: SyncConflictReport) -> String {
      let conflict = report.conflict
      let subject = report.subject
      switch conflict.kind {
      case .sameField:
        return "\(subject): \(conflict.field ?? "?") changed on two machines; kept \(report.kept.quoted) (the later), over \(report.lost.quoted)"
      case .editOfDeleted:
        return "\(subject): deleted on one machine, edited on another; it stays deleted"
      case .nameTaken:
        return "\(subject): made on two machines under one name; todos linked to either are linked to this machine's \(conflict.entity)"
      }
    }
  }
}
