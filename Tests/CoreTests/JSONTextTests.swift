import Formats
import Foundation
import Testing

@testable import Core

/// The one encoder of journal field text and sync payloads: whatever it writes reads back as
/// the same fields through Foundation's JSON parser, escapes included.
@Suite struct JSONTextTests {
  static let tricky: [String] = [
    "", "plain", "quote \" and back\\slash", "line\nbreak\r\ttab", "\u{0}\u{1}\u{1F}",
    "한국어 🚀", "\u{7F}\u{85}\u{2028}", "\\u0041 is not A",
  ]

  @Test(arguments: tricky)
  func quoted_readsBackAsTheSameString(_ text: String) throws {
    let quoted = JSONText.quoted(text)
    let decoded = try JSONSerialization.jsonObject(
      with: Data("[\(quoted)]".utf8)) as? [String]
    #expect(decoded == [text])
    #expect(!quoted.unicodeScalars.dropFirst().dropLast().contains { $0.value < 0x20 })
  }

  @Test func object_isSortedByName_andReadsBack() throws {
    let fields: Fields = ["title": .text("a \"b\"\n"), "done": .integer(1), "notes": .null]
    let text = JSONText.object(fields)
    #expect(text == #"{"done":1,"notes":null,"title":"a \"b\"\n"}"#)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(object["title"] as? String == "a \"b\"\n")
    #expect(object["notes"] is NSNull)
  }

  /// An import's journal rows: the text of fields given as sorted names and values is
  /// ``JSONText/object(_:)``'s, byte for byte.
  @Test(arguments: tricky)
  func object_ofSortedNamesAndValues_isTheObjectOfTheFields(_ text: String) {
    let fields: Fields = [
      "title": .text(text), "id": .integer(-9_223_372_036_854_775_808), "notes": .null, "done": .integer(1),
      "createdAt": .text("2026-01-01 00:00:00.000"), "tags": .text("a b"),
    ]
    let names = fields.keys.sorted()
    #expect(JSONText.object(sortedNames: names, values: names.map { fields[$0]! }) == JSONText.object(fields))
  }

  @Test(arguments: tricky)
  func fields_readBackWhatObjectWrote(_ text: String) throws {
    let fields: Fields = [text: .text(text), "n": .integer(-9_223_372_036_854_775_808), "z": .null, "one": .integer(1)]
    #expect(JSONText.fields(JSONText.object(fields)) == fields)
  }

  /// ootd's fields are null, integers and strings: anything else (a boolean, a real, an
  /// exponent, a nested value, not an object, two values, broken text) is refused, not guessed.
  @Test(arguments: [
    #"{"a":true}"#, #"{"a":1.5}"#, #"{"a":1.0}"#, #"{"a":1e3}"#, #"{"a":[1]}"#, #"{"a":{"b":1}}"#,
    #"["a"]"#, #""a""#, #"{"a":1} {"b":2}"#, #"{"a":"#, "", #"{"a":99999999999999999999}"#,
  ])
  func fields_refuseWhatObjectNeverWrites(_ text: String) {
    #expect(JSONText.fields(text) == nil)
  }

  @Test func fields_ofAnEmptyObject_areEmpty() {
    #expect(JSONText.fields("{}") == [:])
    #expect(JSONText.fields(" {\n} ") == [:])
  }
}
