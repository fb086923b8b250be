import Core
import Foundation
import Zone

/// todo.txt (and done.txt) read into an ``ImportPlan``, and ootd's todos written as todo.txt.
/// Pure: text in, values out.
///
/// A line is `x COMPLETED CREATED text` when done (a lowercase `x` and a space first), else
/// `(A) CREATED text`; every part but the text is optional. Traps this follows: `X 2012-…`
/// and `(A) x …` are not done, `(b)` and `(B)->` are not priorities, `x` may have no date,
/// `email@host` is no context and `2+2` no project (both must start a word).
public enum TodoTxt {
  /// One parsed line.
  public struct Line: Hashable, Sendable {
    /// Whether it starts with `x `.
    public var isDone = false
    /// The completion date, if any.
    public var completed: Day?
    /// The priority letter, `A`–`Z`, from `(A) ` or (on done lines) `pri:A`.
    public var priority: Character?
    /// The creation date, if any.
    public var created: Day?
    /// The text after the dates, as written.
    public var text = ""
    /// The `+project` words, in order, without the `+`.
    public var projects: [String] = []
    /// The `@context` words, in order, without the `@`.
    public var contexts: [String] = []
    /// The `due:` date, if any.
    public var due: Day?
    /// The todo's uuid from `ootd:UUID` (what ootd's export writes), if any.
    public var uuid: String?
    /// Whether it says `dropped:yes` (ootd's export of a dropped todo).
    public var isDropped = false
    /// The block from `ootdblock:NAME` (what ootd's export writes for a todo made from a block,
    /// as Taskwarrior's ``Taskwarrior/blockField``), unescaped; the first one.
    public var block: String?
    /// ootd's own (``OotdFields``): the todo's number (`ootdid:6`), the days it was carried from
    /// (`ootdcarriedfrom:2026-11-20,2026-11-21`) and what ticked it (`ootddoneby:manual`); the
    /// first of each. A value that is not what ootd writes stays a word of the title.
    public var number: Int64?
    public var carriedFrom: [Day]?
    public var doneBy: DoneBy?
    /// The other `key:value` words (`t:2026-12-20`, `rec:1w`), the first of each key.
    public var attributes: [String: String] = [:]
    /// The text without the words the mapping takes out (`+project`, `@context`, `due:`,
    /// `pri:`, `ootd:`, `dropped:yes`, the other `key:value`s), single-spaced; escapes as
    /// written (``TodoTxt/unescapedTitle(_:)`` reads them).
    public var title = ""
  }

  /// The key that carries a todo's block: the name of Taskwarrior's UDA (``Taskwarrior/blockField``).
  static let blockKey = Taskwarrior.blockField

  /// Keys of ootd's own fields in a line; every other `key:value` is an attribute.
  static let reservedKeys = Set(["due", "pri", "ootd", "dropped", blockKey]).union(OotdFields.keys)

  /// The attributes a todo.txt line carries: a `key:value` word each, under a key that is none
  /// of ``reservedKeys``.
  public static let attributeCarrier = AttributeCarrier(reserved: reservedKeys, wordsOnly: true)

  /// Parses one line (without its line end); nil for a blank line or a `#` comment. Throws
  /// for an impossible date (`2024-02-30`, `due:2024-13-01`).
  public static func parse(_ raw: String) throws(InterchangeError) -> Line? {
    let trimmed = raw.trimmingCharacters(in: .whitespaces)
    if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
    var line = Line()
    var rest = Substring(trimmed)
    if rest.hasPrefix("x ") {
      line.isDone = true
      rest = rest.dropFirst(2).drop(while: { $0 == " " })
      line.completed = try leadingDate(&rest)
      // Some clients keep the priority after the completion date: `x 2026-12-13 (A) …`.
      line.priority = leadingPriority(&rest)
      if line.completed != nil { line.created = try leadingDate(&rest) }
    } else {
      line.priority = leadingPriority(&rest)
      line.created = try leadingDate(&rest)
    }
    line.text = String(rest)
    var kept: [Substring] = []
    for word in rest.split(separator: " ", omittingEmptySubsequences: true) where try !take(word, into: &line) {
      kept.append(word)
    }
    line.title = kept.joined(separator: " ")
    return line
  }

