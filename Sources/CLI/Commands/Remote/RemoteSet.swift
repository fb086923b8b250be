import ArgumentParser
import Core
import Remote
import Storage

extension Ootd.RemoteCommand {
  /// `ootd remote set URI [--name NAME]`.
  struct SetServer: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "set",
      abstract: "Save the server's URI (and the name your teams see) and unlock your sync key.",
      discussion: """
        A URI holding a password (password= or sslpassword=) is refused: use PGPASSWORD, \
        ~/.pgpass or a service file. Use sslmode=verify-full for a server that is not on this \
        machine.

        Connects to the server for your sync key, which encrypts everything you sync: on your \
        first machine it asks for a new passphrase (twice, not shown) and stores the key on the \
        server wrapped under it; on another machine it asks for the same passphrase and proves \
        it before anything is saved or pulled (a wrong one: exit 1, nothing changed). \
        OOTD_REMOTE_PASSPHRASE gives the passphrase without a terminal. The unlocked key stays \
        in a file beside the database (mode 0600); the passphrase cannot be recovered.

        Examples:
          ootd remote set postgres://alice@db.example.com/ootd
          ootd remote set "postgresql://alice@db.example.com/ootd?sslmode=verify-full" --name "Alice K."
          ootd remote set "host=db.example.com user=alice dbname=ootd"
        """)

    @Argument(help: ArgumentHelp("A libpq connection URI or conninfo string.", valueName: "uri"))
    var uri: String

    @Option(name: .long, help: ArgumentHelp("The name teammates see on boards (default: your role name).", valueName: "name"))
    var name: String?

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if let name, let problem = DisplayName.problem(name) { throw ValidationError("--name \(problem)") }
    }

    func run(in environment: AppEnvironment) throws {
      let parsed = try RemoteAccess.checked(uri)
      // The key first: a wrong passphrase (or no server) leaves the database as it was.
      let path = try environment.databasePath(option: global.db)
      let access = RemoteAccess(uri: parsed, source: "argument", displayName: name, environment: environment)
      let key = SyncKey(environment, databasePath: path)
      let server = try access.server()
      let outcome = try key.key(for: server).outcome
      // The name at once, so a name another member has is refused now (exit 1, nothing saved),
      // not by every team command after it.
      try access.shareDisplayName(server)
      let database = try global.openDatabase(environment)
      var settings: [RemoteSetting: String?] = [.uri: uri]
      if let name { settings[.displayName] = name }
      try database.settings.setRemoteSettings(settings)
      environment.print(TerminalText.printable("Server: \(parsed.description)"))
      // Without --name, the name another machine set is the one teammates see (tryout 19 F2:
      // this said the role name while the server kept the other machine's).
      let shownName =
        try name ?? server.displayName() ?? database.settings.remoteSetting(.displayName)
        ?? parsed.user.map { "\($0) (the role name)" }
      if let shownName { environment.print(TerminalText.printable("Name on team boards: \(shownName)")) }
      switch outcome {
      case .created:
        environment.print("Sync key: new, stored on the server under your passphrase (keep it: your other machines need it)")
      case .unlocked: environment.print("Sync key: unlocked with your passphrase")
      case .kept: environment.print("Sync key: already on this machine")
      }
    }
  }
}
