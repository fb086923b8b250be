/// The proleptic Gregorian calendar as day counts (Howard Hinnant's algorithms): what a zone
/// rule needs to find "the second Sunday of March", and what Core's `Day` is built on. Pure
/// arithmetic on integers; day 0 is 1970-01-01.
public enum CivilCalendar {
  /// The number of days of `month` (1-12) in `year`.
  @inlinable
  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Whether `year` has a February 29.
  @inlinable
  public static func isLeap(_ year: Int) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  /// The number of days from 1970-01-01 to `year`-`month`-`day` (negative before it).
  @inlinable
  public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The date `days` days after 1970-01-01 (before it when negative).
  @inlinable
  public static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
  }
}
