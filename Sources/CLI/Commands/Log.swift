import ArgumentParser
import Core
import Storage

extension Ootd {
  /// `ootd log`: the change journal, newest first.
  struct Log: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "log",
      abstract: "List recent changes, newest first: when, the command, what it did, and whether it is undone.",
      discussion: """
        A change 'ootd remote sync' pulled from another machine says 'from' and that machine's \
        name ('ootd remote name' sets it; 'ootd remote status' shows this machine's), or its \
        short device id when it sent no name (an older ootd).

        --json prints [{"id", "at", "command", "summary", "undone", "kind", "target", \
        "fromDevice", "fromDeviceName"}]; fromDevice is the other machine's device id, null for a change made \
        here; fromDeviceName its name, null when made here or unknown.

        Examples:
          ootd log
          ootd log --limit 5
          ootd log --json | jq '.[0]'
        """,
      aliases: ["history"])

    @Option(name: .long, help: ArgumentHelp("How many changes to show (default: 20).", valueName: "n"))
    var limit: Int = 20

    @OptionGroup var output: JSONOption
    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run(in environment: AppEnvironment) throws {
      let entries = try global.openDatabase(environment, readOnly: true).journal(limit: limit)
      try JournalOutput(environment).printLog(entries, json: output.json, noColor: global.noColor)
    }
  }
}
