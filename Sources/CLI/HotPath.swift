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
      case "plan":
        guard let words = Words(rest, planTable) else { return nil }
        var command = Ootd.Plan()
        command.ids = try words.positionals.map(TodoIDs.parse)
        command.on = words.options["--on"]
        (command.output, command.global) = try words.outputAndGlobal()
        return command
      case "carry":
        guard let words = Words(rest, carryTable) else { return nil }
        var command = Ootd.Carry()
        command.ids = try words.positionals.map(TodoIDs.parse)
        command.to = words.options["--to"]
        (command.output, command.global) = try words.outputAndGlobal()
        return command
      case "graph":
        guard let words = Words(rest, graphTable) else { return nil }
        var range = GraphRangeOptions()
        range.from = words.options["--from"]
        range.to = words.options["--to"]
        range.weeks = try words.integer("--weeks")
        var image = SVGOutputOption<CommitGraphImage>()
        image.svg = words.options["--svg"]
        var command = Ootd.Graph()
        command.range = range
        command.user = words.options["--user"]
        command.repo = words.options["--repo"]
        command.tz = words.options["--tz"]
        command.csv = words.flags.contains("--csv")
        command.includeForks = words.flags.contains("--include-forks")
        command.image = image
        (command.output, command.global) = try words.outputAndGlobal()
        try range.validate()
        try command.validate()
        return command
      case "export":
        guard let words = Words(rest, exportTable), let format = words.options["--format"] else { return nil }
        var command = Ootd.Export()
        guard let parsed = Ootd.Export.Format(argument: format) else { return nil }
        command.format = parsed
        command.from = words.options["--from"]
        command.to = words.options["--to"]
        command.project = words.options["--project"]
        command.output = words.options["--output"]
        command.global = try words.global()
        return command
      case "import":
        // `import FORMAT [FILE]`: the format's own table; no format is argument-parser's to refuse.
        guard let format = rest.first, let table = table("import " + format),
          let words = Words(rest.dropFirst(), table)
        else { return nil }
        var options = Ootd.Import.Options()
        options.file = words.positionals.first ?? "-"
        options.dryRun = words.flags.contains("--dry-run")
        (options.output, options.global) = try words.outputAndGlobal()
        if format == "taskwarrior" {
          var command = Ootd.Import.TaskwarriorImport()
          command.options = options
          return command
        }
        var command = Ootd.Import.TodoTxtImport()
        command.options = options
        return command
      case "block":
        return try block(rest)
      case "project", "projects":
        return try project(rest)
      default:
        return nil
      }
    } catch {
      return nil
    }
  }

  /// The subcommand a group's command line names (its first word), and the words after it; the
  /// group's default subcommand when the line starts with an option or is empty. Nil for a word
  /// that names no subcommand of the group (argument-parser's to refuse).
  private static func subcommand(
    _ words: ArraySlice<String>, group: String, names: [String: String], default defaultName: String
  ) -> (name: String, table: Table, rest: ArraySlice<String>)? {
    guard let first = words.first, !first.hasPrefix("-") else {
      return table("\(group) \(defaultName)").map { (defaultName, $0, words) }
    }
    guard let name = names[first], let table = table("\(group) \(name)") else { return nil }
    return (name, table, words.dropFirst())
  }

  /// `ootd block …`: `list` (the default), `add`, `edit`, `routine`, `rm`, `restore`.
  private static func block(_ rest: ArraySlice<String>) throws -> (any OotdCommand)? {
    guard
      let (name, table, rest) = subcommand(
        rest, group: "block",
        names: [
          "list": "list", "ls": "list", "add": "add", "edit": "edit", "routine": "routine", "rm": "rm",
          "remove": "rm", "restore": "restore",
        ], default: "list"),
      let words = Words(rest, table)
    else { return nil }
    let positionals = words.positionals
    switch name {
    case "list":
      var command = Ootd.Block.ListBlocks()
      (command.output, command.global) = try words.outputAndGlobal()
      return command
    case "add":
      guard positionals.count == 2 else { return nil }
      var command = Ootd.Block.AddBlock()
      command.name = positionals[0]
      command.title = positionals[1]
      command.priority = try words.priority("--priority") ?? .mid
      command.routine = words.flags.contains("--routine")
      command.global = try words.global()
      return command
    case "edit":
      guard positionals.count == 1, let doneWhen = words.options["--done-when"] else { return nil }
      var command = Ootd.Block.EditBlock()
      command.name = positionals[0]
      command.doneWhen = doneWhen
      command.repo = words.options["--repo"]
      command.global = try words.global()
      try command.validate()
      return command
    case "routine":
      guard positionals.count == 1 else { return nil }
      var command = Ootd.Block.Routine()
      command.name = positionals[0]
      command.on = words.options["--on"]
      command.every = words.options["--every"]
      command.off = words.flags.contains("--off")
      command.global = try words.global()
      try command.validate()
      return command
    case "rm":
      guard positionals.count == 1 else { return nil }
      var command = Ootd.Block.RemoveBlock()
      command.name = positionals[0]
      command.global = try words.global()
      return command
    case "restore":
      guard positionals.count == 1 else { return nil }
      var command = Ootd.Block.RestoreBlock()
      command.name = positionals[0]
      command.global = try words.global()
      return command
    default:
      return nil
    }
  }

  /// `ootd project …`: `list` (the default), `add`, `show`, `edit`, `archive`, `unarchive`, `rm`.
  private static func project(_ rest: ArraySlice<String>) throws -> (any OotdCommand)? {
    guard
      let (name, table, rest) = subcommand(
        rest, group: "project",
        names: [
          "list": "list", "ls": "list", "add": "add", "show": "show", "edit": "edit", "archive": "archive",
          "unarchive": "unarchive", "rm": "rm", "remove": "rm",
        ], default: "list"),
      let words = Words(rest, table)
    else { return nil }
    let positionals = words.positionals
    if name == "list" {
      var command = Ootd.ListProjects()
      command.archived = words.flags.contains("--archived")
      command.all = words.flags.contains("--all")
      (command.output, command.global) = try words.outputAndGlobal()
      try command.validate()
      return command
    }
    // Every other subcommand names one project.
    guard positionals.count == 1 else { return nil }
    let project = positionals[0]
    switch name {
    case "add":
      var command = Ootd.AddProject()
      command.name = project
      command.fields = words.projectFields()
      (command.output, command.global) = try words.outputAndGlobal()
      return command
    case "show":
      var command = Ootd.ShowProject()
      command.name = project
      (command.output, command.global) = try words.outputAndGlobal()
      return command
    case "edit":
      var command = Ootd.EditProject()
      command.name = project
      command.rename = words.options["--rename"]
      command.fields = words.projectFields()
      (command.output, command.global) = try words.outputAndGlobal()
      return command
    case "archive":
      var command = Ootd.ArchiveProject()
      command.name = project
      command.global = try words.global()
      return command
    case "unarchive":
      var command = Ootd.UnarchiveProject()
      command.name = project
      command.global = try words.global()
      return command
    case "rm":
      var command = Ootd.RemoveProject()
      command.name = project
      // `-y` and `--yes` are one flag: given twice is argument-parser's to judge.
      let yes = words.flags.intersection(["-y", "--yes"])
      guard yes.count < 2 else { return nil }
      var confirmation = ConfirmOption()
      confirmation.yes = !yes.isEmpty
      command.confirmation = confirmation
      command.global = try words.global()
      return command
    default:
      return nil
    }
  }

  /// What the hot path takes of one command's arguments: its only copy of the command's
  /// declaration, checked against it by `HotPathDeclarationTests`.
  struct Table {
    enum Positionals { case none, one, two, many }
    /// Options by every spelling, mapped to their long name; `--db` is every command's.
    let options: [String: String]
    /// The options that may be given more than once.
    let repeatable: Set<String>
    /// Flags; the global `--no-color` is every command's, `--json` every one's with `json`.
    let flags: Set<String>
    let positionals: Positionals
    /// What the command declares that the hot path does not take: a line with one of these is
    /// argument-parser's to parse (help, `--version`, and the few the comments in `parse` name).
    let leftToArgumentParser: Set<String>

    /// A lone `-` is a positional (a file argument's "standard input"), not an option.
    let dashIsPositional: Bool

    init(
      options: [String: String] = [:], repeatable: Set<String> = [], flags: Set<String> = [],
      positionals: Positionals = .none, leftToArgumentParser: Set<String> = [], json: Bool = true,
      dashIsPositional: Bool = false
    ) {
      self.options = options.merging(["--db": "--db"]) { $1 }
      self.repeatable = repeatable
      self.flags = flags.union(json ? ["--json", "--no-color"] : ["--no-color"])
      self.dashIsPositional = dashIsPositional
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
    case "plan": planTable
    case "carry": carryTable
    case "graph": graphTable
    case "export": exportTable
    case "import taskwarrior", "import todotxt": importTable
    case "block list": blockListTable
    case "block add": blockAddTable
    case "block edit": blockEditTable
    case "block routine": blockRoutineTable
    case "block rm", "block restore": blockNameTable
    case "project list": projectListTable
    case "project add": projectAddTable
    case "project edit": projectEditTable
    case "project show": projectShowTable
    case "project archive", "project unarchive": projectNameTable
    case "project rm": projectRemoveTable
    default: nil
    }
  }

  /// The names ``table(_:)`` answers for (`HotPathDeclarationTests` checks each).
  static let tableNames = [
    "today", "add", "done", "undone", "list", "ls", "undo", "redo", "report", "search", "show", "log",
    "plan", "carry", "graph", "export", "import taskwarrior", "import todotxt", "block list", "block add",
    "block edit", "block routine", "block rm", "block restore", "project list", "project add",
    "project edit", "project show", "project archive", "project unarchive", "project rm",
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
  // Issue 25: the commands off the hot path paid argument-parser's 10–14 M instructions too.
  static let planTable = Table(options: ["--on": "--on"], positionals: .many)
  static let carryTable = Table(options: ["--to": "--to"], positionals: .many)
  static let graphTable = Table(
    options: [
      "--from": "--from", "--to": "--to", "--weeks": "--weeks", "--user": "--user", "--repo": "--repo",
      "--tz": "--tz", "--svg": "--svg",
    ],
    flags: ["--csv", "--include-forks"])
  static let exportTable = Table(
    options: [
      "--format": "--format", "--from": "--from", "--to": "--to", "--project": "--project",
      "--output": "--output",
    ],
    json: false)
  static let importTable = Table(flags: ["--dry-run"], positionals: .one, dashIsPositional: true)
  static let blockListTable = Table()
  static let blockAddTable = Table(
    options: ["--priority": "--priority", "-p": "--priority"], flags: ["--routine"], positionals: .two, json: false)
  static let blockEditTable = Table(
    options: ["--done-when": "--done-when", "--repo": "--repo"], positionals: .one, json: false)
  static let blockRoutineTable = Table(
    options: ["--on": "--on", "--every": "--every"], flags: ["--off"], positionals: .one, json: false)
  static let blockNameTable = Table(positionals: .one, json: false)
  static let projectListTable = Table(flags: ["--archived", "--all"])
  /// `ProjectFieldOptions`: what `project add` and `project edit` set.
  static let projectFields = [
    "--repo": "--repo", "--desc": "--desc", "--path": "--path", "--start": "--start", "--end": "--end",
    "--tech": "--tech", "--memo": "--memo",
  ]
  static let projectAddTable = Table(options: projectFields, positionals: .one)
  static let projectEditTable = Table(
    options: projectFields.merging(["--rename": "--rename"]) { $1 }, positionals: .one)
  static let projectShowTable = Table(positionals: .one)
  static let projectNameTable = Table(positionals: .one, json: false)
  static let projectRemoveTable = Table(flags: ["--yes", "-y"], positionals: .one, json: false)

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
        guard word.hasPrefix("-"), !(table.dashIsPositional && word == "-") else {
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
      case .two: guard positionals.count <= 2 else { return nil }
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
      try output.validate()
      return (output, try global())
    }

    /// The global options, of a command without `--json`.
    func global() throws -> GlobalOptions {
      var global = GlobalOptions()
      global.db = options["--db"]
      global.noColor = flags.contains("--no-color")
      try global.validate()
      return global
    }

    /// `project add` and `project edit`'s fields.
    func projectFields() -> ProjectFieldOptions {
      var fields = ProjectFieldOptions()
      fields.repo = options["--repo"]
      fields.desc = options["--desc"]
      fields.path = options["--path"]
      fields.start = options["--start"]
      fields.end = options["--end"]
      fields.tech = options["--tech"]
      fields.memo = options["--memo"]
      return fields
    }
  }
}
