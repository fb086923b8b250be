import Core
import Formats
import Foundation
import Zone

/// Taskwarrior's JSON (`task export` of 2.6 and 3.x) read into an ``ImportPlan``, and ootd's
/// todos written back as JSON that `task import` accepts. Pure: text in, values out.
///
/// Mapping: `description` → title; priority `H`/`M`/`L` → high/mid/low, none → mid; `project`
/// → project; the day is `scheduled`, else `due`, else `end` (completed or deleted), else
/// `entry` (completed), as a day in the user's time zone, and a pending task with neither
/// `scheduled` nor `due` goes to the backlog; `completed` → done at `end`; `deleted` → dropped
/// (a deleted task without `scheduled`, `due` or `end` is skipped); `pending` and `waiting` →
/// open; `recurring` templates are skipped (their instances, which have a `parent`, are todos
/// on their days, without the recurrence bookkeeping); `entry` → created time; `tags` → tags
/// (a tag that is no ootd tag stays in the notes as `tags: …`); `annotations` → annotations,
/// but the one stamped with the task's own `entry` is the notes (that is how ootd exports
/// them); every other field (user-defined attributes, `depends`, `wait`, `until`, a `due`
/// beside `scheduled`…) → attributes, written back by export. ootd's own field: `ootdblock`, a
/// user-defined attribute holding the name of the block a todo was made from.
public enum Taskwarrior {
  /// The member that carries a todo's block (a UDA of ootd's own: `task import` keeps it).
  static let blockField = "ootdblock"

  /// Fields the mapping uses (or, for export bookkeeping and recurrence, leaves out); every
  /// other field is an attribute.
  static let mappedFields: Set<String> = [
    "uuid", "status", "description", "entry", "end", "scheduled", "due", "priority", "project",
    "tags", "annotations", "id", "urgency", "modified", blockField,
    // ootd's own: the todo's number, its carried days, what ticked it (``OotdFields``).
    OotdFields.numberKey, OotdFields.carriedFromKey, OotdFields.doneByKey,
    // A recurring instance is a todo on its day; the template it belongs to is skipped.
    "parent", "imask", "mask", "rtype", "recur",
  ]

  /// The attributes a Taskwarrior task carries: any value, under a key that is none of its
  /// mapped fields (but `due`, kept as an attribute when `scheduled` gives the day).
  public static let attributeCarrier = AttributeCarrier(reserved: mappedFields.subtracting(["due"]), wordsOnly: false)

  /// Reads a `task export` into a plan: todos by their Taskwarrior uuid (a uuid that appears
  /// twice keeps the place of its first object and the fields of its last), deleted tasks
  /// without a day and recurring templates counted as skipped.
  public static func plan(_ data: Data, timeZone: any ZoneRules) throws(InterchangeError) -> ImportPlan {
    var sink = LastObjectWins()
    do {
      try read(data, timeZone: timeZone, into: &sink)
    } catch let error as InterchangeError {
      throw error
    } catch {
      // The plan's add never throws.
    }
    return sink.plan
  }

  /// A plan in which a uuid met again takes the place of the first todo of that uuid.
  private struct LastObjectWins: ImportSink {
    var plan = ImportPlan()
    var places: [String: Int] = [:]

    mutating func add(_ todo: ImportedTodo) {
      if let place = places[todo.uuid] {
        plan.todos[place] = todo
        plan.repeated(RepeatedUUID.laterKept)
      } else {
        places[todo.uuid] = plan.todos.count
        plan.add(todo)
      }
    }

    mutating func skip(_ reason: String) { plan.skip(reason) }
  }

  /// Reads a whole `task export` as ``Reader`` does (one chunk), handing each todo to `sink`.
  public static func read(_ data: Data, timeZone: any ZoneRules, into sink: inout some ImportSink) throws {
    var reader = Reader(timeZone: timeZone)
    try data.withUnsafeBytes { raw in
      try reader.read(raw.bindMemory(to: UInt8.self), into: &sink)
    }
    try reader.finish(into: &sink)
  }

