import Core
import Foundation
import Zone

/// A todo as a CalDAV VTODO and back (issue 27). The todo → VTODO rule is ``ICalendar``'s (the
/// export's): a new object is its VTODO, and an update of a server's object replaces, among
/// the object's content lines, only the properties whose value changed, keeping every other
/// line (`X-` properties, `VALARM`, `RELATED-TO`, `GEO`, a `VTIMEZONE`, the phone's own fields)
/// as the server had it.
///
/// Both directions speak ``CalDAVFields``: the fields a sync compares.
public enum VTODOMapping {
  /// A VTODO as read from a server.
  public struct ServerTodo: Hashable, Sendable {
    /// Its `UID` (the todo's uuid when ootd made it).
    public var uid: String
    /// Its fields (``CalDAVFields``), but `project`, `block` and `tags`: see ``categories``.
    public var fields: Fields
    /// Its `CATEGORIES`, in order.
    public var categories: [String]
    /// `LAST-MODIFIED` (else `DTSTAMP`), when readable.
    public var lastModified: Date?
    /// Set when the VTODO repeats (`RRULE`): its day is the next instance on or after today.
    public var recurrence: String?
    /// What was changed to make it fit (a title cut to the cap): one phrase each.
    public var adjustments: [String]
  }

  /// Reads the first VTODO of `ics`. Throws when there is none, or no `UID`.
  public static func parse(_ ics: String, timeZone: any ZoneRules, today: Day, now: Date)
    throws(InterchangeError) -> ServerTodo
  {
    let lines = try VTODOText.lines(ics)
    guard let range = VTODOText.vtodoRange(lines) else {
      throw InterchangeError("calendar object", "no VTODO")
    }
    var properties: [String: ContentLine] = [:]
    var categories: [String] = []
    for index in VTODOText.ownProperties(lines, in: range) {
      let line = lines[index]
      if line.name == "CATEGORIES" {
        categories += VTODOText.unescapeList(line.value).map(trimmingWhiteSpace).filter { !$0.isEmpty }
      } else if properties[line.name] == nil {
        properties[line.name] = line
      }
    }
    guard let uid = properties["UID"].map({ trimmingWhiteSpace(VTODOText.unescape($0.value)) }), !uid.isEmpty,
      uid.utf8.count <= 255
    else { throw InterchangeError("VTODO", "no UID, or one over 255 bytes") }
    var adjustments: [String] = []
    var fields = Fields()

    // The title: as the CLI takes one (trimmed, NUL replaced, at most the title cap).
    var title = trimmingWhiteSpace(StoredText.replacingNUL(VTODOText.unescape(properties["SUMMARY"]?.value ?? "")))
    if title.isEmpty { title = "(no title)"; adjustments.append("it has no SUMMARY: titled '(no title)'") }
    if title.count > Title.maximumLength {
      title = trimmingWhiteSpace(String(title.prefix(Title.maximumLength)))
      adjustments.append("its SUMMARY was cut to \(Title.maximumLength) characters")
    }
    fields[todo: .title] = .text(title)
    fields[todo: .priority] = .integer(Int64(priority(properties["PRIORITY"]?.value).rank))

    var day = properties["DTSTART"].flatMap { VTODOText.day($0.value, timeZone: timeZone) }
    if day == nil, let due = properties["DUE"] {
      // No DTSTART: the day before a DATE due (due before that day begins), or a time's day.
      let dueDay = VTODOText.day(due.value, timeZone: timeZone)
      day = due.value.contains("T") ? dueDay : dueDay?.adding(days: -1)
    }
    var recurrence: String?
    if let rule = properties["RRULE"]?.value, let start = day {
      let next = nextInstance(rule, start: start, today: today)
      recurrence = rule
      day = next
    }
    fields[todo: .day] = .optional(day?.description)

    let status = properties["STATUS"]?.value.uppercased().trimmingCharacters(in: .whitespaces)
    let completed = properties["COMPLETED"].flatMap { Timestamp.date($0.value.trimmingCharacters(in: .whitespaces), .compact) }
    let done = status == "COMPLETED" || (status == nil && completed != nil)
    fields[todo: .done] = .bool(done)
    fields[todo: .dropped] = .bool(!done && status == "CANCELLED")
    fields[todo: .doneAt] = done ? .text(Timestamp.string(completed ?? now, .compact)) : .null

    var notes = properties["DESCRIPTION"].map { VTODOText.unescape($0.value) }.flatMap(Notes.cleaned)
    if let text = notes, text.count > Caps.notesCharacters {
      notes = String(text.prefix(Caps.notesCharacters))
      adjustments.append("its DESCRIPTION was cut to \(Caps.notesCharacters) characters")
    }
    fields[todo: .notes] = .optional(notes)
    let modified = (properties["LAST-MODIFIED"] ?? properties["DTSTAMP"]).flatMap {
      Timestamp.date($0.value.trimmingCharacters(in: .whitespaces), .compact)
    }
    return ServerTodo(
      uid: uid, fields: fields, categories: Array(categories.prefix(Caps.tagsPerTodo + 2)),
      lastModified: modified, recurrence: recurrence, adjustments: adjustments)
  }

