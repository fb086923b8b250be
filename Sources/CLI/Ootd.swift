import ArgumentParser
import CBuildInfo
import Core
import Encryption
import Foundation
import GitHubClient
import Remote
import Storage

/// The `ootd` command: configuration only. Each command lives in `Commands/`, in a file named
/// after it (`ootd done` in `Done.swift`, `ootd block add` in `Block/BlockAdd.swift`).
public struct Ootd: ParsableCommand {
  /// The version `--version` prints and GitHub requests carry: the one place it is written.
  /// scripts/package reads it from the binary it packages (`ootd --version`), so the Debian
  /// package's version is this one.
  public static let version = "0.1.0"

  /// What `--version` prints: `ootd 0.1.0 (abc1234)`, with the commit the binary was built from
  /// (`unknown` unless scripts/build-release linked it in: CBuildInfo's build_info.h).
  public static var versionLine: String { "ootd \(version) (\(String(cString: ootd_build_commit())))" }

  public static let configuration = CommandConfiguration(
    commandName: "ootd",
    abstract: "Plan the day as prioritised todos, tick them off, and see what you achieved.",
    discussion: """
      With no subcommand, ootd shows today: the day's todos by priority, what is overdue, and \
      how much of the day is done.

      Examples:
        ootd add "Solve BOJ 1753" --priority high
        ootd add --block algorithm
        ootd list --from 2026-11-01 --to today --open
        ootd done 12 13
        ootd drop 7               # give up missed work; its day keeps the record
        ootd undo                 # take the last change back (ootd log lists them)
        ootd add "Fix login +bug" --note "Safari only"   # +bug is a tag
        ootd show 12              # one todo in full: notes, tags, history
        ootd block routine algorithm --on mon,wed,fri   # planned by itself
        ootd sync && ootd graph   # your GitHub commits, as a daily graph
        ootd report --calendar    # how much of each day you achieved
        ootd review --html review.html   # a year in review to share (--svg card.svg)
        ootd demo                 # sample todos in a temporary database

      Global options (every command takes them, before or after its name):
        --db <path>             The SQLite database file (default: $OOTD_DB, else
                                $XDG_DATA_HOME/ootd/ootd.sqlite, else
                                ~/.local/share/ootd/ootd.sqlite). A new folder
                                is announced on stderr once the first write
                                made it.
        --no-color              Never colour the output (NO_COLOR=1 does the
                                same; colour is also off when piped).

      Exit codes: 0 success, 64 invalid usage or value, 1 runtime failure.
      """,
    version: versionLine,
    subcommands: [
      Today.self, Add.self, List.self, Search.self, Done.self, Undone.self, Edit.self, Remove.self,
      Show.self, Note.self, Carry.self, Drop.self, Plan.self, Backlog.self, Undo.self, Redo.self, Log.self, Block.self, ProjectCommand.self,
      Report.self, Review.self, Sync.self, Graph.self, GitHubCommand.self, Demo.self, Completions.self,
      Import.self, Export.self, RemoteCommand.self, CalDAVCommand.self, Team.self, Tui.self,
    ],
    defaultSubcommand: Today.self
  )

  public init() {}

  /// Parses `arguments`, runs the command, and returns the process exit code. Errors become one
  /// line on standard error; help and version go to standard output.
  public static func main(arguments: [String]) async -> Int32 {
    await run(arguments: arguments, environment: .live())
  }

  /// Runs `arguments` against `environment` (tests pass their own) and returns the exit code.
  /// The one dispatcher: production and in-process tests both await it.
  static func run(arguments: [String], environment: AppEnvironment) async -> Int32 {
    var environment = environment
    environment.arguments = arguments
    if arguments == ["--version"] {
      // What argument-parser prints for it (CommandRouterTests compares), without building the
      // root command's argument set: the whole cost of the command.
      environment.output(versionLine + "\n")
      return finish(Ootd(), environment)
    }
    do {
      if let notUTF8 = environment.notUTF8 { throw CLIError.invalidValue(notUTF8.message) }
      let command: any ParsableCommand
      do {
        switch try CommandRouter.parse(GlobalOptions.movingLeadingGlobals(arguments)) {
        case .ootd(let ootdCommand):
          command = ootdCommand
          try await ootdCommand.run(in: environment)
        case .parserOnly(var parserCommand):
          command = parserCommand
          try parserCommand.run()
        }
      } catch {
        // A failed command's databases are closed (an unused new file given back) before the
        // error is reported.
        environment.openDatabases.closeAll()
        throw error
      }
      environment.openDatabases.closeAll()
      environment.afterSuccess.flush(environment)
      return finish(command, environment)
    } catch {
      return report(error, environment)
    }
  }

  /// The exit code of a command that ran, by the one rule for output that cannot be written
  /// (standard output on a full disk, a closed pipe): a command that exits non-zero has changed
  /// nothing. So a command that changed nothing fails (1); one that changed something keeps its
  /// change, exits 0, and says on standard error that only its output failed and how to take
  /// the change back. (Taking it back would leave an undo in the journal: not nothing.)
  private static func finish(_ command: any ParsableCommand, _ environment: AppEnvironment) -> Int32 {
    guard let failure = environment.outputFailed() else { return ExitStatus.success }
    if environment.openDatabases.changedAnything {
      // What takes back an undo is a redo, and the other way round.
      let takeBack = command is Ootd.Undo ? "redo" : "undo"
      environment.printError(
        "ootd: warning: cannot write the output (\(failure)); the change was made: 'ootd log' shows it, 'ootd \(takeBack)' takes it back")
      return ExitStatus.success
    }
    environment.printError("ootd: error: cannot write the output: \(failure)")
    return ExitStatus.failure
  }

  static func report(_ error: any Error, _ environment: AppEnvironment) -> Int32 {
    let parserCode = exitCode(for: error)
    if parserCode == .success {
      environment.output(fullMessage(for: error) + "\n")
      return ExitStatus.success
    }
    let code: Int32
    let message: String
    switch error {
    case is CoreError, is CLIError, is StorageError, is GitHubError, is RemoteError, is EncryptionError:
      code = ExitStatus.code(for: error)
      message = String(describing: error)
    default:
      // Argument-parser's own errors: usage problems are 64, the rest keep its code.
      code = parserCode == .validationFailure ? ExitStatus.usage : parserCode.rawValue
      let arguments = GlobalOptions.movingLeadingGlobals(environment.arguments)
      message = ParserMessage.unknownCommand(arguments)
        ?? ParserMessage.ootdStyle(Self.message(for: error), arguments: arguments)
    }
    let oneLine = message.split(whereSeparator: \.isNewline).map {
      $0.trimmingCharacters(in: .whitespaces)
    }.filter { !$0.isEmpty }.joined(separator: " ")
    // Messages quote what users typed and what is stored: never let it drive the terminal.
    environment.printError("ootd: error: \(TerminalText.printable(oneLine))")
    return code
  }
}
