import Core
import Foundation
import Testing

@testable import Interchange

/// What the compact form accepts, refuses and writes, pinned input by input (see the ISO 8601
/// form's table in CoreTests).
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
    (-62_167_219_201, "0011231T235959Z"),
    (253_402_300_800, "100000101T000000Z"),
  ]

  @Test("reads each accepted text as its instant", arguments: accepted)
  func accepts(_ text: String, _ seconds: Double) throws {
    let date = try #require(try UTCTimestamp.parse(text))
    #expect(date.timeIntervalSince1970 == seconds)
  }

  @Test("reads texts of another shape as nothing", arguments: otherShapes)
  func otherShape(_ text: String) throws {
    #expect(try UTCTimestamp.parse(text) == nil)
  }

  @Test("throws on a text of this shape that names an impossible instant", arguments: impossible)
  func throwsOnImpossible(_ text: String) {
    #expect(throws: InterchangeError.self) { try UTCTimestamp.parse(text) }
  }

  @Test("writes whole seconds, rounded down, in UTC", arguments: written)
  func writes(_ seconds: Double, _ text: String) {
    #expect(UTCTimestamp.format(Date(timeIntervalSince1970: seconds)) == text)
  }

  @Test("writes a day as YYYYMMDD")
  func writesDays() throws {
    #expect(UTCTimestamp.compact(try #require(Day(iso: "2024-01-01"))) == "20240101")
    #expect(UTCTimestamp.compact(Day(ordinal: -719_163)) == "00001231")
  }
}
