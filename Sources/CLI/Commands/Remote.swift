import ArgumentParser

extension Ootd {
  /// `ootd remote`: syncing this machine's todos through a PostgreSQL server.
  struct RemoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remote",
      abstract: "Sync todos, projects and blocks between your machines through PostgreSQL.",
      discussion: """
        The server is $OOTD_REMOTE, else the URI saved with 'ootd remote set'. The password \
        comes from PGPASSWORD, ~/.pgpass or a service file, as for every PostgreSQL tool.

        Examples:
          ootd remote status
          ootd remote sync
          ootd remote sync --json
        """,
      subcommands: [SyncCommand.self, StatusCommand.self])
  }
}