  /// Reads a `task export` as it arrives, a chunk at a time, handing each todo to `sink` as soon
  /// as its object is read: only that object is held (``JSONItems``), so an input of any length
  /// is read in the memory of one object. A uuid met again is handed on again (the sink keeps
  /// the place of the first and the fields of the last); a task that is skipped is only
  /// counted. An error stops the reading where it is met, in file order: what was handed on
  /// before is for the sink to take back (storage rolls the import back).
  public struct Reader {
    private let timeZone: any ZoneRules
    private var items: JSONItems
    /// JSON Lines: the first value, read but not handed on until a second one starts or the
    /// input ends (a value alone is `object 1`, one of several `line N`).
    private var first: (line: Int, todo: Result<ImportedTodo?, InterchangeError>)?
    private var values = 0

    /// A reader for a user in `timeZone` (the caps are lowered only by tests).
    public init(timeZone: any ZoneRules, items: JSONItems = JSONItems()) {
      self.timeZone = timeZone
      self.items = items
    }

    /// Reads the next bytes of the input.
    public mutating func read(_ chunk: UnsafeBufferPointer<UInt8>, into sink: inout some ImportSink) throws {
      // Taken out for the call (its callback changes the reader), leaving no second reference
      // to its buffer.
      var cutter = items
      items = JSONItems()
      defer { items = cutter }
      try cutter.read(chunk) { item in try take(item, into: &sink) }
    }

    /// The end of the input.
    public mutating func finish(into sink: inout some ImportSink) throws {
      var cutter = items
      items = JSONItems()
      defer { items = cutter }
      try cutter.finish { item in try take(item, into: &sink) }
      if let held = first {
        first = nil
        switch held.todo {
        case .success(let todo): if let todo { try sink.add(todo) }
        case .failure(let error): throw InterchangeError(values == 1 ? "object 1" : "line \(held.line)", error.problem)
        }
      }
    }

    private mutating func take(_ item: JSONItems.Item, into sink: inout some ImportSink) throws {
      let value: JSONValue
      do {
        // The item is exactly one value (``JSONItems``): read from its first byte, without the
        // generic entry point's checks around it. `task export` writes control characters other
        // than `\n`, `\r`, `\t`, `\b` and `\f` raw (ESC, BEL in a description): not strict JSON,
        // read as it is.
        value = try JSONReader.value(item.bytes, at: 0, rawControlsInStrings: true)
      } catch {
        throw JSONItems.syntaxError(error, in: item)
      }
      // A `\u0000` (a raw NUL is no JSON): refused by `map`, naming the member.
      let nul = Taskwarrior.memberWithNUL(value, in: item.bytes)
      if let index = item.element {
        guard let object = value.object else { throw InterchangeError("object \(index)", "not a JSON object") }
        do {
          if let todo = try map(object, timeZone: timeZone, nul: nul, sink: &sink) { try sink.add(todo) }
        } catch let error as InterchangeError {
          throw InterchangeError("object \(index)", error.problem)
        }
        return
      }
      values += 1
      guard let object = value.object else {
        let problem = value.isArray ? "expected one JSON object per line, or a single array" : "not a JSON object"
        throw InterchangeError("line \(item.line)", problem)
      }
      if let held = first {
        first = nil
        switch held.todo {
        case .success(let todo): if let todo { try sink.add(todo) }
        case .failure(let error): throw InterchangeError("line \(held.line)", error.problem)
        }
      }
      let todo = Result { () throws(InterchangeError) in try map(object, timeZone: timeZone, nul: nul, sink: &sink) }
      if values == 1 {
        first = (item.line, todo)
        return
      }
      switch todo {
      case .success(let todo): if let todo { try sink.add(todo) }
      case .failure(let error): throw InterchangeError("line \(item.line)", error.problem)
      }
    }
  }

