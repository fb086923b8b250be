import Core
import Foundation
import Testing

/// Parses an ISO 8601 instant such as `2026-11-22T23:30:00Z` with Foundation, independently of `Day`.
func instant(_ text: String) throws -> Date {
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withInternetDateTime]
  return try #require(formatter.date(from: text), "bad instant literal \(text)")
}

/// A day literal that must parse.
func day(_ text: String) throws -> Day {
  try #require(Day(iso: text), "bad day literal \(text)")
}

func zone(_ identifier: String) throws -> TimeZone {
  try #require(TimeZone(identifier: identifier), "unknown time zone \(identifier)")
}

@Suite("Day: parsing and formatting")
struct DayParsingTests {
  @Test(
    "a real calendar day parses to its year, month and day",
    arguments: [
      ("2026-11-22", 2026, 11, 22),
      ("1970-01-01", 1970, 1, 1),
      ("2024-02-29", 2024, 2, 29),  // leap year
      ("2000-02-29", 2000, 2, 29),  // divisible by 400: leap
      ("1999-12-31", 1999, 12, 31),
      ("2023-04-30", 2023, 4, 30),
      ("0001-01-01", 1, 1, 1),
      ("9999-12-31", 9999, 12, 31),
      ("0099-07-04", 99, 7, 4),
    ])
  func validDayParses(text: String, year: Int, month: Int, dayOfMonth: Int) throws {
    // When
    let parsed = try #require(Day(iso: text))
    // Then
    #expect(parsed.year == year)
    #expect(parsed.month == month)
    #expect(parsed.dayOfMonth == dayOfMonth)
    #expect(parsed == Day(year: year, month: month, day: dayOfMonth))
  }

  @Test(
    "text that is not exactly an existing YYYY-MM-DD day is rejected",
    arguments: [
      "2024-02-30",  // February never has 30 days
      "2023-02-29",  // common year
      "1900-02-29",  // divisible by 100 but not 400: common
      "2100-02-29",
      "2026-04-31",  // April has 30 days
      "2026-13-01",  // month 13
      "2026-00-10",  // month 0
      "2026-01-00",  // day 0
      "2026-01-32",
      "0000-01-01",  // no year 0
      "2026-1-01",  // wrong widths
      "2026-01-1",
      "26-01-01",
      "20260-01-01",
      "2026-001-01",
      "20260101",
      "2026/01/01",
      "2026-01-01T00:00",
      "2026-0a-01",  // non-digits
      "2026-01-+1",
      "+026-01-01",
      "-026-01-01",
      "２０２６-01-01",  // full-width digits
      " 2026-01-01",  // white space
      "2026-01-01 ",
      "2026-01-01\n",
      "2026 -01-01",
      "",
      "today",
    ])
  func invalidTextIsRejected(text: String) {
    #expect(Day(iso: text) == nil)
  }

  @Test(
    "a day that does not exist cannot be built from components",
    arguments: [
      (2024, 2, 30), (2023, 2, 29), (1900, 2, 29), (2026, 13, 1), (2026, 0, 1), (2026, 6, 31),
      (2026, 1, 0), (0, 1, 1), (10_000, 1, 1), (-5, 1, 1),
    ])
  func impossibleComponentsGiveNil(year: Int, month: Int, dayOfMonth: Int) {
    #expect(Day(year: year, month: month, day: dayOfMonth) == nil)
  }

  @Test(
    "ordinals count days from 1970-01-01",
    arguments: [
      ("1970-01-01", 0), ("1970-01-02", 1), ("1969-12-31", -1), ("2000-01-01", 10_957),
      ("2024-02-29", 19_782), ("2026-11-22", 20_779), ("1900-01-01", -25_567),
      ("0001-01-01", -719_162), ("9999-12-31", 2_932_896),
    ])
  func ordinalOfKnownDays(text: String, ordinal: Int) throws {
    #expect(try day(text).ordinal == ordinal)
    #expect(Day(ordinal: ordinal).description == text)
  }

