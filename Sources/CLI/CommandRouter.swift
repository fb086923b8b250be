import ArgumentParser

/// Finds the command a command line names without walking argument-parser's whole command tree.
///
/// `parseAsRoot` builds the argument sets of the root and of every subcommand on the way, and each
/// property wrapper type it meets costs a conformance lookup that scans every conformance record
/// of the binary (6,600 of them): 17 M instructions, most of `ootd add`'s run. When the first
/// word names a top-level command, that command's own type parses the rest (`Add.parse(rest)`):
/// the same argument definitions, parsed by argument-parser, without the tree. Anything else
/// (help, `--version`, nested commands, a parse error) goes through `parseAsRoot`, so help texts
/// and error messages stay exactly argument-parser's.
enum CommandRouter {
  /// The top-level commands with no subcommands of their own, by name and alias. Written out so
  /// that the compiler, not a runtime lookup, knows each is an ``OotdCommand``;
  /// `CommandRouterTests` checks it against `Ootd.configuration.subcommands`.
  static let leaves: [String: any OotdCommand.Type] = [
    "today": Ootd.Today.self, "add": Ootd.Add.self, "list": Ootd.List.self, "ls": Ootd.List.self,
    "search": Ootd.Search.self,
    "done": Ootd.Done.self, "undone": Ootd.Undone.self, "drop": Ootd.Drop.self, "edit": Ootd.Edit.self,
    "show": Ootd.Show.self, "note": Ootd.Note.self,
    "rm": Ootd.Remove.self, "remove": Ootd.Remove.self, "carry": Ootd.Carry.self,
    "plan": Ootd.Plan.self, "backlog": Ootd.Backlog.self, "undo": Ootd.Undo.self, "redo": Ootd.Redo.self, "log": Ootd.Log.self,
    "history": Ootd.Log.self, "report": Ootd.Report.self, "review": Ootd.Review.self, "sync": Ootd.Sync.self,
    "graph": Ootd.Graph.self, "demo": Ootd.Demo.self, "completions": Ootd.Completions.self,
    "export": Ootd.Export.self,
    "tui": Ootd.Tui.self,
  ]

  /// Subcommands of a group routed the same way, by the group's name and theirs: `remote sync`
  /// (a device may sync after each command: its parse through `parseAsRoot` was 17 M of a
  /// sync-with-nothing-to-do's 38 M instructions). `CommandRouterTests` checks it against the tree.
  static let nested: [String: [String: any OotdCommand.Type]] = [
    "remote": ["sync": Ootd.RemoteCommand.SyncCommand.self]
  ]

  /// Arguments that make argument-parser print something instead of running a command.
  static let rootOnly: Set<String> = [
    "-h", "--help", "-help", "--version", "--experimental-dump-help",
    "--generate-completion-script",
  ]

  /// The command `arguments` (global options already moved behind the subcommand) names.
  static func parse(_ arguments: [String]) throws -> Parsed {
    if let command = HotPath.parse(arguments) ?? fastParse(arguments) { return .ootd(command) }
    // `ootd help bogus`: argument-parser prints the root's help and exits 0 for a topic it does
    // not know; the words after `help` name a command as the command line itself would.
    if arguments.first == "help", let unknown = ParserMessage.unknownCommand(Array(arguments.dropFirst())) {
      throw CLIError.invalidValue(unknown)
    }
    let command = try Ootd.parseAsRoot(arguments)
    // Only argument-parser's answer needs a cast: each new (type, protocol) pair costs the
    // runtime a scan of every conformance record in the binary (~0.4 M instructions).
    if let command = command as? any OotdCommand { return .ootd(command) }
    return .parserOnly(command)
  }

  /// A parsed command line: a command of ootd's, or one of argument-parser's own (`help`).
  enum Parsed {
    case ootd(any OotdCommand)
    case parserOnly(any ParsableCommand)
  }

  /// The command parsed by its own type, or nil when only the full parser can answer.
  static func fastParse(_ arguments: [String]) -> (any OotdCommand)? {
    guard !arguments.contains(where: rootOnly.contains) else { return nil }
    let type: any OotdCommand.Type
    var rest = arguments[...]
    if let first = arguments.first, !first.hasPrefix("-") {
      if let group = nested[first], arguments.count > 1, let leaf = group[arguments[1]] {
        type = leaf
        rest = rest.dropFirst(2)
      } else {
        guard let leaf = leaves[first] else { return nil }
        type = leaf
        rest = rest.dropFirst()
      }
    } else {
      type = Ootd.Today.self  // the default subcommand: `ootd`, `ootd --json`
    }
    // `help` as the first word would be argument-parser's help command in the full tree.
    if rest.first == "help" { return nil }
    return try? type.parse(Array(rest))
  }
}
