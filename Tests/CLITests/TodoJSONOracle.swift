@testable import CLI
import Core
import Foundation

/// What `JSONEncoder` prints, the oracle the stream writer is compared with
/// (`JSONStreamWriterTests`, `ProjectJSONWriterTests`, `DashboardJSONWriterTests`): pretty-printed,
/// keys sorted, slashes unescaped, DEL and the C1 controls escaped as ootd escapes them, no
/// trailing newline. ootd itself prints no JSON through `JSONEncoder`.
extension JSONOutput {
  static func encode(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return escapingControls(String(decoding: try encoder.encode(value), as: UTF8.self))
  }

  /// `json` with DEL and the C1 controls (U+007F…U+009F, which `JSONEncoder` leaves raw and
  /// terminals obey) written as `\u009b` escapes, as ootd's writers write them. They can only
  /// occur inside strings, so the document means the same.
  static func escapingControls(_ json: String) -> String {
    var result = String.UnicodeScalarView()
    for scalar in json.unicodeScalars {
      guard (0x7F...0x9F).contains(scalar.value) else {
        result.append(scalar)
        continue
      }
      result.append(contentsOf: "\\u00\(String(scalar.value, radix: 16))".unicodeScalars)
    }
    return String(result)
  }
}

/// A todo's former `Encodable` form, kept as it was as the oracle of the tests that compare a
/// document written a value at a time with what `JSONEncoder` printed (`DashboardJSONWriterTests`,
/// `ProjectJSONWriterTests`). ootd itself writes a todo with ``JSONOutput/TodoJSON/write(to:)`` only.
extension JSONOutput.TodoJSON: Encodable {
  enum CodingKeys: String, CodingKey {
    case id, uuid, title, priority, done, date, project, block, overdue, doneOn
    case dropped, carriedFrom
    case notes, tags, annotations, attributes
    case github, doneBy
  }

  /// `{"entry","text"}`.
  struct AnnotationJSON: Encodable {
    let entry: String
    let text: String
  }

  /// `{"url","state"}`.
  struct GitHubLinkJSON: Encodable {
    let url: String
    let state: String
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(todo.id, forKey: .id)
    try c.encode(todo.uuid, forKey: .uuid)
    try c.encode(todo.title, forKey: .title)
    try c.encode(todo.priority.rawValue, forKey: .priority)
    try c.encode(todo.isDone, forKey: .done)
    try c.encode(todo.day?.description, forKey: .date)
    try c.encode(todo.project, forKey: .project)
    try c.encode(todo.block, forKey: .block)
    try c.encode(todo.isOverdue(today: today), forKey: .overdue)
    try c.encode(todo.doneAt.map { Day($0, in: timeZone).description }, forKey: .doneOn)
    try c.encode(todo.isDropped, forKey: .dropped)
    try c.encode(todo.carriedFrom.map(\.description), forKey: .carriedFrom)
    try c.encode(todo.notes, forKey: .notes)
    try c.encode(todo.tags, forKey: .tags)
    try c.encode(todo.annotations.map { AnnotationJSON(entry: Timestamp.string($0.entry, .iso8601), text: $0.text) }, forKey: .annotations)
    try c.encode(todo.attributes, forKey: .attributes)
    try c.encode(todo.github.map { GitHubLinkJSON(url: $0.url, state: $0.state) }, forKey: .github)
    try c.encode(todo.doneBy?.rawValue, forKey: .doneBy)
  }
}
