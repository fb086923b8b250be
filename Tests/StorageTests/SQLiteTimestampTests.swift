import Foundation
import Testing

@testable import Storage

/// What the SQLite form accepts, refuses and writes, pinned input by input (see the ISO 8601
/// form's table in CoreTests).
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
    (-62_167_219_201, "00-1-12-31 23:59:59.000"),
    (253_402_300_800, "10000-01-01 00:00:00.000"),
  ]

  @Test("reads each accepted text as its instant, which writes back as GRDB writes it", arguments: accepted)
  func accepts(_ text: String, _ seconds: Double, _ back: String) throws {
    let date = try #require(Timestamp.date(text))
    #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6)
    #expect(Timestamp.text(date) == back)
  }

  @Test("refuses every other text", arguments: rejected)
  func refuses(_ text: String) {
    #expect(Timestamp.date(text) == nil)
  }

  @Test("writes milliseconds, rounded down, in UTC", arguments: written)
  func writes(_ seconds: Double, _ text: String) {
    #expect(Timestamp.text(Date(timeIntervalSince1970: seconds)) == text)
  }
}
