import Core
import Foundation

/// Argon2id's cost: passes over memory, and the memory in bytes.
public struct KDFParameters: Hashable, Sendable {
  public var opsLimit: UInt64
  public var memLimit: UInt64

  public init(opsLimit: UInt64, memLimit: UInt64) {
    self.opsLimit = opsLimit
    self.memLimit = memLimit
  }

  /// What ootd derives new keys with: libsodium's MODERATE (3 passes over 256 MiB, about half
  /// a second on a laptop), paid once per machine (`remote set`, a first sync, `remote rekey`).
  public static let moderate = KDFParameters(opsLimit: 3, memLimit: 256 << 20)

  /// libsodium's minimum (1 pass over 8 KiB): only for the tests of a debug build
  /// (`OOTD_DEBUG_CHEAP_KDF`, see the CLI's DebugSeams.swift), where hundreds of machines are
  /// set up; never chosen by a release build.
  public static let cheapForTests = KDFParameters(opsLimit: 1, memLimit: 8192)

  /// The costs a key record on the server may ask for: from libsodium's minimum up to 10 passes
  /// over 1 GiB (its SENSITIVE is 4 over 1 GiB), so a hostile server cannot make a machine
  /// allocate without bound.
  static let acceptedOps: ClosedRange<UInt64> = 1...10
  static let acceptedMemory: ClosedRange<UInt64> = 8192...(1 << 30)
}

/// The random 256-bit key that seals one person's payloads, the same on all their machines.
/// The server never sees it: it keeps it wrapped under a key derived from the passphrase
/// (``ServerKeyRecord``); each machine keeps it in its key file (the CLI's `SyncKeyFile`).
public struct DataKey: Sendable {
  let key: SecretKey
  /// The random uuid naming this key on the server (``ServerKeyRecord/keyID``).
  public let keyID: String

  init(key: SecretKey, keyID: String) {
    self.key = key
    self.keyID = keyID
  }

  /// A new random key (loads libsodium).
  public static func generate() throws(EncryptionError) -> DataKey {
    try Sodium.load()
    var bytes = Sodium.random(Sodium.keyBytes)
    defer { for index in bytes.indices { bytes[index] = 0 } }
    return DataKey(key: SecretKey(bytes), keyID: UUID().uuidString.lowercased())
  }

  // MARK: - Wrapping under a passphrase

  /// The key wrapped under `passphrase` with a new random salt: what the server keeps.
  public func wrapped(passphrase: String, parameters: KDFParameters) throws(EncryptionError) -> ServerKeyRecord {
    try Sodium.load()
    let salt = Sodium.random(Sodium.saltBytes)
    guard let wrapping = Sodium.argon2id(passphrase, salt: salt, parameters: parameters) else {
      throw .derivationFailed
    }
    let associated = Self.associated(keyID: keyID, parameters: parameters)
    var message = key.withBytes { Array(UnsafeBufferPointer(start: $0, count: key.count)) }
    defer { for index in message.indices { message[index] = 0 } }
    return ServerKeyRecord(
      keyID: keyID, salt: Data(salt).base64EncodedString(), opsLimit: Int64(parameters.opsLimit),
      memLimit: Int64(parameters.memLimit),
      wrappedKey: Envelope.seal(message, associated: associated, key: wrapping))
  }

  /// The key `record` holds, unwrapped with `passphrase`; ``EncryptionError/wrongPassphrase``
  /// when it does not authenticate (the check), ``EncryptionError/unusableKeyRecord(_:)`` when
  /// the record is not one ootd makes.
  public static func unwrap(_ record: ServerKeyRecord, passphrase: String) throws(EncryptionError) -> DataKey {
    try Sodium.load()
    guard record.opsLimit >= 0, record.memLimit >= 0 else { throw .unusableKeyRecord("negative Argon2id cost") }
    let parameters = KDFParameters(opsLimit: UInt64(record.opsLimit), memLimit: UInt64(record.memLimit))
    guard KDFParameters.acceptedOps.contains(parameters.opsLimit),
      KDFParameters.acceptedMemory.contains(parameters.memLimit)
    else { throw .unusableKeyRecord("Argon2id cost out of range (\(record.opsLimit) passes, \(record.memLimit) bytes)") }
    guard let salt = Data(base64Encoded: record.salt), salt.count == Sodium.saltBytes else {
      throw .unusableKeyRecord("its salt is not 16 bytes of base64")
    }
    guard UUID(uuidString: record.keyID) != nil else { throw .unusableKeyRecord("its key id is not a uuid") }
    guard let wrapping = Sodium.argon2id(passphrase, salt: [UInt8](salt), parameters: parameters) else {
      throw .derivationFailed
    }
    let associated = associated(keyID: record.keyID.lowercased(), parameters: parameters)
    switch Envelope.open(record.wrappedKey, associated: associated, key: wrapping) {
    case .opened(var bytes):
      defer { for index in bytes.indices { bytes[index] = 0 } }
      guard bytes.count == Sodium.keyBytes else { throw .unusableKeyRecord("the wrapped key is not 32 bytes") }
      return DataKey(key: SecretKey(bytes), keyID: record.keyID.lowercased())
    case .failed: throw .wrongPassphrase
    case .notSealed: throw .unusableKeyRecord("the wrapped key is not in ootd's format")
    }
  }