  @Test(
    "a day outside years 1 to 9999 is written as ISO 8601's expanded years are: signed, unambiguous",
    arguments: [
      (-719_908, "-0002-12-17"), (-719_529, "-0001-12-31"), (-719_528, "0000-01-01"),
      (2_932_897, "+10000-01-01"), (2_932_957, "+10000-03-01"),
    ])
  func outsideCalendarDescription(ordinal: Int, text: String) {
    #expect(Day(ordinal: ordinal).description == text)
    #expect(Day(iso: text) == nil)
  }

  @Test("formatting then parsing gives the same day, for days spread over years 1 to 9999")
  func formatParseRoundTrip() throws {
    // Given every 97th day from 0001-01-01 to 9999-12-31, plus both ends
    let first = -719_162
    let last = 2_932_896
    for ordinal in Array(stride(from: first, through: last, by: 97)) + [first, last] {
      let original = Day(ordinal: ordinal)
      // When
      let text = original.description
      // Then
      #expect(text.utf8.count == 10)
      #expect(Day(iso: text) == original, "round trip of \(text)")
      let (y, m, d) = original.components
      #expect(Day(year: y, month: m, day: d) == original)
    }
  }

  @Test("JSON coding uses YYYY-MM-DD and rejects impossible days")
  func codable() throws {
    let encoded = try JSONEncoder().encode([try day("2024-02-29")])
    #expect(String(decoding: encoded, as: UTF8.self) == #"["2024-02-29"]"#)
    #expect(try JSONDecoder().decode([Day].self, from: encoded) == [try day("2024-02-29")])
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([Day].self, from: Data(#"["2023-02-29"]"#.utf8))
    }
  }
}

@Suite("Day: arithmetic and weekdays")
struct DayArithmeticTests {
  @Test(
    "adding days crosses month, year and leap-day boundaries",
    arguments: [
      ("2024-02-28", 1, "2024-02-29"),
      ("2024-02-29", 1, "2024-03-01"),
      ("2023-02-28", 1, "2023-03-01"),
      ("2000-02-28", 1, "2000-02-29"),
      ("1900-02-28", 1, "1900-03-01"),
      ("2024-03-01", -1, "2024-02-29"),
      ("2023-03-01", -1, "2023-02-28"),
      ("2025-12-31", 1, "2026-01-01"),
      ("2026-01-01", -1, "2025-12-31"),
      ("2026-01-31", 1, "2026-02-01"),
      ("2026-04-30", 1, "2026-05-01"),
      ("2024-01-31", 30, "2024-03-01"),
      ("2024-01-01", 366, "2025-01-01"),
      ("2023-01-01", 365, "2024-01-01"),
      ("1970-01-01", -1, "1969-12-31"),
      ("2026-11-22", 0, "2026-11-22"),
      ("2026-11-22", -365, "2025-11-22"),
      ("1999-12-31", 1, "2000-01-01"),
    ])
  func adding(start: String, days: Int, expected: String) throws {
    // Given
    let from = try day(start)
    // When
    let result = from.adding(days: days)
    // Then
    #expect(result.description == expected)
    #expect(from.advanced(by: days) == result)
    #expect(from.distance(to: result) == days)
  }

  @Test("days compare in calendar order and stride one by one")
  func orderAndStride() throws {
    let days = Array(try day("2024-02-27")...(try day("2024-03-02")))
    #expect(days.map(\.description) == [
      "2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01", "2024-03-02",
    ])
    #expect(try day("1969-12-31") < (try day("1970-01-01")))
    #expect(try day("2026-01-10") > (try day("2025-12-31")))
  }

  @Test(
    "the weekday of known dates",
    arguments: [
      ("1970-01-01", Weekday.thursday, "Thu"),
      ("1969-12-31", .wednesday, "Wed"),
      ("2000-01-01", .saturday, "Sat"),
      ("2024-02-29", .thursday, "Thu"),
      ("2026-11-22", .sunday, "Sun"),
      ("2026-11-23", .monday, "Mon"),
      ("2026-11-24", .tuesday, "Tue"),
      ("2026-11-27", .friday, "Fri"),
      ("1900-01-01", .monday, "Mon"),
      ("0001-01-01", .monday, "Mon"),
      ("9999-12-31", .friday, "Fri"),
    ])
  func weekday(text: String, weekday: Weekday, short: String) throws {
    let subject = try day(text)
    #expect(subject.weekday == weekday)
    #expect(subject.weekday.shortName == short)
  }

  @Test("weekdays cycle Monday to Sunday, ISO numbered 1–7")
  func weekdayCycle() throws {
    let monday = try day("2026-11-23")
    let names = (0..<14).map { monday.adding(days: $0).weekday.rawValue }
    #expect(names == [1, 2, 3, 4, 5, 6, 7, 1, 2, 3, 4, 5, 6, 7])
  }
}

