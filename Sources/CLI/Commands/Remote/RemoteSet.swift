import ArgumentParser
import Core
import Remote
import Storage

extension Ootd.RemoteCommand {
  /// `ootd remote set URI [--name NAME]`.
  struct SetServer: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "set",
      abstract: "Save the server's URI (and the name your teams see) in this database.",
      discussion: """
        Does not connect. A URI holding a password (password= or sslpassword=) is refused: use \
        PGPASSWORD, ~/.pgpass or a service file. Use sslmode=verify-full for a server that is not \
        on this machine.

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
      if let name, name.trimmingCharacters(in: .whitespaces).isEmpty || name.count > 100 {
        throw ValidationError("--name must be 1 to 100 characters")
      }
    }

    func run(in environment: AppEnvironment) throws {
      let parsed = try RemoteAccess.checked(uri)
      let database = try global.openDatabase(environment)
      var settings: [RemoteSetting: String?] = [.uri: uri]
      if let name { settings[.displayName] = name }
      try database.settings.setRemoteSettings(settings)
      environment.print(TerminalText.printable("Server: \(parsed.description)"))
      let shownName = try database.settings.remoteSetting(.displayName) ?? parsed.user.map { "\($0) (the role name)" }
      if let shownName { environment.print(TerminalText.printable("Name on team boards: \(shownName)")) }
    }
  }
}
