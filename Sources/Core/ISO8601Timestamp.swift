import Foundation

/// Fast parsing and formatting of ISO 8601 timestamps (GitHub's, and git's `%aI`).
///
/// Hand-written because a sync decodes two dates per commit (tens of thousands per run) and a
/// general date parser is much slower. Accepts `YYYY-MM-DDTHH:MM:SS`, optional fractional
/// seconds, then `Z` or `±HH:MM` / `±HHMM`.
public enum ISO8601Timestamp {
  /// The instant `text` names, or nil when it is not such a timestamp (or names no real day).
  public static func parse(_ text: String) -> Date? {
    var utf8 = Array(text.utf8)
    if utf8.last == 0 { utf8.removeLast() }
    func number(_ start: Int, _ count: Int) -> Int? {
      guard start + count <= utf8.count else { return nil }
      var value = 0
      for byte in utf8[start..<(start + count)] {
        guard byte >= 0x30, byte <= 0x39 else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      return value
    }
    guard utf8.count >= 20,
      let year = number(0, 4), utf8[4] == UInt8(ascii: "-"),
      let month = number(5, 2), utf8[7] == UInt8(ascii: "-"),
      let day = number(8, 2),
      utf8[10] == UInt8(ascii: "T") || utf8[10] == UInt8(ascii: "t")
        || utf8[10] == UInt8(ascii: " "),
      let hour = number(11, 2), utf8[13] == UInt8(ascii: ":"),
      let minute = number(14, 2), utf8[16] == UInt8(ascii: ":"),
      let second = number(17, 2),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    var index = 19
    var fraction = 0.0
    if index < utf8.count, utf8[index] == UInt8(ascii: ".") {
      index += 1
      var scale = 0.1
      let start = index
      while index < utf8.count, utf8[index] >= 0x30, utf8[index] <= 0x39 {
        fraction += Double(utf8[index] - 0x30) * scale
        scale /= 10
        index += 1
      }
      guard index > start else { return nil }
    }
    guard index < utf8.count else { return nil }
    var offset = 0
    switch utf8[index] {
    case UInt8(ascii: "Z"), UInt8(ascii: "z"):
      guard index + 1 == utf8.count else { return nil }
    case UInt8(ascii: "+"), UInt8(ascii: "-"):
      let sign = utf8[index] == UInt8(ascii: "+") ? 1 : -1
      guard let hours = number(index + 1, 2) else { return nil }
      var minutesStart = index + 3
      if minutesStart < utf8.count, utf8[minutesStart] == UInt8(ascii: ":") { minutesStart += 1 }
      guard let minutes = number(minutesStart, 2), minutesStart + 2 == utf8.count,
        hours < 24, minutes < 60
      else { return nil }
      offset = sign * (hours * 3600 + minutes * 60)
    default:
      return nil
    }
    guard let date = Day(year: year, month: month, day: day) else { return nil }
    let seconds = date.ordinal * 86_400 + hour * 3600 + minute * 60 + second - offset
    return Date(timeIntervalSince1970: Double(seconds) + fraction)
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` in UTC (the form GitHub's `since`/`until` parameters document, and
  /// the one ootd's JSON uses for instants).
  public static func string(_ date: Date) -> String {
    let total = Int(date.timeIntervalSince1970.rounded(.down))
    let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
    let secondsOfDay = total - days * 86_400
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return
      "\(Day(ordinal: days))T\(two(secondsOfDay / 3600)):\(two(secondsOfDay / 60 % 60)):\(two(secondsOfDay % 60))Z"
  }
}
