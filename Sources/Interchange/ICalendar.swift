import Core
import Foundation

/// ootd's todos as an iCalendar file of VTODOs (RFC 5545 §3.6.2). Pure: values in, text out.
///
/// Each todo has `UID` (its uuid), `DTSTAMP` (now), `CREATED`, `SUMMARY`, `STATUS`
/// (`NEEDS-ACTION`, `COMPLETED`, or `CANCELLED` when dropped), `PRIORITY` (high → 1, mid → 5,
/// low → 9, RFC 5545 §3.8.1.9), `DTSTART` and `DUE` (below), `COMPLETED` when done,
/// `CATEGORIES` (project, block, then the tags) and `DESCRIPTION` (notes). Lines end in CR LF, text is
/// escaped, lines are folded at 75 octets.
///
/// The day: a todo is planned for its day and overdue once the day is over, so `DTSTART` is
/// the day and `DUE` the next day, both DATE values. RFC 5545 §3.8.2.3 defines `DUE` as the time
/// *before which* the to-do is to be completed, wants it of the same value type as `DTSTART` and
/// strictly later. Its VTODO example (§3.6.2) is this rule: a to-do "to be completed before May
/// 1st, 2007", overdue "on midnight May 1st", is `DUE;VALUE=DATE:20070501`. `DUE` on the day
/// itself would make the todo overdue as its day begins, and `DTSTART` equal to `DUE` is not
/// allowed.
public enum ICalendar {
  /// The whole calendar.
  public static func export(_ todos: [Todo], now: Date, productVersion: String) -> String {
    header(productVersion: productVersion)
      + todos.map { vtodo($0, stamp: Timestamp.string(now, .compact)) }.joined() + footer
  }

  /// The calendar's first lines; then one ``vtodo(_:stamp:)`` per todo, then ``footer``.
  public static func header(productVersion: String) -> String {
    ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//ootd//ootd \(productVersion)//EN"]
      .map { fold($0) + "\r\n" }.joined()
  }

  /// The calendar's last line.
  public static let footer = "END:VCALENDAR\r\n"

  /// One todo as a VTODO, its lines folded and ended by CR LF; `stamp` is the `DTSTAMP` value
  /// (the compact ``Timestamp`` of now).
  public static func vtodo(_ todo: Todo, stamp: String) -> String {
    var lines: [String] = []
    lines.append("BEGIN:VTODO")
    lines.append("UID:\(todo.uuid)")
    lines.append("DTSTAMP:\(stamp)")
    lines.append("CREATED:\(Timestamp.string(todo.createdAt, .compact))")
    lines.append("SUMMARY:\(escape(todo.title))")
    lines.append("STATUS:" + (todo.isDone ? "COMPLETED" : todo.isDropped ? "CANCELLED" : "NEEDS-ACTION"))
    lines.append("PRIORITY:\([1, 5, 9][todo.priority.rank])")
    // A backlog todo has no day: neither DTSTART nor DUE.
    if let day = todo.day {
      lines.append("DTSTART;VALUE=DATE:\(Timestamp.string(day, .compact))")
      lines.append("DUE;VALUE=DATE:\(Timestamp.string(day.adding(days: 1), .compact))")
    }
    if todo.isDone, let doneAt = todo.doneAt {
      lines.append("COMPLETED:\(Timestamp.string(doneAt, .compact))")
    }
    let categories = [todo.project, todo.block].compactMap { $0 } + todo.tags
    if !categories.isEmpty { lines.append("CATEGORIES:" + categories.map(escape).joined(separator: ",")) }
    if let notes = todo.notes { lines.append("DESCRIPTION:\(escape(notes))") }
    lines.append("END:VTODO")
    return lines.map { fold($0) + "\r\n" }.joined()
  }

  /// TEXT escaping (RFC 5545 §3.3.11): backslash, semicolon, comma and line ends. TEXT cannot
  /// hold other control characters (§3.3.11: CONTROL is excluded), so they are written as the
  /// visible symbols the terminal shows for them (``ControlCharacters``: ␛ for ESC, ␡ for DEL);
  /// a tab stays.
  public static func escape(_ text: String) -> String {
    // Nothing to escape (no `\`, `;`, `,` or control byte): the text as it is.
    guard ControlCharacters.mayContainControl(text) || text.containsUTF8(where: { $0 == 0x5C || $0 == 0x3B || $0 == 0x2C })
    else { return text }
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\\\"
      case ";": result += "\\;"
      case ",": result += "\\,"
      case "\n": result += "\\n"
      case "\r": break
      case "\t": result += "\t"
      default: result.unicodeScalars.append(ControlCharacters.symbol(for: scalar) ?? scalar)
      }
    }
    return result
  }

  /// Folds a content line (RFC 5545 §3.1): at most 75 octets per line, continuation lines
  /// start with one space, and no UTF-8 sequence is split.
  public static func fold(_ line: String) -> String {
    guard line.utf8.count > 75 else { return line }
    var parts: [String] = []
    var current = ""
    var size = 0
    var limit = 75
    for scalar in line.unicodeScalars {
      let length = UTF8.width(scalar)
      if size + length > limit {
        parts.append(current)
        current = ""
        size = 0
        limit = 74  // the leading space counts
      }
      current.unicodeScalars.append(scalar)
      size += length
    }
    parts.append(current)
    return parts.joined(separator: "\r\n ")
  }
}
