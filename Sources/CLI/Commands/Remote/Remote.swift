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

        What you type is encrypted end to end under a key only your machines hold, unlocked by \
        your sync passphrase (OOTD_REMOTE_PASSPHRASE, else asked on the terminal): the server \
        and its owner see ids, clocks, sizes, device ids and the day figures your teams see.

        Examples:
          ootd remote init          # once per server, as a role allowed to create the schema
          ootd remote set postgres://alice@db.example.com/ootd --name Alice
          ootd remote sync          # pull your other machines' changes, push this one's
          ootd remote status
        """,
      subcommands: [SetServer.self, InitServer.self, SyncCommand.self, StatusCommand.self, RekeyCommand.self, NameCommand.self])
  }
}
