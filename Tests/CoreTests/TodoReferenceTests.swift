import Testing

@testable import Core

/// Issue 24 §1: a word given where a todo id goes is a number or a uuid prefix, by one rule.
@Suite("A todo named by its number or a prefix of its uuid")
struct TodoReferenceTests {
  @Test(arguments: [
    // Digits only: always a number, however long and whatever a uuid begins with.
    ("12", TodoReference.id(12)),
    ("0", .id(0)),
    ("1234", .id(1234)),
    ("12345678", .id(12_345_678)),
    ("+5", .id(5)),
    // Hex with a letter a-f, 4 digits or more: a prefix, lowercased.
    ("abcd", .uuidPrefix("abcd")),
    ("ABCD", .uuidPrefix("abcd")),
    ("12ab", .uuidPrefix("12ab")),
    ("4Fc7664D", .uuidPrefix("4fc7664d")),
    ("4fc7664de2", .uuidPrefix("4fc7664d-e2")),
    ("4fc7664d-e2", .uuidPrefix("4fc7664d-e2")),
    ("4fc7664d-", .uuidPrefix("4fc7664d")),
    ("f46e4a5a-9be9-4cf4-90cb-12fd13f50c46", .uuidPrefix("f46e4a5a-9be9-4cf4-90cb-12fd13f50c46")),
    ("F46E4A5A9BE94CF490CB12FD13F50C46", .uuidPrefix("f46e4a5a-9be9-4cf4-90cb-12fd13f50c46")),
    // A uuid with no letter a-f (Taskwarrior's, imported), pasted whole as `show` prints it, or
    // its digits with a dash: the dash makes it no number.
    ("12345678-0000-4000-8000-000000000003", .uuidPrefix("12345678-0000-4000-8000-000000000003")),
    ("12345678-", .uuidPrefix("12345678")),
    ("12345678-0", .uuidPrefix("12345678-0")),
  ])
  func namesATodo(text: String, expected: TodoReference) throws {
    #expect(TodoReference(text) == expected)
    #expect(try TodoReference(parsing: text) == expected)
  }

  @Test(arguments: [
    "abc",  // too short
    "a1",
    "",
    "abcg",  // not hex
    "4fc7 664d",
    "ab-cd",  // a dash where a uuid has none
    "-abcd",
    "99999999999999999999",  // digits only but no Int64: a wrong number, never a prefix
    "f46e4a5a-9be9-4cf4-90cb-12fd13f50c46a",  // longer than a uuid
    "#12",
    "１２ab",  // full-width digits are not hex
  ])
  func namesNoTodo(text: String) {
    #expect(TodoReference(text) == nil)
    #expect(throws: CoreError.invalidTodoReference(text)) { try TodoReference(parsing: text) }
  }

  @Test("the refusal says what an id may be, in one line")
  func refusal() {
    let message = CoreError.invalidTodoReference("abc").description
    #expect(message == "invalid todo id 'abc': use the number 'ootd list' shows, or 4 or more hex digits of the todo's uuid (one a-f at least)")
  }

  @Test("the short uuid is the first 8 hex digits, and is itself a prefix that names the todo")
  func shortUUID() {
    let uuid = "f46e4a5a-9be9-4cf4-90cb-12fd13f50c46"
    #expect(TodoReference.shortUUID(uuid) == "f46e4a5a")
    #expect(TodoReference(TodoReference.shortUUID(uuid)) == .uuidPrefix("f46e4a5a"))
    // A short uuid of digits only is a number: `show` still prints it, but it names todo #…
    #expect(TodoReference("12345678") == .id(12_345_678))
  }
}