@Suite("Day: instants and time zones")
struct DayTimeZoneTests {
  @Test(
    "an instant falls on the local calendar day of the zone",
    arguments: [
      ("2026-11-22T23:30:00Z", "Asia/Seoul", "2026-11-23"),
      ("2026-11-22T23:30:00Z", "America/Los_Angeles", "2026-11-22"),
      ("2026-11-22T23:30:00Z", "UTC", "2026-11-22"),
      ("2026-11-22T14:59:59Z", "Asia/Seoul", "2026-11-22"),
      ("2026-11-22T15:00:00Z", "Asia/Seoul", "2026-11-23"),  // exactly midnight KST
      ("2026-11-22T18:29:59Z", "Asia/Kolkata", "2026-11-22"),  // +05:30
      ("2026-11-22T18:30:00Z", "Asia/Kolkata", "2026-11-23"),
      ("2026-11-23T07:59:59Z", "America/Los_Angeles", "2026-11-22"),
      ("2026-11-23T08:00:00Z", "America/Los_Angeles", "2026-11-23"),
      // Los Angeles springs forward on 2026-03-08 at 02:00 PST.
      ("2026-03-08T07:59:59Z", "America/Los_Angeles", "2026-03-07"),
      ("2026-03-08T08:00:00Z", "America/Los_Angeles", "2026-03-08"),
      ("2026-03-09T06:59:59Z", "America/Los_Angeles", "2026-03-08"),  // 23:59:59 PDT
      ("2026-03-09T07:00:00Z", "America/Los_Angeles", "2026-03-09"),
      // …and falls back on 2026-11-01 at 02:00 PDT: that day lasts 25 hours.
      ("2026-11-01T06:59:59Z", "America/Los_Angeles", "2026-10-31"),
      ("2026-11-01T07:00:00Z", "America/Los_Angeles", "2026-11-01"),
      ("2026-11-02T07:59:59Z", "America/Los_Angeles", "2026-11-01"),
      ("2026-11-02T08:00:00Z", "America/Los_Angeles", "2026-11-02"),
      // London: BST starts 2026-03-29 01:00 UTC.
      ("2026-03-29T23:00:00Z", "Europe/London", "2026-03-30"),
      ("2026-03-29T22:59:59Z", "Europe/London", "2026-03-29"),
      // Before 1970 the day must round down, not toward zero.
      ("1969-12-31T23:59:59Z", "UTC", "1969-12-31"),
      ("1970-01-01T00:00:00Z", "UTC", "1970-01-01"),
      ("1970-01-01T08:59:59Z", "Asia/Seoul", "1970-01-01"),
    ])
  func dayOfInstant(isoInstant: String, zoneID: String, expected: String) throws {
    // Given
    let moment = try instant(isoInstant)
    // When
    let local = Day(moment, in: try zone(zoneID))
    // Then
    #expect(local.description == expected)
  }

  @Test("a fraction of a second before 1970 still belongs to 1969-12-31")
  func negativeFractionRoundsDown() {
    #expect(Day(Date(timeIntervalSince1970: -0.5), in: TimeZone.gmt).description == "1969-12-31")
    #expect(Day(Date(timeIntervalSince1970: 86_399.999), in: TimeZone.gmt).description == "1970-01-01")
  }

