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
    (-62_167_219_201, "00-1-12-31T23:59:59Z"),
    (253_402_300_799, "9999-12-31T23:59:59Z"),
    (253_402_300_800, "10000-01-01T00:00:00Z"),
  ]

  @Test("reads each accepted text as its instant", arguments: accepted)
  func accepts(_ text: String, _ seconds: Double) throws {
    let date = try #require(ISO8601Timestamp.parse(text))
    #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6)
  }

  @Test("refuses every other text", arguments: rejected)
  func refuses(_ text: String) {
    #expect(ISO8601Timestamp.parse(text) == nil)
  }

  @Test("writes whole seconds, rounded down, in UTC", arguments: written)
  func writes(_ seconds: Double, _ text: String) {
    #expect(ISO8601Timestamp.string(Date(timeIntervalSince1970: seconds)) == text)
  }
}
