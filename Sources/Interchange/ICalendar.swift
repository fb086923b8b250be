import Core
import Foundation

/// ootd's todos as an iCalendar file of VTODOs (RFC 5545 §3.6.2). Pure: values in, text out.
///
/// Each todo has `UID` (its uuid), `DTSTAMP` (now), `CREATED`, `SUMMARY`, `STATUS`
/// (`NEEDS-ACTION`, `COMPLETED`, or `CANCELLED` when dropped), `PRIORITY` (high → 1, mid → 5,
/// low → 9, RFC 5545 §3.8.1.9), `DTSTART` and `DUE` (below), `COMPLETED` when done,
/// `CATEGORIES` (project, block, then the tags) and `DESCRIPTION` (notes). Lines end in CR LF, text is
/// escaped, lines are folded at 75 octets. A title or notes TEXT cannot hold exactly (a CR, which
/// TEXT writes as its one line break, `\n`; another control character, written as its symbol)
/// is carried exactly too, in `X-OOTD-SUMMARY` / `X-OOTD-DESCRIPTION` (``exactText(_:)``), which
/// the import reads (``VTODOText/exact(_:agreeingWith:)``).
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
    var bytes: [UInt8] = []
    var line: [UInt8] = []
    appendVTODO(todo, stamp: stamp, to: &bytes, line: &line)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends ``vtodo(_:stamp:)`` to `bytes`. `line` is a buffer the caller keeps from one todo
  /// to the next (an export writes a million of these), used only to fold a line longer than 75
  /// octets.
  public static func appendVTODO(_ todo: Todo, stamp: String, to bytes: inout [UInt8], line: inout [UInt8]) {
    // Each content line is written straight into `bytes`, and folded there in the rare case it
    // is longer than 75 octets: an array of Strings joined twice cost more than reading the
    // todos, and then a line buffer emptied and copied for every line a tenth of the export.
    var lineStart = 0
    @inline(__always) func begin(_ name: StaticString) {
      lineStart = bytes.count
      bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }
    @inline(__always) func text(_ value: String) {
      var value = value
      value.withUTF8 { bytes.append(contentsOf: $0) }
    }
    func end() {
      if bytes.count - lineStart > 75 {
        line.removeAll(keepingCapacity: true)
        line.append(contentsOf: bytes[lineStart...])
        bytes.removeSubrange(lineStart...)
        appendFolded(line, to: &bytes)
      } else {
        bytes.append(0x0D)
        bytes.append(0x0A)
      }
    }
    func add(_ name: StaticString, _ value: String) {
      begin(name)
      text(value)
      end()
    }
    func add(_ name: StaticString, _ instant: Date) {
      begin(name)
      Timestamp.append(instant, .compact, to: &bytes)
      end()
    }
    func add(_ name: StaticString, _ day: Day) {
      begin(name)
      Timestamp.append(day, .compact, to: &bytes)
      end()
    }
    add("BEGIN:VTODO", "")
    add("UID:", todo.uuid)
    add("DTSTAMP:", stamp)
    add("CREATED:", todo.createdAt)
    begin("SUMMARY:")
    appendEscaped(todo.title, to: &bytes)
    end()
    if let exact = exactText(todo.title) {
      begin("X-OOTD-SUMMARY:")
      text(exact)
      end()
    }
    add("STATUS:", todo.isDone ? "COMPLETED" : todo.isDropped ? "CANCELLED" : "NEEDS-ACTION")
    switch todo.priority {
    case .high: add("PRIORITY:1", "")
    case .mid: add("PRIORITY:5", "")
    case .low: add("PRIORITY:9", "")
    }
    // A backlog todo has no day: neither DTSTART nor DUE.
    if let day = todo.day {
      add("DTSTART;VALUE=DATE:", day)
      // The last day of the calendar ootd's days live in (9999-12-31) has no next day to be
      // due before (it was written `100000101`, no DATE at all): DTSTART alone is a valid
      // VTODO (RFC 5545 §3.6.2) and reads back as the same day.
      let next = day.adding(days: 1)
      if Day.years.contains(next.year) { add("DUE;VALUE=DATE:", next) }
    }
    if todo.isDone, let doneAt = todo.doneAt {
      add("COMPLETED:", doneAt)
    }
    // Project, block, then the tags, each escaped, separated by commas.
    if todo.project != nil || todo.block != nil || !todo.tags.isEmpty {
      begin("CATEGORIES:")
      var first = true
      func category(_ text: String) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        appendEscaped(text, to: &bytes)
      }
      if let project = todo.project { category(project) }
      if let block = todo.block { category(block) }
      for tag in todo.tags { category(tag) }
      end()
    }
    if let notes = todo.notes {
      begin("DESCRIPTION:")
      appendEscaped(notes, to: &bytes)
      end()
      if let exact = exactText(notes) {
        begin("X-OOTD-DESCRIPTION:")
        text(exact)
        end()
      }
    }
    add("END:VTODO", "")
  }

  /// Appends ``escape(_:)`` of `text` to `bytes`: its bytes as they are when there is nothing
  /// to escape (no `\`, `;`, `,` or control byte), without a `String`.
  static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
    var text = text
    let plain = text.withUTF8 { utf8 in
      for byte in utf8 where byte < 0x20 || byte == 0x5C || byte == 0x3B || byte == 0x2C || byte == 0x7F || byte == 0xC2 {
        return false
      }
      bytes.append(contentsOf: utf8)
      return true
    }
    guard !plain else { return }
    var escaped = escape(text)
    escaped.withUTF8 { bytes.append(contentsOf: $0) }
  }

  /// Appends a content line, folded (``fold(_:)``), and its CR LF.
  static func appendFolded(_ line: [UInt8], to bytes: inout [UInt8]) {
    guard line.count > 75 else {
      bytes.append(contentsOf: line)
      bytes.append(contentsOf: [0x0D, 0x0A])
      return
    }
    var size = 0
    var limit = 75
    var index = 0
    while index < line.count {
      // The scalar's length, from its lead byte (the line is valid UTF-8: it was a String).
      let lead = line[index]
      let length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
      if size + length > limit {
        bytes.append(contentsOf: [0x0D, 0x0A, 0x20])
        size = 0
        limit = 74  // the leading space counts
      }
      bytes.append(contentsOf: line[index..<min(index + length, line.count)])
      size += length
      index += length
    }
    bytes.append(contentsOf: [0x0D, 0x0A])
  }

  /// TEXT escaping (RFC 5545 §3.3.11): backslash, semicolon, comma and line ends (LF, CR LF and
  /// a lone CR, each `\n`, TEXT's one line break: a CR was dropped, joining `line\rtitle` into
  /// `linetitle`; the import reads it back as LF, and ``exactText(_:)`` carries the CR). TEXT cannot
  /// hold other control characters (§3.3.11: CONTROL is excluded), so they are written as the
  /// visible symbols the terminal shows for them (``ControlCharacters``: ␛ for ESC, ␡ for DEL);
  /// a tab stays.
  public static func escape(_ text: String) -> String {
    // Nothing to escape (no `\`, `;`, `,` or control byte): the text as it is.
    guard ControlCharacters.mayContainControl(text) || text.containsUTF8(where: { $0 == 0x5C || $0 == 0x3B || $0 == 0x2C })
    else { return text }
    var result = ""
    var afterCR = false
    for scalar in text.unicodeScalars {
      defer { afterCR = scalar == "\r" }
      switch scalar {
      case "\\": result += "\\\\"
      case ";": result += "\\;"
      case ",": result += "\\,"
      // The LF of a CR LF: its CR wrote the line break.
      case "\n": if !afterCR { result += "\\n" }
      case "\r": result += "\\n"
      case "\t": result += "\t"
      default: result.unicodeScalars.append(ControlCharacters.symbol(for: scalar) ?? scalar)
      }
    }
    return result
  }

  /// The value of the `X-OOTD-…` property that carries `text` exactly beside its TEXT property,
  /// when ``escape(_:)`` cannot (it holds a control character other than LF and tab: a CR reads
  /// back as LF, another is written as its symbol); nil when the TEXT property is exact. It is
  /// TEXT's escape (`\\`, `\;`, `\,`, `\n` for LF) with each other control character written
  /// `\uXXXX` (four uppercase hex digits): one line, no control character, read back by
  /// ``VTODOText/exact(_:agreeingWith:)``.
  public static func exactText(_ text: String) -> String? {
    guard ControlCharacters.mayContainControl(text),
      text.unicodeScalars.contains(where: { ControlCharacters.isControl($0) && $0 != "\n" && $0 != "\t" })
    else { return nil }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result.append(contentsOf: "\\\\".unicodeScalars)
      case ";": result.append(contentsOf: "\\;".unicodeScalars)
      case ",": result.append(contentsOf: "\\,".unicodeScalars)
      case "\n": result.append(contentsOf: "\\n".unicodeScalars)
      case "\t": result.append(scalar)
      case _ where ControlCharacters.isControl(scalar):
        let digits = String(scalar.value, radix: 16, uppercase: true)
        result.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - digits.utf8.count) + digits).unicodeScalars)
      default: result.append(scalar)
      }
    }
    return String(result)
  }

  /// Folds a content line (RFC 5545 §3.1): at most 75 octets per line, continuation lines
  /// start with one space, and no UTF-8 sequence is split.
  public static func fold(_ line: String) -> String {
    guard line.utf8.count > 75 else { return line }
    var bytes: [UInt8] = []
    appendFolded(Array(line.utf8), to: &bytes)
    return String(decoding: bytes.dropLast(2), as: UTF8.self)
  }
}
