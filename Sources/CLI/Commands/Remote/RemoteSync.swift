import ArgumentParser
import Core
import Encryption
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

        The board of your teams gets each day's total, done and commits (never titles): \
        every day with todos, and the last 35 days.

        Everything else is encrypted on this machine before it leaves (titles, notes, tags, \
        projects, blocks: XChaCha20-Poly1305 under your sync key); the server's owner sees \
        ids, clocks and sizes only. The key is in a file beside the database (0600); without \
        it the sync asks for your passphrase (or reads OOTD_REMOTE_PASSPHRASE) and proves it \
        before pulling anything. A row that fails its check (changed on the server) stops the \
        sync with one line naming it, nothing of its page applied.

        --json prints {"pushed", "pulled", "conflicts", "changed", "conflictList": [{"kind", \
        "entity", "uuid", "name", "field", "kept", "lost"}], "device", "renumbered": [{"uuid", \
        "title", "from", "to"}], "ruleConflicts": [sentences], "setAside": [{"id", "device", \
        "reason"}], "clockSkewSeconds", "pushRefused", "pulledBytes", "publishedDays"}: pushed and \
        pulled count row-level changes; each conflict also has "rule" (later, clock-ahead or \
        tie); publishedDays counts the days whose board figures changed since the last sync \
        (the only ones published).

        Each sync compares this machine's clock with the server's: more than a minute apart, \
        it warns on standard error, with --json too (clockSkewSeconds is positive when this \
        machine is ahead); more than an hour apart, it pulls but pushes nothing and exits 1 \
        until the clock is set right (--ignore-clock-skew pushes anyway). So do changes waiting \
        here that were made while the clock was wrong: more than an hour ahead of the server's \
        now, or more than an hour before this machine's last sync by the server's clock; undo \
        them, or push them as they are with --ignore-clock-skew. Another machine's clock running \
        ahead never takes this machine's more than a minute past the later of its own and the \
        server's.

        A todo has the same number on every machine: one pulled keeps the number it has on \
        its machine when that number is free here. When two machines gave one number to two \
        todos, the one with the smaller uuid keeps it everywhere and the other gets the next \
        free number; each todo renumbered here is listed.

        A row on the server this ootd cannot apply (unreadable, over a size cap, a clock out of \
        range, refused by the database) is set aside: nothing of it is applied, one line on \
        standard error names it, `remote status` lists it (until a sync finds the server no \
        longer holds it), and later syncs go on past it. A \
        row whose encrypted payload fails authentication (changed on the server, or not sealed \
        with your key) is set aside the same way, and the sync that meets it exits 1.

        Examples:
          ootd remote sync
          OOTD_REMOTE=postgres://alice@db.example.com/ootd ootd remote sync --json
        """)

    @Flag(
      name: .customLong("ignore-clock-skew"),
      help: "Push even when this machine's clock is more than an hour off the server's.")
    var ignoreClockSkew = false

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let database = try global.openDatabase(environment)
      // A commit per pulled page, no fsync each: a page lost to a power cut is lost with the
      // cursor that moved past it, and pulled again.
      try database.preferSpeedOverDurabilityForCachedData()
      let access = try RemoteAccess.resolve(environment, database: { database })
      // The passphrase is proven (or the key file read) before anything is pulled.
      let server = try SyncKey(environment, databasePath: database.path).seal(try access.server())
      try DeviceNaming.ensureSaved(environment, database: database)
      var run = RemoteSyncRun(
        journal: database.sync, server: server, figures: database, now: environment.now,
        today: environment.today, timeZone: environment.timeZone,
        fileIdentity: FileIdentity.of(database.path), displayName: access.displayName,
        reached: DebugFault.reached)
      // The running clock, not `now` (a test pins `now`; libfaketime moves the running one).
      run.physicalClock = environment.clock
      run.ignoreClockSkew = ignoreClockSkew
      #if DEBUG
      run.pagedBy = AppEnvironment.debugPullPage(environment.variables)
      #endif
      // Another role, server or database than the last sync's: a first sync there, every row
      // pushed (the same server under another spelling of its URI is the same account).
      let account = access.account(server)
      run.account = account
      let summary = try run.run()
      if let before = summary.previousAccount {
        environment.printError(
          TerminalText.printable(
            "ootd: note: this database synced with \(before) and now syncs with \(account.name): its first sync there pushes all its todos, blocks and projects"))
      }
      let skew = summary.clockSkewSeconds
      // On standard error with --json too: it is not the JSON stream (issue 24 §2).
      if abs(skew) > RemoteSyncRun.warnedSkewSeconds && !(summary.pushRefused && summary.misstamped == nil) {
        environment.printError("ootd: warning: \(Self.describeSkew(skew)); set it right (NTP) before a change made here wins or loses by the clock instead of by time")
      }
      if let original = summary.copiedFrom {
        environment.printError(
          "ootd: note: this database is a copy of another file (device \(original)): it now syncs as a new device, \(summary.device)")
      }
      if !summary.forgottenSetAside.isEmpty {
        let count = summary.forgottenSetAside.count
        let seqs = summary.forgottenSetAside.map(String.init).joined(separator: ", ")
        environment.printError(
          "ootd: note: forgot \(count) set-aside server \(noun(count, "row")) the server no longer holds (\(seqs))")
      }
      for sentence in summary.ruleConflicts {
        environment.printError("ootd: conflict: " + TerminalText.printable(sentence))
      }
      for row in summary.setAside where !row.unopened || summary.pushRefused {
        environment.printError("ootd: " + Self.describe(row))
      }
      let refusal =
        summary.pushRefused
        ? summary.misstamped.map(Self.refusal) ?? Self.refusal(skew) : Self.unopened(summary.setAside)
      if output.json {
        JSONOutput.print(SyncJSON(summary), environment)
        if let refusal { throw RemoteError.refused(refusal) }
        return
      }
      // Counted as `remote status` counts: changes (journal entries, one a command) and their
      // row-level operations, so "1 change waiting" is followed by "Pushed 1 change"; what
      // this sync settled itself (a todo renumbered, a rule kept), which the status could not
      // know of, apart: "Pushed 1 change (1 row-level; +1 this sync settled)" (tryout 18 W3).
      var line =
        "Pushed \(Self.changes(summary.pushedChanges - summary.pushedSettled, operations: summary.pushed - summary.pushedSettledOperations))"
      if summary.pushedSettled > 0 {
        let own = "+\(group(summary.pushedSettled)) this sync settled"
        line = line.hasSuffix(")") ? String(line.dropLast()) + "; \(own))" : line + " (\(own))"
      }
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
      if let refusal { throw RemoteError.refused(refusal) }
    }

    /// `this machine's clock is 10 min 2 s ahead of the server's (602 s)`.
    static func describeSkew(_ seconds: Double) -> String {
      let side = seconds > 0 ? "ahead of" : "behind"
      return "this machine's clock is \(span(seconds)) \(side) the server's (\(group(Int(seconds.rounded()))) s)"
    }

    /// `10 min 2 s`, `2 h 0 min`, `2 days 0 h` (of the magnitude of `seconds`).
    static func span(_ seconds: Double) -> String {
      let whole = Int(abs(seconds).rounded())
      let hours = whole / 3600
      let minutes = whole % 3600 / 60
      if hours >= 48 { return "\(hours / 24) days \(hours % 24) h" }
      return hours > 0 ? "\(hours) h \(minutes) min" : minutes > 0 ? "\(minutes) min \(whole % 60) s" : "\(whole) s"
    }

    /// The one line of a push refused for changes made while the clock was wrong (issue 24 §2):
    /// how many, how far off, the ways out.
    static func refusal(_ found: MisstampedChanges) -> String {
      var how: [String] = []
      if found.ahead > 0 { how.append("\(found.ahead) up to \(span(found.aheadSeconds)) ahead of the server's clock") }
      if found.behind > 0 {
        how.append("\(found.behind) up to \(span(found.behindSeconds)) before this machine's last sync by the server's clock")
      }
      let changes = counted(found.count, "change waiting here", "changes waiting here")
      return "\(changes) \(found.count == 1 ? "was" : "were") made while this machine's clock was wrong (\(how.joined(separator: "; "))): pulled, but pushed nothing; undo them ('ootd undo') or push them as they are with --ignore-clock-skew"
    }

    /// The one line of a push refused for the skew.
    static func refusal(_ seconds: Double) -> String {
      "\(describeSkew(seconds)): pulled, but pushed nothing; set this machine's clock right (e.g. 'timedatectl set-ntp true'), or push anyway with --ignore-clock-skew"
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

    /// The one line for rows whose payload could not be opened (changed on the server, or not
    /// sealed with this key): set aside, the sync done without them, and it fails (exit 1);
    /// nil when there are none.
    static func unopened(_ rows: [SetAsideRow]) -> String? {
      let rows = rows.filter(\.unopened)
      guard let first = rows.first else { return nil }
      let subject =
        rows.count == 1
        ? "server row \(first.seq) (op \(first.opID?.prefix(36) ?? "?"))"
        : "server rows \(rows.map { String($0.seq) }.joined(separator: ", "))"
      // In the words of the row's reason (a plain payload is not encrypted; a sealed one that
      // does not open fails authentication).
      let what: String
      if rows.allSatisfy({ $0.reason == PayloadCipher.notSealed }) {
        what = (rows.count == 1 ? "is" : "are") + " not encrypted (pushed by an ootd without encryption, or not by ootd)"
      } else if rows.allSatisfy({ $0.reason == PayloadCipher.failsAuthentication }) {
        what = (rows.count == 1 ? "fails" : "fail") + " authentication: changed on the server or not sealed with your key"
      } else {
        what = "cannot be opened with your key (changed on the server, or not encrypted)"
      }
      return TerminalText.printable(
        "\(subject) \(what); set aside, nothing of "
          + (rows.count == 1 ? "it" : "them") + " applied (the rest synced; `remote status` lists set-aside rows)")
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
      case .sameField, .tag:
        let why: String
        switch report.rule {
        case .later: why = "the later"
        case .clockAhead: why = "the later by its machine's clock, which ran more than a minute ahead of the server's"
        case .tie: why = "made at the same clock value; the device ids broke the tie"
        }
        if conflict.kind == .tag {
          let kept = conflict.kept?.text != nil
          return "\(subject): tag \(kept ? report.kept.words : report.lost.words) added on one machine, taken away on another; \(kept ? "kept it" : "took it away") (\(why))"
        }
        return "\(subject): \(conflict.field ?? "?") changed on two machines; kept \(report.kept.quoted) (\(why)), over \(report.lost.quoted)"
      case .editOfDeleted:
        return "\(subject): deleted on one machine, edited on another; it stays deleted"
      case .nameTaken:
        return "\(subject): made on two machines under one name; todos linked to either are linked to this machine's \(conflict.entity)"
      }
    }
  }
}
