import Core
import Foundation
import TestTags
import Testing
import Zone

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

  @Test("every zone file parses, agrees with zdump 1900–2400, and its days start at their first instant", .tags(.slow), arguments: names)
  func agreesWithZdump(name: String) throws {
    let zone = try ZoneInfoTests.zoneInfo(name)
    let lines = try ZoneInfoTests.zdump(name, "1900,2400")
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
}
