import Core

/// `--from` and `--to` as written: the one place a range's two days are read and a missing end
/// is filled in. Each command keeps its own flags and says how its missing ends default.
struct DayBounds {
  let from: String?
  let to: String?

  /// Whether neither end was given.
  var isEmpty: Bool { from == nil && to == nil }

  /// The first and last day, read against `today` (`--from` first): `missingTo` stands in for
  /// a missing `--to`, `missingFrom(last)` for a missing `--from`.
  func days(today: Day, missingTo: Day, missingFrom: (_ last: Day) -> Day) throws(CoreError)
    -> (first: Day, last: Day)
  {
    let first = try parseDay(from, today: today)
    let last = try parseDay(to, today: today) ?? missingTo
    return (first ?? missingFrom(last), last)
  }
}
