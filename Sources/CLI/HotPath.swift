import ArgumentParser
import Core

/// The commands run many times a day (`add`, `done`, `undo`, `redo`, `list`, the dashboard), and
/// the reading ones (`report`, `search`, `show`, `log`), parsed without argument-parser when their
/// command line has the plain shape they almost always have.
///
/// argument-parser's parse of even one command costs ~14 M instructions (half of `ootd add`):
/// it builds the argument sets of the command and of two completion pseudo-commands, and each
/// new (type, protocol) pair scans the binary's 6,600 conformance records. This parser accepts
/// only words it knows exactly (a known option followed by its value, a known flag, or a plain
/// word), never `--x=y`, `--`, clusters, repeats or dash-prefixed values, and builds the same
/// command value argument-parser would, through the commands' own properties and `validate()`.
/// Anything else returns nil, and argument-parser parses as before, so help, errors and every
/// unusual spelling stay argument-parser's. `HotPathTests` runs both parsers over hundreds of
/// command lines and demands identical values; `HotPathDeclarationTests` checks each command's
/// ``Table`` against the command's own declaration (argument-parser's `--experimental-dump-help`),
/// so an option added to a command and not here fails the suite instead of trapping at run time.
///
/// What it buys (callgrind, release build, issue 22): `ootd add` 4.6 M instructions instead of
/// 16.0 M through argument-parser (`Add.parse`), `done` 5.6 M instead of 17.2 M, `list` 9.8 M
/// instead of 23.4 M, the dashboard 10.5 M instead of 20.5 M (docs/decisions/hot-path-parser.md);
/// issue 25: `report --json` 20.6 M → 7.3 M, `show ID` 15.0 M → 4.6 M, `log` 14.5 M → 3.6 M (argument-
/// parser's parse of each was 10–13.7 M of it, the hot path's is 0.1–0.2 M).
enum HotPath {
  /// The command `arguments` (global options already moved behind the subcommand) names, or
  /// nil when argument-parser must parse it.
  static func parse(_ arguments: [String]) -> (any OotdCommand)? {
    let name = arguments.first.flatMap { $0.hasPrefix("-") ? nil : $0 }
    let rest = name == nil ? arguments[...] : arguments.dropFirst()
    do {
      switch name {
      case nil, "today":
        guard let words = Words(rest, todayTable) else { return nil }
        var command = Ootd.Today()
        (command.output, command.global) = try words.outputAndGlobal()
        return command
      case "add":
        guard let words = Words(rest, addTable) else { return nil }
        var command = Ootd.Add()
        command.title = words.positionals
        command.priority = try words.priority("--priority")
        command.project = words.options["--project"]
        command.on = words.options["--on"]
        command.block = words.options["--block"]
        command.done = words.flags.contains("--done")
        command.someday = words.flags.contains("--someday")
        command.note = words.options["--note"]
        command.tag = words.repeated["--tag"] ?? []
        (command.output, command.global) = try words.outputAndGlobal()
        try command.validate()
        return command
      case "done", "undone":
        guard let words = Words(rest, name.flatMap(table)) else { return nil }
        var options = TickOptions()
        var todos = TodoIDsArgument()
        // A number or a uuid prefix, as argument-parser reads it (``TodoIDs/parse(_:)``); a
        // word that is neither is argument-parser's to refuse, with its message.
        todos.ids = try words.positionals.map { word in
          guard let reference = TodoReference(word) else { throw Refused() }
          return reference
        }
        options.todos = todos
        (options.output, options.global) = try words.outputAndGlobal()
        try options.validate()
        if name == "done" {
          var command = Ootd.Done()
          command.options = options
          // `--close-on-github` is not a word the hot path takes: argument-parser parses it.
          command.closeOnGitHub = false
          return command
        }
        var command = Ootd.Undone()
        command.options = options
        return command
      case "list", "ls":
        guard let words = Words(rest, listTable) else { return nil }
        // Every property is set before any is read (argument-parser's wrappers trap otherwise).
        var selection = DaySelectionOptions()
        selection.day = words.positionals.first
        selection.on = words.options["--on"]
        var range = DayRangeOptions()
        range.from = words.options["--from"]
        range.to = words.options["--to"]
        selection.range = range
        selection.all = words.flags.contains("--all")
        var command = Ootd.List()
        command.selection = selection
        command.filters = try words.filters()
        command.grep = words.options["--grep"]
        command.long = words.flags.contains("--long")
        (command.output, command.global) = try words.outputAndGlobal()
        try selection.validate()
        return command
      case "undo", "redo":
        guard let words = Words(rest, name.flatMap(table)) else { return nil }
        var options = JournalStepOptions()
        (options.output, options.global) = try words.outputAndGlobal()
        if name == "undo" {
          var command = Ootd.Undo()
          command.options = options
          return command
        }
        var command = Ootd.Redo()
        command.options = options
        return command
      case "report":
        guard let words = Words(rest, reportTable) else { return nil }
        var range = ReportRangeOptions()
        range.from = words.options["--from"]
        range.to = words.options["--to"]
        range.week = words.flags.contains("--week")
        range.month = words.flags.contains("--month")
        range.year = words.flags.contains("--year")
        range.days = try words.integer("--days")
        var image = SVGOutputOption<CalendarImage>()
        image.svg = words.options["--svg"]
        var command = Ootd.Report()
        command.range = range
        command.project = words.options["--project"]
        command.calendar = words.flags.contains("--calendar")
        command.image = image
        command.csv = words.flags.contains("--csv")
        (command.output, command.global) = try words.outputAndGlobal()
        try range.validate()
        try command.validate()
        return command
      case "search":
        guard let words = Words(rest, searchTable), words.positionals.count == 1 else { return nil }
        var command = Ootd.Search()
        command.text = words.positionals[0]
        command.filters = try words.filters()
        var range = DayRangeOptions()
        range.from = words.options["--from"]
        range.to = words.options["--to"]
        command.range = range
        (command.output, command.global) = try words.outputAndGlobal()
        try command.validate()
        return command
      case "show":
        guard let words = Words(rest, showTable), words.positionals.count == 1 else { return nil }
        var command = Ootd.Show()
        command.id = try TodoIDs.parse(words.positionals[0])
        (command.output, command.global) = try words.outputAndGlobal()
        return command
      case "log", "history":
        guard let words = Words(rest, logTable) else { return nil }
        var command = Ootd.Log()
        command.limit = try words.integer("--limit") ?? 20
        (command.output, command.global) = try words.outputAndGlobal()
        try command.validate()
        return command
      default:
        return nil
      }
    } catch {
      return nil
    }
  }

