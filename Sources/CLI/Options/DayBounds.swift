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

  /// The days from `--from` to `--to`, an end not given left open (from 0001-01-01, to
  /// 9999-12-31): how `list` and `search` read a range.
  func openRange(today: Day) throws -> DayRange {
    let (first, last) = try days(
      today: today, missingTo: Day(year: 9999, month: 12, day: 31)!,
      missingFrom: { _ in Day(year: 1, month: 1, day: 1)! })
    return try DayRange(from: first, to: last)
  }
}
