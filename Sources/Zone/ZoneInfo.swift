import Foundation

/// A time zone read from a compiled zone file (TZif, RFC 8536): the offsets of its listed
/// transitions and, after the last one, the POSIX rule of the file's footer. This is the data the
/// system's `date`, glibc's `localtime` and `git log --date=local` use; the CLI reads the file
/// (`/etc/localtime`, `/usr/share/zoneinfo/NAME`) and hands its bytes here.
public struct ZoneInfo: ZoneRules, Hashable {
  public let identifier: String
  /// Instants (seconds since 1970, UTC) at which the offset may change, ascending.
  let transitions: [Int64]
  /// The offset in force from each transition on (same count as `transitions`).
  let offsets: [Int]
  /// The offset before the first transition (or always, without transitions or footer).
  let initialOffset: Int
  /// The offsets after the last transition, when the file gives a rule for them.
  let rule: PosixZoneRule?

  /// Coordinated Universal Time.
  public static let utc = ZoneInfo(identifier: "UTC", secondsFromGMT: 0)

  /// A zone whose offset never changes.
  public init(identifier: String, secondsFromGMT: Int) {
    self.identifier = identifier
    transitions = []
    offsets = []
    initialOffset = secondsFromGMT
    rule = nil
  }

  /// A zone given by a POSIX rule alone, as `TZ=KST-9` or `TZ=EST5EDT,M3.2.0,M11.1.0` give one.
  public init(identifier: String, rule: PosixZoneRule) {
    self.identifier = identifier
    transitions = []
    offsets = []
    initialOffset = rule.standardOffset
    self.rule = rule
  }

  /// Reads a TZif file (version 1, 2, 3 or 4); nil when `bytes` is not a well-formed one, or one
  /// with leap seconds (`right/…` zones, whose instants are not POSIX seconds).
  public init?(identifier: String, tzif bytes: [UInt8]) {
    guard var header = Header(bytes, at: 0), header.leapCount == 0 else { return nil }
    var timeSize = 4
    var start = Header.size
    if header.version >= 2 {
      // The version 1 block is skipped: the second header and its 64-bit block follow it.
      let second = start + header.blockSize(timeSize: 4)
      guard let header2 = Header(bytes, at: second), header2.leapCount == 0 else { return nil }
      header = header2
      timeSize = 8
      start = second + Header.size
    }
    let blockEnd = start + header.blockSize(timeSize: timeSize)
    guard header.typeCount >= 1, blockEnd <= bytes.count else { return nil }

    var reader = ByteReader(bytes: bytes, index: start)
    var transitions: [Int64] = []
    transitions.reserveCapacity(header.transitionCount)
    for _ in 0..<header.transitionCount {
      let time = timeSize == 8 ? reader.int64() : Int64(reader.int32())
      // Ascending, and within the instants ``seconds(_:)`` clamps to (zic's earliest is -2^59):
      // the rule's arithmetic after the last one cannot overflow.
      guard time.magnitude <= 1 << 60 else { return nil }
      if let last = transitions.last, time <= last { return nil }
      transitions.append(time)
    }
    var typeIndices: [Int] = []
    typeIndices.reserveCapacity(header.transitionCount)
    for _ in 0..<header.transitionCount {
      let index = Int(reader.byte())
      guard index < header.typeCount else { return nil }
      typeIndices.append(index)
    }
    var typeOffsets: [Int] = []
    for _ in 0..<header.typeCount {
      let offset = Int(reader.int32())
      // RFC 8536: -89,999 to 93,599 seconds (a day and a bit either way).
      guard offset > -90_000, offset < 93_600 else { return nil }
      typeOffsets.append(offset)
      reader.index += 2  // isdst and the abbreviation's index: not needed for offsets.
    }

    var rule: PosixZoneRule?
    if header.version >= 2 {
      // The footer: a newline, a POSIX TZ rule (possibly empty), a newline.
      guard blockEnd < bytes.count, bytes[blockEnd] == UInt8(ascii: "\n"),
        let close = bytes[(blockEnd + 1)...].firstIndex(of: UInt8(ascii: "\n"))
      else { return nil }
      if close > blockEnd + 1 {
        guard let parsed = PosixZoneRule(String(decoding: bytes[(blockEnd + 1)..<close], as: UTF8.self))
        else { return nil }
        rule = parsed
      }
    }

    self.identifier = identifier
    self.transitions = transitions
    self.offsets = typeIndices.map { typeOffsets[$0] }
    self.initialOffset = typeOffsets[0]
    self.rule = rule
  }

