import Core
import Foundation
import Testing

/// Issue 23: annotations and attributes as their columns (and the journal, and sync) hold them,
/// what a format carries of the attributes, and the caps a row from anywhere must keep.
@Suite struct AnnotationAttributeTests {
  @Test func annotationsAndAttributes_readBackWhatWasWritten() {
    let annotations = [
      Annotation(entry: Date(timeIntervalSince1970: 1_709_000_000.476), text: "first \"quoted\"\nline"),
      Annotation(entry: Date(timeIntervalSince1970: 1_709_100_000), text: "nul \u{0} and ESC \u{1b}"),
    ]
    let text = Annotation.text(annotations)
    #expect(Annotation.annotations(text) == annotations)
    #expect(annotations[1].text == "nul \u{FFFD} and ESC \u{1b}")
    #expect(Annotation.text([]) == nil && Annotation.annotations(nil).isEmpty && Annotation.annotations("{").isEmpty)
    let attributes = ["t": "2026-12-20", "estimate": "3", "note": "two words"]
    #expect(Attributes.text(attributes) == #"{"estimate":"3","note":"two words","t":"2026-12-20"}"#)
    #expect(Attributes.attributes(Attributes.text(attributes)) == attributes)
    #expect(Attributes.text([:]) == nil && Attributes.attributes("[1]").isEmpty)
  }

  @Test func keysAndWords() {
    #expect(["t", "rec", "estimate_h", "a.b-c", "X1"].allSatisfy { Attributes.isKey(Substring($0)) })
    #expect(!["", "1t", "a b", "ключ", String(repeating: "k", count: 41), "a:b"].contains { Attributes.isKey(Substring($0)) })
    #expect(Attributes.isWord("2026-12-20") && Attributes.isWord("1w"))
    #expect(!["", "a b", "a:b", "//example.com", "tab\there", "esc\u{1b}"].contains { Attributes.isWord(Substring($0)) })
    var attributes = ["Ok": "1"]
    #expect(!Attributes.add("ok", "2", to: &attributes))
    #expect(attributes == ["Ok": "1"])
  }

  /// An import replaces what the format carries and keeps the rest.
  @Test func aCarrierReplacesWhatItCarries_andKeepsTheRest() {
    let words = AttributeCarrier(reserved: ["due"], wordsOnly: true)
    let stored = ["note": "two words", "t": "old", "due": "x", "gone": "1"]
    #expect(words.merged(stored: stored, imported: ["t": "new"]) == ["note": "two words", "t": "new", "due": "x"])
    let any = AttributeCarrier(reserved: ["status"], wordsOnly: false)
    #expect(any.merged(stored: ["status": "s", "note": "two words"], imported: [:]) == ["status": "s"])
  }

  /// A row from another machine (sync) keeps the same caps an import does.
  @Test func capsHoldForRowsFromAnywhere() throws {
    let many = Dictionary(uniqueKeysWithValues: (0...Caps.attributesPerTodo).map { ("k\($0)", "v") })
    #expect(Caps.violation(.todo, field: "attributes", value: .text(Attributes.text(many)!)) == "more than \(Caps.attributesPerTodo) attributes")
    let long = [Annotation(entry: Date(timeIntervalSince1970: 0), text: String(repeating: "a", count: Caps.notesCharacters))]
    #expect(Caps.violation(.todo, field: "annotations", value: .text(Annotation.text(long)!))?.contains("longer than") == true)
    #expect(Caps.violation(.todo, field: "attributes", value: .text(#"{"t":"1"}"#)) == nil)
    #expect(throws: CoreError.self) {
      try ImportedTodo(uuid: "u", title: "t", priority: .mid, day: Day(iso: "2026-01-01")!, attributes: many)
    }
    #expect(throws: CoreError.self) {
      try ImportedTodo(uuid: "u", title: "t", priority: .mid, day: Day(iso: "2026-01-01")!, attributes: ["a b": "1"])
    }
  }
}
