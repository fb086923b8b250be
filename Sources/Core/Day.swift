import Foundation
import Zone

/// A calendar day (no time, no zone): the unit ootd plans and reports in.
///
/// Stored as the number of days since 1970-01-01 so that comparisons, ranges and arithmetic are
/// integer operations; formatted and parsed as `YYYY-MM-DD`.
public struct Day: Hashable, Comparable, Sendable, Strideable, CustomStringConvertible, Codable {
  /// Days since 1970-01-01 (negative before it).
  public let ordinal: Int

  /// Creates a day from its ordinal (days since 1970-01-01).
  public init(ordinal: Int) { self.ordinal = ordinal }

  /// The years of the calendar ootd's days live in: what `YYYY-MM-DD` can write.
  public static let years = 1...9999

  /// Whether the day is in ``years`` (a day computed from an instant or an ordinal may not be).
  public var isInCalendar: Bool { Day.years.contains(year) }

  /// Creates a day from a proleptic Gregorian date, or nil when the date does not exist
  /// (month 13, February 30th, February 29th of a common year…).
  public init?(year: Int, month: Int, day: Int) {
    guard Day.years.contains(year), (1...12).contains(month),
      (1...CivilCalendar.daysIn(month: month, year: year)).contains(day)
    else { return nil }
    ordinal = CivilCalendar.daysFromCivil(year: year, month: month, day: day)
  }

  /// Parses exactly `YYYY-MM-DD`; nil for anything else, including impossible dates.
  public init?(iso text: String) {
    var text = text
    // Read in place, without copying the bytes: a listing reads one day per todo.
    guard let day = text.withUTF8({ Day(isoUTF8: $0) }) else { return nil }
    self = day
  }

  /// As ``init(iso:)``, from UTF-8 bytes (a row's column, read without a `String`).
  public init?(isoUTF8 bytes: UnsafeBufferPointer<UInt8>) {
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-")
    else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        let byte = bytes[index]
        guard (48...57).contains(byte) else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      return value
    }
    guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
    self.init(year: y, month: m, day: d)
  }

  /// The day on which `instant` falls in `timeZone`.
  public init(_ instant: Date, in timeZone: some ZoneRules) {
    let seconds = Int(instant.timeIntervalSince1970.rounded(.down))
      + timeZone.secondsFromGMT(for: instant)
    ordinal = Int((Double(seconds) / 86_400).rounded(.down))
  }

  /// The year, month (1–12) and day of month (1–31).
  public var components: (year: Int, month: Int, day: Int) { CivilCalendar.civilFromDays(ordinal) }

  /// The year.
  public var year: Int { components.year }
  /// The month, 1–12.
  public var month: Int { components.month }
  /// The day of the month, 1–31.
  public var dayOfMonth: Int { components.day }

  /// The weekday of this day.
  public var weekday: Weekday {
    // 1970-01-01 was a Thursday.
    let index = ((ordinal % 7) + 7 + 3) % 7  // 0 = Monday
    return Weekday.allCases[index]
  }

  /// `YYYY-MM-DD`. A year outside `0...9999` (a day outside ``years``, in an error) is written
  /// as ISO 8601's expanded years are, signed and at least four digits: `-0002-12-17`,
  /// `+10000-01-01`.
  public var description: String {
    let (y, m, d) = components
    guard (0...9999).contains(y) else {
      return (y < 0 ? "-" : "+") + Day.pad(y.magnitude, 4) + "-" + Day.pad(UInt(m), 2) + "-" + Day.pad(UInt(d), 2)
    }
    // Ten ASCII bytes written in place: this runs for every todo of a listing or an export.
    return String(unsafeUninitializedCapacity: 10) { buffer in
      let base = buffer.baseAddress!
      @inline(__always) func put(_ value: Int, _ width: Int, at offset: Int) {
        var value = value
        var index = offset + width
        while index > offset {
          index -= 1
          base[index] = UInt8(truncatingIfNeeded: 48 + value % 10)
          value /= 10
        }
      }
      put(y, 4, at: 0)
      buffer[4] = UInt8(ascii: "-")
      put(m, 2, at: 5)
      buffer[7] = UInt8(ascii: "-")
      put(d, 2, at: 8)
      return 10
    }
  }

  /// The first instant of this day in `timeZone` (local midnight, or the moment clocks jump
  /// forward when a daylight-saving change skips midnight).
  public func start(in timeZone: some ZoneRules) -> Date {
    let guess = Date(timeIntervalSince1970: Double(ordinal) * 86_400)
    let offset = timeZone.secondsFromGMT(for: guess)
    let candidate = guess.addingTimeInterval(Double(-offset))
    // Across a DST change the offset at the candidate may differ; correct once.
    let corrected = timeZone.secondsFromGMT(for: candidate)
    let start = guess.addingTimeInterval(Double(-corrected))
    if Day(start, in: timeZone) < self,
      let transition = timeZone.nextDaylightSavingTimeTransition(after: start),
      Day(transition, in: timeZone) >= self
    {
      // Midnight does not exist that day: the day starts when the clocks jump.
      return transition
    }
    // Midnight may come twice (clocks set back from 01:00 to 00:00, as Amman and Gaza did): the
    // day starts at the first. Each offset in force around is tried; one whose midnight is
    // really midnight (the offset holds there) and comes earlier is the start.
    var first = start
    for probe in [-86_400.0, 0, 86_400] {
      let offset = timeZone.secondsFromGMT(for: guess.addingTimeInterval(probe))
      let candidate = guess.addingTimeInterval(Double(-offset))
      if candidate < first, timeZone.secondsFromGMT(for: candidate) == offset { first = candidate }
    }
    return first
  }

  /// The day `n` days later (earlier when negative).
  public func adding(days n: Int) -> Day { Day(ordinal: ordinal + n) }

  public func advanced(by n: Int) -> Day { Day(ordinal: ordinal + n) }
  public func distance(to other: Day) -> Int { other.ordinal - ordinal }
  public static func < (lhs: Day, rhs: Day) -> Bool { lhs.ordinal < rhs.ordinal }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let day = Day(iso: text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "expected YYYY-MM-DD, got \(text)")
    }
    self = day
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  private static func pad(_ value: UInt, _ width: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, width - text.count)) + text
  }
}

