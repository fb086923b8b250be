import CSodiumShim
import Core
import Foundation
import TestTags
import Testing

@testable import Encryption

/// The sealed text format (`xc1:` + base64 of nonce ‖ ciphertext ‖ tag), the key wrapping and
/// the payload cipher, as tables: what opens, and every change that must not.
@Suite struct EnvelopeTests {
  static func key() throws -> SecretKey {
    try Sodium.load()
    return SecretKey(Sodium.random(Sodium.keyBytes))
  }

  @Test("libsodium's own sizes and parameters equal the ones the shim declares")
  func abi() throws {
    try Sodium.load()
    #expect(Sodium.libraryConstants() == Sodium.declaredConstants)
    #expect(KDFParameters.moderate == KDFParameters(opsLimit: OOTD_PWHASH_OPSLIMIT_MODERATE, memLimit: OOTD_PWHASH_MEMLIMIT_MODERATE))
  }

  @Test("round trip, with a fresh nonce each seal", arguments: [0, 1, 15, 16, 17, 1000, 70_000])
  func roundTrip(length: Int) throws {
    let key = try Self.key()
    let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let first = Envelope.seal(message, associated: "row-1", key: key)
    let second = Envelope.seal(message, associated: "row-1", key: key)
    #expect(first.hasPrefix("xc1:"))
    #expect(first != second)  // a random nonce each time
    #expect(first.utf8.count == Envelope.sealedLength(length))
    #expect(Envelope.open(first, associated: "row-1", key: key) == .opened(message))
    #expect(Envelope.open(second, associated: "row-1", key: key) == .opened(message))
  }

  /// A sealed text with byte `index` of its decoded bytes flipped.
  static func flipping(_ text: String, at index: (Int) -> Int) -> String {
    var bytes = [UInt8](Data(base64Encoded: String(text.dropFirst(4)))!)
    bytes[index(bytes.count)] ^= 0x01
    return "xc1:" + Data(bytes).base64EncodedString()
  }

  enum Change: String, CaseIterable, CustomStringConvertible {
    case wrongKey, wrongAssociatedData, nonce, ciphertext, tag, truncated, notBase64, emptyBody
    var description: String { rawValue }
  }

  @Test("a wrong key, other associated data, or any changed byte of nonce, ciphertext or tag fails", arguments: Change.allCases)
  func tampering(change: Change) throws {
    let key = try Self.key()
    let message = Array("{\"v\":1,\"command\":\"add SECRET-1\",\"ops\":[]}".utf8)
    let sealed = Envelope.seal(message, associated: "op-a|device", key: key)
    var text = sealed
    var openWith = key
    var associated = "op-a|device"
    switch change {
    case .wrongKey: openWith = try Self.key()
    case .wrongAssociatedData: associated = "op-b|device"
    case .nonce: text = Self.flipping(sealed) { _ in 3 }
    case .ciphertext: text = Self.flipping(sealed) { _ in 24 + 5 }
    case .tag: text = Self.flipping(sealed) { $0 - 1 }
    case .truncated: text = String(sealed.dropLast(8))
    case .notBase64: text = "xc1:***"
    case .emptyBody: text = "xc1:"
    }
    #expect(Envelope.open(text, associated: associated, key: openWith) == .failed)
  }

  @Test("text without the prefix is not sealed (a plain payload of an older ootd)")
  func plainText() throws {
    let key = try Self.key()
    #expect(Envelope.open("{\"v\":1}", associated: "x", key: key) == .notSealed)
    #expect(Envelope.open("", associated: "x", key: key) == .notSealed)
  }

  @Test("the largest payload a push makes still fits the server's cap once sealed")
  func capsFit() {
    #expect(Envelope.sealedLength(Caps.plainPayloadBytes) <= Caps.payloadBytes)
    #expect(Envelope.sealedLength(Caps.plainPayloadBytes + 3) > Caps.payloadBytes)
    #expect(Envelope.largestMessage(fitting: Caps.payloadBytes) == Caps.plainPayloadBytes)
  }

