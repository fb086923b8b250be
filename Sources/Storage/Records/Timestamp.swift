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
  static func date(_ text: String) -> Date? { ISO8601Timestamp.parse(text + "Z") }
}
