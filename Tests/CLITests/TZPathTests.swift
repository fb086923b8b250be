import Core
import Foundation
import Testing

@testable import CLI

/// `TZ` may name a zone file by its path, as glibc reads it (`:/etc/localtime`, a path under
/// the zone folder): no warning, and the file's rules.
@Suite struct TZPathTests {
  @Test(arguments: [":/usr/share/zoneinfo/Asia/Seoul", "/usr/share/zoneinfo/Asia/Seoul"])
  func aZoneFilesPath_isThatZone(tz: String) {
    var warnings: [String] = []
    let zone = AppEnvironment.userTimeZone(["TZ": tz], warn: { warnings.append($0) })
    #expect(warnings.isEmpty, "\(warnings)")
    #expect(zone.identifier == "Asia/Seoul")
    // 2026-11-22T15:30:00Z is the 23rd in Seoul (UTC+9).
    #expect(Day(Date(timeIntervalSince1970: 1_795_361_400), in: zone).description == "2026-11-23")
  }

  @Test func localtimesPath_isTheSystemZone_withoutAWarning() {
    var warnings: [String] = []
    let zone = AppEnvironment.userTimeZone(["TZ": ":/etc/localtime"], warn: { warnings.append($0) })
    #expect(warnings.isEmpty, "\(warnings)")
    #expect(zone.identifier == AppEnvironment.systemTimeZone().identifier)
  }

  @Test func aPathToNoZoneFile_stillWarns() {
    var warnings: [String] = []
    _ = AppEnvironment.userTimeZone(["TZ": ":/nonexistent/zone"], warn: { warnings.append($0) })
    #expect(warnings.count == 1)
  }
}
