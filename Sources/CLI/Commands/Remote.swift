import ArgumentParser
import Core
import Remote
import Storage

extension Ootd {
  /// `ootd remote`: the PostgreSQL server this database syncs with.
  struct RemoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remote",
      abstract: "Connect this machine to a PostgreSQL server shared by your machines and your team.",
      discussion: """
        The server is a libpq URI (sslmode and the other parameters work as in psql). The \
        password is never stored: libpq reads PGPASSWORD, ~/.pgpass or a service file \
        (password= and sslpassword= in the URI are refused). OOTD_REMOTE overrides the saved \
        URI for one command.

        Without sslmode libpq uses sslmode=prefer: TLS when the server offers it, else \
        plaintext, with a warning when the server is not on this machine. Add \
        sslmode=verify-full (and sslrootcert) to the URI to require TLS and check the server's \
        certificate and name. Every statement waits at most 10 s for a lock and runs at most \
        25 s; past that the command fails saying what it waited for.

        Examples:
          ootd remote set postgres://alice@db.example.com/ootd --name Alice
          ootd remote init          # once per server, as a role allowed to create the schema
          ootd remote sync          # pull your other machines' changes, push this one's
          ootd remote status
        """,
      subcommands: [SetServer.self, InitServer.self, SyncCommand.self, StatusCommand.self])
  }
}

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
      try database.setRemoteSettings(settings)
      environment.print(TerminalText.printable("Server: \(parsed.description)"))
      let shownName = try database.remoteSetting(.displayName) ?? parsed.user.map { "\($0) (the role name)" }
      if let shownName { environment.print(TerminalText.printable("Name on team boards: \(shownName)")) }
    }
  }

  /// `ootd remote init`.
  struct InitServer: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "init",
      abstract: "Create or migrate the ootd schema on the server.",
      discussion: """
        Run once per server by a role allowed to create schemas and roles (the database's \
        owner, with CREATEROLE). Creates the schema 'ootd', its row-level-security policies and \
        the group role 'ootd_member'; running it again does nothing, or migrates an older schema. \
        Then give each person a role:
          CREATE ROLE alice LOGIN PASSWORD '…' IN ROLE ootd_member;

        Examples:
          OOTD_REMOTE=postgres://postgres@db.example.com/ootd ootd remote init
        """)

    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let access = try global.remoteAccess(environment)
      let connection = try access.connect()
      let before = try RemoteSchema.installedVersion(connection)
      let applied: [Int]
      do {
        applied = try RemoteSchema.migrate(connection)
      } catch RemoteError.refused(let reason) {
        // Typically a person's role (in ootd_member, without CREATE on the database).
        throw RemoteError.refused(
          "\(reason): run 'ootd remote init' as a role allowed to create schemas and roles (the database's owner, with CREATEROLE)")
      }
      let version = RemoteSchema.currentVersion
      if applied.isEmpty {
        environment.print("The ootd schema on \(access.shown) is up to date (version \(version)).")
      } else if let before, before > 0 {
        environment.print("Migrated the ootd schema on \(access.shown) from version \(before) to \(version).")
      } else {
        environment.print("Created the ootd schema (version \(version)) on \(access.shown).")
        environment.print("Give each person a role: CREATE ROLE name LOGIN PASSWORD '…' IN ROLE ootd_member;")
      }
    }
  }
}