  /// What the hot path takes of one command's arguments: its only copy of the command's
  /// declaration, checked against it by `HotPathDeclarationTests`.
  struct Table {
    enum Positionals { case none, one, many }
    /// Options by every spelling, mapped to their long name; `--db` is every command's.
    let options: [String: String]
    /// The options that may be given more than once.
    let repeatable: Set<String>
    /// Flags; `--json` and the global `--no-color` are every hot command's.
    let flags: Set<String>
    let positionals: Positionals
    /// What the command declares that the hot path does not take: a line with one of these is
    /// argument-parser's to parse (help, `--version`, and the few the comments in `parse` name).
    let leftToArgumentParser: Set<String>

    init(
      options: [String: String] = [:], repeatable: Set<String> = [], flags: Set<String> = [],
      positionals: Positionals = .none, leftToArgumentParser: Set<String> = []
    ) {
      self.options = options.merging(["--db": "--db"]) { $1 }
      self.repeatable = repeatable
      self.flags = flags.union(["--json", "--no-color"])
      self.positionals = positionals
      self.leftToArgumentParser = leftToArgumentParser.union(["-h", "--help", "--version"])
    }
  }

  /// The table of the command `name` names, when the hot path parses it (`ls` is `list`, the
  /// dashboard `today`). One static per command: a run builds only its own command's table.
  static func table(_ name: String) -> Table? {
    switch name {
    case "today": todayTable
    case "add": addTable
    case "done": doneTable
    case "undone": undoneTable
    case "list", "ls": listTable
    case "undo", "redo": journalTable
    case "report": reportTable
    case "search": searchTable
    case "show": showTable
    case "log", "history": logTable
    default: nil
    }
  }

  /// The names ``table(_:)`` answers for (`HotPathDeclarationTests` checks each).
  static let tableNames = [
    "today", "add", "done", "undone", "list", "ls", "undo", "redo", "report", "search", "show", "log",
  ]

