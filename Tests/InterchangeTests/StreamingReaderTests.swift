import Core
import Foundation
import Interchange
import Testing

/// Issue 25: the import reads its input as it arrives, a chunk at a time (``JSONItems`` for
/// Taskwarrior, ``LineItems`` for todo.txt). Whatever the chunks, the same todos (or the same
/// one-line error) come out as from the whole input at once; hostile input stops at the
/// per-record caps.
@Suite struct StreamingReaderTests {
  let utc = TimeZone(identifier: "UTC")!

  /// A task whose description and notes hold what a chunk boundary could cut: escapes, `\u`
  /// escapes (a surrogate pair among them), and two-, three- and four-byte UTF-8.
  static func task(_ index: Int, _ description: String = #"커밋 \"정리\" 🚀 \\ \u00e9\ud83d\ude80 テスト"#) -> String {
    #"{"uuid":"a1b2c3d4-0000-4000-8000-"# + String(format: "%012d", index) + #"","status":"pending","#
      + #""entry":"20260101T000000Z","scheduled":"20260102T000000Z","description":"\#(description) \#(index)","#
      + #""tags":["회의","next"],"annotations":[{"entry":"20260101T000000Z","description":"노트 \n 🚀"}],"estimate":3.5}"#
  }

  /// Reads `bytes` fed in pieces cut at `cuts` (offsets), into a plan; the error as one line.
  func read(_ bytes: [UInt8], cuts: [Int], items: JSONItems = JSONItems()) -> Result<ImportPlan, InterchangeError> {
    var reader = Taskwarrior.Reader(timeZone: utc, items: items)
    var plan = ImportPlan()
    do {
      var start = 0
      for cut in cuts + [bytes.count] where cut >= start {
        try bytes[start..<cut].withUnsafeBufferPointer { try reader.read($0, into: &plan) }
        start = cut
      }
      try reader.finish(into: &plan)
      return .success(plan)
    } catch let error as InterchangeError {
      return .failure(error)
    } catch {
      Issue.record("\(error)")
      return .failure(InterchangeError("", "\(error)"))
    }
  }

