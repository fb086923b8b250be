import Zone

/// A VTODO's repetition (RFC 5545 §3.3.10, `RRULE`) followed to the day a CalDAV sync takes a
/// repeating VTODO made on a phone as (issue 27): ootd plans concrete days, so such a todo
/// comes in as ONE todo on its next instance. Pure and table-tested.
///
/// Followed: `FREQ` `DAILY`, `WEEKLY`, `MONTHLY` and `YEARLY`; `INTERVAL`; `BYDAY` (weekdays;
/// in a monthly rule, or a yearly one with `BYMONTH`, also ordinals such as `2MO` and `-1FR`);
/// `BYMONTHDAY` (negative: from the month's end); `BYMONTH`; `WKST`; `COUNT` and `UNTIL`
/// ending the series. `DTSTART` is always the first instance, and a day a rule names that does
/// not exist (the 31st of a short month, 29 February) is no instance, as RFC 5545 says. Anything
/// else (`BYSETPOS`, `BYWEEKNO`, `BYYEARDAY`, times of day, `HOURLY` and finer, RFC 7529's
/// `RSCALE`) is a rule ootd cannot follow: the todo keeps its `DTSTART`, and the sync says so.
public struct RecurrenceRule: Hashable, Sendable {
  public enum Frequency: String, Hashable, Sendable {
    case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
  }

  /// A `BYDAY` entry: a weekday, with an ordinal in its month (`2MO`: the second Monday,
  /// `-1FR`: the last Friday) or none (every such weekday).
  public struct WeekdayEntry: Hashable, Sendable {
    public var ordinal: Int?
    public var weekday: Weekday

    public init(_ ordinal: Int?, _ weekday: Weekday) {
      self.ordinal = ordinal
      self.weekday = weekday
    }
  }

  public var frequency: Frequency
  public var interval = 1
  public var byDay: [WeekdayEntry] = []
  public var byMonthDay: [Int] = []
  public var byMonth: [Int] = []
  public var weekStart = Weekday.monday
  public var count: Int?
  /// The last day an instance may fall on (`UNTIL`'s date).
  public var until: Day?

  public init(frequency: Frequency) { self.frequency = frequency }

  /// Where a repeating VTODO's todo goes.
  public enum Next: Hashable, Sendable {
    /// The first instance on or after today (the start itself when it is not past).
    case instance(Day)
    /// The series ended (`COUNT`, `UNTIL`) before today: its last instance.
    case ended(Day)
    /// A rule ootd does not follow, and why: the todo stays on its start.
    case unsupported(String)
  }

  /// How many periods (days, weeks, months or years) one rule is followed through at most: a
  /// rule that names no day that exists (`BYMONTH=2;BYMONTHDAY=30`) stops there.
  static let maximumPeriods = 100_000

  /// The day of `rule`'s (an `RRULE` value) instance for a series starting on `start`, seen on
  /// `today`.
  public static func next(_ rule: String, start: Day, today: Day) -> Next {
    switch parse(rule) {
    case .failure(let reason): return .unsupported(reason.text)
    case .success(let parsed): return parsed.next(start: start, today: today)
    }
  }

  /// Why a rule is not followed.
  public struct Unsupported: Error, Hashable, Sendable {
    public let text: String
  }

  static let weekdays: [String: Weekday] = [
    "MO": .monday, "TU": .tuesday, "WE": .wednesday, "TH": .thursday, "FR": .friday, "SA": .saturday, "SU": .sunday,
  ]

