import Foundation

/// Instants as text, in the three forms ootd reads and writes: one codec, one parser.
///
/// Hand-written because the callers are hot: a listing reads two SQLite timestamps per todo, an
/// import writes thousands, a GitHub sync reads two ISO 8601 dates per commit, and a general
/// date formatter loads ICU (milliseconds on every command). Days come from ``Day``, so the
/// calendar (which dates exist, years 1 to 9999) is Day's.
public enum Timestamp {
  /// The first instant the forms write with a four-digit year, `0001-01-01T00:00:00Z` (the start
  /// of ``Day/years``): what they read back. (A day's start east of UTC can fall before it.)
  public static let earliest = Date(
    timeIntervalSince1970: Double(Day(year: Day.years.lowerBound, month: 1, day: 1)!.ordinal) * 86_400)

  /// A form of timestamp text. Each is written in UTC.
  public enum Style: Sendable {
    /// ISO 8601 as GitHub and git (`%aI`) write it. Written `YYYY-MM-DDTHH:MM:SSZ` (whole
    /// seconds; GitHub's `since`/`until` form and ootd's JSON form); read as `YYYY-MM-DD`, `T`
    /// (or `t`, or a space), `HH:MM:SS`, optional fractional seconds, then `Z` (or `z`) or an
    /// offset `±HH:MM` / `±HHMM`. One trailing NUL byte is ignored.
    case iso8601
    /// GRDB's dates in SQLite. Written `YYYY-MM-DD HH:MM:SS.mmm` (milliseconds); read as
    /// ``iso8601`` without a zone (the text is UTC).
    case sqlite
    /// Taskwarrior's and iCalendar's. Written `YYYYMMDDTHHMMSSZ` (whole seconds); read with or
    /// without the `Z` (the text is UTC), never with fractional seconds.
    case compact
  }

  /// What a text is in a style.
  public enum Reading: Hashable, Sendable {
    /// An instant.
    case instant(Date)
    /// Not text of this style's shape.
    case otherShape
    /// Of this style's shape, but no real instant: February 30th, 24:00, month 13…
    case impossible
  }

  // MARK: - Writing

  /// `date` in `style`, rounded down to the style's precision (seconds, or milliseconds).
  public static func string(_ date: Date, _ style: Style) -> String {
    // Written in place (an import stamps thousands of rows).
    String(unsafeUninitializedCapacity: 48) { write(date, style, into: $0) }
  }

