import Core
import Foundation
import TestTags
import Testing

@testable import CLI
import Zone

/// The user's zone comes from the system's zone files (`TZ`, `/etc/localtime`), not from ICU.
@Suite("The user's time zone", .tags(.binary))
struct UserTimeZoneTests {
  @Test(
    "TZ names a zone file, with or without a leading colon",
    arguments: [("Asia/Seoul", 32_400), (":Asia/Seoul", 32_400), ("America/St_Johns", -12_600), ("UTC", 0)])
  func tzNamesAZoneFile(tz: String, januaryOffset: Int) throws {
    let zone = AppEnvironment.userTimeZone(["TZ": tz])
    let info = try #require(zone as? ZoneInfo, "\(tz) was not read from its zone file")
    #expect(info.identifier == (tz.hasPrefix(":") ? String(tz.dropFirst()) : tz))
    #expect(zone.secondsFromGMT(for: try instant("2026-01-15T12:00:00Z")) == januaryOffset)
  }

  @Test(
    "TZ as a POSIX rule, as glibc reads it",
    arguments: [
      ("KST-9", 32_400, 32_400), ("<+0545>-5:45", 20_700, 20_700), ("UTC0", 0, 0),
      ("EST5EDT,M3.2.0,M11.1.0", -18_000, -14_400), ("AEST-10AEDT,M10.1.0,M4.1.0/3", 39_600, 36_000),
    ])
  func tzAsAPosixRule(tz: String, januaryOffset: Int, julyOffset: Int) throws {
    let zone = AppEnvironment.userTimeZone(["TZ": tz])
    #expect(zone.identifier == tz)
    #expect(zone.secondsFromGMT(for: try instant("2026-01-15T12:00:00Z")) == januaryOffset)
    #expect(zone.secondsFromGMT(for: try instant("2026-07-15T12:00:00Z")) == julyOffset)
  }

  @Test("graph --tz reads a name as TZ does: GMT+5 is five hours west, as date has it")
  func graphZoneAsTZ() throws {
    let zone = try #require(AppEnvironment.zone(named: "GMT+5"))
    let tz = AppEnvironment.userTimeZone(["TZ": "GMT+5"])
    let moment = try instant("2026-11-23T22:30:00Z")
    #expect(zone.secondsFromGMT(for: moment) == -18_000)
    #expect(tz.secondsFromGMT(for: moment) == zone.secondsFromGMT(for: moment))
  }

  @Test(
    "a TZ that is not a zone name falls back to the system's zone",
    arguments: ["../../../etc/passwd", "/etc/passwd", "Asia/../Asia/Seoul", "Not/AZone", ""])
  func otherTZFallsBack(tz: String) {
    var warnings: [String] = []
    let zone = AppEnvironment.userTimeZone(["TZ": tz], warn: { warnings.append($0) })
    let system = AppEnvironment.systemTimeZone().identifier
    #expect(zone.identifier == system)
    #expect(AppEnvironment.zone(named: tz) == nil || tz == "Asia/../Asia/Seoul")
    // Said once, except for an empty TZ (no zone asked for).
    let expected = "ootd: warning: TZ '\(tz)' is no time zone (no zone file, no POSIX rule); days follow the system's zone, \(system)"
    #expect(warnings == (tz.isEmpty ? [] : [expected]))
  }

  /// Issue 21, item 12: a mistyped TZ (`Pacific/Honolul`) put todos on another day silently;
  /// it is said once on standard error, and a valid one says nothing.
  @Test("a mistyped TZ is said once on standard error")
  func mistypedTZ_isSaidOnce() throws {
    let folder = try TemporaryFolder()
    for (tz, warned) in [("Pacific/Honolul", true), ("Pacific/Honolulu", false), (":Pacific/Honolulu", false), ("UTC", false)] {
      let result = try BinaryTests.run(["add", "x", "--json"], environment: ["OOTD_DB": folder.file("ootd.sqlite"), "TZ": tz])
      #expect(result.code == 0, "\(tz): \(result.stderr)")
      let lines = result.stderr.split(separator: "\n")
      #expect(lines.count == (warned ? 1 : 0), "\(tz): \(result.stderr)")
      if warned { #expect(lines.first?.hasPrefix("ootd: warning: TZ '\(tz)' is no time zone") == true, "\(result.stderr)") }
    }
    var warnings: [String] = []
    _ = AppEnvironment.userTimeZone(["TZ": "Bad\u{1B}[2J"], warn: { warnings.append($0) })
    #expect(warnings.count == 1 && warnings[0].contains("Bad␛[2J") && !warnings[0].contains("\u{1B}"))
  }

  @Test("a file below the zone folder that is not a zone file is not a zone")
  func plantedFileIsRefused() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zones-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data("not a zone\n".utf8).write(to: folder.appendingPathComponent("Planted"))
    #expect(AppEnvironment.zone(named: "Planted", folder: folder.path) == nil)
    // A real zone's file copied there is read from there.
    let seoul = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/Asia/Seoul"))
    try seoul.write(to: folder.appendingPathComponent("Mine"))
    let mine = try #require(AppEnvironment.zone(named: "Mine", folder: folder.path) as? ZoneInfo)
    #expect(mine.secondsFromGMT(for: Date(timeIntervalSince1970: 1_800_000_000)) == 32_400)
  }

  @Test("/etc/localtime as a link into zoneinfo gives that zone, named after the link")
  func localtimeLink() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("localtime-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let link = folder.appendingPathComponent("localtime").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/usr/share/zoneinfo/Asia/Kathmandu")
    let zone = try #require(AppEnvironment.systemTimeZone(localtime: link) as? ZoneInfo)
    #expect(zone.identifier == "Asia/Kathmandu")
    #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_800_000_000)) == 20_700)
  }

  /// Parses an ISO 8601 instant such as `2026-11-22T23:30:00Z`.
  func instant(_ text: String) throws -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return try #require(formatter.date(from: text))
  }
}
