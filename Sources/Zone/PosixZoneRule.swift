/// A POSIX `TZ` rule such as `EST5EDT,M3.2.0,M11.1.0` or `<+0330>-3:30`: the footer of a TZif
/// file, which gives a zone's offsets after its last listed transition (RFC 8536, section 3.3,
/// with its extensions: hours of a rule's time from -167 to 167).
///
/// Offsets here are seconds east of UTC (`EST5` is -18,000), the way `secondsFromGMT` counts,
/// not POSIX's west-positive hours.
public struct PosixZoneRule: Hashable, Sendable {
  /// Standard time's offset.
  public let standardOffset: Int
  /// Daylight time's offset and when it starts and ends, or nil for a zone without it.
  public let daylight: Daylight?

  public struct Daylight: Hashable, Sendable {
    public let offset: Int
    /// When daylight time starts, in local standard time.
    public let start: Transition
    /// When it ends, in local daylight time.
    public let end: Transition
  }

  /// A day of the year and a time of that day (seconds, possibly negative or past midnight).
  public struct Transition: Hashable, Sendable {
    public enum Date: Hashable, Sendable {
      /// `Jn`: day 1–365, February 29th never counted.
      case julian(Int)
      /// `n`: day 0–365, February 29th counted.
      case zeroBased(Int)
      /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1–5, 5 = the last) of month `m`.
      case monthWeekDay(month: Int, week: Int, weekday: Int)
    }
    public let date: Date
    public let time: Int
  }

  /// Parses a rule; nil when `text` is not one.
  public init?(_ text: String) {
    var scanner = Scanner(Array(text.utf8))
    guard scanner.name(), let standardWest = scanner.offset(maxHours: 24) else { return nil }
    standardOffset = -standardWest
    if scanner.atEnd {
      daylight = nil
      return
    }
    guard scanner.name() else { return nil }
    var daylightOffset = standardOffset + 3_600
    if let peek = scanner.peek, peek != UInt8(ascii: ",") {
      guard let west = scanner.offset(maxHours: 24) else { return nil }
      daylightOffset = -west
    }
    let start: Transition
    let end: Transition
    if scanner.atEnd {
      // No rule: the United States' since 2007, as glibc assumes.
      start = Transition(date: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7_200)
      end = Transition(date: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7_200)
    } else {
      guard scanner.take(UInt8(ascii: ",")), let first = scanner.transition(),
        scanner.take(UInt8(ascii: ",")), let second = scanner.transition(), scanner.atEnd
      else { return nil }
      start = first
      end = second
    }
    daylight = Daylight(offset: daylightOffset, start: start, end: end)
  }

  /// The offset in force at `seconds` since 1970 (UTC).
  public func offset(at seconds: Int64) -> Int {
    guard let daylight else { return standardOffset }
    let year = standardYear(at: seconds)
    let (start, end) = transitions(in: year, daylight)
    if start < end {
      return (start <= seconds && seconds < end) ? daylight.offset : standardOffset
    }
    return (end <= seconds && seconds < start) ? standardOffset : daylight.offset
  }

  /// The first change of offset after `seconds` (UTC), or nil for a zone without daylight time.
  public func nextTransition(after seconds: Int64) -> Int64? {
    guard let daylight, daylight.offset != standardOffset else { return nil }
    let year = standardYear(at: seconds)
    var candidates: [Int64] = []
    for candidateYear in (year - 1)...(year + 1) {
      let (start, end) = transitions(in: candidateYear, daylight)
      candidates += [start, end]
    }
    // A rule of daylight time all year (`0/0,J365/25`) has transitions that change nothing.
    return candidates.filter { $0 > seconds && offset(at: $0) != offset(at: $0 - 1) }.min()
  }

  /// The year of `seconds` (UTC) in local standard time: the year whose transitions decide.
  private func standardYear(at seconds: Int64) -> Int {
    CivilCalendar.civilFromDays(Int(Self.floorDivide(seconds + Int64(standardOffset), 86_400))).year
  }

  /// When daylight time starts and ends in `year`, in seconds since 1970 (UTC).
  private func transitions(in year: Int, _ daylight: Daylight) -> (start: Int64, end: Int64) {
    let start = Self.localSeconds(daylight.start, year: year) - Int64(standardOffset)
    let end = Self.localSeconds(daylight.end, year: year) - Int64(daylight.offset)
    return (start, end)
  }

  /// The transition's local time in `year`, in seconds since 1970 as if local time were UTC.
  static func localSeconds(_ transition: Transition, year: Int) -> Int64 {
    let january1 = CivilCalendar.daysFromCivil(year: year, month: 1, day: 1)
    let day: Int
    switch transition.date {
    case .julian(let n):
      day = january1 + n - 1 + (CivilCalendar.isLeap(year) && n >= 60 ? 1 : 0)
    case .zeroBased(let n):
      day = january1 + n
    case .monthWeekDay(let month, let week, let weekday):
      let first = CivilCalendar.daysFromCivil(year: year, month: month, day: 1)
      // 1970-01-01 was a Thursday (weekday 4).
      let firstWeekday = ((first + 4) % 7 + 7) % 7
      var dayOfMonth = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
      while dayOfMonth > CivilCalendar.daysIn(month: month, year: year) { dayOfMonth -= 7 }
      day = first + dayOfMonth - 1
    }
    return Int64(day) * 86_400 + Int64(transition.time)
  }

  static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    let quotient = value / divisor
    return (value % divisor < 0) ? quotient - 1 : quotient
  }

  /// Reads a rule's parts from its bytes.
  private struct Scanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func take(_ byte: UInt8) -> Bool {
      guard peek == byte else { return false }
      index += 1
      return true
    }

    /// A zone abbreviation: three or more letters, or `<…>` of letters, digits, `+` and `-`.
    mutating func name() -> Bool {
      let begin = index
      if take(UInt8(ascii: "<")) {
        while let byte = peek, isAlphanumeric(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
          index += 1
        }
        return index - begin - 1 >= 3 && take(UInt8(ascii: ">"))
      }
      while let byte = peek, isLetter(byte) { index += 1 }
      return index - begin >= 3
    }

    /// `[+-]hh[:mm[:ss]]` in seconds, sign included.
    mutating func offset(maxHours: Int) -> Int? {
      var sign = 1
      if take(UInt8(ascii: "-")) { sign = -1 } else { _ = take(UInt8(ascii: "+")) }
      guard let hours = number(maxDigits: 3), hours <= maxHours else { return nil }
      var seconds = hours * 3_600
      if take(UInt8(ascii: ":")) {
        guard let minutes = number(maxDigits: 2), minutes < 60 else { return nil }
        seconds += minutes * 60
        if take(UInt8(ascii: ":")) {
          guard let secs = number(maxDigits: 2), secs < 60 else { return nil }
          seconds += secs
        }
      }
      return sign * seconds
    }

    /// `Jn`, `n` or `Mm.w.d`, with an optional `/time` (02:00 when absent).
    mutating func transition() -> Transition? {
      let date: Transition.Date
      if take(UInt8(ascii: "J")) {
        guard let n = number(maxDigits: 3), (1...365).contains(n) else { return nil }
        date = .julian(n)
      } else if take(UInt8(ascii: "M")) {
        guard let month = number(maxDigits: 2), (1...12).contains(month), take(UInt8(ascii: ".")),
          let week = number(maxDigits: 1), (1...5).contains(week), take(UInt8(ascii: ".")),
          let weekday = number(maxDigits: 1), (0...6).contains(weekday)
        else { return nil }
        date = .monthWeekDay(month: month, week: week, weekday: weekday)
      } else {
        guard let n = number(maxDigits: 3), (0...365).contains(n) else { return nil }
        date = .zeroBased(n)
      }
      var time = 7_200
      if take(UInt8(ascii: "/")) {
        guard let given = offset(maxHours: 167) else { return nil }
        time = given
      }
      return Transition(date: date, time: time)
    }

    mutating func number(maxDigits: Int) -> Int? {
      var value = 0
      var digits = 0
      while let byte = peek, (48...57).contains(byte), digits < maxDigits {
        value = value * 10 + Int(byte - 48)
        digits += 1
        index += 1
      }
      return digits == 0 ? nil : value
    }

    private func isLetter(_ byte: UInt8) -> Bool {
      (65...90).contains(byte) || (97...122).contains(byte)
    }

    private func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || (48...57).contains(byte) }
  }
}
