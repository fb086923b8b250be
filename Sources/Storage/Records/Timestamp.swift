import Core
import Foundation

/// Writes instants the way GRDB stores dates (`YYYY-MM-DD HH:MM:SS.SSS`, UTC), without going
/// through a `DateFormatter`: loading ICU's formatter costs milliseconds on every command.
/// GRDB reads these back as `Date` with its own parser.
enum Timestamp {
  static func text(_ date: Date) -> String {
    let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    let (days, rest) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
    let dayOffset = rest < 0 ? -1 : 0
    let inDay = Int(rest < 0 ? rest + 86_400_000 : rest)
    let day = Day(ordinal: Int(days) + dayOffset).description
    let seconds = inDay / 1000
    // Written in place (an import stamps thousands of rows): `HH:MM:SS.mmm` after the day.
    let time = String(unsafeUninitializedCapacity: 13) { buffer in
      func put(_ value: Int, _ width: Int, at offset: Int) {
        var value = value
        for index in stride(from: offset + width - 1, through: offset, by: -1) {
          buffer[index] = UInt8(48 + value % 10)
          value /= 10
        }
      }
      buffer[0] = UInt8(ascii: " ")
      put(seconds / 3600, 2, at: 1)
      buffer[3] = UInt8(ascii: ":")
      put(seconds / 60 % 60, 2, at: 4)
      buffer[6] = UInt8(ascii: ":")
      put(seconds % 60, 2, at: 7)
      buffer[9] = UInt8(ascii: ".")
      put(inDay % 1000, 3, at: 10)
      return 13
    }
    return day + time
  }

  /// Parses what ``text(_:)`` writes (also without milliseconds, or with a `T`); nil otherwise.
  static func date(_ text: String) -> Date? {
    // The form ``text(_:)`` writes, read in place (a listing reads two per todo); others
    // through the general parser.
    var text = text
    let fast: Date?? = text.withUTF8 { bytes -> Date?? in
      guard bytes.count == 23, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x20,
        bytes[13] == 0x3A, bytes[16] == 0x3A, bytes[19] == 0x2E
      else { return .none }
      func number(_ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<(start + count) {
          let byte = bytes[index]
          guard byte >= 0x30, byte <= 0x39 else { return nil }
          value = value * 10 + Int(byte - 0x30)
        }
        return value
      }
      guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
        let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
        number(20, 3) != nil, hour < 24, minute < 60, second < 61,
        let date = Day(year: year, month: month, day: day)
      else { return .some(nil) }
      // The fraction summed digit by digit, exactly as ISO8601Timestamp.parse does.
      var fraction = 0.0
      var scale = 0.1
      for index in 20..<23 {
        fraction += Double(bytes[index] - 0x30) * scale
        scale /= 10
      }
      let seconds = date.ordinal * 86_400 + hour * 3600 + minute * 60 + second
      return .some(Date(timeIntervalSince1970: Double(seconds) + fraction))
    }
    if let fast { return fast }
    return ISO8601Timestamp.parse(text + "Z")
  }
}
