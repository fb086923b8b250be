import Core
import GRDB

extension AppDatabase {
  /// Cuts each todo that holds more than ``Caps/tagsPerTodo`` tags to the ones it keeps
  /// (``Caps/cappedTags(_:)``), through `recorder`, and returns a sentence per todo cut. A sync
  /// calls it after its merge (tags added on two machines, each up to the cap, add up to more):
  /// the cut is this machine's change, pushed to the others, and a machine that merged the
  /// same tags cuts the same ones, so that every machine ends with the same tags, and none
  /// holds a todo its commands, export or import would refuse.
  /// Only the todos `uuids` are looked at: those whose tags the sync merged (a pull of a few
  /// records into a database of 100,000 todos scanned them all, 79 M instructions); many of
  /// them (a first pull meeting thousands of rows made here too) by one scan of the table,
  /// which costs less than as many lookups.
  static func keepTagCap(_ recorder: ChangeRecorder, uuids: Set<String>) throws -> [String] {
    guard !uuids.isEmpty else { return [] }
    // At least `tagsPerTodo` spaces between the tags (the stored form, one space apart); the
    // length first, which most rows (no tags, a few) answer alone.
    let over = "length(todo.tags) > \(2 * Caps.tagsPerTodo) AND length(todo.tags) - length(replace(todo.tags, ' ', '')) >= \(Caps.tagsPerTodo)"
    var records: [TodoRecord]
    if uuids.count > 256 {
      records = try TodoRecord.fetchAll(recorder.db, where: over).filter { uuids.contains($0.uuid) }
    } else {
      records = []
      // One compiled statement for every lookup (parsed once a row, 20,000 cost 7.3 G).
      for uuid in uuids {
        records += try TodoRecord.fetchAll(recorder.db, where: "todo.uuid = ? AND \(over)", [uuid], cached: true)
      }
    }
    records.sort { $0.uuid < $1.uuid }
    var sentences: [String] = []
    for record in records {
      let tags = Tag.tags(record.tags)
      let (kept, dropped) = Caps.cappedTags(tags)
      guard !dropped.isEmpty else { continue }
      try recorder.update(
        .todo, row: record.uuid, TodoField.tags.rawValue, from: .optional(record.tags), to: .optional(Tag.text(kept)))
      sentences.append(
        "\(record.ruleSubject) had \(tags.count) tags, more than the \(Caps.tagsPerTodo) a todo may have: "
          + "it keeps the first \(Caps.tagsPerTodo) by name and loses " + dropped.map { "+" + $0 }.joined(separator: " "))
    }
    return sentences
  }
}