  @Test("a wrapped key opens with its passphrase only; a changed record is refused")
  func wrapping() throws {
    let key = try DataKey.generate()
    let record = try key.wrapped(passphrase: "correct horse", parameters: .cheapForTests)
    #expect(record.keyID == key.keyID)
    #expect(!record.wrappedKey.contains(key.fileText.split(separator: " ").last ?? "x"))
    #expect(try DataKey.unwrap(record, passphrase: "correct horse").same(as: key))
    #expect(throws: EncryptionError.wrongPassphrase) { try DataKey.unwrap(record, passphrase: "correct hors") }
    // Each wrapping has its own salt.
    let again = try key.wrapped(passphrase: "correct horse", parameters: .cheapForTests)
    #expect(again.salt != record.salt && again.wrappedKey != record.wrappedKey)
    // The cost and the id are bound to the wrapped key: changing either fails the check.
    var cheaper = record
    cheaper.opsLimit = 2
    #expect(throws: EncryptionError.wrongPassphrase) { try DataKey.unwrap(cheaper, passphrase: "correct horse") }
    var renamed = record
    renamed.keyID = UUID().uuidString.lowercased()
    #expect(throws: EncryptionError.wrongPassphrase) { try DataKey.unwrap(renamed, passphrase: "correct horse") }
    // A hostile server cannot ask for unbounded memory or hand over garbage.
    var greedy = record
    greedy.memLimit = 1 << 40
    #expect(throws: EncryptionError.self) { try DataKey.unwrap(greedy, passphrase: "correct horse") }
    var salty = record
    salty.salt = "AAAA"
    #expect(throws: EncryptionError.self) { try DataKey.unwrap(salty, passphrase: "correct horse") }
  }

  @Test("a key file's text reads back as the same key; anything else is not a key")
  func keyFileText() throws {
    let key = try DataKey.generate()
    let read = try #require(DataKey(fileText: key.fileText))
    #expect(read.same(as: key))
    for text in ["", "ootd sync key 1\n", key.fileText.replacingOccurrences(of: "ootd sync key 1", with: "ootd sync key 2"),
      "ootd sync key 1\nid x\nkey AAAA\n"] {
      #expect(DataKey(fileText: text) == nil, "\(text)")
    }
  }

  @Test("a payload is bound to its op id and device: moved to another row it is refused, tampered it is refused")
  func payloadCipher() throws {
    let cipher = try PayloadCipher(DataKey.generate())
    let record = SyncRecord(opID: UUID().uuidString.lowercased(), device: "dev-a", clock: "1", payload: "{\"title\":\"SECRET-1\"}")
    let sealed = try cipher.seal(record)
    #expect(!sealed.payload.contains("SECRET"))
    #expect(sealed.opID == record.opID && sealed.device == record.device && sealed.clock == record.clock)
    #expect(try cipher.open(sealed, seq: 7) == record)
    var moved = sealed
    moved.opID = UUID().uuidString.lowercased()
    // Refused: comes back unopened, its payload dropped, to be set aside by the pull.
    func unopened(_ why: String) -> (SyncRecord) -> Bool { { $0.unopened == why && $0.payload.isEmpty } }
    #expect(unopened(PayloadCipher.failsAuthentication)(try cipher.open(moved, seq: 7)))
    var otherDevice = sealed
    otherDevice.device = "dev-b"
    #expect(unopened(PayloadCipher.failsAuthentication)(try cipher.open(otherDevice, seq: 8)))
    #expect(unopened(PayloadCipher.notSealed)(try cipher.open(record, seq: 9)))
    let other = try PayloadCipher(DataKey.generate())
    #expect(unopened(PayloadCipher.failsAuthentication)(try other.open(sealed, seq: 10)))
    #expect(try cipher.open(sealed, seq: 7).unopened == nil)
    // A payload the server withheld (over the cap) passes through, to be set aside as before.
    let withheld = SyncRecord(opID: record.opID, device: "dev-a", clock: "1", payload: "", withheldBytes: 9 << 20)
    #expect(try cipher.open(withheld, seq: 11) == withheld)
  }
}