  @Test(
    "Day(instant, in:) agrees with Foundation's calendar hour by hour through 2026",
    arguments: [
      "UTC", "Asia/Seoul", "America/Los_Angeles", "Europe/London", "Australia/Lord_Howe",
      "Asia/Kathmandu", "Pacific/Kiritimati", "America/St_Johns",
    ])
  func agreesWithCalendar(zoneID: String) throws {
    // Given
    let timeZone = try zone(zoneID)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let start = try instant("2026-01-01T00:00:00Z").timeIntervalSince1970
    // When / Then: every 59 minutes, so the minute within the hour drifts through all values
    for step in 0..<(366 * 24 * 60 / 59) {
      let moment = Date(timeIntervalSince1970: start + Double(step * 59 * 60))
      let parts = calendar.dateComponents([.year, .month, .day], from: moment)
      let expected = Day(year: parts.year!, month: parts.month!, day: parts.day!)
      let actual = Day(moment, in: timeZone)
      if actual != expected {
        Issue.record("\(moment) in \(zoneID): got \(actual), calendar says \(String(describing: expected))")
        return
      }
    }
  }

  @Test(
    "start(in:) is the first instant of the local day",
    arguments: [
      ("2026-11-23", "Asia/Seoul", "2026-11-22T15:00:00Z"),
      ("2026-11-22", "America/Los_Angeles", "2026-11-22T08:00:00Z"),
      ("2026-11-22", "UTC", "2026-11-22T00:00:00Z"),
      ("2026-03-08", "America/Los_Angeles", "2026-03-08T08:00:00Z"),  // DST begins later that day
      ("2026-03-09", "America/Los_Angeles", "2026-03-09T07:00:00Z"),  // first full PDT day
      ("2026-11-01", "America/Los_Angeles", "2026-11-01T07:00:00Z"),  // DST ends later that day
      ("2026-11-02", "America/Los_Angeles", "2026-11-02T08:00:00Z"),
      ("2026-03-29", "Europe/London", "2026-03-29T00:00:00Z"),
      ("2026-03-30", "Europe/London", "2026-03-29T23:00:00Z"),
      ("2026-11-22", "Asia/Kolkata", "2026-11-21T18:30:00Z"),
      ("1969-12-31", "UTC", "1969-12-31T00:00:00Z"),
    ])
  func startOfDay(text: String, zoneID: String, expected: String) throws {
    #expect(try day(text).start(in: try zone(zoneID)) == (try instant(expected)))
  }

  /// Zones where DST does not move midnight: `start(in:)` must be exact for every day of 2026.
  @Test(
    "start(in:) opens the day and one second earlier is the previous day, every day of 2026",
    arguments: ["UTC", "Asia/Seoul", "America/Los_Angeles", "Europe/London", "Australia/Sydney"])
  func startOfDayEveryDay(zoneID: String) throws {
    let timeZone = try zone(zoneID)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    for subject in try day("2026-01-01")...(try day("2026-12-31")) {
      let start = subject.start(in: timeZone)
      #expect(Day(start, in: timeZone) == subject, "\(subject) in \(zoneID)")
      #expect(Day(start.addingTimeInterval(-1), in: timeZone) == subject.adding(days: -1))
      #expect(start == calendar.startOfDay(for: start), "\(subject) in \(zoneID)")
    }
  }

  /// Where DST starts at local midnight, 00:00 does not exist and the day begins at 01:00.
  /// Returns Foundation's start of `subject`, or nil when this machine's zone data has no such
  /// change that day (then the row proves nothing and is skipped).
  static func startWhenMidnightIsSkipped(_ subject: Day, _ timeZone: TimeZone) -> Date? {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let noon = calendar.date(
      from: DateComponents(year: subject.year, month: subject.month, day: subject.dayOfMonth, hour: 12))
    guard let noon else { return nil }
    let start = calendar.startOfDay(for: noon)
    return calendar.component(.hour, from: start) == 0 ? nil : start
  }