  public func secondsFromGMT(for date: Date) -> Int { offset(at: Self.seconds(date)) }

  /// The offset at `seconds` since 1970 (UTC).
  func offset(at seconds: Int64) -> Int {
    guard let last = transitions.last else { return rule?.offset(at: seconds) ?? initialOffset }
    if seconds >= last, let rule { return rule.offset(at: seconds) }
    guard seconds >= transitions[0] else { return initialOffset }
    return offsets[lastTransition(atOrBefore: seconds)]
  }

  public func nextDaylightSavingTimeTransition(after date: Date) -> Date? {
    let seconds = Self.seconds(date)
    // The first listed transition after `seconds`.
    var index = transitions.isEmpty || seconds < transitions[0] ? 0 : lastTransition(atOrBefore: seconds) + 1
    var previous = offset(at: seconds)
    while index < transitions.count {
      // A listed transition that changes only the abbreviation or the daylight flag is skipped.
      if offsets[index] != previous { return Date(timeIntervalSince1970: Double(transitions[index])) }
      previous = offsets[index]
      index += 1
    }
    // After the last listed transition the rule decides.
    guard let rule, let next = rule.nextTransition(after: max(seconds, transitions.last ?? seconds)) else { return nil }
    return Date(timeIntervalSince1970: Double(next))
  }

  /// The index of the last transition at or before `seconds` (which is at or after the first).
  private func lastTransition(atOrBefore seconds: Int64) -> Int {
    var low = 0
    var high = transitions.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if transitions[middle] <= seconds { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// Whole seconds since 1970, rounded down; instants beyond ±2^60 seconds are clamped there.
  static func seconds(_ date: Date) -> Int64 {
    let value = date.timeIntervalSince1970.rounded(.down)
    guard value.isFinite else { return value > 0 ? 1 << 60 : -(1 << 60) }
    return Int64(max(-Double(1 << 60), min(Double(1 << 60), value)))
  }

  /// The fixed part of a TZif header.
  private struct Header {
    static let size = 44
    let version: Int
    let utLocalCount: Int
    let standardWallCount: Int
    let leapCount: Int
    let transitionCount: Int
    let typeCount: Int
    let characterCount: Int

    init?(_ bytes: [UInt8], at start: Int) {
      guard start + Header.size <= bytes.count, Array(bytes[start..<(start + 4)]) == Array("TZif".utf8)
      else { return nil }
      let versionByte = bytes[start + 4]
      if versionByte == 0 {
        version = 1
      } else if (UInt8(ascii: "2")...UInt8(ascii: "9")).contains(versionByte) {
        version = Int(versionByte - UInt8(ascii: "0"))
      } else {
        return nil
      }
      var reader = ByteReader(bytes: bytes, index: start + 20)
      let counts = (0..<6).map { _ in Int(reader.uint32()) }
      // Generous bounds that no real zone comes near, so that sizes cannot overflow.
      guard counts.allSatisfy({ $0 <= 1 << 20 }) else { return nil }
      (utLocalCount, standardWallCount, leapCount) = (counts[0], counts[1], counts[2])
      (transitionCount, typeCount, characterCount) = (counts[3], counts[4], counts[5])
    }

    /// The size of the data block after this header, for times of `timeSize` bytes.
    func blockSize(timeSize: Int) -> Int {
      transitionCount * (timeSize + 1) + typeCount * 6 + characterCount
        + leapCount * (timeSize + 4) + standardWallCount + utLocalCount
    }
  }

  /// Big-endian integers read from a byte array whose bounds were checked beforehand.
  private struct ByteReader {
    let bytes: [UInt8]
    var index: Int

    mutating func byte() -> UInt8 {
      defer { index += 1 }
      return bytes[index]
    }

    mutating func uint32() -> UInt32 {
      var value: UInt32 = 0
      for _ in 0..<4 { value = value << 8 | UInt32(byte()) }
      return value
    }

    mutating func int32() -> Int32 { Int32(bitPattern: uint32()) }

    mutating func int64() -> Int64 {
      var value: UInt64 = 0
      for _ in 0..<8 { value = value << 8 | UInt64(byte()) }
      return Int64(bitPattern: value)
    }
  }
}
