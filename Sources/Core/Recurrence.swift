/// On which days a routine block is planned: every day, on some weekdays, or every N days.
///
/// `ootd block routine NAME` (every day), `--on mon,wed,fri` (those weekdays; one weekday is
/// weekly; `weekdays` is Monday to Friday), `--every 2d` or `--every 1w` (every N days counted
/// from the day it was set: that day, then N days later, and so on).
public enum Recurrence: Hashable, Sendable, CustomStringConvertible {
  /// Every day.
  case daily
  /// These weekdays, every week.
  case weekdays(Set<Weekday>)
  /// Every `days` days, starting on `from`.
  case every(days: Int, from: Day)

  /// The longest interval `--every` accepts, in days.
  public static let maximumInterval = 366

  /// Whether the routine is planned on `day`.
  public func occurs(on day: Day) -> Bool {
    switch self {
    case .daily: return true
    case .weekdays(let weekdays): return weekdays.contains(day.weekday)
    case .every(let days, let from):
      let distance = from.distance(to: day)
      return distance >= 0 && distance % days == 0
    }
  }

  /// The recurrence `--on` or `--every` (at most one of them) gives, counted from `today`.
  ///
  /// - Throws: ``CoreError/invalidRecurrence(_:)`` for an unknown weekday, an interval that is
  ///   not `Nd` or `Nw` with N at least 1, or both options at once.
  public static func parse(on: String?, every: String?, today: Day) throws(CoreError) -> Recurrence {
    switch (on, every) {
    case (nil, nil): return .daily
    case (.some, .some): throw .invalidRecurrence("--on and --every cannot be combined")
    case (let on?, nil):
      var weekdays = Set<Weekday>()
      for name in on.lowercased().split(separator: ",", omittingEmptySubsequences: false) {
        let name = trimmingWhiteSpace(String(name))
        if name == "weekdays" {
          weekdays.formUnion([.monday, .tuesday, .wednesday, .thursday, .friday])
        } else if name == "weekends" {
          weekdays.formUnion([.saturday, .sunday])
        } else if let weekday = DayExpression.weekdayNames[name] {
          weekdays.insert(weekday)
        } else {
          throw .invalidRecurrence(
            "invalid weekday '\(name)' in --on '\(on)': use names such as mon,wed,fri (or weekdays, weekends)")
        }
      }
      return weekdays.count == 7 ? .daily : .weekdays(weekdays)
    case (nil, let every?):
      let text = every.lowercased()
      let number = text.hasPrefix("+") ? text.dropFirst() : Substring(text)
      guard let unit = number.last, unit == "d" || unit == "w", let count = Int(number.dropLast()),
        count >= 1, count * (unit == "w" ? 7 : 1) <= maximumInterval
      else {
        throw .invalidRecurrence(
          "invalid interval '\(every)' for --every: use Nd or Nw, e.g. 2d or 1w (at most \(maximumInterval) days)")
      }
      let days = count * (unit == "w" ? 7 : 1)
      return days == 1 ? .daily : .every(days: days, from: today)
    }
  }

  /// The stored form: `daily`, `mon,wed,fri` (Monday first), or `every 2d from 2026-11-23`.
  public var text: String {
    switch self {
    case .daily: return "daily"
    case .weekdays(let weekdays):
      return weekdays.sorted { $0.rawValue < $1.rawValue }.map { $0.shortName.lowercased() }
        .joined(separator: ",")
    case .every(let days, let from): return "every \(days)d from \(from)"
    }
  }

  /// The recurrence of a stored form; nil (a routine set before recurrence existed) is daily.
  /// Nil for text no ootd writes.
  public init?(text: String?) {
    guard let text, text != "daily" else {
      self = .daily
      return
    }
    if text.hasPrefix("every ") {
      let parts = text.split(separator: " ")
      guard parts.count == 4, parts[2] == "from", parts[1].hasSuffix("d"),
        let days = Int(parts[1].dropLast()), days >= 2, let from = Day(iso: String(parts[3]))
      else { return nil }
      self = .every(days: days, from: from)
      return
    }
    var weekdays = Set<Weekday>()
    for name in text.split(separator: ",") {
      guard let weekday = DayExpression.weekdayNames[String(name)] else { return nil }
      weekdays.insert(weekday)
    }
    guard !weekdays.isEmpty else { return nil }
    self = .weekdays(weekdays)
  }

  /// In words: `every day`, `Mon, Wed, Fri`, `every 2 days from 2026-11-23`.
  public var description: String {
    switch self {
    case .daily: return "every day"
    case .weekdays(let weekdays):
      return weekdays.sorted { $0.rawValue < $1.rawValue }.map(\.shortName).joined(separator: ", ")
    case .every(let days, let from):
      return days % 7 == 0
        ? "every \(days / 7 == 1 ? "week" : counted(days / 7, "week")) from \(from)"
        : "every \(days) days from \(from)"
    }
  }
}