  /// Reads the word `word` of a line's text into `line` and returns true when it is one the
  /// mapping takes out of the title: a `+project`, an `@context`, a `key:value` it reads
  /// (``keyValue(_:_:into:)``); false when it stays in the title. Throws as `keyValue` does.
  /// The export's escape asks the same of a title's words (``wordEscapes(_:)``).
  static func take(_ word: Substring, into line: inout Line) throws(InterchangeError) -> Bool {
    if word.count > 1, word.first == "+" {
      line.projects.append(String(word.dropFirst()))
    } else if word.count > 1, word.first == "@" {
      line.contexts.append(String(word.dropFirst()))
    } else if let colon = word.firstIndex(of: ":") {
      return try keyValue(word[..<colon], word[word.index(after: colon)...], into: &line)
    } else {
      return false
    }
    return true
  }

  /// Takes a leading `(A) ` off `text` and returns its letter, or nil (and `text` as it was).
  static func leadingPriority(_ text: inout Substring) -> Character? {
    guard text.count >= 4, text.first == "(", let letter = text.dropFirst().first,
      ("A"..."Z").contains(letter), text.dropFirst(2).first == ")", text.dropFirst(3).first == " "
    else { return nil }
    text = text.dropFirst(4).drop(while: { $0 == " " })
    return letter
  }

  /// Reads the word `key:value` into `line` and returns true, or returns false when it stays a
  /// word of the title (no `key:value`, or one of ootd's keys with a value it does not take:
  /// `due:tomorrow`, `ootd:x`). Throws for an impossible `due:` date.
  static func keyValue(_ key: Substring, _ value: Substring, into line: inout Line) throws(InterchangeError) -> Bool {
    guard Attributes.isKey(key), Attributes.isWord(value) else { return false }
    switch key {
    case "due":
      guard let day = try date(String(value)) else { return false }
      line.due = day
    case "pri":
      guard value.count == 1, let letter = value.first, ("A"..."Z").contains(letter) else { return false }
      // A priority written before the text wins.
      line.priority = line.priority ?? letter
    case "ootd":
      let uuid = value.lowercased()
      guard line.uuid == nil, RowID.isValid(uuid) else { return false }
      line.uuid = uuid
    case "dropped":
      guard value == "yes" else { return false }
      line.isDropped = true
    case blockKey:
      guard line.block == nil else { return false }
      line.block = unescapedTitle(String(value))
    case OotdFields.numberKey:
      guard line.number == nil, let number = OotdFields.number(value) else { return false }
      line.number = number
    case OotdFields.carriedFromKey:
      guard line.carriedFrom == nil, let days = OotdFields.carriedFrom(value) else { return false }
      line.carriedFrom = days
    case OotdFields.doneByKey:
      guard line.doneBy == nil, let doneBy = OotdFields.doneBy(value) else { return false }
      line.doneBy = doneBy
    default:
      return Attributes.add(String(key), String(value), to: &line.attributes)
    }
    return true
  }

  /// Takes a leading `YYYY-MM-DD ` (or a final `YYYY-MM-DD`) off `text`.
  static func leadingDate(_ text: inout Substring) throws(InterchangeError) -> Day? {
    let word = text.prefix(while: { $0 != " " })
    guard let day = try date(String(word)) else { return nil }
    text = text.dropFirst(word.count).drop(while: { $0 == " " })
    return day
  }

