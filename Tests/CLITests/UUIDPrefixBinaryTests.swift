import Foundation
import TestTags
import Testing

/// Issue 24 §1 and its contract: `ootd done ABCD` (a unique uuid prefix) works wherever
/// `ootd done ID` does; an ambiguous prefix exits 64 naming the candidates; `show` and
/// `list --long` print the short uuid. The uuids are pinned by importing todo.txt lines with
/// `ootd:UUID`, as an export writes them.
@Suite("Todos named by a prefix of their uuid, from the binary", .tags(.binary))
struct UUIDPrefixBinaryTests {
  static let milk = "abcd1234-0000-4000-8000-000000000001"
  static let mom = "abcd1234-0000-4000-8000-000000000002"
  static let write = "0bcd5678-0000-4000-8000-000000000003"
  /// A uuid whose short form is digits only: `12345678` stays todo #12345678.
  static let digits = "12345678-9abc-4000-8000-000000000004"

  /// A database with four todos of today: #1 'Buy milk', #2 'Call mom', #3 'Write', #4 'Digits'.
  struct Machine {
    let folder: TemporaryFolder
    var path: String { folder.file("ootd.sqlite") }

    init() throws {
      folder = try TemporaryFolder()
      let today = TestClock.day()
      let lines = [
        "Buy milk due:\(today) ootd:\(UUIDPrefixBinaryTests.milk)",
        "Call mom due:\(today) ootd:\(UUIDPrefixBinaryTests.mom)",
        "Write due:\(today) ootd:\(UUIDPrefixBinaryTests.write)",
        "Digits due:\(today) ootd:\(UUIDPrefixBinaryTests.digits)",
      ]
      let imported = try BinaryTests.run(
        ["import", "todotxt", "-"], environment: ["OOTD_DB": path],
        stdin: lines.joined(separator: "\n") + "\n")
      #expect(imported.code == 0, "\(imported.stderr)")
    }

    func run(_ arguments: [String]) throws -> BinaryTests.Result {
      try BinaryTests.run(arguments, environment: ["OOTD_DB": path, "NO_COLOR": "1"])
    }
  }

  /// A todo printed as JSON: the object, or the one todo of an array (`done --json`).
  static func json(_ text: String) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    if let todos = value as? [[String: Any]], todos.count == 1 { return todos[0] }
    return try #require(value as? [String: Any])
  }

  @Test("done, undone, note, edit, plan and show take a unique prefix, in either case")
  func uniquePrefix() throws {
    let machine = try Machine()
    let done = try machine.run(["done", "0bcd", "--json"])
    #expect(done.code == 0, "\(done.stderr)")
    #expect(try Self.json(done.stdout)["uuid"] as? String == Self.write)
    #expect(try Self.json(done.stdout)["done"] as? Bool == true)
    // The hot path and argument-parser read it alike: uppercase, across the dash, with options.
    let undone = try machine.run(["undone", "0BCD5678-00", "--json"])
    #expect(undone.code == 0, "\(undone.stderr)")
    #expect(try Self.json(undone.stdout)["done"] as? Bool == false)
    #expect(try machine.run(["note", "0bcd5", "a", "note"]).code == 0)
    #expect(try machine.run(["edit", "abcd1234-0000-4000-8000-000000000002", "--title", "Call dad"]).code == 0)
    let shown = try machine.run(["show", "0bcd5678", "--json"])
    #expect(shown.code == 0, "\(shown.stderr)")
    #expect(try Self.json(shown.stdout)["notes"] as? String == "a note")
    #expect(try Self.json(machine.run(["show", "2", "--json"]).stdout)["title"] as? String == "Call dad")
    // Several at once, a number and a prefix mixed.
    let both = try machine.run(["done", "1", "0bcd", "--close-on-github"])
    #expect(both.code == 0, "\(both.stderr)")
    #expect(both.stdout.contains("Buy milk") && both.stdout.contains("Write"))
  }

  @Test("digits only are always an id, even when they begin a uuid")
  func digitsAreAnID() throws {
    let machine = try Machine()
    let result = try machine.run(["done", "12345678"])
    #expect(result.code == 1)
    #expect(result.stderr == "ootd: error: no todo with id 12345678\n")
    // With a letter it is a prefix of that uuid.
    #expect(try machine.run(["done", "12345678-9a"]).code == 0)
  }

  @Test("an ambiguous prefix exits 64 naming the candidates, a prefix of nothing exits as an unknown id does, a short one is refused; nothing changes")
  func refusals() throws {
    let machine = try Machine()
    let path = machine.path
    let before = FileManager.default.contents(atPath: path)
    let ambiguous = try machine.run(["done", "abcd"])
    #expect(ambiguous.code == 64)
    #expect(
      ambiguous.stderr
        == "ootd: error: uuid prefix 'abcd' is ambiguous: 2 todos have it, #1 'Buy milk', #2 'Call mom'; give more digits\n")
    #expect(ambiguous.stdout.isEmpty)
    // Every command resolves through the same rule.
    for command in [["rm", "abcd", "--yes"], ["drop", "abcd"], ["show", "abcd"], ["edit", "abcd", "--title", "x"]] {
      #expect(try machine.run(command).code == 64, "\(command)")
    }
    let unknown = try machine.run(["done", "ffff"])
    let unknownID = try machine.run(["done", "99"])
    #expect(unknown.code == unknownID.code)
    #expect(unknown.code == 1)
    #expect(unknown.stderr == "ootd: error: no todo with a uuid beginning 'ffff'\n")
    let short = try machine.run(["done", "abc"])
    #expect(short.code == 64)
    #expect(short.stderr.contains("invalid todo id 'abc'"), "\(short.stderr)")
    let editShort = try machine.run(["edit", "abc", "--title", "x"])
    #expect(editShort.code == 64)
    #expect(editShort.stderr.contains("invalid todo id 'abc'"), "\(editShort.stderr)")
    // One bad prefix among good ids: nothing is done.
    #expect(try machine.run(["done", "1", "ffff"]).code == 1)
    #expect(FileManager.default.contents(atPath: path) == before)
  }

  @Test("show and list --long print the short uuid; list without --long does not")
  func shortUUID() throws {
    let machine = try Machine()
    let shown = try machine.run(["show", "1"])
    #expect(shown.code == 0)
    #expect(shown.stdout.contains("uuid      abcd1234  (\(Self.milk))"), "\(shown.stdout)")
    let long = try machine.run(["list", "--long"])
    #expect(long.code == 0, "\(long.stderr)")
    #expect(long.stdout.contains("  [ ] 1  abcd1234  mid   Buy milk"), "\(long.stdout)")
    #expect(long.stdout.contains("  [ ] 3  0bcd5678  mid   Write"), "\(long.stdout)")
    // Argument-parser's spelling of the same line prints the same (the hot path is bypassed by --).
    #expect(try machine.run(["list", "--long", "--", TestClock.day()]).stdout == long.stdout)
    let plain = try machine.run(["list"])
    #expect(!plain.stdout.contains("abcd1234"))
    // And the short uuid names the todo.
    #expect(try machine.run(["done", "abcd1234-0000-4000-8000-000000000001"]).code == 0)
  }
}
