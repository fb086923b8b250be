import Foundation
@testable import Formats
import Testing

/// The importers' JSON reader: every value kind, escapes, the three document shapes, and
/// malformed or hostile input as an error with a line and column, never a crash.
@Suite struct JSONReaderTests {
  static func read(_ text: String) throws -> [(line: Int, value: JSONValue)] {
    try JSONReader.values(Array(text.utf8))
  }

  @Test(arguments: [
    // (input, the value as compact text)
    (#"{"a":1,"b":[true,false,null],"c":"x"}"#, #"{"a":1,"b":[true,false,null],"c":"x"}"#),
    (#"  [ 1 , -0.5e+3 , 2E-7 , 0 ]  "#, #"[1,-0.5e+3,2E-7,0]"#),
    (#"{"z":1,"a":{"y":2,"b":3}}"#, #"{"a":{"b":3,"y":2},"z":1}"#),
    (#"{"k":1,"k":2}"#, #"{"k":2}"#),
    (#"[]"#, "[]"),
    (#"{}"#, "{}"),
    (#""\"\\\/\b\f\n\r\t""#, #""\"\\/\u0008\u000c\n\r\t""#),
    (#""\u00e9\u0041\uD83D\uDE80""#, "\"éA🚀\""),
    ("\"한글 🚀 Café\"", "\"한글 🚀 Café\""),
    // A lone surrogate becomes U+FFFD instead of failing the whole file.
    (#""a\uD800b\uDC00c\uD83Dx""#, "\"a\u{FFFD}b\u{FFFD}c\u{FFFD}x\""),
    ("\u{FEFF}[1]", "[1]"),
  ])
  func values(input: String, compact: String) throws {
    let values = try Self.read(input)
    #expect(values.count == 1)
    #expect(values.first?.value.compactText == compact)
  }

  @Test func stringsKeepTheirText() throws {
    let value = try Self.read(#"{"t":"say \"hi\"\n","n":3.0}"#)[0].value
    #expect(value.object?["t"]?.string == "say \"hi\"\n")
    #expect(value.object?["n"] == .number("3.0"))
    #expect(value.object?["missing"] == nil)
  }

  @Test func jsonLinesGiveEachValueItsLine() throws {
    let text = "{\"a\":1}\r\n\r\n{\"b\":2}\n\n\n{\"c\":\n3}\r{\"d\":4}"
    #expect(try Self.read(text).map(\.line) == [1, 3, 6, 8])
  }

  @Test(arguments: [
    // (input, problem, line, column)
    ("[1,", "unexpected end of input", 1, 4),
    ("{\"a\" 1}", "expected ':' after the key 'a'", 1, 6),
    ("{\"a\":1\n,}", "expected a quoted key", 2, 2),
    ("[1 2]", "expected ',' or ']'", 1, 4),
    ("{\"a\":1 \"b\":2}", "expected ',' or '}'", 1, 8),
    ("{\"a\": nope}", "unexpected 'n'", 1, 7),
    ("[01]", "invalid number (leading zero)", 1, 2),
    ("[1.]", "invalid number", 1, 2),
    ("[-]", "invalid number", 1, 2),
    ("[\"tab\there\"]", "a control character inside a string (escape it)", 1, 6),
    ("[\"\\x\"]", "invalid escape '\\x'", 1, 3),
    ("[\"\\u12G4\"]", "invalid \\u escape", 1, 7),
    ("[\"open", "unexpected end of input", 1, 7),
    ("[tru]", "unexpected 't'", 1, 2),
  ])
  func malformedInputSaysWhatAndWhere(input: String, problem: String, line: Int, column: Int) {
    #expect(throws: JSONSyntaxError(problem: problem, line: line, column: column)) {
      try Self.read(input)
    }
  }

  @Test func invalidUTF8IsAnError() {
    let bytes: [UInt8] = Array("[\"a".utf8) + [0xFF, 0xFE] + Array("\"]".utf8)
    #expect(throws: JSONSyntaxError.self) { try JSONReader.values(bytes) }
  }

  @Test func deepNestingIsAnErrorNotACrash() throws {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(throws: JSONSyntaxError.self) { try Self.read(deep) }
    let allowed = String(repeating: "[", count: JSONReader.maximumDepth) + String(repeating: "]", count: JSONReader.maximumDepth)
    #expect(try Self.read(allowed).count == 1)
  }

  /// `rawControlsInStrings` (Taskwarrior's not-quite-JSON): a raw ESC, BEL or VT inside a
  /// string is its text; NUL and the line ends stay refused, and so does every raw control
  /// without the option.
  @Test func rawControlsInStrings_onlyWhenAsked() throws {
    func read(_ text: String, lenient: Bool) throws -> JSONValue {
      try Array(text.utf8).withUnsafeBufferPointer { try JSONReader.value($0, at: 0, rawControlsInStrings: lenient) }
    }
    #expect(try read("\"a\u{1B}[1m\u{07}\u{0B}\\n\"", lenient: true).string == "a\u{1B}[1m\u{07}\u{0B}\n")
    for raw in ["\u{1B}", "\u{00}", "\n", "\r"] {
      #expect(throws: JSONSyntaxError.self) { try read("\"a\(raw)b\"", lenient: false) }
    }
    for raw in ["\u{00}", "\n", "\r"] {
      #expect(throws: JSONSyntaxError.self) { try read("\"a\(raw)b\"", lenient: true) }
    }
  }
}
