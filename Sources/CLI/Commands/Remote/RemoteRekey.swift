import ArgumentParser
import Core
import Encryption
import Remote
import Storage

extension Ootd.RemoteCommand {
  /// `ootd remote rekey`.
  struct RekeyCommand: OotdCommand {
    static let configuration = CommandConfiguration(
      commandName: "rekey",
      abstract: "Change your sync passphrase.",
      discussion: """
        Asks for the current passphrase (OOTD_REMOTE_PASSPHRASE) and a new one, twice \
        (OOTD_REMOTE_NEW_PASSPHRASE), and stores your sync key on the server wrapped under the \
        new one. Nothing is encrypted again: the key itself stays, so your machines that hold \
        it keep syncing; a machine set up from now on needs the new passphrase.

        Examples:
          ootd remote rekey
        """)

    @OptionGroup var global: GlobalOptions

    func run(in environment: AppEnvironment) throws {
      let path = try environment.databasePath(option: global.db)
      let access = try global.remoteAccess(environment)
      let server = try access.server()
      let role = server.connection.role
      guard let record = try server.keyRecord() else {
        throw RemoteError.refused("'\(role)' has no sync key on the server yet: run 'ootd remote set URI' first")
      }
      let keys = SyncKey(environment, databasePath: path)
      try keys.loadLibrary()
      let key = try DataKey.unwrap(record, passphrase: keys.passphrase(for: role, question: "Current sync passphrase for \(role): "))
      let phrase = try keys.newPassphrase(
        variable: SyncKey.newPassphraseVariable, question: "New sync passphrase for \(role): ")
      let rewrapped = try key.wrapped(passphrase: phrase, parameters: environment.keyDerivationCost)
      guard try server.replaceKeyRecord(record, with: rewrapped) else {
        throw RemoteError.refused("your sync key changed on the server meanwhile (another machine rekeyed): run 'ootd remote rekey' again")
      }
      try keys.file.write(key)
      environment.print("Changed the sync passphrase of \(TerminalText.printable(role)) on \(access.shown).")
      environment.print("Machines that already sync keep their key; a new machine needs the new passphrase.")
    }
  }
}
