/// A failure of end-to-end encryption. Each case reads as one line that never holds a
/// passphrase or a key.
public enum EncryptionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// libsodium (libsodium.so.23) could not be loaded (exit 1).
  case libraryUnavailable(String)
  /// No passphrase: no terminal to ask on and no `OOTD_REMOTE_PASSPHRASE` (exit 64).
  case passphraseRequired(variable: String, setEmpty: Bool = false)
  /// The passphrase typed twice differed (exit 64).
  case passphrasesDiffer
  /// A new passphrase shorter than ``Passphrase/minimumCharacters`` (exit 64).
  case passphraseTooShort
  /// The passphrase does not unwrap the key on the server (exit 1).
  case wrongPassphrase
  /// The server's key record cannot be used: parameters out of range, not ootd's format (exit 1).
  case unusableKeyRecord(String)
  /// Argon2id could not run (out of memory) (exit 1).
  case derivationFailed
  /// The key file beside the database cannot be used (exit 1).
  case keyFile(String)

  public var description: String {
    switch self {
    case .libraryUnavailable(let reason): return "cannot encrypt: \(reason)"
    case .passphraseRequired(let variable, let setEmpty):
      if setEmpty { return "the sync passphrase is needed and \(variable) is empty (no terminal to ask on): give it the passphrase" }
      return "the sync passphrase is needed and there is no terminal to ask on: set \(variable)"
    case .passphrasesDiffer: return "the two passphrases differ; nothing was changed"
    case .passphraseTooShort:
      return "a sync passphrase needs at least \(Passphrase.minimumCharacters) characters"
    case .wrongPassphrase:
      return "wrong passphrase: it does not unlock your sync key on the server; nothing was pulled or changed"
    case .unusableKeyRecord(let why): return "your sync key on the server cannot be used: \(why)"
    case .derivationFailed: return "cannot derive the key from the passphrase (Argon2id ran out of memory)"
    case .keyFile(let why): return why
    }
  }

  /// Whether the failure is the user's input (exit 64) rather than a runtime failure (exit 1).
  public var isUsage: Bool {
    switch self {
    case .passphraseRequired, .passphrasesDiffer, .passphraseTooShort: return true
    default: return false
    }
  }
}

/// Rules for a passphrase.
public enum Passphrase {
  /// The fewest characters a new passphrase may have.
  public static let minimumCharacters = 8
}
