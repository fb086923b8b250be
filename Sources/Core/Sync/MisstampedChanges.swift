#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// This machine's changes waiting to be pushed that were made while its clock was wrong (issue
/// 24 §2), by the wall-clock instant each was made at: ahead of the server's now, or before
/// this machine's previous completed sync by the server's clock (a change made after that sync
/// cannot honestly be earlier), by more than the sync allows. A sync refuses to push them: a
/// change from a fast clock would win over later edits made elsewhere, and one from a slow clock
/// may have been put on the wrong day. Changes undone here (and their undos) are not counted:
/// undoing them is a way out.
public struct MisstampedChanges: Hashable, Sendable {
  /// The server's now the changes were judged against, in this machine's reckoning (ms).
  public var serverNow: Int64
  /// The changes made ahead of ``serverNow`` past the limit, and the latest instant of all.
  public var ahead = 0
  public var latest: Int64?
  /// The changes made before the previous sync (past the tolerance), the earliest instant
  /// of all, and that sync's instant by the server's clock (nil before one was recorded).
  public var behind = 0
  public var earliest: Int64?
  public var previousSync: Int64?

  public init(serverNow: Int64) { self.serverNow = serverNow }

  /// How many changes were made while the clock was wrong.
  public var count: Int { ahead + behind }

  /// How far the latest change made ahead is past the server's now, in seconds (0: none).
  public var aheadSeconds: Double {
    guard ahead > 0, let latest else { return 0 }
    return Double(latest - serverNow) / 1000
  }

  /// How far the earliest change made behind is before the previous sync, in seconds (0: none).
  public var behindSeconds: Double {
    guard behind > 0, let earliest, let previousSync else { return 0 }
    return Double(previousSync - earliest) / 1000
  }
}