  /// `bytes` read whole, then cut in two at every offset, then a byte at a time, then in pieces
  /// of 7: every reading gives what the whole gave.
  func expectSameAtEveryCut(_ text: String, items: JSONItems = JSONItems(), sourceLocation: SourceLocation = #_sourceLocation)
    -> Result<ImportPlan, InterchangeError>
  {
    let bytes = Array(text.utf8)
    let whole = read(bytes, cuts: [], items: items)
    for cut in 0...bytes.count {
      #expect(read(bytes, cuts: [cut], items: items) == whole, "cut at \(cut)", sourceLocation: sourceLocation)
    }
    #expect(read(bytes, cuts: Array(0..<bytes.count), items: items) == whole, "byte by byte", sourceLocation: sourceLocation)
    #expect(read(bytes, cuts: Array(stride(from: 7, to: bytes.count, by: 7)), items: items) == whole, sourceLocation: sourceLocation)
    return whole
  }

  @Test func anArray_readAtEveryChunkBoundary_isTheWholeRead() throws {
    let text = "\u{FEFF}[\n" + (1...3).map { Self.task($0) }.joined(separator: ",\r\n") + "\n]\n"
    let plan = try expectSameAtEveryCut(text).get()
    #expect(plan.todos.count == 3)
    #expect(plan.todos[0].title == "커밋 \"정리\" 🚀 \\ é🚀 テスト 1")
    #expect(plan.todos[2].notes == "노트 \n 🚀")
    #expect(plan.todos[1].attributes["estimate"] == "3.5")
    // The same as the reader of a whole input.
    #expect(plan == (try Taskwarrior.plan(Data(text.utf8), timeZone: utc)))
  }

  @Test func jsonLines_readAtEveryChunkBoundary_isTheWholeRead() throws {
    let text = (1...3).map { Self.task($0) }.joined(separator: "\r\n") + "\n\n"
    let plan = try expectSameAtEveryCut(text).get()
    #expect(plan.todos.map { $0.uuid.suffix(1) } == ["1", "2", "3"])
  }

  /// Hostile or broken input: one line naming the place, whatever the chunks; the caps lowered
  /// (an object of 600 bytes, a string of 100, 4 levels) so the tables stay small.
  @Test(arguments: [
    // A string past the field cap (in an array: the object's index; in JSON Lines: its line).
    ("[" + task(1) + ",\n{\"description\":\"" + String(repeating: "가", count: 40) + "\"}]",
     "object 2: a string longer than 100 bytes, the most an import reads in one field"),
    (task(1) + "\n{\"k\":1,\n\"description\":\"" + String(repeating: "a", count: 101) + "\"}\n",
     "line 2: a string longer than 100 bytes, the most an import reads in one field"),
    // An object past the item cap.
    ("[" + task(1) + "," + "{" + String(repeating: "\"a\":1,", count: 120) + "\"b\":2}]",
     "object 2: larger than 600 bytes, the most an import reads in one object"),
    // Nesting past the cap (a task itself is level 1), in an array and in JSON Lines.
    ("[{\"a\":[[[[1]]]]}]", "object 1: nested more than 4 levels deep, the most an import reads"),
    ("{\"a\":[[[[1]]]]}", "line 1: nested more than 4 levels deep, the most an import reads"),
    (String(repeating: "[", count: 10_000), "object 1: nested more than 4 levels deep"),
    // Truncated: inside a string, an escape, a UTF-8 sequence, after a comma, before the `]`.
    ("[" + task(1) + ",{\"description\":\"ab", "input: invalid JSON (unexpected end of input at line 1, column"),
    ("[{\"description\":\"ab\\", "input: invalid JSON (unexpected end of input at line 1, column 21)"),
    ("[{\"description\":\"a\u{D55C}", "input: invalid JSON (unexpected end of input at line 1, column 22)"),
    ("[" + task(1) + ",", "input: invalid JSON (unexpected end of input"),
    ("[" + task(1), "input: invalid JSON (unexpected end of input"),
    ("{\"description\":\"x\"", "line 1: invalid JSON (unexpected end of input at line 1, column 19)"),
    // Garbage after the array, a second array, a value after it.
    ("[" + task(1) + "]\nxyz", "input: invalid JSON (unexpected 'x' at line 2, column 1)"),
    ("[" + task(1) + "]\n[" + task(2) + "]", "line 1: expected one JSON object per line, or a single array"),
    ("[" + task(1) + "] ,", "input: invalid JSON (unexpected ',' at line 1, column"),
    // Broken syntax inside an object: the place in the whole input.
    ("[" + task(1) + ",\n  {\"uuid\": nope}]", "input: invalid JSON (unexpected 'n' at line 2, column 12)"),
    (task(1) + "\n  {\"uuid\": nope}", "line 2: invalid JSON (unexpected 'n' at line 2, column 12)"),
    ("[" + task(1) + " " + task(2) + "]", "input: invalid JSON (expected ',' or ']' at line 1, column"),
    ("[" + task(1) + ",]", "input: invalid JSON (unexpected ']' at line 1, column"),
    ("[1]", "object 1: not a JSON object"),
    ("\u{FEFF}\u{FEFF}[]", "line 1: invalid JSON"),
    ("[{\"uuid\": [}]", "input: invalid JSON (unexpected '}' at line 1, column 12)"),
  ])
  func hostileInput_isRefusedInOneLine_whateverTheChunks(input: String, message: String) {
    let items = JSONItems(maximumItem: 600, maximumField: 100, maximumDepth: 4)
    let result = expectSameAtEveryCut(input, items: items)
    guard case .failure(let error) = result else {
      Issue.record("read: \(input.prefix(80))")
      return
    }
    #expect(error.description.hasPrefix(message), "\(error)")
    #expect(!error.description.contains("\n"))
  }

  /// The caps as shipped: a whole task of `task export` and notes of 100,000 characters fit.
  @Test func theShippedCaps_fitTheLongestFieldOotdKeeps() throws {
    let notes = String(repeating: "노", count: Caps.notesCharacters)
    #expect(notes.utf8.count < InputBounds.maximumField)
    let text = "[" + Self.task(1, "x").replacingOccurrences(of: "노트 \\n 🚀", with: notes) + "]"
    let plan = try read(Array(text.utf8), cuts: [100, 70_000]).get()
    #expect(plan.todos.first?.notes == notes)
  }

  @Test func emptyInputs_importNothing() throws {
    for text in ["", "  \n", "[]", "[ ]\n", "\u{FEFF}[]"] {
      #expect(try expectSameAtEveryCut(text).get().todos.isEmpty, "\(text.debugDescription)")
    }
  }

  // MARK: - todo.txt lines

  /// Lines (number, text) cut from `text` fed in pieces cut at `cuts`.
  func lines(_ text: String, cuts: [Int], maximum: Int = InputBounds.maximumItem) throws -> [String] {
    let bytes = Array(text.utf8)
    var cutter = LineItems(maximumItem: maximum)
    var lines: [String] = []
    func take(_ number: Int, _ line: UnsafeBufferPointer<UInt8>) {
      lines.append("\(number):" + String(decoding: line, as: UTF8.self))
    }
    var start = 0
    for cut in cuts + [bytes.count] where cut >= start {
      try bytes[start..<cut].withUnsafeBufferPointer { try cutter.read($0, take) }
      start = cut
    }
    try cutter.finish(take)
    return lines
  }

  @Test(arguments: [
    ("a\nb\r\nc\rd", ["1:a", "2:b", "3:c", "4:d"]),
    ("a\r\n\r\nb\n", ["1:a", "2:", "3:b"]),
    ("\r\r\n", ["1:", "2:"]),
    ("한글 🚀\n", ["1:한글 🚀"]),
    ("", []),
  ])
  func lines_cutAtEveryChunkBoundary_areTheWholeLines(text: String, expected: [String]) throws {
    #expect(try lines(text, cuts: []) == expected)
    for cut in 0...text.utf8.count {
      #expect(try lines(text, cuts: [cut]) == expected, "cut at \(cut)")
    }
    #expect(try lines(text, cuts: Array(0..<text.utf8.count)) == expected)
  }

  @Test func aLinePastTheCap_isRefusedAtItsNumber_whateverTheChunks() throws {
    let text = "ok\n" + String(repeating: "x", count: 11) + "\nok\n"
    for cuts in [[], [5], Array(0..<text.utf8.count)] {
      #expect(throws: InterchangeError("line 2", "longer than 10 bytes, the most an import reads in one line")) {
        try lines(text, cuts: cuts, maximum: 10)
      }
    }
    #expect(try lines("ok\n" + String(repeating: "x", count: 10), cuts: [4], maximum: 10).count == 2)
  }
}
