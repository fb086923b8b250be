import ArgumentParser
import Core
import Remote
import Storage

extension Ootd.RemoteCommand {
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
