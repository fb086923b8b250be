import Core
import Foundation
@testable import Interchange
import Testing

/// The hand-written Taskwarrior task writer prints exactly what `JSONEncoder` with
/// `[.sortedKeys, .withoutEscapingSlashes]` printed for the same members (the encoder it
/// replaced, kept here as the oracle): escapes, key order with attributes among the members,
/// non-ASCII kept as UTF-8, then DEL and C1 as `\u` escapes as the export wrote them.
@Suite struct TaskwarriorWriterOracleTests {
  enum Value: Encodable {
    case string(String)
    case strings([String])
    case annotations([[String: String]])

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .string(let text): try container.encode(text)
      case .strings(let texts): try container.encode(texts)
      case .annotations(let annotations): try container.encode(annotations)
      }
    }
  }

  static func oracle(_ todo: Todo, timeZone: TimeZone, modified: String) throws -> String {
    var members: [String: Value] = [:]
    for (key, value) in todo.attributes
    where Taskwarrior.attributeCarrier.carries(key, value) && (todo.day != nil || key != "due") {
      members[key] = .string(value)
    }
    let entry = Timestamp.string(todo.createdAt, .compact)
    let start = todo.day.map { Timestamp.string($0.start(in: timeZone), .compact) }
    members["uuid"] = .string(todo.uuid)
    members["description"] = .string(todo.title)
    members["status"] = .string(todo.isDone ? "completed" : todo.isDropped ? "deleted" : "pending")
    members["entry"] = .string(entry)
    members["modified"] = .string(modified)
    if let start { members["scheduled"] = .string(start) }
    if todo.isDone {
      members["end"] = .string(Timestamp.string(todo.doneAt ?? todo.day?.start(in: timeZone) ?? todo.createdAt, .compact))
    } else if todo.isDropped {
      // Never before its entry (`task import` warns of that).
      members["end"] = .string(max(start ?? entry, entry))
    }
    members["priority"] = .string(Taskwarrior.code(todo.priority))
    if let project = todo.project { members["project"] = .string(project) }
    if let block = todo.block { members["ootdblock"] = .string(block) }
    if let days = CarryRecord.text(todo.carriedFrom) { members["ootdcarriedfrom"] = .string(days) }
    if todo.isDone, let doneBy = todo.doneBy { members["ootddoneby"] = .string(doneBy.rawValue) }
    if todo.id > 0 { members["ootdid"] = .string(String(todo.id)) }
    if !todo.tags.isEmpty { members["tags"] = .strings(todo.tags) }
    let annotations =
      (todo.notes.map { [["entry": entry, "description": $0]] } ?? [])
      + todo.annotations.map { ["entry": Timestamp.string($0.entry, .compact), "description": $0.text] }
    if !annotations.isEmpty { members["annotations"] = .annotations(annotations) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // And DEL and C1 as \u escapes, which the export applied after the encoder (as in every
    // JSON ootd writes), and the writer now writes itself.
    var escaped = String.UnicodeScalarView()
    for scalar in String(decoding: try encoder.encode(members), as: UTF8.self).unicodeScalars {
      if (0x7F...0x9F).contains(scalar.value) {
        escaped.append(contentsOf: "\\u00\(String(scalar.value, radix: 16))".unicodeScalars)
      } else {
        escaped.append(scalar)
      }
    }
    return String(escaped)
  }

  @Test func everyTaskIsTheEncodersBytes() throws {
    let utc = TimeZone(identifier: "UTC")!
    let hostile = "ctl \u{0}\u{1}\u{8}\u{9}\u{a}\u{c}\u{d}\u{1b}\u{1f} \"q\" \\ / del\u{7f} c1\u{85} é 한 🚀 \u{2028}"
    var done = Todo(
      id: 1, title: hostile, priority: .high, day: Day(iso: "2024-03-02")!, isDone: true,
      doneAt: Date(timeIntervalSince1970: 1_709_400_000), project: "work/\"x\"",
      createdAt: Date(timeIntervalSince1970: 1_709_000_000), uuid: "a1b2c3d4-0000-4000-8000-000000000001")
    done.notes = "line 1\nline 2 \u{8}"
    done.tags = ["bug", "회의"]
    done.annotations = [Annotation(entry: Date(timeIntervalSince1970: 1_709_100_000), text: "a \"note\" \u{c}")]
    done.doneBy = .commits
    done.carriedFrom = [Day(iso: "2024-02-28")!, Day(iso: "2024-03-01")!]
    done.attributes = ["estimate": "2.50", "Zeta": "z", "_x": "\u{1}", "ünïcode": "ü", "due": "20240305T000000Z", "aa": "1"]
    var dropped = Todo(
      id: 2, title: "dropped", priority: .low, day: nil,
      createdAt: Date(timeIntervalSince1970: 1_709_000_000), uuid: "a1b2c3d4-0000-4000-8000-000000000002")
    dropped.isDropped = true
    dropped.attributes = ["due": "20240305T000000Z", "wait": "20240301T000000Z"]
    var open = Todo(
      id: 3, title: "open", priority: .mid, day: Day(iso: "2024-03-03")!,
      createdAt: Date(timeIntervalSince1970: 1_709_000_000), uuid: "a1b2c3d4-0000-4000-8000-000000000003")
    open.carriedFrom = [Day(iso: "2024-03-01")!]
    let modified = Timestamp.string(Date(timeIntervalSince1970: 1_709_500_000), .compact)
    for todo in [done, dropped, open] {
      #expect(Taskwarrior.line(todo, timeZone: utc, modified: modified) == (try Self.oracle(todo, timeZone: utc, modified: modified)))
    }
  }
}