/// A day of the week, Monday first (ISO 8601).
public enum Weekday: Int, CaseIterable, Sendable, Codable {
  case monday = 1, tuesday, wednesday, thursday, friday, saturday, sunday

  /// Three-letter English abbreviation, e.g. `Mon`.
  public var shortName: String {
    ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][rawValue - 1]
  }
}

/// An inclusive range of days, never inverted.
public struct DayRange: Hashable, Sendable, Sequence {
  /// The first day.
  public let from: Day
  /// The last day (inclusive).
  public let to: Day

  /// Creates a range, throwing `CoreError.invertedRange` when `to` is before `from`.
  public init(from: Day, to: Day) throws(CoreError) {
    guard from <= to else { throw .invertedRange(from: from, to: to) }
    self.from = from
    self.to = to
  }

  /// A one-day range.
  public init(day: Day) {
    from = day
    to = day
  }

  /// The number of days in the range.
  public var count: Int { from.distance(to: to) + 1 }

  /// Whether `day` lies inside the range.
  public func contains(_ day: Day) -> Bool { from <= day && day <= to }

  public func makeIterator() -> ClosedRange<Day>.Iterator { (from...to).makeIterator() }
}

/// How a user names a day on the command line: `today`, `tomorrow`, `yesterday`, `YYYY-MM-DD`,
/// a weekday (`mon`, `friday`: the next one, never today), `+3d`/`-2d`, `+1w`, `eow` (this
/// week's Sunday) or `eom` (this month's last day).
public enum DayExpression {
  /// Resolves `text` against `today`, throwing `CoreError.invalidDate` for anything else.
  public static func parse(_ text: String, today: Day) throws(CoreError) -> Day {
    let lowered = text.lowercased()
    switch lowered {
    case "today": return today
    case "tomorrow": return today.adding(days: 1)
    case "yesterday": return today.adding(days: -1)
    case "eow": return today.adding(days: 7 - today.weekday.rawValue)
    case "eom":
      let (year, month, _) = today.components
      return Day(year: year, month: month, day: CivilCalendar.daysIn(month: month, year: year))!
    default:
      if let weekday = weekdayNames[lowered] {
        let ahead = (weekday.rawValue - today.weekday.rawValue + 7) % 7
        return today.adding(days: ahead == 0 ? 7 : ahead)
      }
      if let offset = offset(lowered) { return today.adding(days: offset) }
      guard let day = Day(iso: text) else { throw .invalidDate(text) }
      return day
    }
  }

  /// `+3d` → 3, `-2d` → -2, `+1w` → 7; nil for anything else (or more than 100 years).
  static func offset(_ text: String) -> Int? {
    guard let sign = text.first, sign == "+" || sign == "-", let unit = text.last,
      unit == "d" || unit == "w", text.count >= 3,
      let count = Int(text.dropFirst().dropLast()), count >= 0
    else { return nil }
    let days = count * (unit == "w" ? 7 : 1)
    guard days <= 36_525 else { return nil }
    return sign == "-" ? -days : days
  }

  /// English weekday names and their usual abbreviations.
  static let weekdayNames: [String: Weekday] = [
    "mon": .monday, "monday": .monday, "tue": .tuesday, "tues": .tuesday, "tuesday": .tuesday,
    "wed": .wednesday, "wednesday": .wednesday, "thu": .thursday, "thur": .thursday,
    "thurs": .thursday, "thursday": .thursday, "fri": .friday, "friday": .friday,
    "sat": .saturday, "saturday": .saturday, "sun": .sunday, "sunday": .sunday,
  ]
}
