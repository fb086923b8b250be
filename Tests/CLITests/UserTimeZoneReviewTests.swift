import Core
import Foundation
import Testing
import Zone

@testable import CLI

#if canImport(Glibc)
import Glibc
#endif

/// The user's zone as glibc (`date`) reads `TZ`, and zone files that are not regular files.
@Suite("The user's time zone, as date reads it")
struct UserTimeZoneReviewTests {
  @Test(
    "TZ that no zone file names is a POSIX rule before it is an ICU name (GMT+5 is five hours west)",
    arguments: [("GMT+5", -18_000), ("GMT-3", 10_800), ("UTC+2", -7_200), ("UTC-9", 32_400)])
  func posixRuleBeforeICU(tz: String, offset: Int) throws {
    // `TZ=GMT+5 date +%z` prints -0500: POSIX offsets count hours west.
    try #require(!FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/" + tz))
    let zone = AppEnvironment.userTimeZone(["TZ": tz])
    #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_800_000_000)) == offset)
  }

  @Test(
    "a leap-second zone (right/…) has its plain zone's offsets, as date gives them to the minute",
    .enabled(
      if: FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/right/Asia/Seoul"),
      "this tzdata ships no right/ zones"))
  func leapSecondZone() throws {
    let zone = AppEnvironment.userTimeZone(["TZ": "right/Asia/Seoul"])
    // `TZ=right/Asia/Seoul date` is UTC+9 (less the leap seconds), not the system's zone.
    #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_800_000_000)) == 32_400)
    #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 0)) == 32_400)
  }

  @Test("/etc/localtime as a copied zone file (no link) gives that file's zone, as date does")
  func localtimeCopy() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("localtime-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("localtime")
    try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/Asia/Kathmandu")).write(to: copy)
    let zone = AppEnvironment.systemTimeZone(localtime: copy.path)
    #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_800_000_000)) == 20_700)
  }

  @Test("a FIFO below the zone folder is not opened for reading (no hang)")
  func fifoIsRefused() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zones-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let fifo = folder.appendingPathComponent("Fifo").path
    try #require(mkfifo(fifo, 0o644) == 0)
    // Without a writer, a blocking open of a FIFO waits forever.
    #expect(AppEnvironment.readZoneFile(fifo) == nil)
    #expect(AppEnvironment.zone(named: "Fifo", folder: folder.path) == nil)
    // /etc/localtime linking to such a file falls back instead of waiting.
    let zoneinfo = folder.appendingPathComponent("zoneinfo")
    try FileManager.default.createDirectory(at: zoneinfo, withIntermediateDirectories: true)
    try #require(mkfifo(zoneinfo.appendingPathComponent("Fifo").path, 0o644) == 0)
    let link = folder.appendingPathComponent("localtime").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: zoneinfo.appendingPathComponent("Fifo").path)
    #expect(!(AppEnvironment.systemTimeZone(localtime: link) is ZoneInfo))
  }

  @Test("devices and folders are not zone files")
  func devicesAreRefused() {
    #expect(AppEnvironment.readZoneFile("/dev/zero") == nil)
    #expect(AppEnvironment.readZoneFile("/dev/null") == nil)
    #expect(AppEnvironment.readZoneFile("/usr/share/zoneinfo") == nil)
  }
}
