import Foundation
import Testing

/// Issue 22, point 9: below the CLI nothing reads the clock or the zone by itself. The CLI's
/// `AppEnvironment` (Sources/CLI/Environment) is the one door; every other module is handed
/// `now`, `today` and the zone by its caller, so no default can quietly use the real ones. A line
/// that must read the clock anyway says why with `real clock:` or `real zone:` on that line.
@Suite struct NoHiddenClockTests {
  static let sources = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources")

  /// The one folder that may read the real clock and zone.
  static let door = "CLI/Environment/"

  /// What reads the real clock or zone in Swift.
  static let reads = [
    "Date()", "Date.now", "timeIntervalSinceNow", "Date(timeIntervalSinceNow",  // real clock: what the scan looks for
    "TimeZone.current", "TimeZone.autoupdatingCurrent", ".autoupdatingCurrent",  // real zone: what the scan looks for
    "Calendar.current", "CFAbsoluteTimeGetCurrent", "gettimeofday", "time(nil)",  // real clock: what the scan looks for
  ]

  /// The lines of the Swift files under `folder` (outside the door) that read the real clock or
  /// zone without saying why, as `path:line: code`.
  static func offences(in folder: URL) throws -> [String] {
    var found: [String] = []
    let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
    for case let file as URL in files where file.pathExtension == "swift" {
      let relative = String(file.path.dropFirst(folder.path.count + 1))
      if relative.hasPrefix(door) { continue }
      let text = try String(contentsOf: file, encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let code = line.components(separatedBy: "//").first ?? ""
        guard reads.contains(where: { code.contains($0) }) else { continue }
        if line.contains("real clock:") || line.contains("real zone:") { continue }
        found.append("\(relative):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
      }
    }
    return found.sorted()
  }

  @Test func nothingBelowTheCLIReadsTheClockOrZoneByItself() throws {
    let offences = try Self.offences(in: Self.sources)
    #expect(
      offences.isEmpty,
      "take `now`/`today`/the zone from the caller (AppEnvironment in the CLI):\n\(offences.joined(separator: "\n"))")
  }

  @Test func theScanFindsADefaultNowAndSparesTheDoor() throws {
    let scratch = Scratch()
    let root = URL(fileURLWithPath: scratch.folder)
    let fm = FileManager.default
    try fm.createDirectory(atPath: scratch.path("Storage"), withIntermediateDirectories: true)
    try fm.createDirectory(atPath: scratch.path("CLI/Environment"), withIntermediateDirectories: true)
    try "func add(now: Date = Date()) {}\nlet zone = TimeZone.current\nlet t = Date()  // real clock: why\n// Date() in a comment\n"
      .write(toFile: scratch.path("Storage/Store.swift"), atomically: true, encoding: .utf8)
    let door = scratch.path("CLI/Environment/Env.swift")
    try "let now = Date()\n".write(toFile: door, atomically: true, encoding: .utf8)  // real clock: planted in the door
    #expect(
      try Self.offences(in: root) == [
        "Storage/Store.swift:1: func add(now: Date = Date()) {}",  // real clock: the planted line
        "Storage/Store.swift:2: let zone = TimeZone.current",  // real zone: the planted line
      ])
  }
}
