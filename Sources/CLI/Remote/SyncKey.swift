import Core
import Encryption
import Remote

/// How a machine comes to hold the key that encrypts its sync payloads (docs/decisions/
/// encryption.md), for `remote set`, `remote sync` and `remote rekey`:
///
/// - the key file beside the database, when it names the key the server keeps for the role;
/// - else the passphrase unwraps the server's key record, proving it before anything is pulled;
/// - else (the role's first machine on this server) a new random key, wrapped under a new
///   passphrase typed twice, is stored on the server.
///
/// The passphrase comes from `OOTD_REMOTE_PASSPHRASE`, else from the terminal without echo; with
/// neither, one line and exit 64. libsodium is loaded here, first (`OOTD_LIBSODIUM` names another
/// file); a missing one is one line, exit 1, naming Debian's libsodium23.
struct SyncKey {
  static let passphraseVariable = "OOTD_REMOTE_PASSPHRASE"
  static let newPassphraseVariable = "OOTD_REMOTE_NEW_PASSPHRASE"

  let environment: AppEnvironment
  let file: SyncKeyFile

  init(_ environment: AppEnvironment, databasePath: String) {
    self.environment = environment
    file = SyncKeyFile(databasePath: databasePath)
  }

  /// What ``key(for:)`` did, for the command's message.
  enum Outcome { case kept, unlocked, created }

  /// The role's key on `server`, and how it was had; the key file holds it afterwards.
  func key(for server: RemoteServer) throws -> (key: DataKey, outcome: Outcome) {
    try loadLibrary()
    let local = try file.read()
    if let record = try server.keyRecord() {
      if let local, local.keyID == record.keyID.lowercased() { return (local, .kept) }
      let key = try DataKey.unwrap(record, passphrase: passphrase(for: server.connection.role))
      try file.write(key)
      return (key, .unlocked)
    }
    // No key on the server: this role's first machine, unless an older ootd pushed plain
    // payloads (they cannot be encrypted in place: the server's journal is append-only).
    let plain = try server.operationCount()
    if plain > 0 {
      throw RemoteError.refused(
        "the server holds \(plain) changes of '\(server.connection.role)' pushed without encryption by an older ootd, which cannot be encrypted in place: sync as a new role (ask the server's owner), or have the owner delete them (DELETE FROM ootd.ops WHERE owner = '\(server.connection.role)') and sync from a fresh database (docs/decisions/encryption.md)")
    }
    let phrase = try newPassphrase(
      variable: Self.passphraseVariable,
      question: "New sync passphrase for \(server.connection.role) (it encrypts your todos; the server never sees it): ")
    // A key file of a server that lost its key keeps its key, so the other machines holding it
    // go on decrypting.
    let key = try local ?? DataKey.generate()
    let record = try key.wrapped(passphrase: phrase, parameters: environment.keyDerivationCost)
    let kept = try server.createKeyRecord(record)
    // Another machine stored its key first: it must open with the same passphrase.
    let final = kept.keyID.lowercased() == key.keyID ? key : try DataKey.unwrap(kept, passphrase: phrase)
    try file.write(final)
    return (final, .created)
  }

  /// Loads libsodium: `OOTD_LIBSODIUM` names another library file (as `OOTD_LIBCURL` does libcurl).
  func loadLibrary() throws {
    let variable = environment.variables["OOTD_LIBSODIUM"].flatMap { $0.isEmpty ? nil : $0 }
    try SodiumLibrary.load(variable)
  }

  /// The passphrase of an existing key: the variable, else asked once.
  func passphrase(for role: String, question: String? = nil) throws -> String {
    if let value = environment.variables[Self.passphraseVariable], !value.isEmpty { return value }
    guard environment.stdinIsTerminal else {
      throw EncryptionError.passphraseRequired(
        variable: Self.passphraseVariable, setEmpty: environment.variables[Self.passphraseVariable] != nil)
    }
    guard let answer = environment.askSecret(question ?? "Sync passphrase for \(role): "), !answer.isEmpty else {
      throw CLIError.cancelled
    }
    return answer
  }

  /// A new passphrase: `variable`, else asked twice; at least ``Passphrase/minimumCharacters``.
  func newPassphrase(variable: String, question: String) throws -> String {
    let phrase: String
    if let value = environment.variables[variable], !value.isEmpty {
      phrase = value
    } else {
      guard environment.stdinIsTerminal else {
        throw EncryptionError.passphraseRequired(variable: variable, setEmpty: environment.variables[variable] != nil)
      }
      guard let first = environment.askSecret(question), !first.isEmpty else { throw CLIError.cancelled }
      guard let second = environment.askSecret("Again, to be sure: ") else { throw CLIError.cancelled }
      guard first == second else { throw EncryptionError.passphrasesDiffer }
      phrase = first
    }
    guard phrase.count >= Passphrase.minimumCharacters else { throw EncryptionError.passphraseTooShort }
    return phrase
  }

  /// `server` with its payloads sealed and opened under the role's key.
  func seal(_ server: RemoteServer) throws -> RemoteServer {
    server.sealer = try PayloadCipher(key(for: server).key)
    return server
  }
}
