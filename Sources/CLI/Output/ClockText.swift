import Core
import Foundation
import Zone

// Instants as people read them, without DateFormatter.

/// `2026-11-22 09:41` in `timeZone`, without DateFormatter (whose start-up the dashboard avoids).
func syncStamp(_ date: Date, timeZone: any ZoneRules) -> String {
  "\(Day(date, in: timeZone)) " + clockTime(date, timeZone: timeZone)
}

/// `09:41` in `timeZone`.
func clockTime(_ date: Date, timeZone: any ZoneRules) -> String {
  let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: date)
  let minutes = (seconds % 86_400 + 86_400) % 86_400 / 60
  let hour = minutes / 60
  let minute = minutes % 60
  return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
}
