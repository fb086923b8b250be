/// Every size cap ootd keeps, in one place: each path that writes todos, projects and blocks
/// (the commands, import, GitHub, a sync pulling another machine's rows) holds values to these,
/// so a row one machine accepts is a row every machine accepts.
///
/// A row from the sync server that breaks a cap is set aside whole, never cut silently (see
/// ``violation(_:)``); but more tags than a todo may have, which a merge may make, are merged,
/// then cut by the sync, which says so (``tagsPerTodo``).
public enum Caps {
  /// The longest todo or block title, in characters.
  public static let titleCharacters = 500
  /// The longest notes of a todo (and memo, summary or any other free text), in characters.
  public static let notesCharacters = 100_000
  /// The longest tag, in characters.
  public static let tagCharacters = 40
  /// The most tags one todo carries. A command or an import that would give a todo more is
  /// refused. Tags merged from two machines may add up to more (each added tags up to the cap
  /// before they synced): the sync that merges them keeps the first ``tagsPerTodo`` in their
  /// stored (sorted) order and takes the rest away as a change of its own, said by a line
  /// (``cappedTags(_:)``), which every machine then pulls. Until then a pulled set of more tags
  /// is merged, not set aside (``violation(_:field:value:)``).
  public static let tagsPerTodo = 100
  /// The most annotations one todo carries.
  public static let annotationsPerTodo = 1000
  /// The most attributes (``Attributes``) one todo carries.
  public static let attributesPerTodo = 100
  /// The longest block or project name, in characters.
  public static let nameCharacters = 40
  /// The most row-level operations one sync record carries.
  public static let operationsPerRecord = 1000
  /// The largest payload of one sync record, in UTF-8 bytes: a larger one is set aside before it
  /// is read (the server is asked for its length, not its text). Pushes split records to stay
  /// under it.
  public static let payloadBytes = 8 << 20
  /// The largest payload before it is encrypted: its sealed text (a 4-byte prefix, then base64
  /// of a 24-byte nonce, the payload and a 16-byte tag, see Encryption's `Envelope`) stays under
  /// ``payloadBytes``. Pushes split records at this size.
  public static let plainPayloadBytes = (payloadBytes - 4) / 4 * 3 - 24 - 16
  /// The clock values a record from another machine may carry: up to 2^62, about the year 4200
  /// in ``HybridClock``'s units, leaving 2^62 steps of headroom before an Int64 overflows.
  public static let clocks: ClosedRange<Int64> = 0...(1 << 62)

  /// The numbers (`id`) a todo from another machine may have: room for every todo ever added,
  /// far below where SQLite's AUTOINCREMENT would run out.
  public static let todoNumbers: ClosedRange<Int64> = 1...(1 << 40)

  /// The most UTF-8 bytes a text may have and be sure to keep every cap
  /// (``violation(_:field:value:)``).
  static let fewBytes = min(nameCharacters, tagCharacters, titleCharacters)

  /// Why the value `value` of `field` of an `entity` row breaks a cap, or nil when it keeps them.
  public static func violation(_ entity: Entity, field: String, value: FieldValue) -> String? {
    if entity == .todo, field == TodoField.id.rawValue {
      return value.integer.map(todoNumbers.contains) == true ? nil : "a todo number out of range"
    }
    // A text of a few bytes breaks no cap: the shortest is 40 characters (a name, a tag), and
    // the counts (tags, annotations, attributes) take more bytes still. Most of a todo's texts
    // (its day, times, a short title), on the path of every row a first pull checks.
    guard let text = value.text, text.utf8.count > Self.fewBytes else { return nil }
    func tooLong(_ what: String, _ limit: Int) -> String? {
      // The UTF-8 length first: counting characters of a huge value would take long.
      text.utf8.count > limit && text.count > limit ? "\(what) longer than \(limit) characters" : nil
    }
    switch (entity, field) {
    case (.todo, "title"), (.block, "title"): return tooLong("a title", titleCharacters)
    case (.project, "name"), (.block, "name"): return tooLong("a name", nameCharacters)
    case (.todo, "annotations"), (.todo, "attributes"):
      // JSON text: its length first, then how many it holds (each element is an object with
      // one `entry`; each attribute one `":"` after its key).
      if let why = tooLong("a \(field)", notesCharacters) { return why }
      let count = field == "annotations" ? Annotation.annotations(text).count : Attributes.attributes(text).count
      let most = field == "annotations" ? annotationsPerTodo : attributesPerTodo
      return count > most ? "more than \(most) \(field)" : nil
    case (.todo, "tags"):
      // As many tags as a merge may make (``tagsPerTodo``: the sync that merges them cuts them
      // to the cap), each a tag's length, the whole free text's.
      if let why = tooLong("tags", notesCharacters) { return why }
      return text.split(separator: " ").contains { $0.count > tagCharacters }
        ? "a tag longer than \(tagCharacters) characters" : nil
    default: return tooLong("a \(field)", notesCharacters)
    }
  }