  /// One task as an imported todo, or nil when it is skipped (counted in `sink`). `nul`: the
  /// member with a NUL (``memberWithNUL(_:in:)``), refused rather than stored as U+FFFD
  /// (storage cannot hold a NUL) without a word.
  static func map(_ object: JSONObject, timeZone: any ZoneRules, nul: String? = nil, sink: inout some ImportSink)
    throws(InterchangeError) -> ImportedTodo?
  {
    if let nul { throw InterchangeError("", "a NUL character (\\u0000) in '\(nul)': ootd cannot store it") }
    guard let description = object["description"]?.string else {
      throw InterchangeError("", "no 'description'")
    }
    guard let rawUUID = object["uuid"]?.string.map({ $0.lowercased() }), RowID.isValid(rawUUID) else {
      throw InterchangeError("", "no valid 'uuid'")
    }
    // What no field can hold: kept in the notes, never dropped.
    var fallback: [String] = []
    /// The text of member `key`: a string as it is; any other JSON value (a number, a list) is
    /// none the field can hold, kept in the notes as `key: value` (its JSON text); nil then and
    /// when absent.
    func text(_ key: String) -> String? {
      guard let value = object[key] else { return nil }
      if let text = value.string { return text }
      if case .null = value { return nil }
      fallback.append("\(key): \(value.compactText)")
      return nil
    }
    if let status = object["status"], status.string == nil, !(status == .null) {
      throw InterchangeError("", "unknown status \(status.compactText)")
    }
    let status = object["status"]?.string ?? "pending"
    switch status {
    case "pending", "waiting", "completed", "deleted": break
    case "recurring":
      sink.skip("recurring template (its instances are imported)")
      return nil
    default: throw InterchangeError("", "unknown status '\(status)'")
    }
    let entry = try date(object, "entry")
    let end = try date(object, "end")
    let done = status == "completed"
    let dropped = status == "deleted"
    let scheduled = try date(object, "scheduled")
    let due = try date(object, "due")
    if dropped, (scheduled ?? due ?? end) == nil {
      sink.skip("deleted task without a day ('scheduled', 'due' or 'end')")
      return nil
    }
    // The day: `scheduled`, else `due`; a finished task (done or deleted) its `end`, else (done
    // only) its `entry`. A pending task with neither is not planned yet: the backlog.
    let planned = scheduled ?? due
    // But a deleted task of ootd's own export (it has `ootdid`) without `scheduled` is a todo
    // dropped in the backlog (its `end` is only its creation): there it goes back.
    let droppedInBacklog = dropped && planned == nil && object[OotdFields.numberKey] != nil
    let instant = planned ?? (done || dropped && !droppedInBacklog ? end : nil) ?? (done ? entry : nil)
    if done, instant == nil {
      throw InterchangeError("", "no date to plan it on ('scheduled', 'due', 'end' or 'entry')")
    }
    let priority: Priority
    switch text("priority") {
    case "H": priority = .high
    case "L": priority = .low
    case "M", nil: priority = .mid
    case let other?:
      priority = .mid
      fallback.append("priority: \(other)")
    }
    var project = text("project")
    if let name = project, (try? Name.validate(name, kind: "project")) == nil {
      fallback.append("project: \(name)")
      project = nil
    }
    var block = text(blockField)
    if let name = block, (try? Name.validate(name, kind: "block")) == nil {
      fallback.append("\(blockField): \(name)")
      block = nil
    }
    var tags: [String] = []
    switch object["tags"] {
    case nil, .null?: break
    case .array(let values)? where values.allSatisfy({ $0.string != nil }):
      let (valid, others) = ImportTags.split(values.compactMap(\.string))
      tags = valid
      if !others.isEmpty { fallback.append("tags: " + others.joined(separator: ", ")) }
    // A single string or anything else: no list of tags, kept as it came.
    case let other?: fallback.append("tags: " + (other.string ?? other.compactText))
    }
    var notes: String? = nil
    var annotations: [Annotation] = []
    switch object["annotations"] {
    case nil, .null?, .array?: break
    case let other?: fallback.append("annotations: \(other.compactText)")
    }
    if case .array(let values)? = object["annotations"] {
      for value in values {
        guard let annotation = value.object, let text = annotation["description"]?.string else {
          fallback.append("annotation: \(value.compactText)")
          continue
        }
        guard let stamp = (try? date(annotation, "entry")) ?? nil else {
          fallback.append("annotation: \(text)")
          continue
        }
        // ootd writes a todo's notes as the annotation stamped with the task's entry.
        if notes == nil, let entry, stamp == entry {
          notes = text
        } else {
          annotations.append(Annotation(entry: stamp, text: text))
        }
      }
    }
    // ootd's own (its export's): the number, the carried days, what ticked it; a value that is
    // not what ootd writes goes to the notes.
    var number: Int64? = nil
    var carriedFrom: [Day]? = nil
    var doneBy: DoneBy? = nil
    if let value = text(OotdFields.numberKey) {
      number = OotdFields.number(value)
      if number == nil { fallback.append("\(OotdFields.numberKey): \(value)") }
    }
    if let value = text(OotdFields.carriedFromKey) {
      carriedFrom = OotdFields.carriedFrom(value)
      if carriedFrom == nil { fallback.append("\(OotdFields.carriedFromKey): \(value)") }
    }
    if let value = text(OotdFields.doneByKey) {
      // An open todo was ticked by nothing.
      doneBy = done ? OotdFields.doneBy(value) : nil
      if doneBy == nil { fallback.append("\(OotdFields.doneByKey): \(value)") }
    }
    var attributes: [String: String] = [:]
    // The few unmapped members first, then sorted: sorting every member cost more than the rest.
    let unmapped = JSONObject(members: object.members.filter { !mappedFields.contains($0.key) })
    for member in unmapped.uniqueMembersSortedByKey {
      let value: String
      switch member.value {
      case .string(let text): value = text
      // Taskwarrior 2.6 writes `depends` as "uuid,uuid", 3.x as an array: one form.
      case .array where member.key == "depends" && member.value.strings != nil:
        value = (member.value.strings ?? []).joined(separator: ",")
      default: value = member.value.compactText
      }
      guard Attributes.isKey(Substring(member.key)), Attributes.add(member.key, value, to: &attributes) else {
        fallback.append("\(member.key): \(value)")
        continue
      }
    }
    // A due date beside the scheduled one is not the day: it goes back as it came.
    if scheduled != nil, let due { attributes["due"] = Timestamp.string(due, .compact) }
    if !fallback.isEmpty { notes = ([notes].compactMap { $0 } + fallback).joined(separator: "\n") }
    do {
      let doneAt = done ? (end ?? instant) : nil
      return try ImportedTodo(
        uuid: rawUUID, title: description, priority: priority,
        day: instant.map { Day($0, in: timeZone) }, dayIsDefault: planned == nil, isDone: done, isDropped: dropped, doneAt: doneAt,
        doneAtEnd: doneAt?.addingTimeInterval(1), doneDay: doneAt.map { Day($0, in: timeZone) }, project: project,
        block: block, createdAt: entry,
        notes: notes.flatMap(Notes.cleaned), tags: tags, annotations: annotations,
        attributes: attributes, attributeCarrier: attributeCarrier,
        number: number, carriedFrom: carriedFrom, doneBy: doneBy)
    } catch {
      throw InterchangeError("", "\(error)")
    }
  }

