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
  public typealias ServerTodo = CalDAVServerTodo

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
    // What SUMMARY cannot hold (a CR, a control character) from X-OOTD-SUMMARY, when it agrees.
    let summary = VTODOText.unescape(properties["SUMMARY"]?.value ?? "")
    let exactTitle = VTODOText.exact(properties["X-OOTD-SUMMARY"], agreeingWith: summary) ?? summary
    var title = trimmingWhiteSpace(StoredText.replacingNUL(exactTitle))
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
    // A repeating VTODO: its next instance (Core's rule), or its start for a rule not followed.
    var repetition: ServerTodo.Repetition?
    if let rule = properties["RRULE"]?.value, let start = day {
      let next = RecurrenceRule.next(rule, start: start, today: today)
      repetition = ServerTodo.Repetition(rule: rule, next: next)
      switch next {
      case .instance(let instance), .ended(let instance): day = instance
      case .unsupported: break
      }
    }
    fields[todo: .day] = .optional(day?.description)

    let status = properties["STATUS"]?.value.uppercased().trimmingCharacters(in: .whitespaces)
    let completed = properties["COMPLETED"].flatMap { Timestamp.date($0.value.trimmingCharacters(in: .whitespaces), .compact) }
    let done = status == "COMPLETED" || (status == nil && completed != nil)
    fields[todo: .done] = .bool(done)
    fields[todo: .dropped] = .bool(!done && status == "CANCELLED")
    fields[todo: .doneAt] = done ? .text(Timestamp.string(completed ?? now, .compact)) : .null

    var notes = properties["DESCRIPTION"].map { line in
      let shown = VTODOText.unescape(line.value)
      return VTODOText.exact(properties["X-OOTD-DESCRIPTION"], agreeingWith: shown) ?? shown
    }.flatMap(Notes.cleaned)
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
      lastModified: modified, repetition: repetition, adjustments: adjustments)
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
    case TodoField.title.rawValue: ["SUMMARY", "X-OOTD-SUMMARY"]
    case TodoField.priority.rawValue: ["PRIORITY"]
    case TodoField.day.rawValue: ["DTSTART", "DUE"]
    case TodoField.done.rawValue, TodoField.dropped.rawValue, TodoField.doneAt.rawValue: ["STATUS", "COMPLETED"]
    case TodoField.notes.rawValue: ["DESCRIPTION", "X-OOTD-DESCRIPTION"]
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
      // Categories ootd does not read (`Work Stuff`) stay.
      let others = CalDAVCategories.unread(
        VTODOText.ownProperties(lines, in: range).filter { lines[$0].name == "CATEGORIES" }
          .flatMap { VTODOText.unescapeList(lines[$0].value) }, fields: [old, new])
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

/// ``VTODOMapping`` as the CalDAV sync's ``CalendarObjectMapping``: the CLI hands it to the run.
public struct VTODOObjectMapping: CalendarObjectMapping {
  public init() {}

  public func read(_ ics: String, timeZone: any ZoneRules, today: Day, now: Date) throws -> CalDAVServerTodo {
    try VTODOMapping.parse(ics, timeZone: timeZone, today: today, now: now)
  }

  public func render(_ fields: Fields, uuid: String, createdAt: Date, now: Date, productVersion: String) -> String {
    VTODOMapping.render(fields, uuid: uuid, createdAt: createdAt, now: now, productVersion: productVersion)
  }

  public func patch(_ ics: String, uuid: String, old: Fields, new: Fields, now: Date) throws -> String {
    try VTODOMapping.patch(ics, uuid: uuid, old: old, new: new, now: now)
  }
}