  /// What a wrapped key is bound to: its id and the cost it was derived with (the salt is bound
  /// by the derivation itself).
  static func associated(keyID: String, parameters: KDFParameters) -> String {
    "ootd.keys|1|\(keyID)|\(parameters.opsLimit)|\(parameters.memLimit)"
  }

  // MARK: - The key file's text

  /// The first line of a key file.
  static let fileHeader = "ootd sync key 1"

  /// The key as a key file holds it: a header line, `id UUID` and `key BASE64`.
  public var fileText: String {
    let bytes = key.withBytes { Data(bytes: $0, count: key.count) }
    return "\(Self.fileHeader)\nid \(keyID)\nkey \(bytes.base64EncodedString())\n"
  }

  /// The key a key file's text holds, or nil when it is not one.
  public init?(fileText: String) {
    let lines = fileText.split(separator: "\n").map(String.init)
    guard lines.count == 3, lines[0] == Self.fileHeader, lines[1].hasPrefix("id "), lines[2].hasPrefix("key "),
      UUID(uuidString: String(lines[1].dropFirst(3))) != nil,
      let bytes = Data(base64Encoded: String(lines[2].dropFirst(4))), bytes.count == Sodium.keyBytes
    else { return nil }
    self.init(key: SecretKey(bytes), keyID: String(lines[1].dropFirst(3)).lowercased())
  }

  /// Whether `other` is the same key (same id and bytes).
  public func same(as other: DataKey) -> Bool { keyID == other.keyID && key.sameBytes(as: other.key) }
}

/// Seals and opens the payloads of sync records with a ``DataKey`` (``RecordSealer``): each
/// payload becomes an ``Envelope`` bound to its record's op id and device, so the server cannot
/// move a payload to another row or credit it to another device without failing its check.
public struct PayloadCipher: RecordSealer {
  public let dataKey: DataKey

  /// A cipher with `dataKey` (loads libsodium).
  public init(_ dataKey: DataKey) throws(EncryptionError) {
    try Sodium.load()
    self.dataKey = dataKey
  }

  /// The associated data of a record's payload.
  static func associated(opID: String, device: String) -> String { "ootd.ops|1|\(opID.lowercased())|\(device)" }

  public func seal(_ record: SyncRecord) throws -> SyncRecord {
    var sealed = record
    sealed.payload = Envelope.seal(
      Array(record.payload.utf8), associated: Self.associated(opID: record.opID, device: record.device), key: dataKey.key)
    return sealed
  }

  public func open(_ record: SyncRecord, seq: Int64) throws -> SyncRecord {
    if record.withheldBytes != nil { return record }
    switch Envelope.open(record.payload, associated: Self.associated(opID: record.opID, device: record.device), key: dataKey.key) {
    case .opened(let bytes):
      var opened = record
      opened.payload = String(decoding: bytes, as: UTF8.self)
      return opened
    case .notSealed: return Self.unopened(record, Self.notSealed)
    case .failed: return Self.unopened(record, Self.failsAuthentication)
    }
  }

  /// Why a payload is not opened, as a set-aside row says it.
  public static let failsAuthentication =
    "its payload fails authentication: it was changed on the server or not sealed with your key"
  public static let notSealed = "its payload is not encrypted (pushed by an ootd without encryption, or not by ootd)"

  static func unopened(_ record: SyncRecord, _ why: String) -> SyncRecord {
    var unopened = record
    unopened.payload = ""
    unopened.unopened = why
    return unopened
  }
}
