import Foundation
import Testing

/// Issue 20: no test reads the real date, time or time zone. Dates come from ``TestClock`` (and
/// `Harness(now:)`); every ootd the tests start runs at the pinned instant. A test that reads the
/// real clock passes today and fails on another day, so it is refused here, the day it is
/// written. A line that must read it (a bound against a hang, a server's real clock) says why
/// with `real clock:` or `real zone:` on that line.
@Suite struct NoRealClockTests {
  static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

  /// What reads the real clock or zone in Swift.
  static let reads = [
    "Date()", "Date.now", "timeIntervalSinceNow", "Date(timeIntervalSinceNow", "TimeZone.current",
    "TimeZone.autoupdatingCurrent", "Calendar.current", "Calendar.autoupdatingCurrent",
    "CFAbsoluteTimeGetCurrent", "gettimeofday", "time(nil)",
  ]

  /// The lines of the Swift test files that read the real clock or zone without saying why.
  static func offences(in folder: URL) throws -> [String] {
    var found: [String] = []
    let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
    for case let file as URL in files where file.pathExtension == "swift" && file.lastPathComponent != "NoRealClockTests.swift" {
      let text = try String(contentsOf: file, encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let code = line.components(separatedBy: "//").first ?? ""
        guard reads.contains(where: { code.contains($0) }) else { continue }
        if line.contains("real clock:") || line.contains("real zone:") { continue }
        found.append("\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
      }
    }
    return found
  }

  @Test func noTestReadsTheRealClockOrZone_withoutSayingWhy() throws {
    let offences = try Self.offences(in: Self.tests)
    #expect(offences.isEmpty, "use TestClock (Tests/CLITests/Support.swift):\n\(offences.joined(separator: "\n"))")
  }

  @Test func theCheckFindsARealClockRead() throws {
    // The check itself: a file that reads Date() is found, one that says why is not.
    let folder = try TemporaryFolder()
    try "let today = Day(Date(), in: zone)\nlet t = Date()  // real clock: a deadline\n// Date() in a comment\n"
      .write(toFile: folder.file("Bomb.swift"), atomically: true, encoding: .utf8)
    #expect(try Self.offences(in: URL(fileURLWithPath: folder.path)) == ["Bomb.swift:1: let today = Day(Date(), in: zone)"])
  }
}
