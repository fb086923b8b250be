import CSodiumShim

/// libsodium, loaded with dlopen on first use (``load()``): the random source, XChaCha20-Poly1305
/// (IETF) and Argon2id. Only the commands that sync with a server call it, so every other
/// command starts without it (docs/decisions/encryption.md).
enum Sodium {
  static let keyBytes = Int(OOTD_XCHACHA_KEYBYTES)
  static let nonceBytes = Int(OOTD_XCHACHA_NPUBBYTES)
  static let tagBytes = Int(OOTD_XCHACHA_ABYTES)
  static let saltBytes = Int(OOTD_PWHASH_SALTBYTES)

  /// Loads libsodium (`library`, a file name or path, else libsodium.so.23) unless it is loaded
  /// already, or throws ``EncryptionError/libraryUnavailable(_:)`` naming the package.
  static func load(library: String? = nil) throws(EncryptionError) {
    var error = [CChar](repeating: 0, count: 512)
    guard ootd_sodium_load(library, &error, error.count) == 1 else {
      throw .libraryUnavailable(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
  }

  /// Whether this process has loaded libsodium.
  public static var isLoaded: Bool { ootd_sodium_is_loaded() == 1 }

  /// `count` random bytes (libsodium loaded).
  static func random(_ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    bytes.withUnsafeMutableBytes { ootd_sodium_random($0.baseAddress, count) }
    return bytes
  }

  /// `message` encrypted and authenticated together with `associated` under `key` and `nonce`:
  /// the ciphertext followed by its 16-byte tag.
  static func seal(_ message: [UInt8], associated: [UInt8], nonce: [UInt8], key: SecretKey) -> [UInt8] {
    precondition(nonce.count == nonceBytes)
    var out = [UInt8](repeating: 0, count: message.count + tagBytes)
    let result = out.withUnsafeMutableBufferPointer { out in
      key.withBytes { key in
        ootd_sodium_seal(
          out.baseAddress, message, UInt64(message.count), associated, UInt64(associated.count), nonce, key)
      }
    }
    precondition(result == 0, "crypto_aead_xchacha20poly1305_ietf_encrypt failed")
    return out
  }

  /// The message of `sealed` (ciphertext and tag), or nil when it does not authenticate under
  /// `key`, `nonce` and `associated`.
  static func open(_ sealed: ArraySlice<UInt8>, associated: [UInt8], nonce: ArraySlice<UInt8>, key: SecretKey) -> [UInt8]? {
    guard sealed.count >= tagBytes, nonce.count == nonceBytes else { return nil }
    var out = [UInt8](repeating: 0, count: sealed.count - tagBytes)
    let nonce = Array(nonce)
    let result = sealed.withUnsafeBufferPointer { sealed in
      out.withUnsafeMutableBufferPointer { out in
        key.withBytes { key in
          ootd_sodium_open(
            out.baseAddress, sealed.baseAddress, UInt64(sealed.count), associated, UInt64(associated.count),
            nonce, key)
        }
      }
    }
    return result == 0 ? out : nil
  }

  /// A 32-byte key derived from `passphrase` with Argon2id 1.3, or nil when libsodium refuses
  /// (out of memory; parameters out of range).
  static func argon2id(_ passphrase: String, salt: [UInt8], parameters: KDFParameters) -> SecretKey? {
    precondition(salt.count == saltBytes)
    let key = SecretKey(zeroed: keyBytes)
    var bytes = Array(passphrase.utf8)
    defer { bytes.withUnsafeMutableBytes { ootd_sodium_memzero($0.baseAddress, $0.count) } }
    let result = key.withMutableBytes { out in
      bytes.withUnsafeBufferPointer { password in
        password.withMemoryRebound(to: CChar.self) { password in
          ootd_sodium_argon2id(
            out, UInt64(keyBytes), password.baseAddress, UInt64(password.count), salt,
            UInt64(parameters.opsLimit), Int(parameters.memLimit))
        }
      }
    }
    return result == 0 ? key : nil
  }

  /// libsodium's own values of the constants the shim declares (the ABI test), nil when not loaded.
  static func libraryConstants() -> [UInt64]? {
    var values = [UInt64](repeating: 0, count: 9)
    return ootd_sodium_constants(&values) == 1 ? values : nil
  }

  /// The shim's declared values, in ``libraryConstants()``'s order.
  static let declaredConstants: [UInt64] = [
    UInt64(OOTD_XCHACHA_KEYBYTES), UInt64(OOTD_XCHACHA_NPUBBYTES), UInt64(OOTD_XCHACHA_ABYTES),
    UInt64(OOTD_PWHASH_ALG_ARGON2ID13), UInt64(OOTD_PWHASH_SALTBYTES), OOTD_PWHASH_OPSLIMIT_MIN,
    OOTD_PWHASH_MEMLIMIT_MIN, OOTD_PWHASH_OPSLIMIT_MODERATE, OOTD_PWHASH_MEMLIMIT_MODERATE,
  ]
}

/// The library everything in this module uses.
public enum SodiumLibrary {
  /// Loads libsodium from `library` (a file name or path; nil: libsodium.so.23) unless it is
  /// loaded already; a missing one is ``EncryptionError/libraryUnavailable(_:)``, one line naming
  /// Debian's package. The CLI calls it first, with `OOTD_LIBSODIUM`.
  public static func load(_ library: String?) throws(EncryptionError) { try Sodium.load(library: library) }
}

/// Key bytes in memory of their own, cleared (sodium_memzero) when the key goes away, never
/// copied into a Swift array that could outlive it.
public final class SecretKey: @unchecked Sendable {
  private let pointer: UnsafeMutableRawBufferPointer

  init(zeroed count: Int) {
    pointer = .allocate(byteCount: count, alignment: 16)
    pointer.initializeMemory(as: UInt8.self, repeating: 0)
  }

  /// A key holding `bytes` (the caller clears its own copy).
  init(_ bytes: some Collection<UInt8>) {
    pointer = .allocate(byteCount: bytes.count, alignment: 16)
    pointer.copyBytes(from: bytes)
  }

  deinit {
    if Sodium.isLoaded { ootd_sodium_memzero(pointer.baseAddress, pointer.count) }
    pointer.deallocate()
  }

  var count: Int { pointer.count }

  func withBytes<R>(_ body: (UnsafePointer<UInt8>) -> R) -> R {
    body(pointer.baseAddress!.assumingMemoryBound(to: UInt8.self))
  }

  func withMutableBytes<R>(_ body: (UnsafeMutablePointer<UInt8>) -> R) -> R {
    body(pointer.baseAddress!.assumingMemoryBound(to: UInt8.self))
  }

  /// Whether both hold the same bytes (not in constant time: for tests and for comparing a
  /// key file with an unwrapped key, neither of which an attacker times).
  func sameBytes(as other: SecretKey) -> Bool {
    count == other.count && withBytes { a in other.withBytes { b in (0..<count).allSatisfy { a[$0] == b[$0] } } }
  }
}