  /// Reads an `RRULE` value (`FREQ=MONTHLY;BYDAY=-1FR`), case-insensitively.
  public static func parse(_ text: String) -> Result<RecurrenceRule, Unsupported> {
    func no(_ why: String) -> Result<RecurrenceRule, Unsupported> { .failure(Unsupported(text: why)) }
    var parts: [String: String] = [:]
    for part in text.uppercased().split(separator: ";") {
      let pair = part.split(separator: "=", maxSplits: 1).map { trimmingWhiteSpace(String($0)) }
      guard pair.count == 2, parts[pair[0]] == nil else { return no("'\(part)' is not NAME=VALUE once") }
      parts[pair[0]] = pair[1]
    }
    guard let name = parts.removeValue(forKey: "FREQ") else { return no("no FREQ") }
    guard let frequency = Frequency(rawValue: name) else { return no("FREQ=\(name) is not followed") }
    var rule = RecurrenceRule(frequency: frequency)
    func integers(_ key: String, _ range: ClosedRange<Int>) -> [Int]? {
      guard let value = parts.removeValue(forKey: key) else { return [] }
      let numbers = value.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
      guard !numbers.isEmpty, numbers.allSatisfy({ $0.map { range.contains($0) && $0 != 0 } ?? false }) else { return nil }
      return numbers.map { $0! }
    }
    if let value = parts.removeValue(forKey: "INTERVAL") {
      guard let interval = Int(value), (1...10_000).contains(interval) else { return no("INTERVAL=\(value)") }
      rule.interval = interval
    }
    if let value = parts.removeValue(forKey: "COUNT") {
      guard let count = Int(value), count >= 1 else { return no("COUNT=\(value)") }
      rule.count = count
    }
    if let value = parts.removeValue(forKey: "UNTIL") {
      let digits = value.prefix(8)
      guard digits.count == 8, digits.allSatisfy(\.isASCII), let number = Int(digits),
        let until = Day(year: number / 10_000, month: number / 100 % 100, day: number % 100)
      else { return no("UNTIL=\(value)") }
      rule.until = until
    }
    guard rule.count == nil || rule.until == nil else { return no("both COUNT and UNTIL") }
    if let value = parts.removeValue(forKey: "WKST") {
      guard let weekday = weekdays[value] else { return no("WKST=\(value)") }
      rule.weekStart = weekday
    }
    guard let months = integers("BYMONTH", 1...12) else { return no("a BYMONTH that is no month") }
    guard months.allSatisfy({ $0 > 0 }) else { return no("a BYMONTH that is no month") }
    rule.byMonth = months
    guard let monthDays = integers("BYMONTHDAY", -31...31) else { return no("a BYMONTHDAY that is no day") }
    rule.byMonthDay = monthDays
    if let value = parts.removeValue(forKey: "BYDAY") {
      for item in value.split(separator: ",", omittingEmptySubsequences: false) {
        guard item.count >= 2, let weekday = weekdays[String(item.suffix(2))] else { return no("BYDAY=\(value)") }
        let number = item.dropLast(2)
        if number.isEmpty {
          rule.byDay.append(WeekdayEntry(nil, weekday))
        } else {
          guard let ordinal = Int(number.hasPrefix("+") ? number.dropFirst() : number), ordinal != 0,
            (-5...5).contains(ordinal)
          else { return no("BYDAY=\(value)") }
          rule.byDay.append(WeekdayEntry(ordinal, weekday))
        }
      }
    }
    if let other = parts.keys.sorted().first { return no("\(other) is not followed") }
    let ordinals = rule.byDay.contains { $0.ordinal != nil }
    switch frequency {
    case .daily, .weekly:
      if ordinals { return no("a BYDAY ordinal in a \(name) rule") }
      if frequency == .weekly && !rule.byMonthDay.isEmpty { return no("BYMONTHDAY in a WEEKLY rule") }
    case .monthly:
      if ordinals && !rule.byMonthDay.isEmpty { return no("BYDAY ordinals with BYMONTHDAY") }
    case .yearly:
      if rule.byMonth.isEmpty && (!rule.byDay.isEmpty || !rule.byMonthDay.isEmpty) {
        return no("a YEARLY BYDAY or BYMONTHDAY without BYMONTH")
      }
      if ordinals && !rule.byMonthDay.isEmpty { return no("BYDAY ordinals with BYMONTHDAY") }
    }
    return .success(rule)
  }

