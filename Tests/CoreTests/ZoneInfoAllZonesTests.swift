import Core
import Foundation
import Testing

/// Every zone file the system has (not only the few ``ZoneInfoTests`` picks) agrees with `zdump`
/// (glibc), at every transition from 1900 to 2100 and, where the footer rule alone decides,
/// from 2100 to 2400.
@Suite("Every system zone against zdump")
struct ZoneInfoAllZonesTests {
  /// The zone names below /usr/share/zoneinfo (not `posix/` or `right/`, which are copies or
  /// leap-second variants), whose files are TZif.
  static let names: [String] = {
    let root = "/usr/share/zoneinfo/"
    guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
    var names: [String] = []
    while let path = walker.nextObject() as? String {
      guard !path.hasPrefix("posix"), !path.hasPrefix("right"), path != "localtime",
        let handle = FileHandle(forReadingAtPath: root + path)
      else { continue }
      let magic = (try? handle.read(upToCount: 4)) ?? Data()
      try? handle.close()
      if magic == Data("TZif".utf8) { names.append(path) }
    }
    return names.sorted()
  }()

  @Test("the system has its zone files")
  func zonesExist() {
    #expect(Self.names.count > 300, "tzdata is not installed")
  }

  @Test("every zone file parses, agrees with zdump 1900–2400, and its days start at their first instant", arguments: names)
  func agreesWithZdump(name: String) throws {
    let zone = try ZoneInfoTests.zoneInfo(name)
    let lines = try Self.zdump(name, "1900,2400")
    for line in lines {
      let got = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(line.instant)))
      #expect(got == line.offset, "\(name) at \(line.instant): \(got), zdump says \(line.offset)")
    }
    // Around every change of offset, each day starts at its first instant: on the day, and the
    // second before is not. A day the zone skipped (Apia's 2011-12-30) has no instant: it
    // starts where the next one does, so that the day before keeps all of its own.
    for (before, at) in zip(lines, lines.dropFirst()) where at.instant == before.instant + 1 && at.offset != before.offset {
      let center = Day(Date(timeIntervalSince1970: Double(at.instant)), in: zone)
      for day in [center.adding(days: -1), center, center.adding(days: 1)] {
        let start = day.start(in: zone)
        if Day(start, in: zone) == day {
          #expect(Day(start.addingTimeInterval(-1), in: zone) < day, "\(name) \(day) starts after \(start)")
        } else {
          #expect(start == day.adding(days: 1).start(in: zone), "\(name) \(day) (skipped) starts at \(start)")
        }
      }
    }
  }

  /// `zdump -v -c RANGE NAME` as (instant, offset) pairs; years past 2100 are read by date
  /// arithmetic here too.
  static func zdump(_ name: String, _ range: String) throws -> [(instant: Int64, offset: Int)] {
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
      let parts = line.split(separator: " ")
      guard let equals = parts.firstIndex(of: "="), equals >= 6, parts[equals - 1] == "UT",
        let gmtoff = parts.last, gmtoff.hasPrefix("gmtoff=")
      else { continue }
      let clock = parts[equals - 3].split(separator: ":").compactMap { Int($0) }
      let month = try #require(months.firstIndex(of: String(parts[equals - 5]))) + 1
      let year = try #require(Int(parts[equals - 2]))
      let dayOfMonth = try #require(Int(parts[equals - 4]))
      let day = try #require(Day(year: year, month: month, day: dayOfMonth))
      try #require(clock.count == 3)
      let seconds = Int64(day.ordinal) * 86_400 + Int64(clock[0] * 3_600 + clock[1] * 60 + clock[2])
      result.append((seconds, try #require(Int(gmtoff.dropFirst("gmtoff=".count)))))
    }
    return result
  }
}
