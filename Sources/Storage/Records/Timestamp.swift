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
    let inDay = rest < 0 ? rest + 86_400_000 : rest
    let day = Day(ordinal: Int(days) + dayOffset)
    let seconds = inDay / 1000
    func pad(_ value: Int64, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(day) \(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))"
      + ".\(pad(inDay % 1000, 3))"
  }

  /// Parses what ``text(_:)`` writes (also without milliseconds, or with a `T`); nil otherwise.
  static func date(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 19, let day = Day(iso: String(decoding: bytes[0..<10], as: UTF8.self))
    else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for byte in bytes[range] {
        guard (48...57).contains(byte) else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      return value
    }
    guard let hours = number(11..<13), let minutes = number(14..<16), let seconds = number(17..<19)
    else { return nil }
    var milliseconds = 0
    if bytes.count >= 23, bytes[19] == UInt8(ascii: "."), let fraction = number(20..<23) {
      milliseconds = fraction
    }
    let total = Double(day.ordinal) * 86_400 + Double(hours * 3600 + minutes * 60 + seconds)
      + Double(milliseconds) / 1000
    return Date(timeIntervalSince1970: total)
  }
}
