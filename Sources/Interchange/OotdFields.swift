import Core

/// What only ootd keeps of a todo, carried by its own exports under keys of its own (a
/// Taskwarrior UDA, a todo.txt `key:value` word, the same names in both): the todo's number, the
/// days it was carried from and what ticked it. Each value read back is checked as any outside
/// value: one that is not exactly what ootd writes is no value of the field (the reader keeps it
/// where a value no field can hold goes).
enum OotdFields {
  /// The todo's number (`ootdid`, digits).
  static let numberKey = "ootdid"
  /// The days it was carried from (`ootdcarriedfrom`, `YYYY-MM-DD` joined by commas).
  static let carriedFromKey = "ootdcarriedfrom"
  /// What ticked a done todo (`ootddoneby`: `manual`, `commits` or `github`).
  static let doneByKey = "ootddoneby"
  static let keys: Set<String> = [numberKey, carriedFromKey, doneByKey]

  /// The most carried-from days a todo is read with (ten years of days, each carried once).
  static let maximumCarriedDays = 3_660

  /// `text` as a todo number: 1 to 18 digits without a leading zero, above 0; nil otherwise.
  static func number(_ text: some StringProtocol) -> Int64? {
    guard (1...18).contains(text.utf8.count), text.utf8.first != UInt8(ascii: "0"),
      text.utf8.allSatisfy({ (48...57).contains($0) })
    else { return nil }
    return Int64(text)
  }

  /// `text` as carried-from days: ``CarryRecord/text(_:)``'s form, every day a real one in the
  /// calendar, at most ``maximumCarriedDays``; nil otherwise.
  static func carriedFrom(_ text: some StringProtocol) -> [Day]? {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard !text.isEmpty, parts.count <= maximumCarriedDays else { return nil }
    var days: [Day] = []
    for part in parts {
      guard part.utf8.count == 10, let day = Day(iso: String(part)), day.isInCalendar else { return nil }
      days.append(day)
    }
    return days
  }

  /// `text` as what ticked a todo; nil for any other word.
  static func doneBy(_ text: some StringProtocol) -> DoneBy? { DoneBy(rawValue: String(text)) }

  /// The text of `todo`'s number, carried days and what ticked it, by key, for an export: only
  /// those it has, in key order.
  static func values(_ todo: Todo) -> [(key: String, value: String)] {
    var values: [(key: String, value: String)] = []
    if let days = CarryRecord.text(todo.carriedFrom) { values.append((carriedFromKey, days)) }
    if todo.isDone, let doneBy = todo.doneBy { values.append((doneByKey, doneBy.rawValue)) }
    if todo.id > 0 { values.append((numberKey, String(todo.id))) }
    return values
  }
}
