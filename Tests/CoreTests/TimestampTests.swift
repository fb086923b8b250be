import Core
import Foundation
import Testing

/// What each timestamp form accepts, refuses and writes, pinned input by input: the three
/// forms were three codecs before they became one, and every byte stays as it was.
@Suite("Timestamps: the ISO 8601 form (GitHub's, git's %aI, ootd's JSON)")
struct ISO8601TimestampTests {
  static let accepted: [(String, Double)] = [
    ("2023-08-28T18:27:45Z", 1_693_247_265),
    ("2023-08-28t18:27:45z", 1_693_247_265),
    ("2023-08-28 18:27:45Z", 1_693_247_265),
    ("2023-08-28T18:27:45Z\0", 1_693_247_265),
    ("2011-01-20T00:00:00+00:00", 1_295_481_600),
    ("2011-01-20T00:00:00-00:00", 1_295_481_600),
    ("2011-01-20T00:00:00+0000", 1_295_481_600),
    ("2025-10-02T08:11:07+02:00", 1_759_385_467),
    ("2025-10-02T08:11:07-0530", 1_759_412_467),
    ("2025-10-02T08:11:07+02:00\0", 1_759_385_467),
    ("2023-08-28T18:27:45+23:59", 1_693_160_925),
    ("2024-02-29T23:59:59.250Z", 1_709_251_199.25),
    ("2024-02-29T23:59:59.5+00:00", 1_709_251_199.5),
    ("2023-08-28T18:27:45.123456789Z", 1_693_247_265.123456789),
    ("2016-12-31T23:59:60Z", 1_483_228_800),
    ("1970-01-01T00:00:00Z", 0),
    ("0001-01-01T00:00:00Z", -62_135_596_800),
    ("9999-12-31T23:59:59Z", 253_402_300_799),
  ]

  static let rejected: [String] = [
    "", "2023-08-28", "2023-08-28T18:27:45", "2023-08-28T18:27:45.5", "2023-08-28T18:27:45Zjunk",
    "2023-08-28T18:27:45+2", "2023-08-28T18:27:45+01:0", "2023-08-28T18:27:45+01:00Z",
    "2023-08-28T18:27:45+24:00", "2023-08-28T18:27:45+01:60", "2023-08-28T18:27:45 Z",
    "2023-08-28T18:27:45.Z", "2023-08-28T18:27:45Z\0\0", " 2023-08-28T18:27:45Z",
    "2023-08-28X18:27:45Z", "2023/08/28T18:27:45Z", "2023-8-28T18:27:45Z", "+023-08-28T18:27:45Z",
    "2023-13-01T00:00:00Z", "2023-00-10T00:00:00Z", "2023-08-00T00:00:00Z", "2023-08-32T00:00:00Z",
    "2023-02-29T00:00:00Z", "0000-01-01T00:00:00Z", "2023-08-28T24:00:00Z", "2023-08-28T18:60:00Z",
    "2023-08-28T18:27:61Z", "20230828T182745Z", "2023-08-28 18:27:45.123",
  ]

  static let written: [(Double, String)] = [
    (0, "1970-01-01T00:00:00Z"),
    (1_704_067_200, "2024-01-01T00:00:00Z"),
    (1_693_247_265.9, "2023-08-28T18:27:45Z"),
    (-1, "1969-12-31T23:59:59Z"),
    (-0.5, "1969-12-31T23:59:59Z"),
    (-86_400, "1969-12-31T00:00:00Z"),
    (-86_401, "1969-12-30T23:59:59Z"),
    (-62_135_596_800, "0001-01-01T00:00:00Z"),
    (-62_135_596_801, "0000-12-31T23:59:59Z"),
    (-62_167_219_201, "-0001-12-31T23:59:59Z"),
    (253_402_300_799, "9999-12-31T23:59:59Z"),
    (253_402_300_800, "+10000-01-01T00:00:00Z"),
  ]

  @Test("reads each accepted text as its instant", arguments: accepted)
  func accepts(_ text: String, _ seconds: Double) throws {
    let date = try #require(Timestamp.date(text, .iso8601))
    #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6)
  }

  @Test("refuses every other text", arguments: rejected)
  func refuses(_ text: String) {
    #expect(Timestamp.date(text, .iso8601) == nil)
  }

  @Test("writes whole seconds, rounded down, in UTC", arguments: written)
  func writes(_ seconds: Double, _ text: String) {
    #expect(Timestamp.string(Date(timeIntervalSince1970: seconds), .iso8601) == text)
  }
}

@Suite("Timestamps: the SQLite form (GRDB's dates)")
struct SQLiteTimestampTests {
  /// Each accepted text, its instant, and what writing that instant back gives.
  static let accepted: [(String, Double, String)] = [
    ("1970-01-01 00:00:00.000", 0, "1970-01-01 00:00:00.000"),
    ("2026-11-18 11:06:40.123", 1_795_000_000.123, "2026-11-18 11:06:40.123"),
    ("2026-11-18 11:06:40.001", 1_795_000_000.001, "2026-11-18 11:06:40.001"),
    ("2026-11-18 11:06:40.999", 1_795_000_000.999, "2026-11-18 11:06:40.999"),
    ("2000-02-29 00:00:00.500", 951_782_400.5, "2000-02-29 00:00:00.500"),
    ("1969-12-31 23:59:59.000", -1, "1969-12-31 23:59:59.000"),
    // Before 1970 the fraction, summed digit by digit, lands just under the millisecond.
    ("1969-12-31 23:59:59.999", -0.001, "1969-12-31 23:59:59.998"),
    ("2016-12-31 23:59:60.000", 1_483_228_800, "2017-01-01 00:00:00.000"),
    ("2026-11-18 11:06:40", 1_795_000_000, "2026-11-18 11:06:40.000"),
    ("2026-11-18T11:06:40", 1_795_000_000, "2026-11-18 11:06:40.000"),
    ("2026-11-18t11:06:40", 1_795_000_000, "2026-11-18 11:06:40.000"),
    ("2026-11-18T11:06:40.123", 1_795_000_000.123, "2026-11-18 11:06:40.123"),
    ("2026-11-18 11:06:40.5", 1_795_000_000.5, "2026-11-18 11:06:40.500"),
    ("2026-11-18 11:06:40.123456", 1_795_000_000.123456, "2026-11-18 11:06:40.123"),
    ("0001-01-01 00:00:00.000", -62_135_596_800, "0001-01-01 00:00:00.000"),
  ]