  /// The instance for a series starting on `start`, seen on `today`.
  public func next(start: Day, today: Day) -> Next {
    guard start < today else { return .instance(start) }
    if let until, until < start { return .ended(start) }
    // Without COUNT nothing needs counting: the periods before the one before the target
    // (today, or UNTIL when it came first) are skipped.
    var period = 0
    if count == nil {
      let target = min(today, until ?? today)
      period = max(0, periods(from: start, to: target) / interval - 1)
    }
    var last = start
    var seen = 1
    while period <= Self.maximumPeriods {
      for day in days(in: period, start: start) where day > start {
        if let until, day > until { return .ended(last) }
        seen += 1
        if let count, seen > count { return .ended(last) }
        if day >= today { return .instance(day) }
        last = day
      }
      period += 1
    }
    return .ended(last)
  }

  /// Whole periods of the frequency from `start`'s to `day`'s.
  func periods(from start: Day, to day: Day) -> Int {
    switch frequency {
    case .daily: return start.distance(to: day)
    case .weekly: return weekBegin(start).distance(to: weekBegin(day)) / 7
    case .monthly: return (day.year * 12 + day.month) - (start.year * 12 + start.month)
    case .yearly: return day.year - start.year
    }
  }

  /// The first day of `day`'s week, weeks beginning on ``weekStart``.
  func weekBegin(_ day: Day) -> Day {
    day.adding(days: -((day.weekday.rawValue - weekStart.rawValue + 7) % 7))
  }

  /// The days the rule names in its `index`-th period after `start`'s (the interval counted),
  /// in order.
  func days(in index: Int, start: Day) -> [Day] {
    let step = index * interval
    var result: [Day]
    switch frequency {
    case .daily:
      let day = start.adding(days: step)
      result = matchesMonthDay(day) && matchesWeekday(day) ? [day] : []
    case .weekly:
      let begin = weekBegin(start).adding(days: 7 * step)
      let wanted = byDay.isEmpty ? [start.weekday] : byDay.map(\.weekday)
      result = (0..<7).map { begin.adding(days: $0) }.filter { wanted.contains($0.weekday) }
    case .monthly:
      let total = start.year * 12 + (start.month - 1) + step
      result = monthDays(year: total / 12, month: total % 12 + 1, start: start)
    case .yearly:
      let year = start.year + step
      let months = byMonth.isEmpty ? [start.month] : byMonth.sorted()
      result = months.flatMap { monthDays(year: year, month: $0, start: start) }
    }
    if !byMonth.isEmpty { result = result.filter { byMonth.contains($0.month) } }
    return result
  }

  /// The days of one month the rule names: its BYMONTHDAY days (those that are weekdays of
  /// BYDAY, if any), else its BYDAY days, else the start's day of the month (none when the
  /// month has no such day).
  func monthDays(year: Int, month: Int, start: Day) -> [Day] {
    guard year >= 1, year <= 9999 else { return [] }
    let length = CivilCalendar.daysIn(month: month, year: year)
    var numbers: [Int]
    if !byMonthDay.isEmpty {
      numbers = byMonthDay.map { $0 > 0 ? $0 : length + $0 + 1 }
    } else if !byDay.isEmpty {
      let first = Day(year: year, month: month, day: 1)!
      numbers = byDay.flatMap { entry -> [Int] in
        let firstOfKind = 1 + (entry.weekday.rawValue - first.weekday.rawValue + 7) % 7
        let all = Array(stride(from: firstOfKind, through: length, by: 7))
        guard let ordinal = entry.ordinal else { return all }
        let index = ordinal > 0 ? ordinal - 1 : all.count + ordinal
        return all.indices.contains(index) ? [all[index]] : []
      }
    } else {
      numbers = [start.dayOfMonth]
    }
    var days = Set(numbers.filter { (1...length).contains($0) }).sorted().compactMap {
      Day(year: year, month: month, day: $0)
    }
    if !byMonthDay.isEmpty && !byDay.isEmpty { days = days.filter(matchesWeekday) }
    return days
  }

  func matchesWeekday(_ day: Day) -> Bool { byDay.isEmpty || byDay.contains { $0.weekday == day.weekday } }

  func matchesMonthDay(_ day: Day) -> Bool {
    guard !byMonthDay.isEmpty else { return true }
    let length = CivilCalendar.daysIn(month: day.month, year: day.year)
    return byMonthDay.contains { ($0 > 0 ? $0 : length + $0 + 1) == day.dayOfMonth }
  }
}
