import Core
import Foundation
import Testing

@testable import CLI

/// Issue 22, point 5: a todo's JSON keys come from the one field list. Every stored field either
/// names its key or says it is not shown, and the writer prints exactly those keys (read off the
/// golden files the binary wrote), so a field added to ``TodoField`` reaches `--json`, or is
/// left out, on purpose.
@Suite struct TodoJSONFieldsTests {
  static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden/json")

  static var expectedKeys: Set<String> {
    Set(TodoField.allCases.compactMap(JSONOutput.TodoJSON.key(for:)))
      .union(JSONOutput.TodoJSON.derivedKeys)
  }

  @Test(arguments: ["list-all.json", "search.json", "export.json"])
  func everyTodoOfAListHasExactlyTheMappedKeys(file: String) throws {
    let data = try Data(contentsOf: Self.golden.appendingPathComponent(file))
    let todos = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    #expect(!todos.isEmpty)
    for todo in todos {
      #expect(Set(todo.keys) == Self.expectedKeys, "\(file): \(todo["id"] ?? "?")")
    }
  }

  @Test func theMappingNamesNoKeyTwiceExceptGitHubsTwoParts() {
    let keys = TodoField.allCases.compactMap(JSONOutput.TodoJSON.key(for:))
    let repeated = Dictionary(grouping: keys, by: { $0 }).filter { $0.value.count > 1 }.keys
    #expect(Array(repeated) == ["github"])
  }
}