  /// Why an operation breaks a cap (a field value, or its clock), or nil.
  public static func violation(_ operation: SyncOperation) -> String? {
    guard clocks.contains(operation.stamp.clock) else {
      return "clock \(operation.stamp.clock) is out of range"
    }
    switch operation.kind {
    case .create(let fields):
      // Sorted (the first field by name is the one named) only when a field breaks a cap: a
      // pulled first sync checks thousands of rows that break none.
      guard fields.contains(where: { violation(operation.entity, field: $0.key, value: $0.value) != nil }) else {
        return nil
      }
      for (field, value) in fields.sorted(by: { $0.key < $1.key }) {
        if let why = violation(operation.entity, field: field, value: value) { return why }
      }
      return nil
    case .update(let field, let value):
      // (The value before, which tags carry, keeps the same caps.)
      return violation(operation.entity, field: field, value: value)
        ?? operation.old.flatMap { violation(operation.entity, field: field, value: $0) }
    case .delete: return nil
    }
  }

  /// Throws when notes (or a project's memo) are longer than ``notesCharacters``.
  public static func checkNotes(_ notes: String?) throws(CoreError) {
    guard let notes, notes.utf8.count > notesCharacters, notes.count > notesCharacters else { return }
    throw .overCap("the notes are longer than \(notesCharacters) characters")
  }

  /// Throws when annotations or attributes, as their column holds them, break a cap: longer
  /// than ``notesCharacters`` or more than ``annotationsPerTodo`` / ``attributesPerTodo``.
  public static func checkImported(annotations: [Annotation], attributes: [String: String]) throws(CoreError) {
    if annotations.count > annotationsPerTodo {
      throw .overCap("\(annotations.count) annotations are more than the \(annotationsPerTodo) a todo may have")
    }
    if attributes.count > attributesPerTodo {
      throw .overCap("\(attributes.count) attributes are more than the \(attributesPerTodo) a todo may have")
    }
    // The longest text they can make first (each byte escaped as six, each annotation's time and
    // keys): most todos are far under the cap, and their texts are not built twice.
    let longest =
      annotations.reduce(2) { $0 + 64 + 6 * $1.text.utf8.count }
      + attributes.reduce(2) { $0 + 6 + 6 * ($1.key.utf8.count + $1.value.utf8.count) }
    guard longest > notesCharacters else { return }
    for (what, text) in [("annotations", Annotation.text(annotations)), ("attributes", Attributes.text(attributes))] {
      guard let text, text.utf8.count > notesCharacters, text.count > notesCharacters else { continue }
      throw .overCap("the \(what) are longer than \(notesCharacters) characters")
    }
  }

  /// The tags (stored form, sorted) a todo keeps when a merge left it more than
  /// ``tagsPerTodo``: the first ``tagsPerTodo`` in their stored order, and the ones taken away.
  /// A pure function of the tags, so that every machine that merged the same tags keeps the
  /// same ones (`dropped` empty when the tags keep the cap).
  public static func cappedTags(_ tags: [String]) -> (kept: [String], dropped: [String]) {
    let tags = Tag.normalized(tags)
    guard tags.count > tagsPerTodo else { return (tags, []) }
    return (Array(tags.prefix(tagsPerTodo)), Array(tags.dropFirst(tagsPerTodo)))
  }

  /// Whether the tags `text` (stored form, one space apart) may hold more than ``tagsPerTodo``
  /// tags: at least as many spaces as the cap (a cheap test, exact for the stored form).
  public static func mayExceedTags(_ text: String?) -> Bool {
    guard let text, text.utf8.count > 2 * tagsPerTodo else { return false }
    return text.utf8.lazy.filter { $0 == UInt8(ascii: " ") }.count >= tagsPerTodo
  }

  /// Throws when a todo has more than ``tagsPerTodo`` tags.
  public static func checkTags(_ tags: [String]) throws(CoreError) {
    guard tags.count > tagsPerTodo else { return }
    throw .overCap("\(tags.count) tags are more than the \(tagsPerTodo) a todo may have")
  }
}
