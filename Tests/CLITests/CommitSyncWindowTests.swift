import Foundation
import Testing

@testable import CLI

/// Where an incremental sync starts listing: two weeks before the newest stored commit (so a
/// branch merged late, whose commits carry old committer dates, is still listed), never before
/// the window already listed, and never after now.
@Suite struct CommitSyncWindowTests {
  static let day: TimeInterval = 86_400
  static let window = Date(timeIntervalSince1970: 1_700_000_000)

  @Test(arguments: [
    (nil as Double?, 0.0),  // nothing stored yet: the whole window
    (1.0, 0.0),  // newest inside the first two weeks: clamped to the window
    (14.0, 0.0),
    (30.0, 16.0),  // otherwise two weeks before the newest commit
    (365.0, 351.0),
    (900.0, 386.0),  // a commit dated in the future (skewed clock): two weeks before now
  ])
  func start(newestDaysAfterWindow: Double?, expectedDaysAfterWindow: Double) {
    let newest = newestDaysAfterWindow.map { Self.window.addingTimeInterval($0 * Self.day) }
    let now = Self.window.addingTimeInterval(400 * Self.day)
    let start = CommitSync.start(after: newest, windowStart: Self.window, now: now)
    #expect(start == Self.window.addingTimeInterval(expectedDaysAfterWindow * Self.day))
  }
}