  /// The top-level member of `value` (a task) with a NUL in its text, its key or a string
  /// inside it (`\u0000` in the JSON of `bytes`), or nil when there is none: the bytes are
  /// searched first, so a task without `u0000` costs one scan.
  static func memberWithNUL(_ value: JSONValue, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard let base = bytes.baseAddress else { return nil }
    // A backslash followed by `u0000`, found by `memchr` (a task has a few backslashes at most).
    var offset = 0
    var found = false
    while offset + 6 <= bytes.count, let hit = memchr(base + offset, 0x5C, bytes.count - offset - 5) {
      let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
      if bytes[at + 1] == 0x75, bytes[at + 2] == 0x30, bytes[at + 3] == 0x30, bytes[at + 4] == 0x30, bytes[at + 5] == 0x30 {
        found = true
        break
      }
      offset = at + 2
    }
    guard found else { return nil }
    func holdsNUL(_ value: JSONValue) -> Bool {
      switch value {
      case .string(let text): text.utf8.contains(0)
      case .array(let values): values.contains(where: holdsNUL)
      case .object(let object): object.members.contains { $0.key.utf8.contains(0) || holdsNUL($0.value) }
      case .null, .bool, .number: false
      }
    }
    // (Not an object: refused as such.)
    guard case .object(let object) = value else { return nil }
    return object.members.first { $0.key.utf8.contains(0) || holdsNUL($0.value) }.map { $0.key }
  }