  /// The rank of a `PRIORITY` value (RFC 5545 §3.8.1.9): 1–4 high, 5 mid, 6–9 low; 0, none or
  /// anything else is ootd's default, mid.
  public static func priority(_ value: String?) -> Priority {
    guard let value, let number = Int(value.trimmingCharacters(in: .whitespaces)) else { return .mid }
    switch number {
    case 1...4: return .high
    case 6...9: return .low
    default: return .mid
    }
  }

  /// The day of the next instance of a repetition `rule` (`FREQ=DAILY;INTERVAL=2`…) starting
  /// on `start`, on or after `today`: the start itself when it is not past, the last instance
  /// when `UNTIL` or `COUNT` ended it. `BYDAY` and the other BY rules are not followed (the
  /// step is the frequency's).
  public static func nextInstance(_ rule: String, start: Day, today: Day) -> Day {
    guard start < today else { return start }
    var parts: [String: String] = [:]
    for part in rule.uppercased().split(separator: ";") {
      let pair = part.split(separator: "=", maxSplits: 1)
      if pair.count == 2 { parts[String(pair[0])] = String(pair[1]) }
    }
    let interval = max(1, min(Int(parts["INTERVAL"] ?? "1") ?? 1, 1000))
    let until = parts["UNTIL"].flatMap { VTODOText.day($0, timeZone: ZoneInfo.utc) }
    let count = parts["COUNT"].flatMap { Int($0) }
    func step(_ day: Day, _ n: Int) -> Day {
      switch parts["FREQ"] {
      case "WEEKLY": return day.adding(days: 7 * interval * n)
      case "MONTHLY", "YEARLY":
        let months = (parts["FREQ"] == "YEARLY" ? 12 : 1) * interval * n
        let (year, month, dayOfMonth) = start.components
        let total = year * 12 + (month - 1) + months
        let newYear = total / 12
        let newMonth = total % 12 + 1
        let last = CivilCalendar.daysIn(month: newMonth, year: newYear)
        return Day(year: newYear, month: newMonth, day: min(dayOfMonth, last)) ?? day
      default: return day.adding(days: interval * n)
      }
    }
    var n = 0
    var day = start
    // Bounded: a daily rule from year 1 reaches today in under 4 million steps, and the
    // weekly/daily cases jump there at once.
    if parts["FREQ"] != "MONTHLY" && parts["FREQ"] != "YEARLY" {
      let days = (parts["FREQ"] == "WEEKLY" ? 7 : 1) * interval
      n = (start.distance(to: today) + days - 1) / days
      day = step(start, n)
    } else {
      while day < today && n < 200_000 { n += 1; day = step(start, n) }
    }
    if let count, count >= 1, n > count - 1 { return step(start, count - 1) }
    if let until, day > until {
      var last = n
      while last > 0 && step(start, last) > until { last -= 1 }
      return step(start, last)
    }
    return day
  }

  /// The todo value ``ICalendar`` writes for `fields` (``CalDAVFields``) of the todo `uuid`.
  static func todo(_ fields: Fields, uuid: String, createdAt: Date) -> Todo {
    let priority = Priority(rank: Int(fields[todo: .priority]?.integer ?? 1)) ?? .mid
    var todo = Todo(
      id: 0, title: fields[todo: .title]?.text ?? "", priority: priority,
      day: fields[todo: .day]?.text.flatMap(Day.init(iso:)),
      isDone: fields[todo: .done]?.integer == 1,
      doneAt: fields[todo: .doneAt]?.text.flatMap { Timestamp.date($0, .compact) },
      project: fields[todo: .project]?.text, block: fields[todo: .block]?.text, createdAt: createdAt,
      uuid: uuid)
    todo.isDropped = fields[todo: .dropped]?.integer == 1
    todo.notes = fields[todo: .notes]?.text
    todo.tags = Tag.tags(fields[todo: .tags]?.text)
    return todo
  }

  /// A new calendar object for the todo `uuid` with `fields`.
  public static func render(_ fields: Fields, uuid: String, createdAt: Date, now: Date, productVersion: String) -> String {
    ICalendar.export([todo(fields, uuid: uuid, createdAt: createdAt)], now: now, productVersion: productVersion)
  }

