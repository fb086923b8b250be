import ArgumentParser
import Core
import Foundation
import Storage

/// Options every command takes: which database, and whether to colour output.
struct GlobalOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The SQLite database file (default: $OOTD_DB, else $XDG_DATA_HOME/ootd/ootd.sqlite).",
      valueName: "path"),
    completion: .file(extensions: ["sqlite", "db"]))
  var db: String?

  @Flag(name: .long, help: "Never colour the output (NO_COLOR=1 does the same).")
  var noColor = false

  /// How many words the global option starting at `word` spans: 1 for `--no-color` and
  /// `--db=PATH`, 2 for `--db PATH`, 0 when `word` starts no global option.
  static func globalSpan(_ word: String) -> Int {
    if word == "--no-color" || word.hasPrefix("--db=") { return 1 }
    return word == "--db" ? 2 : 0
  }

  /// Moves global options written before the subcommand (`ootd --db X list`) behind it
  /// (`ootd list --db X`), where argument-parser looks for them, keeping any `--` last.
  static func movingLeadingGlobals(_ arguments: [String]) -> [String] {
    var leading: [String] = []
    var rest = arguments[...]
    while let first = rest.first {
      let span = globalSpan(first)
      guard span > 0, rest.count >= span else { break }
      leading += rest.prefix(span)
      rest = rest.dropFirst(span)
    }
    guard !leading.isEmpty else { return arguments }
    // A group with no command of its own, named alone (`ootd --db X import`), shows its help as
    // `ootd import` does: it takes no option, and the globals change nothing in a help text.
    // (A leaf such as `list`, the common case, is known without reading the command tree.)
    if rest.count == 1, let group = rest.first, CommandRouter.leaves[group] == nil,
      isGroupWithoutDefault(group)
    {
      return [group]
    }
    // Nor in argument-parser's `help` command, which takes none (`ootd --db X help add`), nor
    // before `--help` alone (`ootd --db X --help` showed the default command's help, `today`'s).
    if rest.first == "help" || (!rest.isEmpty && rest.allSatisfy(CommandRouter.rootOnly.contains)) {
      return Array(rest)
    }
    var moved = Array(rest)
    let end = moved.firstIndex(of: "--") ?? moved.endIndex
    moved.insert(contentsOf: leading, at: end)
    return moved
  }

  /// Whether `name` names a top-level command that only groups subcommands (`import`, `remote`),
  /// with no default one to run.
  private static func isGroupWithoutDefault(_ name: String) -> Bool {
    Ootd.configuration.subcommands.contains {
      let configuration = $0.configuration
      return (configuration.commandName == name || configuration.aliases.contains(name))
        && !configuration.subcommands.isEmpty && configuration.defaultSubcommand == nil
    }
  }

  /// Opens the database this invocation names.
  ///
  /// - Parameter readOnly: the command only reads. It then never creates the database: when the
  ///   file is missing (or empty, as `touch` leaves it) it reads an empty in-memory database,
  ///   which holds what a new file would (the built-in blocks), and leaves the disk as it was.
  ///   A writing command creates the file, and gives it back when it fails before writing.
  func openDatabase(_ environment: AppEnvironment, readOnly: Bool = false) throws -> AppDatabase {
    let path = try environment.databasePath(option: db)
    let command = CommandText.from(environment.arguments)
    if readOnly {
      guard Self.holdsADatabase(path) else { return try AppDatabase.inMemory(command: command) }
      let database = try AppDatabase.openForReading(path: path, command: command)
      environment.openDatabases.keep(database)
      return database
    }
    let database = try AppDatabase.open(
      path: path, command: command, givesBackUnused: true, routineDay: environment.today)
    environment.openDatabases.keep(database)
    if let folder = database.madeFolders.last, db != nil || environment.variables["OOTD_DB"] != nil {
      // A typo in --db or OOTD_DB must not silently start an empty tracker; said only once the
      // command succeeded and the file is still there (a failed command gives it back).
      environment.afterSuccess.noteIfExists(
        path,
        "ootd: note: created a new database at \(TerminalText.printable(path)) (and its folder \(TerminalText.printable(folder)))")
    }
    return database
  }

  /// Opens the database for a command that shows today (the dashboard, a list of today): it
  /// reads as ``openDatabase(_:readOnly:)`` does, but first plans the day's routine when the
  /// file can be written and it is not planned yet (see ``AppDatabase/planDueRoutine(on:now:)``).
  /// A read-only or missing database is shown as it is.
  func openDatabaseShowingToday(_ environment: AppEnvironment) throws -> AppDatabase {
    let database = try openDatabase(environment, readOnly: true)
    if database.isWritable, database.path != ":memory:" {
      // Showing the day matters more than planning it: a busy or failing write shows it as is.
      _ = try? database.planDueRoutineCount(on: environment.today, now: environment.now)
    }
    return database
  }

  /// Whether something is at `path` that opening may not replace: a non-empty file, a folder
  /// (opening reports it), or anything unreadable.
  private static func holdsADatabase(_ path: String) -> Bool {
    var status = stat()
    guard stat(path, &status) == 0 else { return errno != ENOENT }
    return (status.st_mode & S_IFMT) != S_IFREG || status.st_size > 0
  }
}
