// End-to-end encryption as the sync sees it (docs/decisions/encryption.md): every record's
// payload is sealed on this machine before it is pushed and opened after it is pulled, by a
// ``RecordSealer`` the CLI hands to the server (Encryption's `PayloadCipher`); the server keeps
// one ``ServerKeyRecord`` per person, from which a passphrase recovers the key.

/// Seals a record's payload for the server and opens a pulled one.
public protocol RecordSealer: Sendable {
  /// `record` with its payload encrypted (a fresh nonce each call).
  func seal(_ record: SyncRecord) throws -> SyncRecord
  /// `record`, pulled from the server at `seq`, with its payload decrypted; when it does not
  /// authenticate (changed on the server, or not sealed with this key), with an empty payload
  /// and ``SyncRecord/unopened`` saying so. A record whose payload the server withheld
  /// (``SyncRecord/withheldBytes``) comes back as it is.
  func open(_ record: SyncRecord, seq: Int64) throws -> SyncRecord
}

/// What the server keeps of one person's data key: the key encrypted ("wrapped") under a key
/// derived from their passphrase with Argon2id, the salt and cost of that derivation, and a
/// random id that names the data key (it stays when `remote rekey` wraps it anew). The wrapped
/// key's authentication tag is the check value: a wrong passphrase fails to unwrap it.
public struct ServerKeyRecord: Hashable, Sendable {
  /// A random uuid naming the data key.
  public var keyID: String
  /// The Argon2id salt, base64 (16 bytes).
  public var salt: String
  /// Argon2id's passes and memory in bytes.
  public var opsLimit: Int64
  public var memLimit: Int64
  /// The data key, sealed under the derived key (``RecordSealer``'s envelope text).
  public var wrappedKey: String

  public init(keyID: String, salt: String, opsLimit: Int64, memLimit: Int64, wrappedKey: String) {
    self.keyID = keyID
    self.salt = salt
    self.opsLimit = opsLimit
    self.memLimit = memLimit
    self.wrappedKey = wrappedKey
  }
}