  static let todayTable = Table()
  static let addTable = Table(
    options: [
      "--priority": "--priority", "-p": "--priority", "--project": "--project", "--on": "--on",
      "--block": "--block", "-b": "--block", "--note": "--note", "--tag": "--tag",
    ],
    repeatable: ["--tag"], flags: ["--done", "--someday"], positionals: .many)
  /// `--close-on-github` is not a word the hot path takes: argument-parser parses it.
  static let doneTable = Table(positionals: .many, leftToArgumentParser: ["--close-on-github"])
  static let undoneTable = Table(positionals: .many)
  static let listTable = Table(
    options: [
      "--on": "--on", "--from": "--from", "--to": "--to", "--project": "--project",
      "--priority": "--priority", "-p": "--priority", "--grep": "--grep", "--tag": "--tag",
    ],
    flags: ["--all", "--open", "--done", "--long"], positionals: .one)
  static let journalTable = Table()
  static let reportTable = Table(
    options: [
      "--from": "--from", "--to": "--to", "--days": "--days", "--project": "--project", "--svg": "--svg",
    ],
    flags: ["--week", "--month", "--year", "--calendar", "--csv"])
  static let searchTable = Table(
    options: [
      "--project": "--project", "--priority": "--priority", "-p": "--priority", "--tag": "--tag",
      "--from": "--from", "--to": "--to",
    ],
    flags: ["--open", "--done"], positionals: .one)
  static let showTable = Table(positionals: .one)
  static let logTable = Table(options: ["--limit": "--limit"])

  /// A word the hot path does not take.
  struct Refused: Error {}

  /// A command line split into plain words, options with their values, and flags.
  struct Words {
    var positionals: [String] = []
    var options: [String: String] = [:]
    /// The values of the options that may be given several times, in order.
    var repeated: [String: [String]] = [:]
    var flags: Set<String> = []

    /// Nil when a word is outside the plain shape (see ``HotPath``) or `table` does not take it.
    init?(_ words: ArraySlice<String>, _ table: Table?) {
      guard let table else { return nil }
      let (known, repeatable, knownFlags) = (table.options, table.repeatable, table.flags)
      var index = words.startIndex
      while index < words.endIndex {
        let word = words[index]
        index += 1
        guard word.hasPrefix("-") else {
          positionals.append(word)
          continue
        }
        if knownFlags.contains(word) {
          guard flags.insert(word).inserted else { return nil }
        } else if let name = known[word] {
          guard index < words.endIndex, !words[index].hasPrefix("-") else { return nil }
          if repeatable.contains(name) {
            repeated[name, default: []].append(words[index])
          } else {
            guard options[name] == nil else { return nil }
            options[name] = words[index]
          }
          index += 1
        } else {
          return nil
        }
      }
      switch table.positionals {
      case .none: guard positionals.isEmpty else { return nil }
      case .one: guard positionals.count <= 1 else { return nil }
      case .many: break
      }
    }

    /// A priority option's value, parsed as argument-parser parses it.
    func priority(_ name: String) throws -> Priority? {
      guard let text = options[name] else { return nil }
      guard let priority = Priority(argument: text) else { throw Refused() }
      return priority
    }

    /// An integer option's value, parsed as argument-parser parses it.
    func integer(_ name: String) throws -> Int? {
      guard let text = options[name] else { return nil }
      guard let value = Int(argument: text) else { throw Refused() }
      return value
    }

    /// The todo filter options (`list`, `search`), validated as argument-parser validates them.
    func filters() throws -> TodoFilterOptions {
      var filters = TodoFilterOptions()
      filters.project = options["--project"]
      filters.priority = try priority("--priority")
      filters.tag = options["--tag"]
      filters.open = flags.contains("--open")
      filters.done = flags.contains("--done")
      try filters.validate()
      return filters
    }

    /// The `--json` option group and the global options.
    func outputAndGlobal() throws -> (JSONOption, GlobalOptions) {
      var output = JSONOption()
      output.json = flags.contains("--json")
      var global = GlobalOptions()
      global.db = options["--db"]
      global.noColor = flags.contains("--no-color")
      try output.validate()
      try global.validate()
      return (output, global)
    }
  }
}