  @Test(
    "start(in:) east of UTC when DST skips midnight (Beirut: 00:00 EET → 01:00 EEST)",
    arguments: [("2026-03-29", "Asia/Beirut")])
  func startOfDayWhenMidnightIsSkippedEast(text: String, zoneID: String) throws {
    // Given
    let timeZone = try zone(zoneID)
    let subject = try day(text)
    let expected = try #require(
      Self.startWhenMidnightIsSkipped(subject, timeZone), "Foundation's \(zoneID) skips no midnight on \(subject)")
    // When
    let start = subject.start(in: timeZone)
    // Then
    #expect(start == expected)
    #expect(Day(start, in: timeZone) == subject)
  }

  @Test(
    "start(in:) west of UTC when DST skips midnight",
    arguments: [
      ("2026-09-06", "America/Santiago"),  // 00:00 -04 → 01:00 -03
      ("2026-03-08", "America/Havana"),  // 00:00 CST → 01:00 CDT
    ])
  func startOfDayWhenMidnightIsSkippedWest(text: String, zoneID: String) throws {
    // Given
    let timeZone = try zone(zoneID)
    let subject = try day(text)
    let expected = try #require(
      Self.startWhenMidnightIsSkipped(subject, timeZone), "Foundation's \(zoneID) skips no midnight on \(subject)")
    // When
    let start = subject.start(in: timeZone)
    // Then: the day begins at 01:00 local, when the clocks jump, not at 23:00 of the day before.
    #expect(start == expected)
    #expect(Day(start, in: timeZone) == subject, "start \(start) of \(subject) in \(zoneID)")
  }
}

@Suite("DayRange")
struct DayRangeTests {
  @Test("an inverted range throws invertedRange with both ends")
  func invertedRangeThrows() throws {
    let later = try day("2026-11-22")
    let earlier = try day("2026-11-21")
    #expect(throws: CoreError.invertedRange(from: later, to: earlier)) {
      try DayRange(from: later, to: earlier)
    }
  }

  @Test(
    "count is inclusive of both ends",
    arguments: [
      ("2026-11-22", "2026-11-22", 1), ("2026-11-22", "2026-11-28", 7),
      ("2024-02-01", "2024-02-29", 29), ("2023-02-01", "2023-02-28", 28),
      ("2025-12-31", "2026-01-01", 2), ("2024-01-01", "2024-12-31", 366),
    ])
  func count(from: String, to: String, expected: Int) throws {
    let range = try DayRange(from: try day(from), to: try day(to))
    #expect(range.count == expected)
    #expect(Array(range).count == expected)
    #expect(Array(range).first == (try day(from)))
    #expect(Array(range).last == (try day(to)))
  }

  @Test(
    "contains includes both ends and nothing outside",
    arguments: [
      ("2026-11-19", false), ("2026-11-20", true), ("2026-11-22", true), ("2026-11-25", true),
      ("2026-11-26", false), ("2025-11-22", false),
    ])
  func contains(text: String, inside: Bool) throws {
    let range = try DayRange(from: try day("2026-11-20"), to: try day("2026-11-25"))
    #expect(range.contains(try day(text)) == inside)
  }

  @Test("a one-day range holds exactly that day")
  func singleDay() throws {
    let only = try day("2024-02-29")
    let range = DayRange(day: only)
    #expect(range.from == only && range.to == only)
    #expect(Array(range) == [only])
    #expect(!range.contains(only.adding(days: 1)))
  }
}

@Suite("DayExpression")
struct DayExpressionTests {
  @Test(
    "words and dates resolve against today",
    arguments: [
      ("today", "2026-01-01"), ("TODAY", "2026-01-01"), ("Today", "2026-01-01"),
      ("tomorrow", "2026-01-02"), ("Tomorrow", "2026-01-02"),
      ("yesterday", "2025-12-31"), ("YESTERDAY", "2025-12-31"),
      ("2024-02-29", "2024-02-29"), ("2026-01-01", "2026-01-01"),
    ])
  func resolves(text: String, expected: String) throws {
    #expect(try DayExpression.parse(text, today: try day("2026-01-01")).description == expected)
  }

  @Test(
    "anything else throws invalidDate with the text given",
    arguments: [
      "", " today", "today ", "tmrw", "tommorow", "now", "2024-02-30", "2023-02-29",
      "2026-13-01", "next week", "+1", "2026-1-1",
    ])
  func rejects(text: String) throws {
    #expect(throws: CoreError.invalidDate(text)) {
      try DayExpression.parse(text, today: try day("2026-01-01"))
    }
  }
}
