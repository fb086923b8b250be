import Foundation

/// A sealed value as text, the form the server stores (in `ootd.ops.payload` and
/// `ootd.keys.wrapped_key`): `xc1:` then base64 of the 24-byte nonce, the ciphertext and its
/// 16-byte Poly1305 tag. XChaCha20-Poly1305 (IETF) under a 256-bit key; the nonce is random,
/// fresh for every seal (24 bytes: random nonces never repeat in practice); the associated data
/// (not stored) binds the value to where it belongs, so a sealed value moved to another row does
/// not open.
public enum Envelope {
  /// The version prefix; a later format gets `xc2:`.
  public static let prefix = "xc1:"

  /// The outcome of ``open(_:associated:key:)``.
  public enum Opened: Equatable {
    case opened([UInt8])
    /// The text is not in this format (e.g. a plain JSON payload of an older ootd).
    case notSealed
    /// The text is in this format but does not authenticate: a byte of the nonce, ciphertext
    /// or tag changed, another key sealed it, or it belongs elsewhere (other associated data).
    case failed
  }

  /// `message` sealed under `key`, bound to `associated`.
  static func seal(_ message: [UInt8], associated: String, key: SecretKey) -> String {
    let nonce = Sodium.random(Sodium.nonceBytes)
    let sealed = Sodium.seal(message, associated: Array(associated.utf8), nonce: nonce, key: key)
    return prefix + Data(nonce + sealed).base64EncodedString()
  }

  /// The message of `text`, sealed under `key` and bound to `associated`.
  static func open(_ text: String, associated: String, key: SecretKey) -> Opened {
    guard text.hasPrefix(prefix) else { return .notSealed }
    guard let data = Data(base64Encoded: String(text.dropFirst(prefix.count))) else { return .failed }
    let bytes = [UInt8](data)
    guard bytes.count >= Sodium.nonceBytes + Sodium.tagBytes else { return .failed }
    let nonce = bytes[..<Sodium.nonceBytes]
    guard let message = Sodium.open(bytes[Sodium.nonceBytes...], associated: Array(associated.utf8), nonce: nonce, key: key)
    else { return .failed }
    return .opened(message)
  }

  /// The length of the text ``seal(_:associated:key:)`` makes of `count` bytes.
  public static func sealedLength(_ count: Int) -> Int {
    prefix.utf8.count + (count + 24 + 16 + 2) / 3 * 4
  }

  /// The most bytes whose sealed text fits in `length` characters.
  public static func largestMessage(fitting length: Int) -> Int {
    (length - prefix.utf8.count) / 4 * 3 - 24 - 16
  }
}