  /// The properties each field is written in.
  static func properties(of field: String) -> [String] {
    switch field {
    case TodoField.title.rawValue: ["SUMMARY"]
    case TodoField.priority.rawValue: ["PRIORITY"]
    case TodoField.day.rawValue: ["DTSTART", "DUE"]
    case TodoField.done.rawValue, TodoField.dropped.rawValue, TodoField.doneAt.rawValue: ["STATUS", "COMPLETED"]
    case TodoField.notes.rawValue: ["DESCRIPTION"]
    case TodoField.tags.rawValue, TodoField.project.rawValue, TodoField.block.rawValue: ["CATEGORIES"]
    default: []
    }
  }

  /// `ics` (a server's object) with the fields that differ between `old` and `new` written
  /// in their properties, `DTSTAMP` and `LAST-MODIFIED` set to `now`, and every other line
  /// kept as it was. A day's change drops the `RRULE` too (ootd plans the concrete day).
  /// Throws when `ics` cannot be read.
  public static func patch(_ ics: String, uuid: String, old: Fields, new: Fields, now: Date)
    throws(InterchangeError) -> String
  {
    var lines = try VTODOText.lines(ics)
    guard let range = VTODOText.vtodoRange(lines) else { throw InterchangeError("calendar object", "no VTODO") }
    var replaced: Set<String> = ["DTSTAMP", "LAST-MODIFIED"]
    for field in CalDAVFields.names where (old[field] ?? .null) != (new[field] ?? .null) {
      replaced.formUnion(properties(of: field))
    }
    if replaced.contains("DTSTART") { replaced.insert("RRULE") }
    // The properties as ootd writes them now, from the export's rule.
    let stamp = Timestamp.string(now, .compact)
    let written = (try? VTODOText.lines(ICalendar.vtodo(todo(new, uuid: uuid, createdAt: now), stamp: stamp))) ?? []
    var fresh = written.filter { replaced.contains($0.name) && $0.name != "BEGIN" && $0.name != "END" }
    if replaced.contains("CATEGORIES") {
      // Categories that are no tag (`Work Stuff`) stay: ootd never read them.
      let names = Set([new[todo: .project]?.text, new[todo: .block]?.text].compactMap { $0 })
      let others = VTODOText.ownProperties(lines, in: range).filter { lines[$0].name == "CATEGORIES" }
        .flatMap { VTODOText.unescapeList(lines[$0].value) }
        .filter { !$0.isEmpty && !names.contains($0) && (try? Tag.validate($0)) == nil }
      if !others.isEmpty {
        let extra = others.map(ICalendar.escape).joined(separator: ",")
        if let index = fresh.firstIndex(where: { $0.name == "CATEGORIES" }) {
          fresh[index] = ContentLine(name: "CATEGORIES", value: fresh[index].value + "," + extra)
        } else {
          fresh.append(ContentLine(name: "CATEGORIES", value: extra))
        }
      }
    }
    fresh.append(ContentLine(name: "LAST-MODIFIED", value: stamp))
    let own = Set(VTODOText.ownProperties(lines, in: range))
    let gone = Set(lines.indices.filter { own.contains($0) && replaced.contains(lines[$0].name) })
    // The new properties take the place of the first one replaced, else come before the first
    // component inside the VTODO (a VALARM), else before its END.
    let firstInner = (range.lowerBound + 1..<range.upperBound).first { lines[$0].name == "BEGIN" }
    let insertAt = gone.min() ?? firstInner ?? range.upperBound
    var kept: [ContentLine] = []
    kept.reserveCapacity(lines.count + fresh.count)
    for index in lines.indices {
      if index == insertAt { kept += fresh }
      if gone.contains(index) { continue }
      kept.append(lines[index])
    }
    lines = kept
    return VTODOText.text(lines)
  }
}

extension VTODOMapping {
  /// A server todo's fields (``CalDAVFields``), its `CATEGORIES` read as tags but for the
  /// names of `known` (the todo's project and block), which ootd wrote there itself;
  /// categories that are no tag (`Work Stuff`) are left out. No `project` and `block`: the
  /// server cannot say them apart from tags (``CalDAVFields/localOnly``).
  public static func fields(_ todo: ServerTodo, known: [String?]) -> Fields {
    var fields = todo.fields
    let names = Set(known.compactMap { $0 })
    let tags = todo.categories.filter { !names.contains($0) }.compactMap { try? Tag.validate($0) }
    fields[todo: .tags] = .optional(Tag.text(Array(Tag.normalized(tags).prefix(Caps.tagsPerTodo))))
    return fields
  }
}
