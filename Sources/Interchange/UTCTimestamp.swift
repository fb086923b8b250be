import Core
import Foundation

/// The compact UTC form Taskwarrior and iCalendar use: `YYYYMMDDTHHMMSSZ`.
public enum UTCTimestamp {
  /// Formats `date` (whole seconds, rounded down) as `YYYYMMDDTHHMMSSZ`.
  public static func format(_ date: Date) -> String {
    let seconds = Int(date.timeIntervalSince1970.rounded(.down))
    let (days, rest) = seconds.quotientAndRemainder(dividingBy: 86_400)
    let inDay = rest < 0 ? rest + 86_400 : rest
    let day = Day(ordinal: days + (rest < 0 ? -1 : 0))
    return compact(day) + "T" + pad(inDay / 3600) + pad(inDay / 60 % 60) + pad(inDay % 60) + "Z"
  }

  /// `YYYYMMDD`.
  public static func compact(_ day: Day) -> String {
    day.description.replacingOccurrences(of: "-", with: "")
  }

  /// Parses `YYYYMMDDTHHMMSSZ` (or without the `Z`, read as UTC); nil when the text has another
  /// shape, throws when it has this shape but names an impossible date or time.
  public static func parse(_ text: String) throws(InterchangeError) -> Date? {
    let bytes = Array(text.utf8)
    guard bytes.count == 15 || (bytes.count == 16 && bytes[15] == UInt8(ascii: "Z")),
      bytes[8] == UInt8(ascii: "T")
    else { return nil }
    var numbers: [Int] = []
    for range in [0..<4, 4..<6, 6..<8, 9..<11, 11..<13, 13..<15] {
      var value = 0
      for byte in bytes[range] {
        guard (48...57).contains(byte) else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      numbers.append(value)
    }
    guard let day = Day(year: numbers[0], month: numbers[1], day: numbers[2]),
      numbers[3] < 24, numbers[4] < 60, numbers[5] < 61
    else { throw InterchangeError("", "impossible date '\(text)'") }
    let seconds = day.ordinal * 86_400 + numbers[3] * 3600 + numbers[4] * 60 + numbers[5]
    return Date(timeIntervalSince1970: Double(seconds))
  }

  private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}
