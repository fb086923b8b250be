import Core
import Foundation
import Testing
import Zone

/// The zone rules ootd reads from the system's compiled zones, checked against the system's own
/// reader of the same files: `zdump` (glibc's `localtime`), transition by transition, 1900–2100.
@Suite("Zone files and POSIX zone rules")
struct ZoneInfoTests {
  /// Zones with daylight saving in either hemisphere, half-hour and 45-minute offsets, negative
  /// daylight saving (Dublin), daylight saving of half an hour (Lord Howe) and of two hours (Troll),
  /// midnight transitions (Havana, Beirut, Santiago), a zone that left daylight saving (Sao Paulo),
  /// one whose footer has transitions at negative hours (Nuuk), and a zone with no transition at all.
  static let zones = [
    "America/New_York", "America/Los_Angeles", "Europe/London", "Europe/Berlin", "Europe/Dublin",
    "Asia/Seoul", "Asia/Kathmandu", "Asia/Kolkata", "Australia/Sydney", "Australia/Lord_Howe",
    "Antarctica/Troll", "America/Havana", "Asia/Beirut", "America/Santiago", "America/Sao_Paulo",
    "America/Nuuk", "Pacific/Chatham", "America/St_Johns", "Africa/Casablanca", "Etc/UTC",
  ]

