import Foundation
import Testing

/// `search` through the stored title fold (migration v15-search-fold): the same answers as the
/// rule in every script, and the fold kept right by edits, undo, redo and imports.
/// Today is Sunday 2026-11-22 in Seoul.
@Suite struct SearchFoldCommandTests {
  func found(_ h: Harness, _ text: String) async throws -> [Int] {
    let result = await h.run(["search", text, "--json"])
    #expect(result.code == 0, "\(text): \(result.stderr)")
    return try SearchTests.ids(result.stdout)
  }

  @Test func hangulGreekCyrillicAndEmoji_matchAsTheRuleSays() async throws {
    let h = try Harness()
    await h.run(["add", "알고리즘 공부"])  // 1 (composed)
    await h.run(["add", "\u{110B}\u{1161}\u{11AF}\u{1100}\u{1169} 복습"])  // 2 (decomposed 알고)
    await h.run(["add", "ΣΊΣΥΦΟΣ push"])  // 3
    await h.run(["add", "Привет, Мир"])  // 4
    await h.run(["add", "👍🏽 review"])  // 5
    await h.run(["add", "café au lait"])  // 6
    await h.run(["add", "Cafe\u{301} noir"])  // 7 (decomposed é)
    let cases: [(String, [Int])] = [
      ("알고", [1, 2]), ("\u{110B}\u{1161}\u{11AF}", [1, 2]), ("\u{110B}\u{1161}", []), ("아", []),
      ("σίσυφ", [3]), ("ΣΊΣ", [3]), ("мир", [4]), ("ПРИВЕТ", [4]), ("👍🏽", [5]), ("👍", []),
      ("👍🏿", []), ("CAFÉ", [6, 7]), ("cafe", []), ("caf", [6, 7]), ("REVIEW", [5]),
    ]
    for (text, expected) in cases {
      #expect(try await found(h, text) == expected, "\(text)")
    }
  }

  @Test func editsUndoAndRedo_keepTheFoldOfTheTitle() async throws {
    let h = try Harness()
    await h.run(["add", "Enable WAL mode"])  // 1
    #expect(try await found(h, "wal") == [1])
    #expect(await h.run(["edit", "1", "--title", "Ärger mit ÖL"]).code == 0)
    #expect(try await found(h, "wal") == [])
    #expect(try await found(h, "äRGER") == [1])
    #expect(await h.run(["undo"]).code == 0)
    #expect(try await found(h, "äRGER") == [])
    #expect(try await found(h, "WAL") == [1])
    #expect(await h.run(["redo"]).code == 0)
    #expect(try await found(h, "ärger") == [1])
    #expect(await h.run(["rm", "1", "--yes"]).code == 0)
    #expect(await h.run(["undo"]).code == 0)
    #expect(try await found(h, "ÄRGER") == [1])
  }

  @Test func importedTodos_areFoundByTheirFold() async throws {
    let h = try Harness()
    let tasks = h.folder.file("tasks.json")
    try #"""
      [{"uuid":"2b7e1516-28ae-4d2a-a6d2-2a1b3c4d5e6f","description":"ΣΊΣΥΦΟΣ 알고리즘","status":"pending","entry":"20261120T090000Z","scheduled":"20261121T000000Z"}]
      """#.write(toFile: tasks, atomically: true, encoding: .utf8)
    let lines = h.folder.file("todo.txt")
    try "(A) Привет Мир due:2026-11-23\n".write(toFile: lines, atomically: true, encoding: .utf8)
    #expect(await h.run(["import", "taskwarrior", tasks]).code == 0)
    #expect(await h.run(["import", "todotxt", lines]).code == 0)
    #expect(try await found(h, "σίσυφ") == [1])
    #expect(try await found(h, "\u{110B}\u{1161}\u{11AF}") == [1])
    #expect(try await found(h, "привет") == [2])
    #expect(await h.run(["undo"]).code == 0)
    #expect(try await found(h, "привет") == [])
  }
}
