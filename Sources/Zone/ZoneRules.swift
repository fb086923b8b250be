import Foundation

/// What ootd asks of a time zone: its name, its offset from UTC at an instant, and when that offset
/// next changes. Every day ootd computes from an instant (today, a commit's day, a day's first
/// instant) goes through these three.
///
/// Two kinds answer them:
/// - ``ZoneInfo``: the rules of a compiled zone file (TZif, RFC 8536), as the system keeps them in
///   `/usr/share/zoneinfo` and `/etc/localtime`: the same data `date` and `git log --date=local`
///   read. The user's zone is one of these whenever the system has its file.
/// - Foundation's `TimeZone` (ICU's own copy of the data), for a name the system has no file for.
///   Its first use costs a start-up a third of a millisecond and ~75 page faults (ICU's zone
///   tables), which is why the user's zone is not one by default.
public protocol ZoneRules: Sendable {
  /// The zone's name (`Asia/Seoul`, `UTC`).
  var identifier: String { get }
  /// Seconds to add to UTC to get local time at `date` (east of Greenwich is positive).
  func secondsFromGMT(for date: Date) -> Int
  /// The first instant after `date` at which the offset from UTC changes, or nil when it never
  /// changes again.
  func nextDaylightSavingTimeTransition(after date: Date) -> Date?
}

extension TimeZone: ZoneRules {}