  @Test("offsets agree with zdump at every transition from 1900 to 2100", arguments: zones)
  func offsetsAgreeWithZdump(name: String) throws {
    // Given
    let zone = try Self.zoneInfo(name)
    let lines = try Self.zdump(name)
    #expect(name == "Etc/UTC" || lines.count >= 2, "zdump listed no transition for \(name)")
    // When / Then: zdump prints the second before and the second of each transition
    for line in lines {
      let got = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(line.instant)))
      #expect(got == line.offset, "\(name) at \(line.instant): \(got), zdump says \(line.offset)")
    }
  }

  @Test("the next transition is zdump's next change of offset", arguments: zones)
  func nextTransitionAgreesWithZdump(name: String) throws {
    // Given: the instants at which the offset changes, from zdump's pairs of lines
    let zone = try Self.zoneInfo(name)
    let lines = try Self.zdump(name)
    var changes: [Int64] = []
    for (before, at) in zip(lines, lines.dropFirst()) where at.instant == before.instant + 1 && at.offset != before.offset {
      changes.append(at.instant)
    }
    // When / Then
    for (index, change) in changes.enumerated() {
      let fromBefore = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: Double(change - 3_600)))
      #expect(fromBefore == Date(timeIntervalSince1970: Double(change)), "\(name) before \(change)")
      if index + 1 < changes.count, changes[index + 1] < Self.year2100 - 400 * 86_400 {
        let fromChange = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: Double(change)))
        #expect(fromChange == Date(timeIntervalSince1970: Double(changes[index + 1])), "\(name) after \(change)")
      }
    }
    if name == "Etc/UTC" || name == "Asia/Kolkata" {
      #expect(zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: 1_800_000_000)) == nil)
    }
  }

  @Test(
    "a day starts when Foundation says it does, midnight skipped or not",
    arguments: ["America/Los_Angeles", "America/Havana", "Asia/Beirut", "America/Santiago", "Australia/Lord_Howe"])
  func dayStartsAgreeWithFoundation(name: String) throws {
    // Given
    let zone = try Self.zoneInfo(name)
    let foundation = try #require(TimeZone(identifier: name))
    // When / Then: every day of 2020–2027
    for ordinal in Day(iso: "2020-01-01")!.ordinal...Day(iso: "2027-12-31")!.ordinal {
      let day = Day(ordinal: ordinal)
      #expect(day.start(in: zone) == day.start(in: foundation), "\(name) \(day)")
    }
  }

  @Test("every shortened copy of a zone file is refused, and so are other files")
  func malformedFilesAreRefused() throws {
    // Given
    let bytes = try Self.file("America/New_York")
    #expect(ZoneInfo(identifier: "x", tzif: bytes) != nil)
    // When / Then
    for length in 0..<bytes.count {
      #expect(ZoneInfo(identifier: "x", tzif: Array(bytes[..<length])) == nil, "cut at \(length)")
    }
    #expect(ZoneInfo(identifier: "x", tzif: Array("TZif2 not a zone at all, just some text\n".utf8)) == nil)
    // The first transition's type index made out of range, in the 64-bit block ootd reads: past
    // the first header, the version 1 block and the second header.
    func count(_ header: Int, _ field: Int) -> Int {
      (0..<4).reduce(0) { $0 << 8 | Int(bytes[header + 20 + field * 4 + $1]) }
    }
    let v1Size = count(0, 3) * 5 + count(0, 4) * 6 + count(0, 5) + count(0, 2) * 8 + count(0, 1) + count(0, 0)
    let second = 44 + v1Size
    let transitions = count(second, 3)
    try #require(transitions > 0)
    var badType = bytes
    badType[second + 44 + transitions * 8] = 0xFF
    #expect(ZoneInfo(identifier: "x", tzif: badType) == nil)
    var badFooter = bytes
    badFooter[bytes.count - 3] = UInt8(ascii: "?")
    #expect(ZoneInfo(identifier: "x", tzif: badFooter) == nil)
  }

  @Test("a zone file with leap seconds is refused (its instants are not POSIX seconds)")
  func leapSecondZonesAreRefused() throws {
    let path = "/usr/share/zoneinfo/right/UTC"
    try #require(FileManager.default.fileExists(atPath: path), "tzdata's right/ zones are missing")
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(ZoneInfo(identifier: "right/UTC", tzif: bytes) == nil)
  }

  @Test(
    "POSIX rules parse to their offsets, or are refused",
    arguments: [
      ("EST5EDT,M3.2.0,M11.1.0", -18_000, -14_400),
      ("<+09>-9", 32_400, nil),
      ("KST-9", 32_400, nil),
      ("<+0545>-5:45", 20_700, nil),
      ("CET-1CEST,M3.5.0,M10.5.0/3", 3_600, 7_200),
      ("IST-1GMT0,M10.5.0,M3.5.0/1", 3_600, 0),
      ("<-02>2<-01>,M3.5.0/-1,M10.5.0/0", -7_200, -3_600),
      ("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", 37_800, 39_600),
      ("EST5EDT", -18_000, -14_400),
      ("<-04>4<-03>,M9.1.6/24,M4.1.6/24", -14_400, -10_800),
      ("XXX3EDT4,J60/1:30:15,300/-167", -10_800, -14_400),
    ] as [(String, Int, Int?)])
  func rulesParse(text: String, standard: Int, daylight: Int?) throws {
    let rule = try #require(PosixZoneRule(text))
    #expect(rule.standardOffset == standard)
    #expect(rule.daylight?.offset == daylight)
  }

  @Test(
    "malformed POSIX rules are refused",
    arguments: [
      "", "E5", "EST", "EST5EDT,M3.2.0", "EST5EDT,M13.2.0,M11.1.0", "EST5EDT,M3.6.0,M11.1.0",
      "EST5EDT,M3.2.7,M11.1.0", "EST5EDT,J0,J365", "EST5EDT,366,0", "EST25", "<+9>-9", "<+09-9",
      "EST5EDT,M3.2.0/168,M11.1.0", "EST5:60", "EST5EDT,M3.2.0,M11.1.0,", "EST5 ",
    ])
  func malformedRulesAreRefused(text: String) {
    #expect(PosixZoneRule(text) == nil)
  }

  @Test(
    "a rule's offset at an instant",
    arguments: [
      // New York: DST from the second Sunday of March 02:00 EST to the first of November 02:00 EDT.
      ("EST5EDT,M3.2.0,M11.1.0", "2026-03-08T06:59:59Z", -18_000),
      ("EST5EDT,M3.2.0,M11.1.0", "2026-03-08T07:00:00Z", -14_400),
      ("EST5EDT,M3.2.0,M11.1.0", "2026-11-01T05:59:59Z", -14_400),
      ("EST5EDT,M3.2.0,M11.1.0", "2026-11-01T06:00:00Z", -18_000),
      // Sydney: southern hemisphere, DST across the new year.
      ("AEST-10AEDT,M10.1.0,M4.1.0/3", "2026-01-15T00:00:00Z", 39_600),
      ("AEST-10AEDT,M10.1.0,M4.1.0/3", "2026-04-04T15:59:59Z", 39_600),
      ("AEST-10AEDT,M10.1.0,M4.1.0/3", "2026-04-04T16:00:00Z", 36_000),
      ("AEST-10AEDT,M10.1.0,M4.1.0/3", "2026-10-03T15:59:59Z", 36_000),
      ("AEST-10AEDT,M10.1.0,M4.1.0/3", "2026-10-03T16:00:00Z", 39_600),
      // Dublin: "daylight" (GMT) in winter, standard (IST) in summer.
      ("IST-1GMT0,M10.5.0,M3.5.0/1", "2026-07-01T00:00:00Z", 3_600),
      ("IST-1GMT0,M10.5.0,M3.5.0/1", "2026-12-01T00:00:00Z", 0),
      // Daylight time all year.
      ("EST5EDT,0/0,J365/25", "2026-01-01T04:30:00Z", -14_400),
      ("EST5EDT,0/0,J365/25", "2026-07-01T00:00:00Z", -14_400),
      ("EST5EDT,0/0,J365/25", "2028-12-31T23:00:00Z", -14_400),
      // Julian day 60 is March 1st even in a leap year; zero-based day 59 is February 29th then.
      ("XXX0YYY-1,J60/0,J200/0", "2028-02-29T23:59:59Z", 0),
      ("XXX0YYY-1,J60/0,J200/0", "2028-03-01T00:00:00Z", 3_600),
      ("XXX0YYY-1,59/0,J200/0", "2028-02-29T00:00:00Z", 3_600),
      ("XXX0YYY-1,59/0,J200/0", "2028-02-28T23:59:59Z", 0),
      // A fifth week that does not exist is the last one: February 2026 has four Sundays.
      ("XXX0YYY-1,M2.5.0/0,M10.1.0", "2026-02-22T00:00:00Z", 3_600),
      ("XXX0YYY-1,M2.5.0/0,M10.1.0", "2026-02-21T23:59:59Z", 0),
    ] as [(String, String, Int)])
  func ruleOffsets(text: String, at time: String, expected: Int) throws {
    let rule = try #require(PosixZoneRule(text))
    let seconds = Int64(try instant(time).timeIntervalSince1970)
    #expect(rule.offset(at: seconds) == expected)
  }

  @Test("UTC and fixed zones never change")
  func fixedZones() {
    let seoul = ZoneInfo(identifier: "KST", secondsFromGMT: 32_400)
    for seconds in [-4_000_000_000.0, 0, 1_800_000_000, 9e18, .infinity, -.infinity] {
      let date = Date(timeIntervalSince1970: seconds)
      #expect(ZoneInfo.utc.secondsFromGMT(for: date) == 0)
      #expect(seoul.secondsFromGMT(for: date) == 32_400)
      #expect(seoul.nextDaylightSavingTimeTransition(after: date) == nil)
    }
    #expect(ZoneInfo.utc.identifier == "UTC")
  }

  // MARK: - Helpers

  static let year2100: Int64 = 4_102_444_800

  static func file(_ name: String) throws -> [UInt8] {
    let path = "/usr/share/zoneinfo/" + name
    try #require(FileManager.default.fileExists(atPath: path), "tzdata is not installed (\(path))")
    return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
  }

  static func zoneInfo(_ name: String) throws -> ZoneInfo {
    try #require(ZoneInfo(identifier: name, tzif: try file(name)), "\(name) did not parse")
  }

  /// `zdump -v -c RANGE NAME` (years `1900,2100` unless given): for each transition the second
  /// before and the second of it, as UTC seconds and the offset zdump (glibc) gives there.
  static func zdump(_ name: String, _ range: String = "1900,2100") throws -> [(instant: Int64, offset: Int)] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/zdump")
    process.arguments = ["-v", "-c", range, name]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "zdump failed for \(name)")
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    var result: [(instant: Int64, offset: Int)] = []
    for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
      // America/New_York  Sun Mar  9 06:59:59 2025 UT = Sun Mar  9 01:59:59 2025 EST isdst=0 gmtoff=-18000
      let parts = line.split(separator: " ")
      guard let equals = parts.firstIndex(of: "="), equals >= 6, parts[equals - 1] == "UT",
        let gmtoff = parts.last, gmtoff.hasPrefix("gmtoff=")
      else { continue }
      let (monthText, dayText, clock, yearText) = (parts[equals - 5], parts[equals - 4], parts[equals - 3], parts[equals - 2])
      let clockParts = clock.split(separator: ":").compactMap { Int($0) }
      let month = try #require(months.firstIndex(of: String(monthText))) + 1
      let year = try #require(Int(yearText))
      let dayOfMonth = try #require(Int(dayText))
      let day = try #require(Day(year: year, month: month, day: dayOfMonth))
      try #require(clockParts.count == 3)
      let seconds = Int64(day.ordinal) * 86_400 + Int64(clockParts[0] * 3_600 + clockParts[1] * 60 + clockParts[2])
      let offset = try #require(Int(gmtoff.dropFirst("gmtoff=".count)))
      result.append((seconds, offset))
    }
    return result
  }
}
