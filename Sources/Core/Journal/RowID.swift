import Formats
import Foundation

/// Stable row identities: lowercase RFC 4122 uuids, assigned once and never reused.
public enum RowID {
  /// A new random (version 4) uuid: from ``source`` when one is set, else the system's.
  public static func random() -> String { source?.next() ?? UUID().uuidString.lowercased() }

  /// Where ``random()`` takes its uuids in this task, when set: a test gives a seeded one
  /// (`RowID.$source.withValue(RowIDSource(generator)) { … }`) so that a seed replays the
  /// same uuids, and with them every choice ordered by uuid (issue 24: which of two todos
  /// keeps a number). Never set outside tests.
  @TaskLocal public static var source: RowIDSource?

  /// The uuid of a built-in task block: a name-based (version 5, SHA-1) uuid of its name in
  /// ootd's namespace, so every machine gives the same built-in block the same uuid.
  public static func builtInBlock(_ name: String) -> String {
    nameBased(name.lowercased(), namespace: blockNamespace)
  }

  /// The uuid of the todo a routine block plans on a day: a name-based (version 5) uuid of the
  /// block's uuid and the day, so two machines planning the same routine make the same todo,
  /// and one day never gets the same block's routine todo twice.
  public static func routineTodo(block: String, day: Day) -> String {
    nameBased("\(block.lowercased()) \(day)", namespace: routineNamespace)
  }

  /// The uuid of a sync record made from other parts (a journal entry's uuid and a chunk
  /// number): the same parts always give the same record id, so pushing again is deduplicated.
  public static func syncRecord(_ parts: String) -> String {
    nameBased(parts, namespace: recordNamespace)
  }

  /// ootd's namespace for routine todos (a fixed random uuid).
  static let routineNamespace: [UInt8] = [
    0x6f, 0x6f, 0x74, 0x64, 0x2d, 0x72, 0x4f, 0x75, 0x9a, 0x74, 0x69, 0x6e, 0x65, 0x2e, 0x76, 0x31,
  ]

  /// ootd's namespace for sync record ids (a fixed random uuid).
  static let recordNamespace: [UInt8] = [
    0x8a, 0x44, 0x10, 0xc3, 0x25, 0x6d, 0x4f, 0x0b, 0xa7, 0x31, 0x53, 0x79, 0x6e, 0x63, 0x52, 0x64,
  ]

  /// ootd's namespace for built-in block names (a fixed random uuid).
  static let blockNamespace: [UInt8] = [
    0x6f, 0x6f, 0x74, 0x64, 0x2d, 0x62, 0x4c, 0x6f, 0x8b, 0x63, 0x6b, 0x73, 0x2e, 0x76, 0x31, 0x00,
  ]

  /// The version 5 uuid of `name` in `namespace` (RFC 4122 §4.3).
  public static func nameBased(_ name: String, namespace: [UInt8]) -> String {
    var bytes = Array(SHA1.digest(namespace + Array(name.utf8)).prefix(16))
    bytes[6] = (bytes[6] & 0x0F) | 0x50
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    return format(bytes)
  }

  /// The 8-4-4-4-12 lowercase hex form of 16 bytes.
  /// Written byte by byte: the form it replaced (a `[Character]` and a `String` per byte, then
  /// five joins) cost 175,000 instructions a uuid, 0.7 M of the first command of a day with
  /// four routine blocks (issue 25).
  static func format(_ bytes: [UInt8]) -> String {
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2 + 4)
    for (index, byte) in bytes.enumerated() {
      if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
      text.append(hexDigit(byte >> 4))
      text.append(hexDigit(byte & 0x0F))
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The lowercase hex digit of `value` (0–15).
  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
  }

  /// Whether `text` is a lowercase 8-4-4-4-12 hex uuid.
  public static func isValid(_ text: String) -> Bool { bits(text) != nil }

  /// The 128 bits a lowercase 8-4-4-4-12 hex uuid spells, or nil for any other text: a key a
  /// tenth the size of the text, for sets and tables of a million rows (each pulled or
  /// imported todo's uuid is checked here). Read from the text's UTF-8 in place, its length
  /// first, the hyphens' places a switch on the index, the digits into two 64-bit halves: 728
  /// instructions a uuid, where stepping `utf8` into a `UInt128`, each index looked up in an
  /// array literal, took 2,044 (BENCHMARKS.md, import25g).
  public static func bits(_ text: String) -> UInt128? {
    var text = text
    return text.withUTF8 { bytes in
      guard bytes.count == 36 else { return nil }
      var high: UInt64 = 0
      var low: UInt64 = 0
      for index in 0..<36 {
        let byte = bytes[index]
        switch index {
        case 8, 13, 18, 23:
          guard byte == UInt8(ascii: "-") else { return nil }
          continue
        default:
          break
        }
        let digit: UInt8
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
        default: return nil
        }
        // The first 16 digits (before the hyphen at 18) are the high half.
        if index < 18 { high = high << 4 | UInt64(digit) } else { low = low << 4 | UInt64(digit) }
      }
      return UInt128(high) << 64 | UInt128(low)
    }
  }
}

/// Version 4 uuids drawn from a given generator (``RowID/source``).
public final class RowIDSource: @unchecked Sendable {
  private let lock = NSLock()
  private var generator: any RandomNumberGenerator

  public init(_ generator: some RandomNumberGenerator) { self.generator = generator }

  /// The next uuid: 16 bytes of the generator, version and variant bits set (RFC 4122 §4.4).
  public func next() -> String {
    lock.withLock {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(16)
      for _ in 0..<2 { withUnsafeBytes(of: generator.next().littleEndian) { bytes += $0 } }
      bytes[6] = (bytes[6] & 0x0F) | 0x40
      bytes[8] = (bytes[8] & 0x3F) | 0x80
      return RowID.format(bytes)
    }
  }
}