  static let rejected: [String] = [
    "", "2026-11-18", "2026-13-01 00:00:00", "2026-11-18 xx:00:00", "2026-11-18 11:06:40.12x",
    "2026-02-30 00:00:00.000", "2026-11-18 24:00:00.000", "2026-11-18 11:60:00.000",
    "2026-11-18 11:06:61.000", "0000-01-01 00:00:00.000", "2026-11-18 11:06:40.",
    "2026-11-18 11:06:40Z", "2026-11-18 11:06:40.123Z", "2026-11-18 11:06:40+01:00",
    "2026-11-18 11:06:40\0", "2026-11-18_11:06:40.000", "2026-11-18 11-06-40.000",
    "20261118T110640Z",
  ]

  static let written: [(Double, String)] = [
    (0.0009, "1970-01-01 00:00:00.000"),
    (-0.0005, "1969-12-31 23:59:59.999"),
    (-86_400, "1969-12-31 00:00:00.000"),
    (-62_135_596_801, "0000-12-31 23:59:59.000"),
    (-62_167_219_201, "-0001-12-31 23:59:59.000"),
    (253_402_300_800, "+10000-01-01 00:00:00.000"),
  ]

  @Test("reads each accepted text as its instant, which writes back as GRDB writes it", arguments: accepted)
  func accepts(_ text: String, _ seconds: Double, _ back: String) throws {
    let date = try #require(Timestamp.date(text, .sqlite))
    #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6)
    #expect(Timestamp.string(date, .sqlite) == back)
  }

  @Test("refuses every other text", arguments: rejected)
  func refuses(_ text: String) {
    #expect(Timestamp.date(text, .sqlite) == nil)
  }

  @Test("writes milliseconds, rounded down, in UTC", arguments: written)
  func writes(_ seconds: Double, _ text: String) {
    #expect(Timestamp.string(Date(timeIntervalSince1970: seconds), .sqlite) == text)
  }
}

@Suite("Timestamps: the compact form (Taskwarrior's, iCalendar's)")
struct CompactTimestampTests {
  static let accepted: [(String, Double)] = [
    ("20240101T000000Z", 1_704_067_200),
    ("20240101T000000", 1_704_067_200),
    ("19691231T235959Z", -1),
    ("20161231T235960Z", 1_483_228_800),
    ("00010101T000000Z", -62_135_596_800),
    ("99991231T235959", 253_402_300_799),
  ]

  /// Texts of another shape: not this form at all.
  static let otherShapes: [String] = [
    "", "20240101", "2024-01-01T00:00:00Z", "20240101T000000z", "20240101t000000Z",
    "20240101T0000000", "2024010aT000000Z", "20240101T00000Z", "20240101T000000ZZ",
    "+0240101T000000Z", "20240101T000000Z\0", "20240101 000000Z", "20240101T00:000Z",
  ]

  /// Texts of this shape that name no real instant.
  static let impossible: [String] = [
    "20241341T000000Z", "20240230T000000Z", "20230229T000000", "00000101T000000Z",
    "20240100T000000Z", "20240101T240000Z", "20240101T006000Z", "20240101T000061Z",
  ]

  static let written: [(Double, String)] = [
    (1_704_067_200, "20240101T000000Z"),
    (1_693_247_265.9, "20230828T182745Z"),
    (-1, "19691231T235959Z"),
    (-0.5, "19691231T235959Z"),
    (-62_135_596_801, "00001231T235959Z"),
    (-62_167_219_201, "-00011231T235959Z"),
    (253_402_300_800, "+100000101T000000Z"),
  ]

  @Test("reads each accepted text as its instant", arguments: accepted)
  func accepts(_ text: String, _ seconds: Double) throws {
    let date = try #require(Timestamp.date(text, .compact))
    #expect(date.timeIntervalSince1970 == seconds)
  }

  @Test("reads texts of another shape as nothing", arguments: otherShapes)
  func otherShape(_ text: String) {
    #expect(Timestamp.read(text, .compact) == .otherShape)
  }

  @Test("tells a text of this shape that names an impossible instant from another shape", arguments: impossible)
  func throwsOnImpossible(_ text: String) {
    #expect(Timestamp.read(text, .compact) == .impossible)
  }

  @Test("writes whole seconds, rounded down, in UTC", arguments: written)
  func writes(_ seconds: Double, _ text: String) {
    #expect(Timestamp.string(Date(timeIntervalSince1970: seconds), .compact) == text)
  }

  @Test("writes a day as YYYYMMDD")
  func writesDays() throws {
    #expect(Timestamp.string(try #require(Day(iso: "2024-01-01")), .compact) == "20240101")
    #expect(Timestamp.string(Day(ordinal: -719_163), .compact) == "00001231")
  }
}
