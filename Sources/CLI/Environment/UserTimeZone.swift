import Foundation

/// The user's time zone.
extension AppEnvironment {
  /// The zone named by `TZ` (with or without a leading `:`), else the system's zone.
  static func userTimeZone(_ variables: [String: String]) -> TimeZone {
    if var name = variables["TZ"], !name.isEmpty {
      if name.hasPrefix(":") { name.removeFirst() }
      if let zone = TimeZone(identifier: name) { return zone }
      if name == "UTC" || name == "UTC0" { return TimeZone(secondsFromGMT: 0)! }
    }
    return TimeZone.current
  }
}
