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
  static func date(_ text: String) -> Date? { ISO8601Timestamp.parse(text + "Z") }
}
