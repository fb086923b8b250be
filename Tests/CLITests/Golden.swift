import Foundation
import Testing

/// Golden files: expected terminal output kept in `Tests/CLITests/Golden/`, read from the source
/// tree. ANSI escapes are stored as the two characters `\e`, so diffs stay readable.
///
/// To re-record after an intended change: `OOTD_UPDATE_GOLDEN=1 swift test --skip-build`, then
/// review `git diff Tests/CLITests/Golden`.
enum Golden {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden")

  /// Compares `actual` with the golden file `name`, recording it when missing or when
  /// `OOTD_UPDATE_GOLDEN=1`.
  static func check(
    _ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let url = folder.appendingPathComponent(name)
    let visible = actual.replacingOccurrences(of: "\u{1B}", with: "\\e")
    let update = ProcessInfo.processInfo.environment["OOTD_UPDATE_GOLDEN"] == "1"
    guard !update, let expected = try? String(contentsOf: url, encoding: .utf8) else {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try visible.write(to: url, atomically: true, encoding: .utf8)
      if !update {
        Issue.record("recorded a new golden file \(name); review it and run again", sourceLocation: sourceLocation)
      }
      return
    }
    #expect(visible == expected, "output differs from Golden/\(name)", sourceLocation: sourceLocation)
  }
}
