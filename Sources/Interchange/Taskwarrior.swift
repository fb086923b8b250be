import Core
import Foundation

/// Taskwarrior's JSON (`task export` of 2.6 and 3.x) read into an ``ImportPlan``, and ootd's
/// todos written back as JSON that `task import` accepts. Pure: text in, values out.
///
/// Mapping: `description` → title; priority `H`/`M`/`L` → high/mid/low, none → mid; `project`
/// → project; the day is `scheduled`, else `due`, else `end` (completed), else `entry`, as a
/// day in the user's time zone; `completed` → done at `end`; `pending` and `waiting` → open;
/// `deleted` tasks and `recurring` templates are skipped (their instances are imported);
/// `entry` → created time; tags, annotations, `depends` and every other field (user-defined
/// attributes included) are kept in the todo's notes as `key: value` lines.
public enum Taskwarrior {
  /// Fields the mapping uses; every other field goes to the notes.
  static let mappedFields: Set<String> = [
    "uuid", "status", "description", "entry", "end", "scheduled", "priority", "project", "tags",
    "annotations", "depends", "id", "urgency", "modified",
  ]

  /// Splits the input into JSON objects: an array, one object, or one object per line. Each
  /// object comes with where it is (`object N` in an array, `line N` otherwise).
  public static func objects(_ data: Data) throws(InterchangeError) -> [(location: String, object: [String: Any])] {
    // Looks at bytes, not a String: trimming megabytes of text through NSString costs more than
    // parsing them.
    let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    guard let first = data.firstIndex(where: { !isSpace($0) }) else { return [] }
    if data[first] == UInt8(ascii: "[") {
      let value: Any
      do {
        value = try JSONSerialization.jsonObject(with: data)
      } catch {
        throw InterchangeError("input", "invalid JSON (\(firstProblem(error)))")
      }
      guard let array = value as? [Any] else { throw InterchangeError("input", "expected a JSON array") }
      var result: [(String, [String: Any])] = []
      result.reserveCapacity(array.count)
      for (index, element) in array.enumerated() {
        guard let object = element as? [String: Any] else {
          throw InterchangeError("object \(index + 1)", "not a JSON object")
        }
        result.append(("object \(index + 1)", object))
      }
      return result
    }
    // One object (possibly over several lines), or one object per line.
    if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
      return [("object 1", object)]
    }
    let text = String(decoding: data, as: UTF8.self)
    var result: [(String, [String: Any])] = []
    for (index, line) in text.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).enumerated() {
      let content = line.trimmingCharacters(in: .whitespacesAndNewlines)
      if content.isEmpty { continue }
      let value: Any
      do {
        value = try JSONSerialization.jsonObject(with: Data(content.utf8))
      } catch {
        throw InterchangeError("line \(index + 1)", "invalid JSON (\(firstProblem(error)))")
      }
      guard let object = value as? [String: Any] else {
        throw InterchangeError("line \(index + 1)", "not a JSON object")
      }
      result.append(("line \(index + 1)", object))
    }
    return result
  }

  /// Reads a `task export` into a plan: todos by their Taskwarrior uuid (a uuid that appears
  /// twice keeps its last object), deleted tasks and recurring templates counted as skipped.
  public static func plan(_ data: Data, timeZone: TimeZone) throws(InterchangeError) -> ImportPlan {
    var plan = ImportPlan()
    var indexByUUID: [String: Int] = [:]
    for (location, object) in try objects(data) {
      let todo: ImportedTodo?
      do {
        todo = try map(object, timeZone: timeZone, plan: &plan)
      } catch {
        throw InterchangeError(location, error.problem)
      }
      guard let todo else { continue }
      if let index = indexByUUID[todo.uuid] {
        plan.todos[index] = todo
      } else {
        indexByUUID[todo.uuid] = plan.todos.count
        plan.todos.append(todo)
      }
    }
    return plan
  }

  /// One task as an imported todo, or nil when it is skipped (counted in `plan`).
  static func map(_ object: [String: Any], timeZone: TimeZone, plan: inout ImportPlan)
    throws(InterchangeError) -> ImportedTodo?
  {
    guard let description = object["description"] as? String else {
      throw InterchangeError("", "no 'description'")
    }
    guard let rawUUID = object["uuid"] as? String, RowID.isValid(rawUUID.lowercased()) else {
      throw InterchangeError("", "no valid 'uuid'")
    }
    let status = object["status"] as? String ?? "pending"
    switch status {
    case "pending", "waiting", "completed": break
    case "deleted":
      plan.skip("deleted task")
      return nil
    case "recurring":
      plan.skip("recurring template (its instances are imported)")
      return nil
    default: throw InterchangeError("", "unknown status '\(status)'")
    }
    let entry = try date(object, "entry")
    let end = try date(object, "end")
    let done = status == "completed"
    let scheduled = try date(object, "scheduled")
    let due = try date(object, "due")
    guard let instant = scheduled ?? due ?? (done ? end : nil) ?? entry
    else { throw InterchangeError("", "no date to plan it on ('scheduled', 'due', 'end' or 'entry')") }
    let priority: Priority
    var notes: [String] = []
    switch object["priority"] as? String {
    case "H": priority = .high
    case "L": priority = .low
    case "M", nil: priority = .mid
    case let other?:
      priority = .mid
      notes.append("priority: \(other)")
    }
    var project = object["project"] as? String
    if let name = project, (try? Name.validate(name, kind: "project")) == nil {
      notes.append("project: \(name)")
      project = nil
    }
    if let tags = object["tags"] as? [String], !tags.isEmpty {
      notes.append("tags: " + tags.joined(separator: ", "))
    }
    if let annotations = object["annotations"] as? [[String: Any]] {
      for annotation in annotations {
        let text = annotation["description"] as? String ?? ""
        let stamp: Date? = (try? date(annotation, "entry")) ?? nil
        let when = stamp.map { " " + Day($0, in: timeZone).description } ?? ""
        notes.append("annotation\(when): \(text)")
      }
    }
    if let depends = object["depends"] as? [String], !depends.isEmpty {
      notes.append("depends: " + depends.joined(separator: ","))
    } else if let depends = object["depends"] as? String, !depends.isEmpty {
      notes.append("depends: " + depends)
    }
    for key in object.keys.sorted() where !mappedFields.contains(key) {
      notes.append("\(key): \(text(object[key]!))")
    }
    do {
      return try ImportedTodo(
        uuid: rawUUID.lowercased(), title: description, priority: priority,
        day: Day(instant, in: timeZone), isDone: done, doneAt: done ? (end ?? instant) : nil,
        project: project, createdAt: entry,
        notes: notes.isEmpty ? nil : notes.joined(separator: "\n"))
    } catch {
      throw InterchangeError("", "\(error)")
    }
  }

  /// The date in `key`: `YYYYMMDDTHHMMSSZ`, `YYYYMMDDTHHMMSS` (UTC), or epoch seconds (a
  /// number or a string of digits); nil when absent.
  static func date(_ object: [String: Any], _ key: String) throws(InterchangeError) -> Date? {
    guard let value = object[key] else { return nil }
    if let text = value as? String {
      if !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }), let seconds = Int(text) {
        return Date(timeIntervalSince1970: Double(seconds))
      }
      do {
        if let date = try UTCTimestamp.parse(text) { return date }
      } catch {
        throw InterchangeError("", "impossible date '\(text)' in '\(key)'")
      }
      throw InterchangeError("", "'\(key)' is not a date: '\(text)'")
    }
    if let number = value as? NSNumber, !(value is Bool) {
      return Date(timeIntervalSince1970: number.doubleValue.rounded(.down))
    }
    throw InterchangeError("", "'\(key)' is not a date")
  }

  /// A JSON value as notes text: strings as they are, anything else as compact JSON.
  static func text(_ value: Any) -> String {
    if let string = value as? String { return string }
    guard let data = try? JSONSerialization.data(
      withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
    else { return "\(value)" }
    return String(decoding: data, as: UTF8.self)
  }

  /// The first line of a JSON parser error.
  static func firstProblem(_ error: any Error) -> String {
    let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
    return text.split(separator: "\n").first.map(String.init) ?? text
  }

  // MARK: - Export

  /// One task as `task import` reads it.
  struct Task: Encodable {
    let uuid: String
    let description: String
    let status: String
    let entry: String
    let modified: String
    let scheduled: String
    let end: String?
    let priority: String
    let project: String?
    let annotations: [Annotation]?

    struct Annotation: Encodable {
      let entry: String
      let description: String
    }
  }

  /// `todos` as a Taskwarrior JSON array: the mapping reversed (the day → `scheduled` at the
  /// start of the day in `timeZone`; done → `completed` with `end`; notes → one annotation).
  public static func export(_ todos: [Todo], timeZone: TimeZone, now: Date) -> String {
    let tasks = todos.map { todo in
      let entry = UTCTimestamp.format(todo.createdAt)
      return Task(
        uuid: todo.uuid, description: todo.title, status: todo.isDone ? "completed" : "pending",
        entry: entry, modified: UTCTimestamp.format(now),
        scheduled: UTCTimestamp.format(todo.day.start(in: timeZone)),
        end: todo.isDone ? UTCTimestamp.format(todo.doneAt ?? todo.day.start(in: timeZone)) : nil,
        priority: code(todo.priority), project: todo.project,
        annotations: todo.notes.map { [Task.Annotation(entry: entry, description: $0)] })
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let lines = tasks.map { String(decoding: (try? encoder.encode($0)) ?? Data("{}".utf8), as: UTF8.self) }
    return lines.isEmpty ? "[]\n" : "[\n" + lines.joined(separator: ",\n") + "\n]\n"
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