  /// Appends ``string(_:_:)`` to `bytes`, without a `String` (an export writes three a task).
  public static func append(_ date: Date, _ style: Style, to bytes: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<write(date, style, into: buffer)]))
    }
  }

  /// Writes `date` in `style` at the start of `buffer` (48 bytes); returns the length.
  private static func write(_ date: Date, _ style: Style, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
    // Whole units since 1970 (rounded down), then split into a day and a time of day.
    let units =
      style == .sqlite
      ? Int(Int64((date.timeIntervalSince1970 * 1000).rounded(.down)))
      : Int(date.timeIntervalSince1970.rounded(.down))
    let perSecond = style == .sqlite ? 1000 : 1
    let perDay = 86_400 * perSecond
    let (days, rest) = units.quotientAndRemainder(dividingBy: perDay)
    let inDay = rest < 0 ? rest + perDay : rest
    return write(Day(ordinal: days - (rest < 0 ? 1 : 0)), style, time: inDay, perSecond: perSecond, into: buffer)
  }

  /// `day` as the date part of `style`: `YYYYMMDD` in the compact style, `YYYY-MM-DD` otherwise.
  public static func string(_ day: Day, _ style: Style) -> String {
    String(unsafeUninitializedCapacity: 48) { write(day, style, time: nil, perSecond: 1, into: $0) }
  }

  /// Appends ``string(_:_:)-(Day,_)`` to `bytes`, without a `String`.
  public static func append(_ day: Day, _ style: Style, to bytes: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
      bytes.append(
        contentsOf: UnsafeBufferPointer(rebasing: buffer[..<write(day, style, time: nil, perSecond: 1, into: buffer)]))
    }
  }

  /// The date, then the time of day (`time` units of `perSecond` since midnight) when given,
  /// written at the start of `buffer` (48 bytes); returns the length.
  private static func write(
    _ day: Day, _ style: Style, time: Int?, perSecond: Int, into buffer: UnsafeMutableBufferPointer<UInt8>
  ) -> Int {
    let dashed = style != .compact
    let (year, month, dayOfMonth) = day.components
    // (Through the base pointer, unchecked: at most 24 of the buffer's 48 bytes are written.
    // The digit writer was a tenth of an iCalendar export while it was a nested function with
    // a stride and checked stores.)
    let base = buffer.baseAddress!
    var at = 0
    @inline(__always) func put(_ byte: UInt8) {
      base[at] = byte
      at += 1
    }
    @inline(__always) func put(_ value: Int, _ width: Int) {
      var value = value
      var index = at + width
      while index > at {
        index -= 1
        base[index] = UInt8(truncatingIfNeeded: 48 + value % 10)
        value /= 10
      }
      at += width
    }
    if (0...9999).contains(year) {
      put(year, 4)
      if dashed { put(UInt8(ascii: "-")) }
      put(month, 2)
      if dashed { put(UInt8(ascii: "-")) }
      put(dayOfMonth, 2)
    } else {
      // Years Day writes its own way, signed (`+10000-01-01`, `-0001-12-31`): the compact style
      // drops the dashes after the sign (`-00011231`), as ISO 8601's basic format does.
      for (index, byte) in day.description.utf8.enumerated() where dashed || index == 0 || byte != UInt8(ascii: "-") {
        put(byte)
      }
    }
    guard let time else { return at }
    let seconds = time / perSecond
    put(style == .sqlite ? UInt8(ascii: " ") : UInt8(ascii: "T"))
    put(seconds / 3600, 2)
    if dashed { put(UInt8(ascii: ":")) }
    put(seconds / 60 % 60, 2)
    if dashed { put(UInt8(ascii: ":")) }
    put(seconds % 60, 2)
    if style == .sqlite {
      put(UInt8(ascii: "."))
      put(time % 1000, 3)
    } else {
      put(UInt8(ascii: "Z"))
    }
    return at
  }

  // MARK: - Reading

  /// The instant `text` names in `style`; nil when it names none (another shape, or an
  /// impossible date or time).
  public static func date(_ text: String, _ style: Style) -> Date? {
    if case .instant(let date) = read(text, style) { return date }
    return nil
  }

  /// The instant the UTF-8 text `bytes` names in `style`, as ``date(_:_:)`` reads it: what a
  /// listing reads straight from a row, without a `String` per timestamp.
  public static func date(utf8 bytes: UnsafeBufferPointer<UInt8>, _ style: Style) -> Date? {
    if case .instant(let date) = read(bytes, style) { return date }
    return nil
  }

  /// What `text` is in `style`: an instant, another shape, or an impossible date or time.
  public static func read(_ text: String, _ style: Style) -> Reading {
    var text = text
    // Read in place, without copying the bytes.
    return text.withUTF8 { read($0, style) }
  }

  private static func read(_ bytes: UnsafeBufferPointer<UInt8>, _ style: Style) -> Reading {
    // (`end` is a constant and the helpers are inlined: a listing reads two per todo.)
    let end = style == .iso8601 && bytes.last == 0 ? bytes.count - 1 : bytes.count
    @inline(__always) func number(_ start: Int, _ count: Int) -> Int? {
      guard start + count <= end else { return nil }
      var value = 0
      for index in start..<(start + count) {
        let byte = bytes[index]
        guard byte >= 0x30, byte <= 0x39 else { return nil }
        value = value * 10 + Int(byte - 0x30)
      }
      return value
    }
    @inline(__always) func byte(_ index: Int) -> UInt8 { index < end ? bytes[index] : 0 }

    // The date and time: `YYYY-MM-DD?HH:MM:SS` or `YYYYMMDDTHHMMSS`.
    let dashed = style != .compact
    let at: (month: Int, day: Int, separator: Int, hour: Int, minute: Int, second: Int, end: Int) =
      dashed ? (5, 8, 10, 11, 14, 17, 19) : (4, 6, 8, 9, 11, 13, 15)
    let separator = byte(at.separator)
    guard end >= at.end,
      !dashed
        || (byte(4) == UInt8(ascii: "-") && byte(7) == UInt8(ascii: "-") && byte(13) == UInt8(ascii: ":")
          && byte(16) == UInt8(ascii: ":")),
      separator == UInt8(ascii: "T") || (dashed && (separator == UInt8(ascii: "t") || separator == UInt8(ascii: " "))),
      let year = number(0, 4), let month = number(at.month, 2), let day = number(at.day, 2),
      let hour = number(at.hour, 2), let minute = number(at.minute, 2), let second = number(at.second, 2)
    else { return .otherShape }
    var index = at.end

    // Fractional seconds, summed digit by digit.
    var fraction = 0.0
    if dashed, byte(index) == UInt8(ascii: ".") {
      index += 1
      var scale = 0.1
      let start = index
      while index < end, bytes[index] >= 0x30, bytes[index] <= 0x39 {
        fraction += Double(bytes[index] - 0x30) * scale
        scale /= 10
        index += 1
      }
      guard index > start else { return .otherShape }
    }

    // The zone: required in ISO 8601, absent in SQLite's form, an optional `Z` in the compact one.
    var offset = 0
    switch style {
    case .iso8601:
      switch byte(index) {
      case UInt8(ascii: "Z"), UInt8(ascii: "z"):
        index += 1
      case UInt8(ascii: "+"), UInt8(ascii: "-"):
        let sign = byte(index) == UInt8(ascii: "+") ? 1 : -1
        guard let hours = number(index + 1, 2) else { return .otherShape }
        index += 3
        if byte(index) == UInt8(ascii: ":") { index += 1 }
        guard let minutes = number(index, 2) else { return .otherShape }
        index += 2
        guard hours < 24, minutes < 60 else { return index == end ? .impossible : .otherShape }
        offset = sign * (hours * 3600 + minutes * 60)
      default:
        return .otherShape
      }
    case .sqlite:
      break
    case .compact:
      if byte(index) == UInt8(ascii: "Z") { index += 1 }
    }
    guard index == end else { return .otherShape }

    guard hour < 24, minute < 60, second < 61, let date = Day(year: year, month: month, day: day)
    else { return .impossible }
    let seconds = date.ordinal * 86_400 + hour * 3600 + minute * 60 + second - offset
    return .instant(Date(timeIntervalSince1970: Double(seconds) + fraction))
  }
}