  /// The date in `key`: `YYYYMMDDTHHMMSSZ`, `YYYYMMDDTHHMMSS` (UTC), or epoch seconds (a
  /// number or a string of digits); nil when absent.
  static func date(_ object: JSONObject, _ key: String) throws(InterchangeError) -> Date? {
    guard let value = object[key] else { return nil }
    switch value {
    case .string(let text):
      if !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }), let seconds = Int(text) {
        return Date(timeIntervalSince1970: Double(seconds))
      }
      switch Timestamp.read(text, .compact) {
      case .instant(let date): return date
      case .impossible: throw InterchangeError("", "impossible date '\(text)' in '\(key)'")
      case .otherShape: throw InterchangeError("", "'\(key)' is not a date: '\(text)'")
      }
    case .number(let text):
      guard let seconds = Double(text), seconds.isFinite, abs(seconds) < 1e12 else {
        throw InterchangeError("", "'\(key)' is not a date: \(text)")
      }
      return Date(timeIntervalSince1970: seconds.rounded(.down))
    default:
      throw InterchangeError("", "'\(key)' is not a date")
    }
  }

  // MARK: - Export

  /// `todos` as a Taskwarrior JSON array: the mapping reversed (the day → `scheduled` at the
  /// start of the day in `timeZone`; done → `completed` with `end`; dropped → `deleted` with
  /// `end` at the start of its day, or at its `entry` when that is later; the block → `ootdblock`; tags → `tags`; notes → the
  /// annotation stamped with the task's `entry`, then the annotations; attributes → members of
  /// the task).
  public static func export(_ todos: [Todo], timeZone: any ZoneRules, now: Date) -> String {
    var writer = ExportWriter(timeZone: timeZone, now: now)
    var text = ""
    for todo in todos { text += writer.next(todo) }
    return text + writer.end()
  }

  /// Writes the export one task at a time (any number of todos in constant memory): the text
  /// of ``next(_:)`` for each todo, then ``end()``, is exactly ``export(_:timeZone:now:)``.
  public struct ExportWriter {
    let timeZone: any ZoneRules
    let modified: String
    var count = 0

    public init(timeZone: any ZoneRules, now: Date) {
      self.timeZone = timeZone
      modified = Timestamp.string(now, .compact)
    }

    /// The text that puts `todo` into the array.
    public mutating func next(_ todo: Todo) -> String {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(320)
      next(todo, to: &bytes)
      return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``next(_:)`` to `bytes`.
    public mutating func next(_ todo: Todo, to bytes: inout [UInt8]) {
      bytes.append(count == 0 ? UInt8(ascii: "[") : UInt8(ascii: ","))
      bytes.append(UInt8(ascii: "\n"))
      count += 1
      Taskwarrior.appendLine(todo, timeZone: timeZone, modified: modified, to: &bytes)
    }

    /// The text that closes the array.
    public func end() -> String { count == 0 ? "[]\n" : "\n]\n" }
  }

  /// One todo as one line of JSON: the object `JSONEncoder` with `[.sortedKeys,
  /// .withoutEscapingSlashes]` wrote, byte for byte (keys in the order of their UTF-8 bytes,
  /// `"`, `\` and C0 controls escaped, everything else as UTF-8), except that DEL and the C1
  /// controls are `\u` escapes, as in every JSON ootd writes. Written by hand, straight into
  /// bytes: the encoder was a third of an export's time, and then a member list, a quoted copy
  /// of each constant key and a second pass for DEL and C1 most of what was left
  /// (docs/decisions/json-writers.md).
  static func line(_ todo: Todo, timeZone: any ZoneRules, modified: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(320)
    appendLine(todo, timeZone: timeZone, modified: modified, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends ``line(_:timeZone:modified:)`` to `bytes`.
  static func appendLine(_ todo: Todo, timeZone: any ZoneRules, modified: String, to bytes: inout [UInt8]) {
    // (Instants, written as compact timestamps straight into the bytes.)
    let entry = todo.createdAt
    // The start of the day; 0001-01-01 starts in year 0 east of UTC, which `YYYYMMDD` cannot
    // hold (the import refused it): the calendar's first instant is still that day there.
    let start = todo.day.map { max($0.start(in: timeZone), Timestamp.earliest) }
    // Done: when it was done. Dropped: ootd does not record when, so the latest instant it
    // is known to stand for: the start of its day, the day it was given up on, or its creation
    // when that is later (a todo planned on a past day, or in the backlog, which has no day).
    // Never before `entry`: `task import` warns of an `end` before the `entry` (tryout 19 F4).
    // The import reads a dropped todo's day from `scheduled`, not `end`: the round trip holds.
    let end = todo.isDone ? todo.doneAt ?? start ?? entry : todo.isDropped ? max(start ?? entry, entry) : nil
    // The attributes Taskwarrior carries, as members of the task, among the others in key
    // order; a member of the task's own wins over an attribute of its name. A backlog todo has
    // no day: a `due` kept from an import is left out with it.
    var writer = LineWriter(bytes: bytes)
    bytes = []
    if !todo.attributes.isEmpty {
      var taken: Set<String> = ["description", "entry", "modified", "priority", "status", "uuid"]
      if todo.notes != nil || !todo.annotations.isEmpty { taken.insert("annotations") }
      if end != nil { taken.insert("end") }
      if todo.project != nil { taken.insert("project") }
      if start != nil { taken.insert("scheduled") }
      if !todo.tags.isEmpty { taken.insert("tags") }
      writer.extra = todo.attributes.filter {
        attributeCarrier.carries($0.key, $0.value) && (todo.day != nil || $0.key != "due") && !taken.contains($0.key)
      }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }
    writer.bytes.append(UInt8(ascii: "{"))
    if todo.notes != nil || !todo.annotations.isEmpty {
      writer.key(#""annotations":"#)
      writer.bytes.append(UInt8(ascii: "["))
      var first = true
      func annotation(_ stamp: Date, _ text: String) {
        if !first { writer.bytes.append(UInt8(ascii: ",")) }
        first = false
        writer.bytes.append(contentsOf: #"{"description":"#.utf8)
        writer.string(text)
        writer.bytes.append(contentsOf: #","entry":"#.utf8)
        writer.timestamp(stamp)
        writer.bytes.append(UInt8(ascii: "}"))
      }
      if let notes = todo.notes { annotation(entry, notes) }
      for note in todo.annotations { annotation(note.entry, note.text) }
      writer.bytes.append(UInt8(ascii: "]"))
    }
    writer.member(#""description":"#, todo.title)
    if let end { writer.member(#""end":"#, end) }
    writer.member(#""entry":"#, entry)
    writer.member(#""modified":"#, modified)
    if let block = todo.block { writer.member(#""ootdblock":"#, block) }
    // ootd's own, in key order (``OotdFields``): `ootdcarriedfrom`, `ootddoneby`, `ootdid`.
    if !todo.carriedFrom.isEmpty, let days = CarryRecord.text(todo.carriedFrom) {
      writer.member(#""ootdcarriedfrom":"#, days)
    }
    if todo.isDone, let doneBy = todo.doneBy { writer.member(#""ootddoneby":"#, doneBy.rawValue) }
    if todo.id > 0 { writer.member(#""ootdid":"#, String(todo.id)) }
    writer.member(#""priority":"#, code(todo.priority))
    if let project = todo.project { writer.member(#""project":"#, project) }
    // A backlog todo has no day: no `scheduled`.
    if let start { writer.member(#""scheduled":"#, start) }
    writer.member(#""status":"#, todo.isDone ? "completed" : todo.isDropped ? "deleted" : "pending")
    if !todo.tags.isEmpty {
      writer.key(#""tags":"#)
      writer.bytes.append(UInt8(ascii: "["))
      for (index, tag) in todo.tags.enumerated() {
        if index > 0 { writer.bytes.append(UInt8(ascii: ",")) }
        writer.string(tag)
      }
      writer.bytes.append(UInt8(ascii: "]"))
    }
    writer.member(#""uuid":"#, todo.uuid)
    writer.attributes(before: nil)
    writer.bytes.append(UInt8(ascii: "}"))
    bytes = writer.bytes
  }

  /// The members of a task's object as they are written: each key after the attributes that
  /// sort before it.
  private struct LineWriter {
    var bytes: [UInt8]
    /// The attributes written as members, sorted by key, and how many are written.
    var extra: [(key: String, value: String)] = []
    var written = 0
    var members = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func string(_ text: String) {
      JSONText.appendQuoted(text, to: &bytes, shortEscapes: true, escapingDelAndC1: true)
    }

    /// Starts a member of a constant key (`quoted`: `"name":`, plain ASCII), after the
    /// attributes that sort before it.
    mutating func key(_ quoted: StaticString) {
      let raw = UnsafeBufferPointer(start: quoted.utf8Start, count: quoted.utf8CodeUnitCount)
      attributes(before: raw[1..<(raw.count - 2)])
      comma()
      bytes.append(contentsOf: raw)
    }

    /// Writes the attributes that sort before `name` (all that are left, when nil).
    mutating func attributes(before name: Slice<UnsafeBufferPointer<UInt8>>?) {
      while written < extra.count, name.map({ extra[written].key.utf8.lexicographicallyPrecedes($0) }) ?? true {
        let (key, value) = extra[written]
        written += 1
        comma()
        string(key)
        bytes.append(UInt8(ascii: ":"))
        string(value)
      }
    }

    mutating func member(_ quoted: StaticString, _ value: String) {
      key(quoted)
      string(value)
    }

    mutating func member(_ quoted: StaticString, _ instant: Date) {
      key(quoted)
      timestamp(instant)
    }

    /// `instant` as a compact timestamp, quoted (digits, `T` and `Z`: nothing to escape).
    mutating func timestamp(_ instant: Date) {
      bytes.append(UInt8(ascii: "\""))
      Timestamp.append(instant, .compact, to: &bytes)
      bytes.append(UInt8(ascii: "\""))
    }

    private mutating func comma() {
      if members > 0 { bytes.append(UInt8(ascii: ",")) }
      members += 1
    }
  }

  /// `H`, `M` or `L`.
  static func code(_ priority: Priority) -> String {
    switch priority {
    case .high: "H"
    case .mid: "M"
    case .low: "L"
    }
  }
}
