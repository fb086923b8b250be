import Core
import Formats
import Foundation
import Testing
import Zone

/// Malformed zone files never crash or hang the reader, nor the questions asked of what it read:
/// real files mutated deterministically (bytes flipped, counts made huge, truncated, times pushed
/// to the ends of 64 bits) are either refused or answer every question.
@Suite("Zone files, mutated")
struct ZoneInfoFuzzTests {
  static let zones = ["America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "Etc/UTC", "Europe/Dublin"]

  /// Instants asked of every zone that was read: ordinary, far past and future, the ends.
  static let instants: [Date] = [
    Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_800_000_000),
    Date(timeIntervalSince1970: -5_000_000_000), Date(timeIntervalSince1970: 1e12),
    Date(timeIntervalSince1970: -1e12), Date(timeIntervalSince1970: 1e19), Date(timeIntervalSince1970: -1e19),
    .distantPast, .distantFuture,
  ]

  /// Asks `zone` everything ootd asks a zone.
  static func exercise(_ zone: ZoneInfo) {
    for instant in instants {
      _ = zone.secondsFromGMT(for: instant)
      _ = zone.nextDaylightSavingTimeTransition(after: instant)
    }
    for text in ["1900-01-01", "1970-01-01", "2026-03-08", "2026-11-01", "2400-02-29"] {
      _ = Day(iso: text)!.start(in: zone)
    }
  }

  @Test("flipped bytes, truncations and huge counts never crash", arguments: zones)
  func mutatedFiles(name: String) throws {
    let original = try ZoneInfoTests.file(name)
    // Seeded by the name (Formats' SplitMix64), so that a failure reproduces.
    var random = SplitMix64(seed: UInt64(truncatingIfNeeded: name.utf8.reduce(7) { $0 &* 31 &+ Int($1) }))
    for round in 0..<400 {
      var bytes = original
      switch round % 4 {
      case 0:  // a few random bytes changed
        for _ in 0..<Int.random(in: 1...8, using: &random) {
          bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
        }
      case 1:  // truncated
        bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
      case 2:  // one header count of either header made huge or odd
        let second = 44 + Self.v1BlockSize(original)
        let header = Bool.random(using: &random) ? 0 : second
        let field = header + 20 + 4 * Int.random(in: 0..<6, using: &random)
        let value = [UInt32.max, 1 << 20, (1 << 20) + 1, 0, 1, UInt32.random(in: 0...4096, using: &random)]
          .randomElement(using: &random)! as UInt32
        if field + 4 <= bytes.count { bytes.replaceSubrange(field..<(field + 4), with: Self.bigEndian(value)) }
      default:  // bytes flipped in the 64-bit block or its footer
        let start = min(bytes.count - 1, 44 + Self.v1BlockSize(original) + 44)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
          bytes[Int.random(in: start..<bytes.count, using: &random)] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
        }
      }
      if let zone = ZoneInfo(identifier: name, tzif: bytes) { Self.exercise(zone) }
    }
  }

  @Test(
    "transition times at the ends of 64 bits never crash",
    arguments: ["America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "Europe/Dublin"])
  func extremeTransitionTimes(name: String) throws {
    let original = try ZoneInfoTests.file(name)
    let start = 44 + Self.v1BlockSize(original) + 44
    let count = Int(Self.uint32(original, at: 44 + Self.v1BlockSize(original) + 32))
    try #require(count > 0, "\(name) has no transition to push")
    for value in [Int64.max, Int64.max - 1, Int64.min + 1, 1 << 62, -(1 << 62)] {
      var bytes = original
      // The last transition (keeps them ascending when pushed up) or the first (when pushed down).
      let index = value > 0 ? count - 1 : 0
      bytes.replaceSubrange((start + 8 * index)..<(start + 8 * index + 8), with: Self.bigEndian(value))
      if let zone = ZoneInfo(identifier: name, tzif: bytes) { Self.exercise(zone) }
    }
  }

  static func v1BlockSize(_ bytes: [UInt8]) -> Int {
    let c = (0..<6).map { Int(uint32(bytes, at: 20 + 4 * $0)) }
    return c[3] * 5 + c[4] * 6 + c[5] + c[2] * 8 + c[1] + c[0]
  }

  static func uint32(_ bytes: [UInt8], at index: Int) -> UInt32 {
    bytes[index..<(index + 4)].reduce(0) { $0 << 8 | UInt32($1) }
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
  static func bigEndian(_ value: Int64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: value) >> (56 - 8 * $0)) }
  }
}
