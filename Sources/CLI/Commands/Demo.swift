import ArgumentParser
import Core
import Foundation
import Storage

extension Ootd {
  /// `ootd demo`: fills a database with sample data and shows it.
  struct Demo: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "demo",
      abstract: "Fill a temporary database with a few weeks of sample todos and show them.",
      discussion: """
        Without --db the demo writes to a new temporary database, never to your own. It prints \
        the path, so you can keep exploring with 'ootd --db PATH ...', and the 'rm -r' that \
        removes its folder when you are done; a demo that fails removes the folder itself. \
        With --db it refuses a database that already holds todos, projects or blocks of yours.

        Examples:
          ootd demo
          ootd demo --days 28 --todos 150
          ootd demo --db /tmp/big.sqlite --todos 100000 --quiet     # a benchmark database
        """)

    @Option(name: .long, help: "How many days of history to make.")
    var days = 21

    @Option(name: .long, help: "How many todos to make (default: about 5 a day).")
    var todos: Int?

    @Option(name: .long, help: "The random seed (the same seed makes the same data).")
    var seed: UInt64 = 42

    @Flag(name: [.short, .long], help: "Only print the database path.")
    var quiet = false

    @Option(
      name: .long,
      help: ArgumentHelp("The database to fill (default: a new temporary one).", valueName: "path"))
    var db: String?

    @Flag(name: .long, help: "Never colour the output (NO_COLOR=1 does the same).")
    var noColor = false

    func validate() throws {
      guard (1...36_500).contains(days) else { throw ValidationError("--days must be between 1 and 36500") }
      if let todos, !(0...10_000_000).contains(todos) {
        throw ValidationError("--todos must be between 0 and 10000000")
      }
    }

    func run(in environment: AppEnvironment) throws {
      if let db { return try fill(db, folder: nil, environment) }
      let path = try Self.temporaryPath(environment)
      let folder = String(path.dropLast("/ootd.sqlite".count))
      do {
        try fill(path, folder: folder, environment)
      } catch {
        // A temporary folder nobody can use: take it away rather than leave it in /tmp.
        Self.removeTemporaryFolder(folder)
        throw error
      }
      // Its path never reached anyone (the dispatcher reports the failed write): the same.
      if environment.outputFailed() != nil { Self.removeTemporaryFolder(folder) }
    }

    /// Fills `path`; `folder` is the temporary folder made for it (nil for `--db`).
    private func fill(_ path: String, folder: String?, _ environment: AppEnvironment) throws {
      if AppDatabase.hasUserData(atPath: path) {
        throw CLIError.cannotWrite(
          path: path,
          reason: "it already holds todos, projects or blocks; demo fills only a new or empty database")
      }
      let database = try AppDatabase.open(path: path, command: CommandText.from(environment.arguments))
      let today = environment.today
      let existing = Set(try database.projects(.all).map { $0.project.name.lowercased() })
      for project in DemoData.projects() where !existing.contains(project.name.lowercased()) {
        try database.addProject(project, now: environment.now)
      }
      let count = todos ?? days * 5
      try database.addTodos(DemoData.todos(today: today, days: days, count: count, seed: seed), now: environment.now)
      if quiet {
        environment.print(TerminalText.printable(path))
        return
      }
      let style = environment.style(noColor: noColor)
      let renderer = TodoRenderer(style: style, today: today, width: environment.lineWidth)
      let week = try database.todos(
        matching: TodoFilter(days: .range(try DayRange(from: today.adding(days: -6), to: today.adding(days: 1)))))
      var lines = [style.dim("Demo database with \(count) todos over \(days) days: \(path)"), ""]
      lines += renderer.days(week)
      lines += try renderer.overdueSection(database, before: today, limit: 5)
      lines += [
        "",
        style.dim("Explore it:"),
        "  ootd --db \(path) list --all",
        "  ootd --db \(path) project list",
        "  ootd --db \(path) block list",
      ]
      if let folder {
        lines += ["", style.dim("When you are done, remove it:"), "  rm -r \(TerminalText.printable(folder))"]
      }
      environment.output(lines.map { $0 + "\n" }.joined())
    }

    /// Removes a temporary demo folder and the database files in it (only those: a folder with
    /// anything else in it is left alone).
    static func removeTemporaryFolder(_ folder: String) {
      for suffix in ["", "-wal", "-shm", "-journal", "-wal.ootd"] { unlink(folder + "/ootd.sqlite" + suffix) }
      rmdir(folder)
    }

    static func temporaryPath(_ environment: AppEnvironment) throws -> String {
      let base = environment.variables["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
      var template = Array((base + "/ootd-demo-XXXXXX").utf8CString)
      guard let folder = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
        throw CLIError.invalidValue("cannot create a temporary folder in \(base)")
      }
      return String(cString: folder) + "/ootd.sqlite"
    }
  }
}