  /// A `YYYY-MM-DD` word as a day; nil when the word has another shape; throws when it has
  /// this shape but is no real date.
  static func date(_ word: String) throws(InterchangeError) -> Day? {
    let bytes = Array(word.utf8)
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || (48...57).contains($0.element) })
    else { return nil }
    guard let day = Day(iso: word) else { throw InterchangeError("", "impossible date '\(word)'") }
    return day
  }

  /// ootd's namespace for todo.txt line identities (a fixed random uuid).
  static let namespace: [UInt8] = [
    0x3b, 0x0e, 0x6a, 0x52, 0x91, 0x7c, 0x4d, 0x21, 0xa4, 0x0f, 0x6e, 0x2d, 0x74, 0x78, 0x74, 0x01,
  ]

  /// The identity of a line: its creation date and text, without what completing it changes
  /// (the `x`, the completion date, the priority, `pri:`), single-spaced. The todo's uuid is
  /// the name-based uuid of it (the n-th repeat of an identical line adds `#n`).
  public static func identity(_ line: Line) -> String {
    let words = line.text.split(separator: " ").filter { !($0.hasPrefix("pri:") && $0.count == 5) }
    return (line.created?.description ?? "-") + " " + words.joined(separator: " ")
  }

  /// Reads a todo.txt file into a plan: the day is `due:`; an open line without it goes to the
  /// backlog, a completed one keeps its creation date, else its completion date (else it is
  /// done today, by the rules); the first `+project` (a valid project name) is the
  /// project; further `+projects` and the `@contexts` are tags (those that are no ootd tag,
  /// see ``Tag``, stay in the notes as `projects: …` / `contexts: …`).
  public static func plan(_ text: String, today: Day, timeZone: any ZoneRules) throws(InterchangeError)
    -> ImportPlan
  {
    var plan = ImportPlan()
    do {
      try read(text, today: today, timeZone: timeZone, into: &plan)
    } catch let error as InterchangeError {
      throw error
    } catch {
      // A plan never throws.
    }
    return plan
  }

  /// Reads a todo.txt file as ``plan(_:today:timeZone:)`` does, handing each todo to `sink` as
  /// soon as its line is read; rethrows what `sink` throws.
  public static func read(_ text: String, today: Day, timeZone: any ZoneRules, into sink: inout some ImportSink) throws {
    var reader = Reader(timeZone: timeZone)
    // Split on LF, CR LF and lone CR alike, one line at a time.
    let lines = sequence(state: Substring(text) as Substring?) { state -> Substring? in
      guard let rest = state else { return nil }
      guard let end = rest.firstIndex(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else {
        state = nil
        return rest
      }
      state = rest[rest.index(after: end)...]
      return rest[..<end]
    }
    for (index, raw) in lines.enumerated() {
      try reader.read(String(raw), line: index + 1, into: &sink)
    }
  }

  /// Reads a todo.txt file one line at a time (what ``read(_:today:timeZone:into:)`` does for a
  /// whole text), for an input read as it arrives (``LineItems``): holds only what tells a
  /// repeated line from the first, 16 bytes a line.
  public struct Reader {
    let timeZone: any ZoneRules
    // How many lines had each identity so far, keyed by the identity's uuid (16 bytes, not the
    // text): a repeated line gets the uuid of `identity#N`.
    var seen: [UInt128: Int] = [:]
    // The `ootd:` uuids met: a line that repeats one is a todo of its own (by its text).
    var met: Set<UInt128> = []

    public init(timeZone: any ZoneRules) { self.timeZone = timeZone }

    /// Reads one line (without its line end) of a file; `line` is its 1-based number.
    public mutating func read(_ raw: String, line number: Int, into sink: inout some ImportSink) throws {
      let location = "line \(number)"
      let parsed: Line?
      do {
        parsed = try parse(String(raw))
      } catch {
        throw InterchangeError(location, error.problem)
      }
      guard let line = parsed else { return }
      var notes: [String] = []
      var project: String? = nil
      var otherProjects = line.projects
      if let first = line.projects.first, (try? Name.validate(first, kind: "project")) != nil {
        project = first
        otherProjects.removeFirst()
      }
      // Further projects and the contexts are tags; what is no ootd tag stays in the notes.
      let (projectTags, projectOthers) = ImportTags.split(otherProjects)
      let (contextTags, contextOthers) = ImportTags.split(line.contexts)
      if !projectOthers.isEmpty { notes.append("projects: " + projectOthers.map { "+" + $0 }.joined(separator: " ")) }
      if !contextOthers.isEmpty { notes.append("contexts: " + contextOthers.map { "@" + $0 }.joined(separator: " ")) }
      // The block, created when missing (as a Taskwarrior import does); a name that is no
      // block name stays in the notes, as Taskwarrior's does.
      var block = line.block
      if let name = block, (try? Name.validate(name, kind: "block")) == nil {
        notes.append("\(blockKey): \(name)")
        block = nil
      }
      // An open line was ticked by nothing: its `ootddoneby:` stays in the notes, as Taskwarrior's.
      if !line.isDone, let doneBy = line.doneBy { notes.append("\(OotdFields.doneByKey): \(doneBy.rawValue)") }
      var title = line.title
      if title.isEmpty {
        // Nothing but projects and contexts: the whole text is the title.
        title = line.text
      }
      // What the export escaped (a line end, ESC…) is the title's again; but a NUL, which
      // storage cannot hold and the export never writes: refused, not stored as U+FFFD.
      title = unescapedTitle(title)
      if title.utf8.contains(0) {
        throw InterchangeError(location, "a NUL character (\\u0000) in the title: ootd cannot store it")
      }
      if title.trimmingCharacters(in: .whitespaces).isEmpty {
        sink.skip("line without a description")
        return
      }
      let priority: Priority
      switch line.priority {
      case "A": priority = .high
      case "B", nil: priority = .mid
      default: priority = .low
      }
      let uuid: String
      if let own = line.uuid, let bits = RowID.bits(own), met.insert(bits).inserted {
        // ootd's own export: the todo it came from.
        uuid = own
      } else {
        if line.uuid != nil { sink.repeated(RepeatedUUID.ownTodo) }
        let identity = identity(line)
        let first = RowID.nameBased(identity, namespace: namespace)
        let seenKey = RowID.bits(first) ?? 0
        let repeatCount = seen[seenKey, default: 0]
        seen[seenKey] = repeatCount + 1
        uuid = repeatCount == 0 ? first : RowID.nameBased(identity + "#\(repeatCount)", namespace: namespace)
      }
      // The day: `due:`. An open line without it is not planned yet (its creation date is
      // when it was written): the backlog. A completed line keeps a day: its creation date,
      // else its completion date.
      let day = line.due ?? (line.isDone ? line.created ?? line.completed : nil)
      let todo: ImportedTodo
      do {
        // A completion date is a whole day: a todo done at any time of it keeps its time.
        todo = try ImportedTodo(
            uuid: uuid, title: title, priority: priority,
            day: day, dayIsDefault: line.due == nil, isDone: line.isDone,
            isDropped: line.isDropped,
            doneAt: line.completed.map { $0.start(in: timeZone) },
            doneAtEnd: line.completed.map { $0.adding(days: 1).start(in: timeZone) }, doneDay: line.completed,
            project: project, block: block,
            createdAt: line.created.map { $0.start(in: timeZone) },
            notes: notes.isEmpty ? nil : notes.joined(separator: "\n"), replacesNotes: false,
            tags: projectTags + contextTags, attributes: line.attributes, attributeCarrier: attributeCarrier,
            number: line.number, carriedFrom: line.carriedFrom, doneBy: line.doneBy)
      } catch {
        throw InterchangeError(location, "\(error)")
      }
      try sink.add(todo)
    }
  }

  // MARK: - Export

  /// `todos` as todo.txt lines: `x DONE CREATED title +project @tag due:DAY pri:A key:value
  /// [ootdblock:NAME] ootd:UUID` for done ones, `(A) CREATED title +project @tag due:DAY key:value
  /// [ootdblock:NAME] [dropped:yes] ootd:UUID` for open and dropped ones, each followed by
  /// `[ootdcarriedfrom:DAYS] [ootddoneby:WHAT] ootdid:N` (``OotdFields``) (high → A, mid → B, low →
  /// C; the attributes a word can hold, sorted by key; the block it was made from, escaped as a
  /// title is and every space too (``escapedWord(_:)``); `ootd:` the todo's uuid, which a
  /// re-import matches on).
  public static func export(_ todos: [Todo], timeZone: any ZoneRules) -> String {
    var bytes: [UInt8] = []
    for todo in todos { appendLine(todo, timeZone: timeZone, to: &bytes) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// One todo as a todo.txt line.
  public static func line(_ todo: Todo, timeZone: any ZoneRules) -> String {
    var bytes: [UInt8] = []
    appendLine(todo, timeZone: timeZone, to: &bytes)
    return String(decoding: bytes.dropLast(), as: UTF8.self)
  }

  /// Appends ``line(_:timeZone:)`` and its line end to `bytes`: written straight into the
  /// bytes (an export writes a million lines; an array of words joined was most of its time).
  public static func appendLine(_ todo: Todo, timeZone: any ZoneRules, to bytes: inout [UInt8]) {
    let letter = UInt8(ascii: "A") + UInt8(todo.priority.rank)
    func space() { bytes.append(UInt8(ascii: " ")) }
    func day(_ day: Day) { Timestamp.append(day, .iso8601, to: &bytes) }
    if todo.isDone {
      bytes.appendUTF8("x ")
      day(todo.doneAt.map { Day($0, in: timeZone) } ?? todo.day ?? Day(todo.createdAt, in: timeZone))
    } else {
      bytes.append(UInt8(ascii: "("))
      bytes.append(letter)
      bytes.append(UInt8(ascii: ")"))
    }
    space()
    day(Day(todo.createdAt, in: timeZone))
    space()
    // A title is one line, without a control character that would drive a terminal: those
    // are escaped (`\u000A`, `\u001B`), and the import reverses it (``escapedTitle(_:)``).
    bytes.appendUTF8(escapedTitle(todo.title))
    if let project = todo.project {
      bytes.appendUTF8(" +")
      bytes.appendUTF8(project)
    }
    // Tags as `@contexts`: a `+tag` on a todo without a project would come back as its project.
    for tag in todo.tags {
      bytes.appendUTF8(" @")
      bytes.appendUTF8(tag)
    }
    // A backlog todo has no day: no `due:`.
    if let due = todo.day {
      bytes.appendUTF8(" due:")
      day(due)
    }
    if todo.isDone {
      bytes.appendUTF8(" pri:")
      bytes.append(letter)
    }
    if !todo.attributes.isEmpty {
      for key in todo.attributes.keys.sorted() {
        guard let value = todo.attributes[key], attributeCarrier.carries(key, value) else { continue }
        space()
        bytes.appendUTF8(key)
        bytes.append(UInt8(ascii: ":"))
        bytes.appendUTF8(value)
      }
    }
    if let block = todo.block {
      bytes.appendUTF8(" ")
      bytes.appendUTF8(blockKey)
      bytes.append(UInt8(ascii: ":"))
      bytes.appendUTF8(escapedWord(block))
    }
    if todo.isDropped && !todo.isDone { bytes.appendUTF8(" dropped:yes") }
    bytes.appendUTF8(" ootd:")
    bytes.appendUTF8(todo.uuid)
    // ootd's own, in key order: `ootdcarriedfrom:`, `ootddoneby:`, `ootdid:`.
    for (key, value) in OotdFields.values(todo) {
      space()
      bytes.appendUTF8(key)
      bytes.append(UInt8(ascii: ":"))
      bytes.appendUTF8(value)
    }
    bytes.append(UInt8(ascii: "\n"))
  }
}
