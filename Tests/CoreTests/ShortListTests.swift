import Testing

@testable import Core

@Suite struct ShortListTests {
  @Test(arguments: [
    ([], 5, ""),
    (["a"], 5, "a"),
    (["a", "b", "c", "d", "e"], 5, "a, b, c, d, e"),
    (["a", "b", "c", "d", "e", "f"], 5, "a, b, c, d, e and 1 more"),
    ((1...4700).map(String.init), 5, "1, 2, 3, 4, 5 and 4695 more"),
    (["a", "b", "c"], 1, "a and 2 more"),
    (["a", "b"], 0, "a and 1 more"),
  ] as [([String], Int, String)])
  func text(_ items: [String], _ limit: Int, _ expected: String) {
    #expect(ShortList.text(items, limit: limit) == expected)
  }
}
